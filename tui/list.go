package tui

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
)

// sortOrder is the list's order; relevance exists only while searching.
type sortOrder int

const (
	sortNewest sortOrder = iota
	sortOldest
	sortName
	sortSize
	sortRelevance
)

// String names the order for the status line.
func (s sortOrder) String() string {
	return [...]string{"newest", "oldest", "name", "size", "relevance"}[s]
}

// next cycles the order; relevance is offered only while searching.
func (s sortOrder) next(searching bool) sortOrder {
	n := s + 1
	if n == sortRelevance && !searching || n > sortRelevance {
		n = sortNewest
	}
	return n
}

// kindFilter restricts the list to one kind; filterAll shows every kind.
type kindFilter int

const filterAll kindFilter = -1

func (f kindFilter) keep(k store.Kind) bool { return f == filterAll || store.Kind(f) == k }

// String names the filter for the status line.
func (f kindFilter) String() string {
	if f == filterAll {
		return "all"
	}
	return store.Kind(f).String() + "s"
}

// row is one line of the list: a group or section header, an entry, or
// the "… N more name matches" row (more > 0), which expands the section.
type row struct {
	header string // non-empty for a header row
	idx    int    // the entry's index in the snapshot
	hit    hitKind
	score  float64
	via    hitKind // where score comes from (hitExact, hitPrefix, or 0)
	more   int     // name matches not listed (the expand row)
}

// isEntry reports whether the row shows an entry.
func (r row) isEntry() bool { return r.header == "" && r.more == 0 }

// listView is the list pane, a sub-model: what it lists (the kind filter,
// the order, how a search is shown), its rows, the cursor and the scroll
// offset. It lays itself out again from a rowsSpec (rebuild), keeps its
// selection, moves on its keys and takes clicks; the root says what
// snapshot and search it lists.
type listView struct {
	filter     kindFilter
	order      sortOrder
	expanded   bool // every name match is listed, not only the first nameRows
	recallView bool // the recall view: exactly recall(query, recallLimit)

	rows    []row
	entries int // entry rows (not headers) in rows
	cursor  int
	offset  int
}

// spec is what the list is laid out from: its own filter, order and view
// of a search, with the search's result res (nil: none), the other filters
// (keep), the limits and the time zone.
func (l *listView) spec(res *searchResult, keep func(store.Entry) bool, lim limits, loc *time.Location) rowsSpec {
	return rowsSpec{filter: l.filter, keep: keep, order: l.order, res: res,
		lim: lim, expanded: l.expanded, recall: l.recallView && res != nil, loc: loc}
}

// setRows installs rows and counts the entries among them.
func (l *listView) setRows(rows []row) {
	l.rows, l.entries = rows, 0
	for _, r := range rows {
		if r.isEntry() {
			l.entries++
		}
	}
}

// rowsSpec is what the list is laid out from.
type rowsSpec struct {
	filter   kindFilter
	keep     func(store.Entry) bool // the date and editing filters; nil: all
	order    sortOrder
	res      *searchResult
	lim      limits
	expanded bool // every name match, not only the first lim.nameRows
	recall   bool // the recall view
	loc      *time.Location
}

// layoutRows builds the list's rows: every listed entry in order (with date
// groups when sorted by date), or the search's sections. buf, if it has
// room, is reused for the rows (the previous list's: 100k rows need not be
// allocated on every rebuild).
func layoutRows(s *snapshot, sp rowsSpec, buf []row) []row {
	if sp.res != nil {
		return searchRows(s, sp)
	}
	o := s.order(sp.order)
	keep := func(e *store.Entry) bool { return sp.filter.keep(e.Kind) && (sp.keep == nil || sp.keep(*e)) }
	if need := len(o) + len(o)/8 + 2; cap(buf) < need {
		buf = make([]row, 0, need)
	}
	if sp.order == sortNewest || sp.order == sortOldest { // one pass, headers inline
		g := dateGrouper{s: s, loc: sp.loc, out: buf[:0]}
		for _, i := range o {
			if keep(&s.entries[i]) {
				g.add(row{idx: i})
			}
		}
		return g.out
	}
	rows := buf[:0]
	for _, i := range o {
		if keep(&s.entries[i]) {
			rows = append(rows, row{idx: i})
		}
	}
	return rows
}

