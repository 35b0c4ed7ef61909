package tui

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/recalls"
	"github.com/crmem/crmem/store/sessions"
)

// recalledState is what the session history says the agent's recalls
// returned: per entry name, how many recorded recalls returned it (read
// from the same sessions as the archive references). It counts what the
// agent got then; `crmem recalls --report` adds what it would get now.
type recalledState struct {
	then   *recalls.Then // per name, what the recorded recalls returned
	loaded bool
	err    error
	seq    int  // drops stale reads
	never  bool // list only entries no recorded recall returned
	// known is the memory's names as last loaded, to read results against
	// (recalls.NameSet).
	known recalls.Known
}

// recalledCount is one name's recalls: how many, and the latest time.
type recalledCount struct {
	n    int
	last time.Time
}

// recalledMsg carries a read of the recalls.
type recalledMsg struct {
	seq  int
	then *recalls.Then
	err  error
}

// read reads every session's recalls off the update loop, one
// session at a time, keeping only the counts (recalls.ReadThen, as
// `crmem stats` reads them), each result read against the names of snap's
// entries (nil: the memory did not change since the last read).
func (rs *recalledState) read(r store.SessionsReader, snap *snapshot) tea.Cmd {
	rs.seq++
	seq := rs.seq
	if snap != nil {
		rs.known = recalls.NameSet(snap.entries)
	}
	known := rs.known
	return func() tea.Msg {
		then, err := recalls.ReadThen(r, sessions.RecallOptions{}, known)
		return recalledMsg{seq: seq, then: then, err: err}
	}
}

// history is the recall history read, for the stats panel; nil while it
// is read or when it could not be.
func (rs *recalledState) history() *recalls.Then {
	if !rs.loaded || rs.err != nil {
		return nil
	}
	return rs.then
}

// take installs a read and redraws what depends on it.
func (r *recalledState) take(m *Model, msg recalledMsg) tea.Cmd {
	if msg.seq != r.seq {
		return nil
	}
	r.then, r.err, r.loaded = msg.then, msg.err, true
	if r.never {
		m.rebuild()
	}
	return m.showSelected()
}

// times is how many recorded recalls returned e (by its name, as the
// recall's result names it).
func (r *recalledState) times(e store.Entry) recalledCount {
	n, last := r.then.Count(e.Name)
	return recalledCount{n: n, last: last}
}

// recalls is how many recorded recalls were read.
func (r recalledState) recalls() int {
	if r.then == nil {
		return 0
	}
	return r.then.Recalls
}

// toggleNever lists only the entries no recorded recall returned, or
// everything again. It combines with the kind, date and orphan filters,
// and `O` then marks only the old entries it lists; dir is where the
// sessions were read.
func (r *recalledState) toggleNever(m *Model, dir string) tea.Cmd {
	if !r.loaded {
		return m.setMessage("the recalls are still being read")
	}
	r.never = !r.never
	m.rebuild()
	text := "showing every entry again"
	if r.never {
		n := 0
		for _, e := range m.c.snap.entries {
			if r.times(e).n == 0 {
				n++
			}
		}
		text = fmt.Sprintf("never recalled only: %s that none of the %s in %s returned", humanize.Plural(n, "entry"), humanize.Plural(r.recalls(), "recorded recall"), dir)
	}
	return tea.Batch(m.showSelected(), m.setMessage(text))
}

// badge marks an entry recorded recalls returned: "3×".
func (r *recalledState) badge(m *Model, e store.Entry) string {
	if c := r.times(e); c.n > 0 {
		return m.c.styles.dim.Render(" " + humanize.Count(c.n) + "×")
	}
	return ""
}

// card says on the header card how often the agent's recalls returned
// the entry, and when last.
func (r *recalledState) card(m *Model, e store.Entry) []string {
	if !r.loaded || r.err != nil || r.recalls() == 0 {
		return nil
	}
	label := m.c.styles.label.Render("recalled ")
	c := r.times(e)
	if c.n == 0 {
		return []string{label + m.c.styles.dim.Render("never, by none of "+humanize.Plural(r.recalls(), "recorded recall"))}
	}
	text := humanize.Count(c.n) + "× of " + humanize.Plural(r.recalls(), "recorded recall")
	if !c.last.IsZero() {
		text += ", last " + humanize.Ago(m.c.now(), uint64(max(c.last.Unix(), 0)))
	}
	return []string{label + text}
}
