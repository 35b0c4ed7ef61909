package tui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store"
)

// changeKind is what a reload did to an entry.
type changeKind int

const (
	changeAdded changeKind = iota + 1
	changeChanged
	changeRemoved
)

// sign is the kind's mark: + ~ −.
func (k changeKind) sign() string { return [...]string{"", "+", "~", "−"}[k] }

// changeItem is one entry a reload added, changed or removed.
type changeItem struct {
	id   uint64
	name string // sanitized, as it was (a removed entry's last name)
	kind changeKind
	from string // a renamed entry's name before the reload (sanitized); "" if not renamed
	// restored: an entry this session deleted, put back by another writer
	// (one holding an old copy, such as a running daemon).
	restored bool
	// unmarked: a removed entry that was marked here; the reload dropped
	// its mark (the status line says so only until the next message).
	unmarked bool
}

// text names the item: "name", or "old → new" for a rename.
func (it changeItem) text() string {
	if it.from != "" {
		return it.from + " → " + it.name
	}
	return it.name
}

// reloadRecord is one reload of this session: when, the counts, and the
// entries (the first maxLoggedItems of them).
type reloadRecord struct {
	at                      time.Time
	added, changed, removed int
	items                   []changeItem // added, then changed, then removed; newest id first in each
}

// Bounds of the reload log: reloads kept, entries kept per reload, names
// named in the status line.
const (
	maxLoggedReloads = 200
	maxLoggedItems   = 500
	maxStatusNames   = 3
)

// changeState follows what reloads changed: entries not yet seen (marked in
// the list until selected), and the log of this session's reloads.
type changeState struct {
	unseen    map[uint64]changeKind
	log       []reloadRecord // oldest first
	logOpen   bool
	logCursor int // index into logRows
	// deleted holds the ids this session deleted, so a reload that brings
	// one back says another writer restored it.
	deleted map[uint64]bool
}

// noteWritten follows this session's own writes: an entry it removed is
// remembered as deleted here, one it put back (undo) is forgotten.
func (c *changeState) noteWritten(changes []store.Change) {
	for _, ch := range changes {
		switch {
		case ch.After == nil && ch.Before != nil:
			if c.deleted == nil {
				c.deleted = map[uint64]bool{}
			}
			c.deleted[ch.Before.ID] = true
		case ch.After != nil:
			delete(c.deleted, ch.After.ID)
		}
	}
}

// recordReload turns a reload's diff into a record, naming removed entries
// from the old snapshot and the others from the new one; a changed entry
// whose name differs is a rename (both names), and an added one that this
// session deleted (deleted, by id) was put back by another writer.
func recordReload(d store.Diff, old, cur *snapshot, at time.Time, deleted map[uint64]bool) reloadRecord {
	r := reloadRecord{at: at, added: len(d.Added), changed: len(d.Changed), removed: len(d.Removed)}
	add := func(ids []uint64, s *snapshot, k changeKind) {
		for i := len(ids) - 1; i >= 0 && len(r.items) < maxLoggedItems; i-- {
			if j, ok := s.index(ids[i]); ok {
				it := changeItem{id: ids[i], name: s.label(j), kind: k, restored: k == changeAdded && deleted[ids[i]]}
				if o, ok := old.index(ids[i]); ok && k == changeChanged && old.entries[o].Name != s.entries[j].Name {
					it.from = old.label(o)
				}
				r.items = append(r.items, it)
			}
		}
	}
	add(d.Added, cur, changeAdded)
	add(d.Changed, cur, changeChanged)
	add(d.Removed, old, changeRemoved)
	return r
}

// summary is the status line's account of a reload:
// "reloaded: +1 zz-new-archive · ~1 deploy-steps", or with many changes
// "reloaded: +12 −3 ~1: zz-a, zz-b, zz-c …".
func (r reloadRecord) summary() string {
	total := r.added + r.changed + r.removed
	if total <= maxStatusNames && len(r.items) == total {
		var parts []string
		for _, k := range []changeKind{changeAdded, changeRemoved, changeChanged} {
			var names []string
			for _, it := range r.items {
				if it.kind == k {
					names = append(names, it.text())
				}
			}
			if len(names) > 0 {
				parts = append(parts, k.sign()+humanize.Count(len(names))+" "+strings.Join(names, ", "))
			}
		}
		return "reloaded: " + strings.Join(parts, " · ") + r.restoredWarning()
	}
	names := make([]string, 0, maxStatusNames)
	for _, it := range r.items[:min(len(r.items), maxStatusNames)] {
		names = append(names, it.kind.sign()+it.text())
	}
	return fmt.Sprintf("reloaded: %s: %s …", r.counts(), strings.Join(names, ", ")) + r.restoredWarning()
}