// searchRows lays out a search: in the recall view exactly the agent's
// recall; by relevance, labelled sections (name matches cut to
// lim.nameRows with an expand row, recall, prefix matches); in another
// order every hit sorted. An entry is listed once, in the first section
// that shows it.
func searchRows(s *snapshot, sp rowsSpec) []row {
	res := sp.res
	if sp.recall {
		return recallRows(s, res, sp.lim.recallLimit)
	}
	if sp.order != sortRelevance {
		return everyHitRows(s, sp)
	}
	listed := func(h hit) (row, bool) {
		i, ok := s.index(h.id)
		if !ok || !sp.filter.keep(s.entries[i].Kind) || (sp.keep != nil && !sp.keep(s.entries[i])) {
			return row{}, false
		}
		return row{idx: i, hit: h.kind, score: h.score, via: h.via}, true
	}
	seen := map[uint64]bool{}
	var names, rest []row
	hidden := 0
	for _, h := range res.names {
		if r, ok := listed(h); ok {
			if sp.order == sortRelevance && !sp.expanded && len(names) >= sp.lim.nameRows {
				hidden++
				continue
			}
			names = append(names, r)
			seen[h.id] = true
		}
	}
	for _, list := range [][]hit{res.exact, res.prefix} {
		for _, h := range list {
			if r, ok := listed(h); ok && !seen[h.id] {
				seen[h.id] = true
				rest = append(rest, r)
			}
		}
	}
	if hidden > 0 {
		if sp.filter == filterAll && sp.keep == nil {
			hidden += res.nameTotal - len(res.names) // found but beyond the list's cap
		}
		names = append(names, row{more: hidden})
	}
	return withSections(append(names, rest...), res)
}

// recallRows is the recall view: the first limit exact hits, whatever the
// filters, as the agent's recall(query, limit) returns them.
func recallRows(s *snapshot, res *searchResult, limit int) []row {
	rows := []row{{header: fmt.Sprintf("recall(%q, %d): what the agent gets", sanitize.Line(res.query), limit)}}
	for _, h := range res.exact {
		if len(rows) > limit {
			break
		}
		if i, ok := s.index(h.id); ok {
			rows = append(rows, row{idx: i, hit: hitExact, score: h.score, via: hitExact})
		}
	}
	return rows
}

// keptHits is every hit of the search (res.all) that the filters keep,
// as rows in no order, and pos: 1 + each entry's row, 0 when it is none.
func keptHits(s *snapshot, sp rowsSpec) (rows []row, pos []int32) {
	res := sp.res
	pos = make([]int32, s.len())
	rows = make([]row, 0, len(res.all))
	for k, h := range res.all {
		i, ok := int(res.allAt[k]), true
		if s != res.allSnap { // a reload came since the search: find it by id
			i, ok = s.index(h.id)
		}
		if !ok || !sp.filter.keep(s.entries[i].Kind) || (sp.keep != nil && !sp.keep(s.entries[i])) {
			continue
		}
		rows = append(rows, row{idx: i, hit: h.kind, score: h.score, via: h.via})
		pos[i] = int32(len(rows))
	}
	return rows, pos
}

// everyHitRows lists every hit the filters keep in the order sp.order,
// read off the snapshot's order (built off the loop as for the whole
// list), so 100k hits cost one pass and no sort on the loop.
func everyHitRows(s *snapshot, sp rowsSpec) []row {
	hits, pos := keptHits(s, sp)
	rows := make([]row, 0, len(hits))
	for _, i := range s.order(sp.order) {
		if p := pos[i]; p > 0 {
			rows = append(rows, hits[p-1])
		}
	}
	if sp.order == sortNewest || sp.order == sortOldest {
		return withDateGroups(s, rows, sp.loc)
	}
	return rows
}

