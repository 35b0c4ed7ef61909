// Package list is the list pane, a part of the screen in a package of
// its own that cannot import the root: what it lists (the kind filter,
// the order, how a search is shown), its rows as the root lays them out,
// the cursor and the scroll, its keys, its drawing at w×h and its help.
// It reads the snapshot it is lent (part.Snapshot) and answers with what
// moved; the root lays the rows out from the snapshot and the search
// (tui/list.go) and shows the selected entry.
package list

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/part"
)

// Order is the list's order; relevance exists only while searching.
type Order int

// The orders, in the order s cycles them.
const (
	Newest Order = iota
	Oldest
	ByName
	BySize
	Relevance
)

// String names the order for the status line.
func (s Order) String() string {
	return [...]string{"newest", "oldest", "name", "size", "relevance"}[s]
}

// Next cycles the order; relevance is offered only while searching.
func (s Order) Next(searching bool) Order {
	n := s + 1
	if n == Relevance && !searching || n > Relevance {
		n = Newest
	}
	return n
}

// Filter restricts the list to one kind; All shows every kind.
type Filter int

// All is the filter that keeps every kind.
const All Filter = -1

// Keep reports whether the filter lists an entry of kind k.
func (f Filter) Keep(k store.Kind) bool { return f == All || store.Kind(f) == k }

// String names the filter for the status line.
func (f Filter) String() string {
	if f == All {
		return "all"
	}
	return store.Kind(f).String() + "s"
}

// HitKind says why an entry is in a search's results.
type HitKind int

// The kinds of hit, in the order the sections list them.
const (
	HitName   HitKind = iota + 1 // name or alias contains the query
	HitExact                     // exact recall, as the agent's recall tool
	HitPrefix                    // only through a prefix expansion of the last word
)

// Row is one line of the list: a group or section header, an entry, or
// the "… N more name matches" row (More > 0), which expands the section.
type Row struct {
	Header string // non-empty for a header row
	Idx    int    // the entry's index in the snapshot
	Hit    HitKind
	Score  float64
	Via    HitKind // where Score comes from (HitExact, HitPrefix, or 0)
	More   int     // name matches not listed (the expand row)
}

// IsEntry reports whether the row shows an entry.
func (r Row) IsEntry() bool { return r.Header == "" && r.More == 0 }

// List is the list pane: what it lists (the kind filter, the order, how
// a search is shown), its rows, the cursor and the scroll offset. It
// keeps its selection as the root lays its rows out again (Relayout),
// moves on its keys and takes clicks; the root says what snapshot and
// search it lists.
type List struct {
	Filter     Filter
	Order      Order
	Expanded   bool // every name match is listed, not only the first few
	RecallView bool // the recall view: exactly recall(query, recallLimit)

	rows    []Row
	entries int // entry rows (not headers) in rows
	cursor  int
	offset  int
}

// SetRows installs rows and counts the entries among them.
func (l *List) SetRows(rows []Row) {
	l.rows, l.entries = rows, 0
	for _, r := range rows {
		if r.IsEntry() {
			l.entries++
		}
	}
}

// Selected returns the row under the cursor, if it is an entry.
func (l *List) Selected() (Row, bool) {
	if l.cursor < 0 || l.cursor >= len(l.rows) || !l.rows[l.cursor].IsEntry() {
		return Row{}, false
	}
	return l.rows[l.cursor], true
}

// AtMore reports whether the cursor is on the "… N more" row.
func (l *List) AtMore() bool {
	return l.cursor >= 0 && l.cursor < len(l.rows) && l.rows[l.cursor].More > 0
}

// first returns the first entry row, or -1.
func (l *List) first() int {
	for i, r := range l.rows {
		if r.IsEntry() {
			return i
		}
	}
	return -1
}

// move shifts the cursor by delta rows, skipping headers, and clamps.
func (l *List) move(delta int) {
	if len(l.rows) == 0 {
		l.cursor = 0
		return
	}
	target := min(max(l.cursor+delta, 0), len(l.rows)-1)
	step := 1
	if delta < 0 {
		step = -1
	}
	l.cursor = l.nearestEntry(target, step)
}

// MoveBy moves the cursor by delta rows and keeps it in sight at height
// rows; it reports whether the selection moved.
func (l *List) MoveBy(delta, height int) bool {
	before := l.cursor
	l.move(delta)
	l.Scroll(height)
	return l.cursor != before
}

// Key moves the cursor on a navigation key (a page is the body's rows
// less one); when the selection moved it asks the root to show the entry
// now selected (part.Selected).
func (l *List) Key(c *part.Context, k tea.KeyPressMsg) []part.Request {
	if d, ok := part.NavDelta(c.Keys, k, c.Body, len(l.rows)); ok && l.MoveBy(d, c.Body) {
		return []part.Request{part.Selected{}}
	}
	return nil
}

