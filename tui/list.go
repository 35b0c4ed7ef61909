package tui

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/humanize"
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

// row is one line of the list: a group or section header, or an entry.
type row struct {
	header string // non-empty for a header row
	idx    int    // the entry's index in the snapshot
	hit    hitKind
	score  float64
}

// listView is the list pane's state: rows, cursor and scroll offset.
type listView struct {
	rows   []row
	cursor int
	offset int
}

// buildRows lays out the list for a snapshot, filter, order and search.
func buildRows(s *snapshot, f kindFilter, order sortOrder, res *searchResult, loc *time.Location) []row {
	return buildRowsWhere(s, f, nil, order, res, loc)
}

// buildRowsWhere is buildRows listing only the entries keep accepts (nil:
// all); the features' entry filters (orphan archives) come in here.
func buildRowsWhere(s *snapshot, f kindFilter, keep func(store.Entry) bool, order sortOrder, res *searchResult, loc *time.Location) []row {
	var rows []row
	if res != nil {
		for _, h := range res.hits {
			if i, ok := s.index(h.id); ok && f.keep(s.entries[i].Kind) && (keep == nil || keep(s.entries[i])) {
				rows = append(rows, row{idx: i, hit: h.kind, score: h.score})
			}
		}
	} else {
		rows = make([]row, 0, len(s.entries))
		for _, i := range s.order(order) {
			if e := s.entries[i]; f.keep(e.Kind) && (keep == nil || keep(e)) {
				rows = append(rows, row{idx: i})
			}
		}
	}
	if order == sortRelevance && res != nil {
		return withSections(rows)
	}
	if res != nil {
		sortRows(s, rows, order)
	}
	if order == sortNewest || order == sortOldest {
		return withDateGroups(s, rows, loc)
	}
	return rows
}

// sortRows orders entry rows; ties fall back to id so the order is stable.
func sortRows(s *snapshot, rows []row, order sortOrder) {
	e := s.entries
	var less func(a, b row) int
	switch order {
	case sortOldest:
		less = func(a, b row) int { return -cmpDesc(e[a.idx].CreatedAt, e[b.idx].CreatedAt, e[a.idx].ID, e[b.idx].ID) }
	case sortName:
		less = func(a, b row) int {
			return cmp.Or(strings.Compare(e[a.idx].Name, e[b.idx].Name), cmp.Compare(e[a.idx].ID, e[b.idx].ID))
		}
	case sortSize:
		less = func(a, b row) int {
			return cmp.Or(cmp.Compare(len(e[b.idx].Content), len(e[a.idx].Content)), cmp.Compare(e[b.idx].ID, e[a.idx].ID))
		}
	default:
		less = func(a, b row) int { return cmpDesc(e[a.idx].CreatedAt, e[b.idx].CreatedAt, e[a.idx].ID, e[b.idx].ID) }
	}
	slices.SortFunc(rows, less)
}

// withSections puts labelled section headers before each kind of hit.
func withSections(rows []row) []row {
	out := make([]row, 0, len(rows)+3)
	var last hitKind
	for _, r := range rows {
		if r.hit != last {
			out = append(out, row{header: sectionTitle(r.hit)})
			last = r.hit
		}
		out = append(out, r)
	}
	return out
}

func sectionTitle(k hitKind) string {
	switch k {
	case hitName:
		return "name matches"
	case hitPrefix:
		return "prefix matches"
	}
	return "recall"
}

// withDateGroups inserts month and day headers (the agent-memory timeline).
func withDateGroups(s *snapshot, rows []row, loc *time.Location) []row {
	out := make([]row, 0, len(rows)+len(rows)/8+2)
	month, day := -1, -1
	for _, r := range rows {
		if s.entries[r.idx].CreatedAt > humanize.MaxDisplayTime {
			if month != -2 {
				out = append(out, row{header: "after year 9999"})
				month, day = -2, -1
			}
			out = append(out, r)
			continue
		}
		t := time.Unix(int64(s.entries[r.idx].CreatedAt), 0).In(loc)
		y, mo, d := t.Date()
		if m := y*12 + int(mo); m != month {
			out = append(out, row{header: t.Format("January 2006")})
			month, day = m, -1
		}
		if d != day {
			out = append(out, row{header: t.Format("  Mon 2 Jan")})
			day = d
		}
		out = append(out, r)
	}
	return out
}

// selected returns the row under the cursor, if it is an entry.
func (l *listView) selected() (row, bool) {
	if l.cursor < 0 || l.cursor >= len(l.rows) || l.rows[l.cursor].header != "" {
		return row{}, false
	}
	return l.rows[l.cursor], true
}

// first returns the first entry row, or -1.
func (l *listView) first() int {
	for i, r := range l.rows {
		if r.header == "" {
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
		if r.header == "" && s.entries[r.idx].ID == id {
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
	l.offset = max(0, min(l.offset, len(l.rows)-height))
}

// listStyle is what rendering a row needs to know.
type listStyle struct {
	width    int
	now      time.Time
	focused  bool
	marks    map[uint64]bool
	searched bool
	badge    func(store.Entry) string
}

// view renders height rows of the list.
func (l *listView) view(s *snapshot, st *styles, ls listStyle, height int) string {
	lines := make([]string, 0, height)
	for i := l.offset; i < len(l.rows) && len(lines) < height; i++ {
		lines = append(lines, l.rowLine(s, st, ls, i))
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// rowLine renders one row at the pane's width.
func (l *listView) rowLine(s *snapshot, st *styles, ls listStyle, i int) string {
	r := l.rows[i]
	if r.header != "" {
		return st.groupHeader.Render(ansi.Truncate(r.header, ls.width, "…"))
	}
	e := s.entries[r.idx]
	mark := " "
	if ls.marks[e.ID] {
		mark = st.mark.Render("●")
	}
	right := fmt.Sprintf(" %4s %5s", humanize.Age(ls.now, e.CreatedAt), humanize.Size(len(e.Content)))
	if ls.searched {
		right = fmt.Sprintf(" %4s %5s", humanize.Age(ls.now, e.CreatedAt), score(r))
	}
	badge := ""
	if ls.badge != nil {
		badge = ls.badge(e)
	}
	nameW := max(1, ls.width-2-2-lipgloss.Width(right)-lipgloss.Width(badge))
	name := ansi.Truncate(s.label(r.idx), nameW, "…")
	name += strings.Repeat(" ", nameW-lipgloss.Width(name))
	line := mark + st.kindMarker(e.Kind) + " " + name + badge + st.dim.Render(right)
	if i == l.cursor {
		return st.selectedRow(ls.focused).Render(ansi.Strip(line))
	}
	return line
}

// score labels a search hit's score for the list.
func score(r row) string {
	switch {
	case r.hit == hitName && r.score == 0:
		return "name"
	case r.hit == hitPrefix:
		return fmt.Sprintf("~%.1f", r.score)
	}
	return fmt.Sprintf("%.2f", r.score)
}
