package tui

import (
	"fmt"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/list"
	"github.com/crmem/crmem/tui/marks"
)

// toggleMark marks or unmarks the selected entry and moves down, so space
// held down marks a run of entries.
func (m *Model) toggleMark() tea.Cmd {
	e, ok := m.list.SelectedEntry(m.c.snap)
	if !ok {
		return nil
	}
	m.setMarked(e.ID, !m.marks.Has(e.ID))
	return m.moveCursor(1)
}

// markListed marks every listed entry (every search hit the filters keep
// while searching, listed or not); when all of them are marked already,
// it unmarks them.
func (m *Model) markListed() tea.Cmd {
	ids := m.markableIDs()
	if len(ids) == 0 {
		return m.setMessage("nothing listed to mark")
	}
	on := slices.ContainsFunc(ids, func(id uint64) bool { return !m.marks.Has(id) })
	switch {
	case !on && len(ids) == m.marks.Len(): // every mark is listed: drop them at once, not one by one
		m.marks.Clear()
	case m.result == nil || m.list.RecallView:
		m.marks.Reserve(len(ids))
		setListed(&m.marks, m.c.snap, &m.list, on) // from the rows: 100k marks stay cheap
	default:
		m.marks.Reserve(len(ids))
		for _, id := range ids {
			m.setMarked(id, on)
		}
	}
	switch {
	case !on:
		return m.setMessage(fmt.Sprintf("unmarked %s", humanize.Plural(len(ids), "entry")))
	case len(ids) > m.listedCount():
		return m.setMessage(fmt.Sprintf("marked %s (%s listed)", humanize.Plural(len(ids), "search hit"), humanize.Count(m.listedCount())))
	}
	return m.setMessage(fmt.Sprintf("marked %s", humanize.Plural(len(ids), "listed entry")))
}

// markableIDs is what `*` marks: the listed entries, and while searching
// (by relevance the sections list only the first hits) every hit the
// filters keep; the recall view marks what it lists.
func (m *Model) markableIDs() []uint64 {
	if m.result == nil || m.list.RecallView {
		return m.list.ListedIDs(m.c.snap)
	}
	hits, _ := list.KeptHits(m.c.snap, m.rowsSpec())
	ids := make([]uint64, len(hits))
	for i, r := range hits {
		ids[i] = m.c.snap.entries[r.Idx].ID
	}
	return ids
}

// unmarkAll clears every mark.
func (m *Model) unmarkAll() tea.Cmd {
	n, _ := m.markedSize()
	if n == 0 {
		return m.setMessage("nothing marked")
	}
	m.marks.Clear()
	return m.setMessage("unmarked " + humanize.Plural(n, "entry"))
}

// markOlderThan marks the archives older than d (typed as v) and says how
// many.
func (m *Model) markOlderThan(v string, d time.Duration) tea.Cmd {
	cutoff := m.c.now().Add(-d)
	n := m.markArchivesBefore(cutoff)
	return m.setMessage(fmt.Sprintf("marked %s older than %s (created before %s)",
		humanize.Plural(n, "archive"), v, cutoff.In(m.c.loc).Format("2006-01-02 15:04")))
}

// markArchivesBefore marks the archives created before cutoff and returns
// how many there are. While an entry filter of the cleanup keys is on
// (orphan archives, never recalled), only the archives it keeps are
// marked: the old ones no session or no recall uses.
func (m *Model) markArchivesBefore(cutoff time.Time) int {
	es := marks.ArchivesBefore(m.c.snap.entries, cutoff, m.entryFilter())
	for _, e := range es {
		m.setMarked(e.ID, true)
	}
	return len(es)
}

// setListed marks (or unmarks) every entry l lists of snap and returns
// how many there are; it reads the entries from the rows, so 100k marks
// stay cheap.
func setListed(s *marks.Set, snap *snapshot, l *list.List, on bool) int {
	n := 0
	for _, r := range l.Rows() {
		if !r.IsEntry() {
			continue
		}
		n++
		e := &snap.entries[r.Idx]
		if on {
			s.Put(*e)
		} else {
			s.Drop(*e)
		}
	}
	return n
}

// join joins two status segments with a space.
func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + " " + b
}

// markedSize counts the marked entries and their content bytes (kept up
// to date as marks change, so the status line costs nothing per frame).
func (m *Model) markedSize() (n, bytes int) { return m.marks.Len(), m.marks.Bytes() }

// markedEntries returns the marked entries as they are now, in ascending
// id order.
func (m *Model) markedEntries() []store.Entry { return m.marks.Entries(m.c.snap.entry) }

// editStatus is the status line's segment of the marks (count and total
// size) and the orphan and never-recalled filters.
func (m *Model) editStatus() string {
	var s string
	if st := m.marks.Status(); st != "" {
		s = m.c.styles.mark.Render(st)
	}
	if m.refs.orphans {
		s = join(s, m.c.styles.message.Render("orphan archives only"+paren(keyName(m.c.keys.Orphans))))
	}
	if m.recalled.Never() {
		s = join(s, m.c.styles.message.Render("never recalled only"+paren(keyName(m.c.keys.NeverRecalled))))
	}
	return s
}