// nearestEntry finds an entry row from i in direction step, else the other way.
func (l *List) nearestEntry(i, step int) int {
	for j := i; j >= 0 && j < len(l.rows); j += step {
		if l.rows[j].Header == "" {
			return j
		}
	}
	for j := i; j >= 0 && j < len(l.rows); j -= step {
		if l.rows[j].Header == "" {
			return j
		}
	}
	return max(0, min(i, len(l.rows)-1))
}

// SelectID puts the cursor on the entry with id; false if it is not listed.
func (l *List) SelectID(s part.Snapshot, id uint64) bool {
	es := s.Entries()
	for i, r := range l.rows {
		if r.IsEntry() && es[r.Idx].ID == id {
			l.cursor = i
			return true
		}
	}
	return false
}

// Scroll keeps the cursor within the visible height, showing the headers
// just above it when possible.
func (l *List) Scroll(height int) {
	if height <= 0 {
		return
	}
	if l.cursor < l.offset {
		l.offset = l.cursor
		for l.offset > 0 && l.rows[l.offset-1].Header != "" && l.cursor-l.offset < height-1 {
			l.offset--
		}
	}
	if l.cursor >= l.offset+height {
		l.offset = l.cursor - height + 1
	}
	// Only headers hidden above, and room for them with the cursor: show
	// them (a list laid out first at a height of a row or two, before the
	// terminal's size arrived, kept its first headers scrolled away).
	if l.offset > 0 && l.cursor < height && l.headersBefore(l.offset) {
		l.offset = 0
	}
	l.offset = max(0, min(l.offset, len(l.rows)-height))
}

// headersBefore says whether the rows above row i are all headers.
func (l *List) headersBefore(i int) bool {
	for _, r := range l.rows[:min(i, len(l.rows))] {
		if r.Header == "" {
			return false
		}
	}
	return true
}

// Style is what drawing the rows needs to know besides the context, lent
// for one draw.
type Style struct {
	Now     time.Time
	Focused bool // the list has the focus: its cursor row stands out
	Marks   map[uint64]store.Entry
	// Fresh is the sign of an entry a reload added or changed and the
	// user has not seen yet (+ ~), "" for any other; nil: none.
	Fresh    func(id uint64) string
	Searched bool // a search is listed: the score in the age's place
	// Badge is what a row shows before its right-hand columns (the
	// recalls' N×), nil: nothing.
	Badge func(store.Entry) string
}

// rowStyle is what drawing one row reads: the Style, the width and the
// key that lists every name match (for its hint).
type rowStyle struct {
	Style
	width int
	open  key.Binding
}