// restoredWarning says that another writer put back entries this session
// deleted: a daemon or agent writing its old copy over the file (README,
// "Editing safely").
func (r reloadRecord) restoredWarning() string {
	var names []string
	for _, it := range r.items {
		if it.restored {
			names = append(names, it.name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return fmt.Sprintf(" ⚠ another writer put back what you deleted: %s (an agent or daemon writing an old copy?)",
		firstOf(names, maxStatusNames))
}

// firstOf joins the first n names and counts the rest.
func firstOf(names []string, n int) string {
	s := strings.Join(names[:min(n, len(names))], ", ")
	if len(names) > n {
		s += fmt.Sprintf(" and %s more", humanize.Count(len(names)-n))
	}
	return s
}

// counts is "+12 −3 ~1".
func (r reloadRecord) counts() string {
	return "+" + humanize.Count(r.added) + " −" + humanize.Count(r.removed) + " ~" + humanize.Count(r.changed)
}

// noteReload records a reload from old to cur at now that changed the
// memory: the log grows, added and changed entries become unseen, removed
// ones are forgotten. dropped are the marked entries the reload unmarked,
// noted on their rows.
func (c *changeState) noteReload(d store.Diff, old, cur *snapshot, now time.Time, dropped []store.Entry) reloadRecord {
	rec := recordReload(d, old, cur, now, c.deleted)
	for i, it := range rec.items {
		rec.items[i].unmarked = it.kind == changeRemoved &&
			slices.ContainsFunc(dropped, func(e store.Entry) bool { return e.ID == it.id })
	}
	for _, id := range d.Added {
		delete(c.deleted, id) // reported once
	}
	if c.unseen == nil {
		c.unseen = map[uint64]changeKind{}
	}
	for _, id := range d.Removed {
		delete(c.unseen, id)
	}
	for _, id := range d.Changed {
		c.unseen[id] = changeChanged
	}
	for _, id := range d.Added {
		c.unseen[id] = changeAdded
	}
	c.log = append(c.log, rec)
	if c.logOpen { // the new reload goes on top: stay on the same row
		c.logCursor += 1 + len(rec.items)
	}
	if len(c.log) > maxLoggedReloads {
		c.log = slices.Delete(c.log, 0, len(c.log)-maxLoggedReloads)
		c.logCursor = min(c.logCursor, len(c.logRows())-1)
	}
	return rec
}

// seen drops the change mark of an entry the user has looked at.
func (c *changeState) seen(id uint64) { delete(c.unseen, id) }

// latestChange is the entry `.` goes to: the most recent change not yet
// seen, else the most recent change, of entries that still exist.
func (c *changeState) latestChange(s *snapshot) (uint64, bool) {
	var fallback uint64
	found := false
	for i := len(c.log) - 1; i >= 0; i-- {
		for _, it := range c.log[i].items {
			if it.kind == changeRemoved {
				continue
			}
			if _, ok := s.index(it.id); !ok {
				continue
			}
			if _, unseen := c.unseen[it.id]; unseen {
				return it.id, true
			}
			if !found {
				fallback, found = it.id, true
			}
		}
	}
	return fallback, found
}

// jumpToLatest selects the most recent change, whatever the scroll and the
// order; an entry the filters or the search hide is named instead.
func (m *Model) jumpToLatest() tea.Cmd {
	id, ok := m.chg.latestChange(m.c.snap)
	if !ok {
		return m.setMessage("no changes since crmem started")
	}
	return m.jumpTo(id)
}

// jumpTo selects the entry with id if it is listed, else says why not.
func (m *Model) jumpTo(id uint64) tea.Cmd {
	i, ok := m.c.snap.index(id)
	if !ok {
		return m.setMessage("that entry no longer exists")
	}
	if !m.list.selectID(m.c.snap, id) {
		m.chg.seen(id)
		return m.setMessage(m.c.snap.label(i) + " is not listed: the search or a filter hides it")
	}
	m.focusList()
	m.list.scroll(m.bodyHeight())
	return m.showSelected()
}

// logRow is one line of the reload log: a reload's heading or one entry.
type logRow struct {
	rec  int // index into the log
	item int // -1 for the heading
}

// logRows lays the log out newest reload first.
func (c *changeState) logRows() []logRow {
	var rows []logRow
	for i := len(c.log) - 1; i >= 0; i-- {
		rows = append(rows, logRow{rec: i, item: -1})
		for j := range c.log[i].items {
			rows = append(rows, logRow{rec: i, item: j})
		}
	}
	return rows
}

// openLog shows the reload log with the cursor on the newest entry; false
// when no reload has changed anything.
func (c *changeState) openLog() bool {
	if len(c.log) == 0 {
		return false
	}
	c.logOpen, c.logCursor = true, 0
	c.moveLogCursor(1)
	return true
}

// openLog shows the reload log, or says there is none.
func (m *Model) openLog() tea.Cmd {
	if !m.chg.openLog() {
		return m.setMessage("no reloads have changed anything in this session")
	}
	return nil
}

// moveLogCursor moves to the next entry row in direction d (±1, or a page).
func (c *changeState) moveLogCursor(d int) {
	rows := c.logRows()
	i := min(max(c.logCursor+d, 0), len(rows)-1)
	step := 1
	if d < 0 {
		step = -1
	}
	for j := i; j >= 0 && j < len(rows); j += step {
		if rows[j].item >= 0 {
			c.logCursor = j
			return
		}
	}
}

// logKey drives the reload log: move; esc, c and the quit keys as
// configured close it (no key quits from an overlay); enter asks, as
// data, to go to the entry under the cursor (jump), which the root does.
func (c *changeState) logKey(keys *keymap.KeyMap, k tea.KeyPressMsg, h int) (jump *changeItem) {
	switch {
	case key.Matches(k, keys.Cancel) || key.Matches(k, keys.Quit) || key.Matches(k, keys.ChangeLog):
		c.logOpen = false
	case key.Matches(k, keys.Accept):
		r := c.logRows()[c.logCursor]
		it := c.log[r.rec].items[r.item]
		return &it
	case key.Matches(k, keys.Top): // the newest entry, below its heading
		c.logCursor = 0
		c.moveLogCursor(1)
	case key.Matches(k, keys.Bottom): // the oldest entry
		c.moveLogCursor(len(c.logRows()))
	default:
		if d, ok := navDelta(keys, k, h, 0); ok {
			c.moveLogCursor(d)
		}
	}
	return nil
}

// logKey gives a key to the reload log and goes to the entry it asks for:
// the log closes on the way, unless the entry no longer exists.
func (m *Model) logKey(k tea.KeyPressMsg) tea.Cmd {
	it := m.chg.logKey(&m.c.keys, k, m.bodyHeight())
	if it == nil {
		return nil
	}
	if _, ok := m.c.snap.index(it.id); !ok {
		return m.setMessage(it.name + " no longer exists")
	}
	m.chg.logOpen = false
	return m.jumpTo(it.id)
}

// logView renders the log at w×h in place of the panes, the cursor's row
// kept in sight.
func (c *changeState) logView(cm *common, w, h int) string {
	st := cm.styles
	rows := c.logRows()
	var sc scroller
	sc.centre(c.logCursor, len(rows), h)
	keys := &cm.keys
	closeKeys := hints("/", keyName(keys.Cancel), keyName(keys.ChangeLog))
	hint := hints(" · ", hints(": ", keyName(keys.Accept), "go to the entry"), hints(": ", closeKeys, "close"))
	lines := []string{st.paneTitle.Render("Reloads this session") + st.dim.Render("  ("+hint+")")}
	for i := sc.top; i < len(rows) && len(lines) < h; i++ {
		lines = append(lines, c.logLine(cm, rows[i], i == c.logCursor, w))
	}
	return box(strings.Join(lines, "\n"), w, h)
}

// logLine renders one row of the log at width w.
func (c *changeState) logLine(cm *common, r logRow, selected bool, w int) string {
	st := cm.styles
	rec := c.log[r.rec]
	if r.item < 0 {
		more := ""
		if n := rec.added + rec.changed + rec.removed - len(rec.items); n > 0 {
			more = fmt.Sprintf("  (%s more not kept)", humanize.Count(n))
		}
		return st.groupHeader.Render(rec.at.In(cm.loc).Format("15:04:05") + "  " + rec.counts() + more)
	}
	it := rec.items[r.item]
	line := "  " + it.kind.sign() + " " + it.text()
	if it.restored {
		line += st.warning.Render("  ⚠ you deleted it; another writer put it back")
	}
	if _, ok := cm.snap.index(it.id); !ok {
		line += st.dim.Render("  (gone)")
	}
	if it.unmarked {
		line += st.warning.Render(" ⚠ was marked: unmarked")
	}
	line = ansi.Truncate(line, w, "…")
	if selected {
		return st.selectedRow(true).Render(ansi.Strip(line))
	}
	return line
}

// withChangeHint puts `.` first in the short help bs of the list or the
// preview while reloads have left changes the user has not seen: ". 2
// unseen changes".
func (c *changeState) withChangeHint(keys *keymap.KeyMap, bs []key.Binding) []key.Binding {
	n := len(c.unseen)
	if n == 0 || !keys.LatestChange.Enabled() {
		return bs
	}
	hint := keys.LatestChange
	hint.SetHelp(hint.Help().Key, humanize.Plural(n, "unseen change"))
	return append([]key.Binding{hint}, bs...)
}

// shortHelp is the reload log's line of keys.
func (c *changeState) shortHelp(k *keymap.KeyMap) []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Accept, k.Cancel}
}