// withSections puts labelled section headers before each kind of hit,
// with the true count of each kind.
func withSections(rows []row, res *searchResult) []row {
	out := make([]row, 0, len(rows)+3)
	last := hitKind(-1)
	for _, r := range rows {
		if r.more == 0 && r.hit != last {
			out = append(out, row{header: sectionTitle(r.hit, res)})
			last = r.hit
		}
		out = append(out, r)
	}
	return out
}

// sectionTitle names a section and counts its hits.
func sectionTitle(k hitKind, res *searchResult) string {
	switch k {
	case hitName:
		return "name matches (" + humanize.Count(res.nameTotal) + ")"
	case hitPrefix:
		return "prefix matches (" + humanize.Count(res.prefixOnly) + ", " + sanitize.Line(lastWord(res.query)) + "*)"
	}
	return "recall (" + humanize.Count(res.exactTotal) + ")"
}

// withDateGroups inserts month and day headers (the agent-memory timeline).
func withDateGroups(s *snapshot, rows []row, loc *time.Location) []row {
	g := dateGrouper{s: s, loc: loc, out: make([]row, 0, len(rows)+len(rows)/8+2)}
	for _, r := range rows {
		g.add(r)
	}
	return g.out
}

// dateGrouper appends rows sorted by date with a header before each new
// month and day. Dates are worked out only when a row leaves the current
// day, so 100k rows cost a few thousand conversions.
type dateGrouper struct {
	s              *snapshot
	loc            *time.Location
	out            []row
	month, day     int
	dayFrom, dayTo int64 // the current day's seconds [from, to)
	started        bool
}

// add appends r, after the headers its date needs.
func (g *dateGrouper) add(r row) {
	if !g.started {
		g.month, g.day, g.dayFrom, g.dayTo, g.started = -1, -1, 1, 0, true
	}
	c := g.s.entries[r.idx].CreatedAt
	if c > humanize.MaxDisplayTime {
		if g.month != -2 {
			g.out = append(g.out, row{header: "after year 9999"})
			g.month, g.day, g.dayFrom, g.dayTo = -2, -1, 1, 0
		}
		g.out = append(g.out, r)
		return
	}
	if sec := int64(c); sec < g.dayFrom || sec >= g.dayTo {
		t := time.Unix(sec, 0).In(g.loc)
		y, mo, d := t.Date()
		g.dayFrom = time.Date(y, mo, d, 0, 0, 0, 0, g.loc).Unix()
		g.dayTo = time.Date(y, mo, d+1, 0, 0, 0, 0, g.loc).Unix()
		if m := y*12 + int(mo); m != g.month {
			g.out = append(g.out, row{header: t.Format("January 2006")})
			g.month, g.day = m, -1
		}
		if d != g.day {
			g.out = append(g.out, row{header: t.Format("  Mon 2 Jan")})
			g.day = d
		}
	}
	g.out = append(g.out, r)
}

// selected returns the row under the cursor, if it is an entry.
func (l *listView) selected() (row, bool) {
	if l.cursor < 0 || l.cursor >= len(l.rows) || !l.rows[l.cursor].isEntry() {
		return row{}, false
	}
	return l.rows[l.cursor], true
}

// atMore reports whether the cursor is on the "… N more" row.
func (l *listView) atMore() bool {
	return l.cursor >= 0 && l.cursor < len(l.rows) && l.rows[l.cursor].more > 0
}

// first returns the first entry row, or -1.
func (l *listView) first() int {
	for i, r := range l.rows {
		if r.isEntry() {
			return i
		}
	}
	return -1
}