// view renders height rows of the list.
func (l *List) view(s part.Snapshot, st *part.Styles, ls rowStyle, height int) string {
	lines := make([]string, 0, height)
	end := min(len(l.rows), l.offset+height)
	names := l.fitVisible(s, ls, l.offset, end)
	for i := l.offset; i < end; i++ {
		lines = append(lines, l.rowLine(s, st, ls, i, names[i-l.offset]))
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// rowLine renders one row at the pane's width, with name the entry's
// name as fitVisible fitted it.
func (l *List) rowLine(s part.Snapshot, st *part.Styles, ls rowStyle, i int, name string) string {
	r := l.rows[i]
	switch {
	case r.Header != "":
		return st.GroupHeader.Render(ansi.Truncate(r.Header, ls.width, "…"))
	case r.More > 0:
		line := ansi.Truncate(fmt.Sprintf("   … %s more name matches%s", humanize.Count(r.More), part.Paren(part.KeyHint(ls.open, "shows them"))), ls.width, "…")
		if i == l.cursor {
			return selected(st, ls.Focused).Render(line)
		}
		return st.Dim.Render(line)
	}
	e := s.Entries()[r.Idx]
	mark := " "
	if _, marked := ls.Marks[e.ID]; marked {
		mark = st.Mark.Render("●")
	} else if ls.Fresh != nil {
		if sign := ls.Fresh(e.ID); sign != "" {
			mark = st.Mark.Render(sign)
		}
	}
	right, badge := rowRight(r, e, ls)
	w := rowNameWidth(right, badge, ls)
	if part.IsMixed(e.Name) {
		name += st.Warning.Render(part.MixedMark)
	}
	name += strings.Repeat(" ", max(0, w-lipgloss.Width(name)))
	line := mark + st.KindMarker(e.Kind) + " " + name + badge + st.Dim.Render(right)
	if i == l.cursor {
		return selected(st, ls.Focused).Render(ansi.Strip(line))
	}
	return line
}

// selected is the style of the row under the cursor, as the list has the
// focus or not.
func selected(st *part.Styles, focused bool) lipgloss.Style {
	if focused {
		return st.Selected
	}
	return st.SelectedAway
}

// narrowList is the list's width below which a row keeps one right-hand
// column (the age, or the score while searching), its other cells going
// to the name: at 20 columns names shrank to a letter or two ("fi…te").
const narrowList = 30

// rowRight is an entry row's right-hand columns (age and size, or age
// and score while searching; on a narrow list the age or the score) and
// its badge.
func rowRight(r Row, e store.Entry, ls rowStyle) (right, badge string) {
	age, second := humanize.Age(ls.Now, e.CreatedAt), humanize.Size(len(e.Content))
	if ls.Searched {
		second = score(r)
	}
	switch {
	case ls.width >= narrowList:
		right = fmt.Sprintf(" %4s %5s", age, second)
	case ls.Searched:
		right = fmt.Sprintf(" %5s", second)
	default:
		right = fmt.Sprintf(" %4s", age)
	}
	if ls.Badge != nil {
		badge = ls.Badge(e)
	}
	return right, badge
}

// rowNameWidth is the cells an entry row leaves for the name, beside the
// mark, the kind marker and the right-hand columns.
func rowNameWidth(right, badge string, ls rowStyle) int {
	return max(1, ls.width-2-2-lipgloss.Width(right)-lipgloss.Width(badge))
}

// fitVisible fits the names of rows [from, to) (one screen) to their
// widths so that no two of them read the same (SPEC §7): each is first
// fitted against its adjacent rows; a name whose text then reads the same
// as another visible row's is refitted apart from those rows' names, so
// the prefix they share gives way. Only the visible rows are looked at.
// Header and "more" rows get "".
func (l *List) fitVisible(s part.Snapshot, ls rowStyle, from, to int) []string {
	es := s.Entries()
	label := func(i int) string { return sanitize.Name(es[i].Name) }
	n := to - from
	names := make([]string, n)
	widths := make([]int, n)
	for i := range n {
		r := l.rows[from+i]
		if !r.IsEntry() {
			continue
		}
		right, badge := rowRight(r, es[r.Idx], ls)
		widths[i] = rowNameWidth(right, badge, ls)
		if part.IsMixed(es[r.Idx].Name) { // the mark after the name
			widths[i] = max(widths[i]-lipgloss.Width(part.MixedMark), 1)
		}
		names[i] = part.FitName(label(r.Idx), l.neighbour(es, from+i, -1), l.neighbour(es, from+i, 1), widths[i])
	}
	apart := make([][]string, n) // the names each row must read apart from
	for range 3 {                // a refit seldom collides again; three rounds settle it
		byText := map[string][]int{}
		for i, t := range names {
			if l.rows[from+i].IsEntry() {
				byText[t] = append(byText[t], i)
			}
		}
		changed := false
		for _, same := range byText {
			for _, i := range same {
				name, grew := label(l.rows[from+i].Idx), false
				for _, j := range same {
					if other := label(l.rows[from+j].Idx); other != name && !slices.Contains(apart[i], other) {
						apart[i] = append(apart[i], other)
						grew = true
					}
				}
				if grew {
					names[i] = part.FitApart(name, apart[i], widths[i])
					changed = true
				}
			}
		}
		if !changed {
			break
		}
	}
	return names
}

// neighbour is the label of the nearest entry row before (step -1) or
// after (step 1) row i, or "".
func (l *List) neighbour(es []store.Entry, i, step int) string {
	for j := i + step; j >= 0 && j < len(l.rows); j += step {
		if r := l.rows[j]; r.IsEntry() {
			return sanitize.Name(es[r.Idx].Name)
		}
	}
	return ""
}

// score labels a search hit's score for the list.
func score(r Row) string {
	switch {
	case r.Hit == HitName && r.Via == 0:
		return "name"
	case r.Via == HitPrefix:
		return fmt.Sprintf("~%.1f", r.Score)
	}
	return fmt.Sprintf("%.2f", r.Score)
}

// SelectedID is the id of the selected entry in s.
func (l *List) SelectedID(s part.Snapshot) (uint64, bool) {
	r, ok := l.Selected()
	es := s.Entries()
	if !ok || r.Idx >= len(es) {
		return 0, false
	}
	return es[r.Idx].ID, true
}

// SelectedEntry is the entry under the cursor.
func (l *List) SelectedEntry(s part.Snapshot) (store.Entry, bool) {
	r, ok := l.Selected()
	if !ok {
		return store.Entry{}, false
	}
	return s.Entries()[r.Idx], true
}

// SelectFirst puts the cursor on the first entry (a search's best hit),
// from the top of the list when fromTop, and keeps it in sight at height
// rows; false when nothing is listed.
func (l *List) SelectFirst(height int, fromTop bool) bool {
	i := l.first()
	if i < 0 {
		return false
	}
	l.cursor = i
	if fromTop {
		l.offset = 0
	}
	l.Scroll(height)
	return true
}

// ListedIDs are the ids of the listed entries of s, in list order.
func (l *List) ListedIDs(s part.Snapshot) []uint64 {
	es := s.Entries()
	ids := make([]uint64, 0, l.entries)
	for _, r := range l.rows {
		if r.IsEntry() {
			ids = append(ids, es[r.Idx].ID)
		}
	}
	return ids
}

// Position is "37/10,000": the selected entry among the listed ones.
func (l *List) Position() string {
	if l.entries == 0 {
		return "0/0"
	}
	at := 0
	for i := 0; i <= l.cursor && i < len(l.rows); i++ {
		if l.rows[i].IsEntry() {
			at++
		}
	}
	return humanize.Count(at) + "/" + humanize.Count(l.entries)
}

// ShownOffset is the first row on screen in a pane height rows high: a
// message line above the status may shorten the pane since the list last
// scrolled, and the pane is then drawn scrolled to keep the selection in
// sight (a click maps the pointer through the same offset).
func (l *List) ShownOffset(height int) int {
	c := *l // a copy: drawing does not move the list
	c.Scroll(height)
	return c.offset
}

// View draws the rows of the context's snapshot at exactly w×h as they
// are shown (ShownOffset).
func (l *List) View(c *part.Context, ls Style, w, h int) string {
	cp := *l
	cp.offset = l.ShownOffset(h)
	return part.Box(cp.view(c.Snap, c.Styles, rowStyle{Style: ls, width: w, open: c.Keys.Open}, h), w, h)
}

// Click puts the cursor on the row at y, a line of the pane (0: its first)
// height rows high, as drawn; it reports whether y held an entry or the
// "… N more" row (a header or the blank below the rows holds none).
func (l *List) Click(y, height int) bool {
	l.offset = l.ShownOffset(height) // the rows as drawn, which stay put
	i := l.offset + y
	if y < 0 || y >= height || i >= len(l.rows) || l.rows[i].Header != "" {
		return false
	}
	l.cursor = i
	return true
}

// SetKeys enables the list's keys and no other (keymap.KeyMap.Pane), as
// the parts above the panes decide theirs: editing says the editing part
// is wired, query that a query or an explanation is shown (the search
// line's cancel clears it from the list).
func (l *List) SetKeys(k *keymap.KeyMap, editing, query bool) {
	k.Pane(false, k.ListKeys(editing, query)...)
}

// ShortHelp is the list's line of keys.
func (l *List) ShortHelp(k *keymap.KeyMap) []key.Binding {
	return []key.Binding{k.Search, k.SearchCancel, k.Open, k.Sort, k.Explain, k.Edit, k.QuitHint(), k.Help}
}

// FullHelp is the list's columns of the `?` help: moving (in either
// pane) and what is listed and shown.
func (l *List) FullHelp(k *keymap.KeyMap) [][]key.Binding {
	return [][]key.Binding{k.NavigationKeys(), k.ViewKeys()}
}

// What the root reads of the rows as they are laid out.

// Rows are the rows as laid out.
func (l *List) Rows() []Row { return l.rows }

// Cursor is the row under the cursor.
func (l *List) Cursor() int { return l.cursor }

// Offset is the first row shown when the list last scrolled.
func (l *List) Offset() int { return l.offset }

// Entries is how many rows are entries (not headers).
func (l *List) Entries() int { return l.entries }

// Home puts the cursor on the first row: the next Relayout keeps the
// selection only if it asks to, else selects the first entry.
func (l *List) Home() { l.cursor = 0 }

// Relayout lays the rows out again from sp (into the room of the rows
// before), selecting the entry id when had and it is still listed, else
// the entry nearest the same position, and keeps the cursor in sight at
// height rows.
func (l *List) Relayout(s Snapshot, sp Spec, id uint64, had bool, height int) {
	pos := l.cursor
	l.SetRows(Layout(s, sp, l.rows[:0]))
	if !had || !l.SelectID(s, id) {
		l.cursor = l.nearestEntry(min(pos, max(len(l.rows)-1, 0)), 1)
	}
	l.Scroll(height)
}
