package tui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/store"
)

// toggleMark marks or unmarks the selected entry and moves down, so space
// held down marks a run of entries.
func (f *editing) toggleMark(m *Model) tea.Cmd {
	e, ok := m.list.selectedEntry(m.c.snap)
	if !ok {
		return nil
	}
	m.setMarked(e.ID, !m.marks.has(e.ID))
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
	on := slices.ContainsFunc(ids, func(id uint64) bool { return !m.marks.has(id) })
	switch {
	case !on && len(ids) == m.marks.len(): // every mark is listed: drop them at once, not one by one
		m.marks.clear()
	case m.result == nil || m.list.recallView:
		m.marks.reserve(len(ids))
		m.marks.setListed(m.c.snap, &m.list, on) // from the rows: 100k marks stay cheap
	default:
		m.marks.reserve(len(ids))
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
	if m.result == nil || m.list.recallView {
		return m.list.listedIDs(m.c.snap)
	}
	hits, _ := keptHits(m.c.snap, m.rowsSpec())
	ids := make([]uint64, len(hits))
	for i, r := range hits {
		ids[i] = m.c.snap.entries[r.idx].ID
	}
	return ids
}

// unmarkAll clears every mark.
func (f *editing) unmarkAll(m *Model) tea.Cmd {
	n, _ := markedSize(m)
	if n == 0 {
		return m.setMessage("nothing marked")
	}
	m.marks.clear()
	return m.setMessage("unmarked " + humanize.Plural(n, "entry"))
}

// markOlder asks for an age and marks every archive older than it. A span
// under a day ("6m" is six minutes, as everywhere) is asked about first:
// months were likely meant, and it marks nearly every archive.
func (f *editing) markOlder(m *Model) tea.Cmd {
	f.dlg = newPrompt("mark archives older than (e.g. 30d, 2w, 6mo, 1y)", "", func(v string) error {
		_, err := humanize.ParseSpan(v)
		return err
	}, reqMarkOlderAge{})
	return nil
}

// markOlderAge marks the archives older than the age typed (v), or asks
// first when it is under a day.
func (f *editing) markOlderAge(m *Model, v string) tea.Cmd {
	d, _ := humanize.ParseSpan(v)
	if d >= 24*time.Hour {
		return markOlderThan(m, v, d)
	}
	f.dlg = &confirmDialog{text: shortSpanQuestion(v, d), short: shortSpanBrief(v, d), yes: reqMarkOlder{age: v, d: d}}
	return nil
}

// shortSpanBrief is shortSpanQuestion for a screen too small to hold it:
// at 20×3 its middle gave way, "did you mean months" with it, the point of
// asking (issue 42 item 6). "" when the question has no brief form.
func shortSpanBrief(v string, d time.Duration) string {
	v = strings.TrimSpace(v)
	if d == 0 || !strings.HasSuffix(v, "m") {
		return ""
	}
	n := int(d / time.Minute)
	return fmt.Sprintf("%s = %d min; did you mean months (%smo)? Mark >%d min?", v, n, strings.TrimSpace(strings.TrimSuffix(v, "m")), n)
}

// shortSpanQuestion asks about a span under a day typed as v: minutes
// may have been months ("6m" is six minutes: did you mean 6mo?), hours are
// confirmed as hours, and no time at all ("0d", "0m") marks every archive.
func shortSpanQuestion(v string, d time.Duration) string {
	v = strings.TrimSpace(v)
	switch {
	case d == 0:
		return fmt.Sprintf("%q is no time at all: mark every archive?", v)
	case strings.HasSuffix(v, "m"):
		return fmt.Sprintf("%q is %s: did you mean months (%smo)? Mark the archives older than %s?", v, spanWords(d), strings.TrimSpace(strings.TrimSuffix(v, "m")), spanWords(d))
	}
	return fmt.Sprintf("%q is %s, under a day: mark the archives older than %s?", v, spanWords(d), spanWords(d))
}

// spanWords says a span under a day in words: "6 minutes", "12 hours".
func spanWords(d time.Duration) string {
	if d < time.Hour {
		return humanize.Plural(int(d/time.Minute), "minute")
	}
	return humanize.Plural(int(d/time.Hour), "hour")
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
	c := cutoff.Unix()
	if c <= 0 {
		return 0 // nothing is older than the epoch
	}
	keep := m.entryFilter()
	n := 0
	for _, e := range m.c.snap.entries {
		// Compared as the file's unsigned seconds: a created_at above
		// MaxInt64 must not wrap negative and pass for an ancient archive.
		if e.Kind == store.Archive && e.CreatedAt < uint64(c) && (keep == nil || keep(e)) {
			m.setMarked(e.ID, true)
			n++
		}
	}
	return n
}

// markedEntries returns the marked entries in ascending id order.
func markedEntries(m *Model) []store.Entry {
	ids := m.marks.ids()
	slices.Sort(ids)
	out := make([]store.Entry, 0, len(ids))
	for _, id := range ids {
		if e, ok := m.c.snap.entry(id); ok {
			out = append(out, e)
		}
	}
	return out
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
func markedSize(m *Model) (n, bytes int) { return m.marks.len(), m.marks.bytes }

// deleteMarked asks once, with count, total size and the sessions whose
// resume point would go, then deletes every marked entry in one write.
func (f *editing) deleteMarked(m *Model) tea.Cmd {
	es := markedEntries(m)
	if len(es) == 0 {
		keys := &m.c.keys
		return m.setMessage("nothing marked" + paren(hints(", ", keyHint(keys.Mark, "marks an entry"), keyHint(keys.MarkAll, "every listed one"), keyHint(keys.MarkOlder, "old archives"))))
	}
	text := fmt.Sprintf("delete %s marked (%s): %s?", humanize.Plural(len(es), "entry"), humanize.Size(totalSize(es)), firstNames(es, 3))
	warn := mixedWarning(es, 3) + m.refs.resumeWarning(m, es)
	if names, n := changedSinceMarked(m, es); n > 0 {
		it := "them"
		if n == 1 {
			it = "it"
		}
		warn = fmt.Sprintf(" ⚠ changed since you marked %s: %s", it, names) + warn
	}
	if h := hiddenCount(m, es); h > 0 {
		hidden := fmt.Sprintf(" ⚠ %s of them not listed (filter, search or orphan view hides them)", humanize.Count(h))
		if h == len(es) {
			hidden = fmt.Sprintf(" ⚠ all %s hidden by the current filter or search", humanize.Count(h))
		}
		warn = hidden + warn
	}
	f.dlg = &confirmDialog{text: text, warn: warn, yes: reqRemove{es: es, label: "delete " + humanize.Plural(len(es), "entry")}}
	return nil
}

// firstNames names the first n entries of es and counts the rest.
func firstNames(es []store.Entry, n int) string {
	var names []string
	for _, e := range es[:min(n, len(es))] {
		names = append(names, sanitize.Name(e.Name))
	}
	s := strings.Join(names, ", ")
	if len(es) > n {
		s += fmt.Sprintf(" and %s more", humanize.Count(len(es)-n))
	}
	return s
}

// hiddenCount is how many of es the list does not show now.
func hiddenCount(m *Model, es []store.Entry) int {
	listed := make(map[uint64]bool, m.list.entries)
	for _, id := range m.list.listedIDs(m.c.snap) {
		listed[id] = true
	}
	n := 0
	for _, e := range es {
		if !listed[e.ID] {
			n++
		}
	}
	return n
}

// statusText shows the marks (count and total size) and the orphan filter.
func (f *editing) statusText(m *Model) string {
	var s string
	if n, bytes := markedSize(m); n > 0 {
		s = m.c.styles.mark.Render(fmt.Sprintf("● %s marked · %s", humanize.Count(n), humanize.Size(bytes)))
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

// droppedMarksText reports marks a reload dropped because another writer
// removed their entries, or replaced them (removed, then added under the
// same name: a new id, not marked); "" when none was dropped.
func droppedMarksText(dropped []store.Entry, s *snapshot) string {
	if len(dropped) == 0 {
		return ""
	}
	replaced := map[string]bool{}
	for _, e := range dropped {
		replaced[e.Name] = false
	}
	for _, e := range s.entries {
		if _, ok := replaced[e.Name]; ok {
			replaced[e.Name] = true
		}
	}
	if len(dropped) == 1 {
		name := sanitize.Name(dropped[0].Name)
		if replaced[dropped[0].Name] {
			return fmt.Sprintf("⚠ unmarked %s: another writer replaced it (the new %s is not marked)", name, name)
		}
		return fmt.Sprintf("⚠ unmarked %s: another writer removed it", name)
	}
	names := make([]string, len(dropped))
	for i, e := range dropped {
		names[i] = sanitize.Name(e.Name)
	}
	return fmt.Sprintf("⚠ unmarked %s another writer removed or replaced: %s",
		humanize.Plural(len(dropped), "entry"), firstOf(names, maxStatusNames))
}

// changedSinceMarked names the entries of es (as they are now) that differ
// from what was marked: "b (was a), c"; "" when none does.
func changedSinceMarked(m *Model, es []store.Entry) (string, int) {
	var names []string
	for _, e := range es {
		was, ok := m.marks.as(e.ID)
		if !ok || sameState(was, e) {
			continue
		}
		name := sanitize.Name(e.Name)
		if was.Name != e.Name {
			name += " (was " + sanitize.Name(was.Name) + ")"
		}
		names = append(names, name)
	}
	if len(names) == 0 {
		return "", 0
	}
	return firstOf(names, maxStatusNames), len(names)
}

// sameState reports whether two states of an entry are the same in every
// field a user sees.
func sameState(a, b store.Entry) bool {
	return a.Name == b.Name && a.Content == b.Content && a.Kind == b.Kind &&
		a.CreatedAt == b.CreatedAt && slices.Equal(a.Aliases, b.Aliases)
}