// move shifts the cursor by delta rows, skipping headers, and clamps.
func (l *listView) move(delta int) {
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

// moveBy moves the cursor by delta rows and keeps it in sight at height
// rows; it reports whether the selection moved.
func (l *listView) moveBy(delta, height int) bool {
	before := l.cursor
	l.move(delta)
	l.scroll(height)
	return l.cursor != before
}

// key moves the cursor on a navigation key (keys; a page is height-1
// rows) and reports whether the selection moved.
func (l *listView) key(keys *keymap.KeyMap, k tea.KeyPressMsg, height int) bool {
	d, ok := navDelta(keys, k, height, len(l.rows))
	return ok && l.moveBy(d, height)
}

// nearestEntry finds an entry row from i in direction step, else the other way.
func (l *listView) nearestEntry(i, step int) int {
	for j := i; j >= 0 && j < len(l.rows); j += step {
		if l.rows[j].header == "" {
			return j
		}
	}
	for j := i; j >= 0 && j < len(l.rows); j -= step {
		if l.rows[j].header == "" {
			return j
		}
	}
	return max(0, min(i, len(l.rows)-1))
}

// selectID puts the cursor on the entry with id; false if it is not listed.
func (l *listView) selectID(s *snapshot, id uint64) bool {
	for i, r := range l.rows {
		if r.isEntry() && s.entries[r.idx].ID == id {
			l.cursor = i
			return true
		}
	}
	return false
}

// scroll keeps the cursor within the visible height, showing the headers
// just above it when possible.
func (l *listView) scroll(height int) {
	if height <= 0 {
		return
	}
	if l.cursor < l.offset {
		l.offset = l.cursor
		for l.offset > 0 && l.rows[l.offset-1].header != "" && l.cursor-l.offset < height-1 {
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
func (l *listView) headersBefore(i int) bool {
	for _, r := range l.rows[:min(i, len(l.rows))] {
		if r.header == "" {
			return false
		}
	}
	return true
}

// listStyle is what rendering a row needs to know.
type listStyle struct {
	width    int
	now      time.Time
	focused  bool
	marks    map[uint64]store.Entry
	open     key.Binding           // the key that lists every name match, for its hint
	fresh    map[uint64]changeKind // added or changed by a reload, not yet seen
	searched bool
	badge    func(store.Entry) string
}

// view renders height rows of the list.
func (l *listView) view(s *snapshot, st *styles, ls listStyle, height int) string {
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
func (l *listView) rowLine(s *snapshot, st *styles, ls listStyle, i int, name string) string {
	r := l.rows[i]
	switch {
	case r.header != "":
		return st.groupHeader.Render(ansi.Truncate(r.header, ls.width, "…"))
	case r.more > 0:
		line := ansi.Truncate(fmt.Sprintf("   … %s more name matches%s", humanize.Count(r.more), paren(keyHint(ls.open, "shows them"))), ls.width, "…")
		if i == l.cursor {
			return st.selectedRow(ls.focused).Render(line)
		}
		return st.dim.Render(line)
	}
	e := s.entries[r.idx]
	mark := " "
	if _, marked := ls.marks[e.ID]; marked {
		mark = st.mark.Render("●")
	} else if k, ok := ls.fresh[e.ID]; ok {
		mark = st.mark.Render(k.sign())
	}
	right, badge := rowRight(r, e, ls)
	w := rowNameWidth(right, badge, ls)
	if isMixed(e.Name) {
		name += st.warning.Render(mixedMark)
	}
	name += strings.Repeat(" ", max(0, w-lipgloss.Width(name)))
	line := mark + st.kindMarker(e.Kind) + " " + name + badge + st.dim.Render(right)
	if i == l.cursor {
		return st.selectedRow(ls.focused).Render(ansi.Strip(line))
	}
	return line
}

// narrowList is the list's width below which a row keeps one right-hand
// column (the age, or the score while searching), its other cells going
// to the name: at 20 columns names shrank to a letter or two ("fi…te").
const narrowList = 30

// rowRight is an entry row's right-hand columns (age and size, or age
// and score while searching; on a narrow list the age or the score) and
// its badge.
func rowRight(r row, e store.Entry, ls listStyle) (right, badge string) {
	age, second := humanize.Age(ls.now, e.CreatedAt), humanize.Size(len(e.Content))
	if ls.searched {
		second = score(r)
	}
	switch {
	case ls.width >= narrowList:
		right = fmt.Sprintf(" %4s %5s", age, second)
	case ls.searched:
		right = fmt.Sprintf(" %5s", second)
	default:
		right = fmt.Sprintf(" %4s", age)
	}
	if ls.badge != nil {
		badge = ls.badge(e)
	}
	return right, badge
}

// rowNameWidth is the cells an entry row leaves for the name, beside the
// mark, the kind marker and the right-hand columns.
func rowNameWidth(right, badge string, ls listStyle) int {
	return max(1, ls.width-2-2-lipgloss.Width(right)-lipgloss.Width(badge))
}

// fitVisible fits the names of rows [from, to) (one screen) to their
// widths so that no two of them read the same (SPEC §7): each is first
// fitted against its adjacent rows; a name whose text then reads the same
// as another visible row's is refitted apart from those rows' names, so
// the prefix they share gives way. Only the visible rows are looked at.
// Header and "more" rows get "".
func (l *listView) fitVisible(s *snapshot, ls listStyle, from, to int) []string {
	n := to - from
	names := make([]string, n)
	widths := make([]int, n)
	for i := range n {
		r := l.rows[from+i]
		if !r.isEntry() {
			continue
		}
		right, badge := rowRight(r, s.entries[r.idx], ls)
		widths[i] = rowNameWidth(right, badge, ls)
		if isMixed(s.entries[r.idx].Name) { // the mark after the name
			widths[i] = max(widths[i]-lipgloss.Width(mixedMark), 1)
		}
		names[i] = fitName(s.label(r.idx), l.neighbour(s, from+i, -1), l.neighbour(s, from+i, 1), widths[i])
	}
	apart := make([][]string, n) // the names each row must read apart from
	for range 3 {                // a refit seldom collides again; three rounds settle it
		byText := map[string][]int{}
		for i, t := range names {
			if l.rows[from+i].isEntry() {
				byText[t] = append(byText[t], i)
			}
		}
		changed := false
		for _, same := range byText {
			for _, i := range same {
				label, grew := s.label(l.rows[from+i].idx), false
				for _, j := range same {
					if other := s.label(l.rows[from+j].idx); other != label && !slices.Contains(apart[i], other) {
						apart[i] = append(apart[i], other)
						grew = true
					}
				}
				if grew {
					names[i] = fitApart(label, apart[i], widths[i])
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
func (l *listView) neighbour(s *snapshot, i, step int) string {
	for j := i + step; j >= 0 && j < len(l.rows); j += step {
		if r := l.rows[j]; r.isEntry() {
			return s.label(r.idx)
		}
	}
	return ""
}

// score labels a search hit's score for the list.
func score(r row) string {
	switch {
	case r.hit == hitName && r.via == 0:
		return "name"
	case r.via == hitPrefix:
		return fmt.Sprintf("~%.1f", r.score)
	}
	return fmt.Sprintf("%.2f", r.score)
}

// relayout lays the rows out again from sp, selecting the entry id when
// had and it is still listed, else the entry nearest the same position,
// and keeps the cursor in sight at height rows.
func (l *listView) relayout(s *snapshot, sp rowsSpec, id uint64, had bool, height int) {
	pos := l.cursor
	l.setRows(layoutRows(s, sp, l.rows[:0]))
	if !had || !l.selectID(s, id) {
		l.cursor = l.nearestEntry(min(pos, max(len(l.rows)-1, 0)), 1)
	}
	l.scroll(height)
}

// rebuild lays the rows out again from sp, keeping the selected entry if
// it is still listed, else the same row position.
func (l *listView) rebuild(s *snapshot, sp rowsSpec, height int) {
	id, had := l.selectedID(s)
	l.relayout(s, sp, id, had, height)
}

// selectedID is the id of the selected entry in s.
func (l *listView) selectedID(s *snapshot) (uint64, bool) {
	r, ok := l.selected()
	if !ok || r.idx >= s.len() {
		return 0, false
	}
	return s.entries[r.idx].ID, true
}

// selectedEntry is the entry under the cursor.
func (l *listView) selectedEntry(s *snapshot) (store.Entry, bool) {
	r, ok := l.selected()
	if !ok {
		return store.Entry{}, false
	}
	return s.entries[r.idx], true
}

// selectFirst puts the cursor on the first entry (a search's best hit),
// from the top of the list when fromTop, and keeps it in sight at height
// rows; false when nothing is listed.
func (l *listView) selectFirst(height int, fromTop bool) bool {
	i := l.first()
	if i < 0 {
		return false
	}
	l.cursor = i
	if fromTop {
		l.offset = 0
	}
	l.scroll(height)
	return true
}

// listedIDs are the ids of the listed entries of s, in list order.
func (l *listView) listedIDs(s *snapshot) []uint64 {
	ids := make([]uint64, 0, l.entries)
	for _, r := range l.rows {
		if r.isEntry() {
			ids = append(ids, s.entries[r.idx].ID)
		}
	}
	return ids
}

// position is "37/10,000": the selected entry among the listed ones.
func (l *listView) position() string {
	if l.entries == 0 {
		return "0/0"
	}
	at := 0
	for i := 0; i <= l.cursor && i < len(l.rows); i++ {
		if l.rows[i].isEntry() {
			at++
		}
	}
	return humanize.Count(at) + "/" + humanize.Count(l.entries)
}

// shownOffset is the first row on screen in a pane height rows high: a
// message line above the status may shorten the pane since the list last
// scrolled, and the pane is then drawn scrolled to keep the selection in
// sight (a click maps the pointer through the same offset).
func (l *listView) shownOffset(height int) int {
	c := *l // a copy: drawing does not move the list
	c.scroll(height)
	return c.offset
}

// pane draws the rows at height rows as they are shown (shownOffset).
func (l *listView) pane(s *snapshot, st *styles, ls listStyle, height int) string {
	c := *l
	c.offset = l.shownOffset(height)
	return c.view(s, st, ls, height)
}

// click puts the cursor on the row at y, a line of the pane (0: its first)
// height rows high, as drawn; it reports whether y held an entry or the
// "… N more" row (a header or the blank below the rows holds none).
func (l *listView) click(y, height int) bool {
	l.offset = l.shownOffset(height) // the rows as drawn, which stay put
	i := l.offset + y
	if y < 0 || y >= height || i >= len(l.rows) || l.rows[i].header != "" {
		return false
	}
	l.cursor = i
	return true
}

// setKeys enables the list's keys and no other (keymap.KeyMap.Pane), as
// the parts above the panes decide theirs: editing says the editing part
// is wired, query that a query or an explanation is shown (the search
// line's cancel clears it from the list).
func (l *listView) setKeys(k *keymap.KeyMap, editing, query bool) {
	k.Pane(false, k.ListKeys(editing, query)...)
}

// shortHelp is the list's line of keys.
func (l *listView) shortHelp(k *keymap.KeyMap) []key.Binding {
	return []key.Binding{k.Search, k.SearchCancel, k.Open, k.Sort, k.Explain, k.Edit, k.QuitHint(), k.Help}
}

// fullHelp is the list's columns of the `?` help: moving (in either
// pane) and what is listed and shown.
func (l *listView) fullHelp(k *keymap.KeyMap) [][]key.Binding {
	return [][]key.Binding{k.NavigationKeys(), k.ViewKeys()}
}
