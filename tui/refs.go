package tui

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/sessions"
	"github.com/crmem/crmem/tui/recalled"
)

// refsState is what the sessions folder says about archives.
type refsState struct {
	dir     string // the sessions folder
	reader  store.SessionsReader
	refs    sessions.Refs
	count   int   // sessions read
	err     error // the folder could not be read
	loaded  bool
	seq     int  // drops stale reads
	orphans bool // list only archives no session references

	// byID is refs resolved to entries by the lookup rule (name, then
	// alias), as crabtalk resolves a marker when it resumes; it is rebuilt
	// when the entries or the read change.
	byID    map[uint64]entryRefs
	forSnap *snapshot
	forSeq  int
}

// shared are the sessions' references to archives as the parts read them
// (part.Context.Refs), or nil when no session was read (then every
// archive would look orphaned).
func (r *refsState) shared() *sessions.Refs {
	if !r.loaded || r.count == 0 || r.err != nil {
		return nil
	}
	refs := r.refs
	return &refs
}

// entryRefs are the sessions whose markers resolve to one entry.
type entryRefs struct {
	by, resume []string // sorted session names
}

// refsMsg carries a read of the sessions folder.
type refsMsg struct {
	seq   int
	refs  sessions.Refs
	count int
	err   error
}

// read reads the sessions folder off the update loop.
func (rs *refsState) read() tea.Cmd {
	rs.seq++
	seq, r := rs.seq, rs.reader
	return func() tea.Msg {
		ss, err := r.Read()
		return refsMsg{seq: seq, refs: sessions.Index(ss), count: len(ss), err: err}
	}
}

// take installs a read; it reports whether the read was the latest.
func (rs *refsState) take(msg refsMsg) bool {
	if msg.seq != rs.seq {
		return false
	}
	rs.refs, rs.count, rs.err, rs.loaded = msg.refs, msg.count, msg.err, true
	rs.byID = nil
	return true
}

// refsRead installs a read of the sessions folder and redraws what
// depends on it.
func (m *Model) refsRead(msg refsMsg) tea.Cmd {
	if !m.refs.take(msg) {
		return nil
	}
	if m.refs.orphans {
		m.rebuild()
	}
	return m.showSelected()
}

// of returns the sessions referencing e, an entry of snap, whose names
// mem resolves, resolving the markers first if the entries changed
// since.
func (r *refsState) of(mem *store.Memory, snap *snapshot, e store.Entry) entryRefs {
	if r.byID == nil || r.forSnap != snap || r.forSeq != r.seq {
		r.byID, r.forSnap, r.forSeq = resolveRefs(mem, r.refs), snap, r.seq
	}
	return r.byID[e.ID]
}

// refsOf returns the sessions referencing e, an entry shown now.
func (m *Model) refsOf(e store.Entry) entryRefs { return m.refs.of(m.memory(), m.c.snap, e) }

// resolveRefs maps every marker's archive name to the entry it names now
// in mem.
func resolveRefs(mem *store.Memory, refs sessions.Refs) map[uint64]entryRefs {
	out := map[uint64]entryRefs{}
	if mem == nil {
		return out
	}
	for name, by := range refs.ReferencedBy {
		if e, ok := mem.Lookup(name); ok {
			er := out[e.ID]
			er.by = append(er.by, by...)
			er.resume = append(er.resume, refs.ResumeOf[name]...)
			out[e.ID] = er
		}
	}
	for id, er := range out {
		slices.Sort(er.by)
		slices.Sort(er.resume)
		out[id] = entryRefs{by: slices.Compact(er.by), resume: slices.Compact(er.resume)}
	}
	return out
}

// orphan reports whether e, an entry shown now, is an archive no
// session's marker names.
func (m *Model) orphan(e store.Entry) bool {
	return e.Kind == store.Archive && len(m.refsOf(e).by) == 0
}

// toggleOrphans lists only archives that no session references, or
// everything again.
func (m *Model) toggleOrphans() tea.Cmd {
	m.refs.orphans = !m.refs.orphans
	m.rebuild()
	text := "showing every entry again"
	if m.refs.orphans {
		text = fmt.Sprintf("orphan archives only: %s (no session in %s references them)", humanize.Count(m.orphanCount()), m.refs.dir)
	}
	return tea.Batch(m.showSelected(), m.setMessage(text))
}

// orphanCount counts the archives shown now that no session references.
func (m *Model) orphanCount() int {
	n := 0
	for _, e := range m.c.snap.entries {
		if m.orphan(e) {
			n++
		}
	}
	return n
}

// sessionsFilter keeps only orphan archives, only entries no recorded
// recall returned, or both, while those filters are on.
func (m *Model) sessionsFilter() func(store.Entry) bool {
	orphans, never := m.refs.orphans, m.recalled.Never()
	if !orphans && !never {
		return nil
	}
	return func(e store.Entry) bool {
		return (!orphans || m.orphan(e)) && (!never || recalledNone(&m.recalled, e))
	}
}

// recalledNone reports whether no recorded recall returned e.
func recalledNone(r *recalled.State, e store.Entry) bool {
	n, _ := r.Times(e)
	return n == 0
}

// readRecalls reads the recorded recalls off the loop, against the names
// of snap's entries (nil: the memory did not change since the last read).
func (m *Model) readRecalls(snap *snapshot) tea.Cmd {
	if snap == nil {
		return m.recalled.Read(m.refs.reader, nil, false)
	}
	return m.recalled.Read(m.refs.reader, snap.entries, true)
}

