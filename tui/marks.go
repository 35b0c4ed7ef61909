package tui

import (
	"fmt"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/dialog"
	"github.com/crmem/crmem/tui/list"
	"github.com/crmem/crmem/tui/marks"
)

// toggleMark marks or unmarks the selected entry and moves down, so space
// held down marks a run of entries.
func (f *editing) toggleMark(m *Model) tea.Cmd {
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
func (f *editing) markListed(m *Model) tea.Cmd {
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
func (f *editing) unmarkAll(m *Model) tea.Cmd {
	n, _ := markedSize(m)
	if n == 0 {
		return m.setMessage("nothing marked")
	}
	m.marks.Clear()
	return m.setMessage("unmarked " + humanize.Plural(n, "entry"))
}

// markOlder asks for an age and marks every archive older than it. A span
// under a day ("6m" is six minutes, as everywhere) is asked about first:
// months were likely meant, and it marks nearly every archive.
func (f *editing) markOlder(m *Model) tea.Cmd {
	f.dlg = dialog.NewPrompt("mark archives older than (e.g. 30d, 2w, 6mo, 1y)", "", marks.SpanCheck{}, reqMarkOlderAge{})
	return nil
}

// markOlderAge marks the archives older than the age typed (v), or asks
// first when it is under a day.
func (f *editing) markOlderAge(m *Model, v string) tea.Cmd {
	d, _ := humanize.ParseSpan(v)
	if d >= 24*time.Hour {
		return markOlderThan(m, v, d)
	}
	f.dlg = &dialog.Confirm{Text: marks.SpanQuestion(v, d), Short: marks.SpanBrief(v, d), Yes: reqMarkOlder{age: v, d: d}}
	return nil
}

// markOlderThan marks the archives older than d (typed as v) and says how
// many.
func markOlderThan(m *Model, v string, d time.Duration) tea.Cmd {
	cutoff := m.c.now().Add(-d)
	n := markArchivesBefore(m, cutoff)
	return m.setMessage(fmt.Sprintf("marked %s older than %s (created before %s)",
		humanize.Plural(n, "archive"), v, cutoff.In(m.c.loc).Format("2006-01-02 15:04")))
}

// markArchivesBefore marks the archives created before cutoff and returns
// how many there are. While an entry filter of the cleanup keys is on
// (orphan archives, never recalled), only the archives it keeps are
// marked: the old ones no session or no recall uses.
func markArchivesBefore(m *Model, cutoff time.Time) int {
	es := marks.ArchivesBefore(m.c.snap.entries, cutoff, m.entryFilter())
	for _, e := range es {
		m.setMarked(e.ID, true)
	}
	return len(es)
}

// markedEntries returns the marked entries as they are now, in ascending
// id order.
func markedEntries(m *Model) []store.Entry { return m.marks.Entries(m.c.snap.entry) }

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
func markedSize(m *Model) (n, bytes int) { return m.marks.Len(), m.marks.Bytes() }

// deleteMarked asks once, with count, total size and the sessions whose
// resume point would go, then deletes every marked entry in one write.
func (f *editing) deleteMarked(m *Model) tea.Cmd {
	es := markedEntries(m)
	if len(es) == 0 {
		keys := &m.c.keys
		return m.setMessage("nothing marked" + paren(hints(", ", keyHint(keys.Mark, "marks an entry"), keyHint(keys.MarkAll, "every listed one"), keyHint(keys.MarkOlder, "old archives"))))
	}
	text, warn := m.marks.DeleteQuestion(es, marks.Hidden(es, m.list.ListedIDs(m.c.snap)), mixedWarning(es, 3)+m.refs.resumeWarning(m, es))
	f.dlg = &dialog.Confirm{Text: text, Warn: warn, Yes: reqRemove{es: es, label: "delete " + humanize.Plural(len(es), "entry")}}
	return nil
}

// statusText shows the marks (count and total size) and the orphan filter.
func (f *editing) statusText(m *Model) string {
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

// notice names the file holding unsaved text until the next editing
// action; the status line gives it a line of its own when it does not fit.
func (f *editing) notice(m *Model) string {
	if f.kept == "" {
		return ""
	}
	return "⚠ unsaved text kept in " + f.kept
}

// quitNotice names the file holding text that was not saved: an edit
// whose conflict was still being asked about, or one kept earlier.
func (f *editing) quitNotice(m *Model) string {
	switch {
	case f.pendingEdit != "":
		return "your edit was not saved; your text is kept in " + f.pendingEdit
	case f.kept != "":
		return "unsaved text kept in " + f.kept
	}
	return ""
}
