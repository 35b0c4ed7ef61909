package tui

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/sessions"
	"github.com/crmem/crmem/tui/sanitize"
)

// refsState is what the sessions folder says about archives.
type refsState struct {
	dir     string // the sessions folder
	refs    sessions.Refs
	count   int   // sessions read
	err     error // the folder could not be read
	loaded  bool
	seq     int  // drops stale reads
	orphans bool // list only archives no session references
}

// refsMsg carries a read of the sessions folder.
type refsMsg struct {
	seq   int
	refs  sessions.Refs
	count int
	err   error
}

// readRefs reads the sessions folder off the update loop.
func (f *editing) readRefs() tea.Cmd {
	f.refs.seq++
	seq, dir := f.refs.seq, f.refs.dir
	return func() tea.Msg {
		ss, err := sessions.Read(dir)
		return refsMsg{seq: seq, refs: sessions.Index(ss), count: len(ss), err: err}
	}
}

// refsRead installs a read and redraws what depends on it.
func (f *editing) refsRead(m *Model, msg refsMsg) tea.Cmd {
	if msg.seq != f.refs.seq {
		return nil
	}
	f.refs.refs, f.refs.count, f.refs.err, f.refs.loaded = msg.refs, msg.count, msg.err, true
	if f.refs.orphans {
		m.rebuild()
	}
	return m.showSelected()
}

// toggleOrphans lists only archives that no session references, or
// everything again.
func (f *editing) toggleOrphans(m *Model) tea.Cmd {
	f.refs.orphans = !f.refs.orphans
	m.rebuild()
	text := "showing every entry again"
	if f.refs.orphans {
		text = fmt.Sprintf("orphan archives only: %d (no session in %s references them)", f.orphanCount(m), f.refs.dir)
	}
	return tea.Batch(m.showSelected(), m.SetStatus(text))
}

// orphanCount counts the archives no session references.
func (f *editing) orphanCount(m *Model) int {
	n := 0
	for _, e := range m.Entries() {
		if e.Kind == store.Archive && f.refs.refs.Orphan(e.Name) {
			n++
		}
	}
	return n
}

// EntryFilter keeps only orphan archives while that filter is on.
func (f *editing) EntryFilter(*Model) func(store.Entry) bool {
	if !f.refs.orphans {
		return nil
	}
	return func(e store.Entry) bool { return e.Kind == store.Archive && f.refs.refs.Orphan(e.Name) }
}

// RowBadge marks archives that sessions reference: ↺N when a session
// resumes from it, ∘N when sessions only reference it (N sessions).
func (f *editing) RowBadge(m *Model, e store.Entry) string {
	if e.Kind != store.Archive {
		return ""
	}
	n, resume := f.refs.refs.Referenced(e.Name)
	switch {
	case resume:
		return m.c.styles.warning.Render(fmt.Sprintf(" ↺%d", n))
	case n > 0:
		return m.c.styles.dim.Render(fmt.Sprintf(" ∘%d", n))
	}
	return ""
}

// CardLines adds an archive's sessions to the preview's header card.
func (f *editing) CardLines(m *Model, e store.Entry) []string {
	if e.Kind != store.Archive || !f.refs.loaded {
		return nil
	}
	st := m.c.styles
	label := st.label.Render("sessions ")
	switch {
	case f.refs.err != nil:
		return []string{label + st.warning.Render("cannot read "+sanitize.Line(f.refs.dir)+": "+sanitize.Line(f.refs.err.Error()))}
	case f.refs.count == 0:
		return []string{label + st.dim.Render("none found in "+sanitize.Line(f.refs.dir))}
	}
	by := f.refs.refs.ReferencedBy[e.Name]
	if len(by) == 0 {
		return []string{label + "none (orphan: no session references it)"}
	}
	lines := []string{label + "referenced by " + nameList(by)}
	if res := f.refs.refs.ResumeOf[e.Name]; len(res) > 0 {
		lines = append(lines, st.warning.Render("↺ resume point of "+nameList(res)+": deleting it loses their context"))
	}
	return lines
}

// resumeWarning names the sessions whose resume point is among es, for a
// delete confirmation; "" when there are none.
func (r *refsState) resumeWarning(es []store.Entry) string {
	var names []string
	for _, e := range es {
		if e.Kind == store.Archive {
			names = append(names, r.refs.ResumeOf[e.Name]...)
		}
	}
	if len(names) == 0 {
		return ""
	}
	slices.Sort(names)
	names = slices.Compact(names)
	verb := "loses its"
	if len(names) > 1 {
		verb = "lose their"
	}
	return fmt.Sprintf(" ⚠ %s %s resume point: %s", count(len(names), "session", "sessions"), verb, nameList(names))
}

// nameList joins session names, sanitized (folder names are untrusted).
func nameList(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = sanitize.Line(n)
	}
	return strings.Join(out, ", ")
}