// recalledRead installs a read of the recalls and redraws what depends
// on it.
func (m *Model) recalledRead(msg recalled.ReadMsg) tea.Cmd {
	if !m.recalled.Take(msg) {
		return nil
	}
	if m.recalled.Never() {
		m.rebuild()
	}
	return m.showSelected()
}

// toggleNever lists only the entries no recorded recall returned, or
// everything again. It combines with the kind, date and orphan filters,
// and `O` then marks only the old entries it lists.
func (m *Model) toggleNever() tea.Cmd {
	if !m.recalled.ToggleNever() {
		return m.setMessage("the recalls are still being read")
	}
	m.rebuild()
	text := "showing every entry again"
	if m.recalled.Never() {
		n := 0
		for _, e := range m.c.snap.entries {
			if recalledNone(&m.recalled, e) {
				n++
			}
		}
		text = fmt.Sprintf("never recalled only: %s that none of the %s in %s returned", humanize.Plural(n, "entry"),
			humanize.Plural(m.recalled.Recalls(), "recorded recall"), m.refs.dir)
	}
	return tea.Batch(m.showSelected(), m.setMessage(text))
}

// rowBadge marks entries that sessions reference: ↺N when a session
// resumes from it, ∘N when sessions only reference it (N sessions).
// An entry the agent's recorded recalls returned also gets N× (recalled N
// times).
func (m *Model) sessionsBadge(e store.Entry) string {
	r := m.refsOf(e)
	recalled := m.recalled.Badge(m.c.styles.part, e)
	switch {
	case len(r.resume) > 0:
		return m.c.styles.warning.Render(" ↺"+humanize.Count(len(r.by))) + recalled
	case len(r.by) > 0:
		return m.c.styles.dim.Render(" ∘"+humanize.Count(len(r.by))) + recalled
	}
	return recalled
}

// sessionsCard adds an archive's sessions (or any referenced entry's)
// and its recalls to the preview's header card.
func (m *Model) sessionsCard(e store.Entry) []string {
	return append(m.refsCard(e), m.recalled.Card(m.partContext(0), e)...)
}

// sessionsOpened reads the sessions where the memory the root just
// opened keeps them: the folder beside it, or the store itself.
func (m *Model) sessionsOpened(msg loadedMsg) tea.Cmd {
	if m.ed == nil || msg.err != nil || msg.db == nil { // nothing opened: nothing to read beside it yet
		return nil
	}
	r := msg.db.Features().Sessions // the folder's, or the store's own
	m.refs.dir, m.refs.reader = store.SessionsWhere(r), r
	return tea.Batch(m.refs.read(), m.readRecalls(msg.snap))
}

// sessionsReloaded reads the sessions again after a reload, and the
// history with them, unless only the look after the watch began asked
// for it (they were read with the open).
func (m *Model) sessionsReloaded(msg reloadedMsg) tea.Cmd {
	if m.ed == nil || msg.unchangedCheck() {
		return nil
	}
	return tea.Batch(m.refs.read(), m.readRecalls(msg.snap), m.rebuildHistory())
}

// refsCard is the header card's sessions lines.
func (m *Model) refsCard(e store.Entry) []string {
	rs := &m.refs
	r := m.refsOf(e)
	if !rs.loaded || e.Kind != store.Archive && len(r.by) == 0 {
		return nil
	}
	st := m.c.styles
	label := st.label.Render("sessions ")
	switch {
	case rs.err != nil:
		return []string{label + st.warning.Render("cannot read "+sanitize.Name(rs.dir)+": "+sanitize.Line(rs.err.Error()))}
	case rs.count == 0:
		room := cardInner(m.previewWidth()) - lipgloss.Width(label+"none found in ")
		return []string{label + st.dim.Render("none found in "+shortPath(displayPath(rs.dir, m.home), room))}
	}
	if len(r.by) == 0 {
		return []string{label + "none (orphan: no session references it)"}
	}
	lines := []string{label + "referenced by " + nameList(r.by)}
	if len(r.resume) > 0 {
		lines = append(lines, st.warning.Render("↺ resume point of "+nameList(r.resume)+": deleting it loses their context"))
	}
	return lines
}

// resumeWarning names the sessions whose resume point is among es, for a
// delete confirmation; "" when there are none.
func (m *Model) resumeWarning(es []store.Entry) string {
	if unknown := m.refs.unknown(es); unknown != "" {
		return unknown
	}
	var names []string
	for _, e := range es {
		names = append(names, m.refsOf(e).resume...)
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
	return fmt.Sprintf(" ⚠ %s %s resume point: %s", humanize.Plural(len(names), "session"), verb, nameList(names))
}

// unknown is the delete confirmation's warning when an archive is
// among es and the sessions are not known: still being read, or not
// readable. Saying nothing then would read as "no session resumes from
// it"; "" when the sessions are known or no archive is concerned.
func (r *refsState) unknown(es []store.Entry) string {
	if !slices.ContainsFunc(es, func(e store.Entry) bool { return e.Kind == store.Archive }) {
		return ""
	}
	where := sanitize.Name(r.dir)
	switch {
	case !r.loaded:
		return " ⚠ the sessions in " + where + " are still being read: a session may lose its resume point"
	case r.err != nil:
		return " ⚠ cannot read the sessions in " + where + " (" + sanitize.Line(r.err.Error()) + "): a session may lose its resume point"
	}
	return ""
}

// nameList joins session names, sanitized (folder names are untrusted).
func nameList(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = sanitize.Name(n)
	}
	return strings.Join(out, ", ")
}
