package tui

import (
	"fmt"
	"time"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/list"
)

// The list pane is a part of its own (tui/list): its rows, cursor,
// scroll, keys, drawing and help. What stays here is laying its rows out
// from what the root holds, the snapshot and the search's result, and
// the names the root has used for the list's types all along.

type (
	sortOrder  = list.Order   // the list's order
	kindFilter = list.Filter  // the kinds listed
	hitKind    = list.HitKind // why an entry is in a search's results
	row        = list.Row     // one line of the list
)

const (
	sortNewest    = list.Newest
	sortOldest    = list.Oldest
	sortName      = list.ByName
	sortSize      = list.BySize
	sortRelevance = list.Relevance

	filterAll = list.All

	hitName   = list.HitName
	hitExact  = list.HitExact
	hitPrefix = list.HitPrefix
)

// listSpec is what the list l is laid out from: its own filter, order and view
// of a search, with the search's result res (nil: none), the other filters
// (keep), the limits and the time zone.
func listSpec(l *list.List, res *searchResult, keep func(store.Entry) bool, lim limits, loc *time.Location) rowsSpec {
	return rowsSpec{filter: l.Filter, keep: keep, order: l.Order, res: res,
		lim: lim, expanded: l.Expanded, recall: l.RecallView && res != nil, loc: loc}
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
	keep := func(e *store.Entry) bool { return sp.filter.Keep(e.Kind) && (sp.keep == nil || sp.keep(*e)) }
	if need := len(o) + len(o)/8 + 2; cap(buf) < need {
		buf = make([]row, 0, need)
	}
	if sp.order == sortNewest || sp.order == sortOldest { // one pass, headers inline
		g := dateGrouper{s: s, loc: sp.loc, out: buf[:0]}
		for _, i := range o {
			if keep(&s.entries[i]) {
				g.add(row{Idx: i})
			}
		}
		return g.out
	}
	rows := buf[:0]
	for _, i := range o {
		if keep(&s.entries[i]) {
			rows = append(rows, row{Idx: i})
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
		if !ok || !sp.filter.Keep(s.entries[i].Kind) || (sp.keep != nil && !sp.keep(s.entries[i])) {
			return row{}, false
		}
		return row{Idx: i, Hit: h.kind, Score: h.score, Via: h.via}, true
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
		names = append(names, row{More: hidden})
	}
	return withSections(append(names, rest...), res)
}

// recallRows is the recall view: the first limit exact hits, whatever the
// filters, as the agent's recall(query, limit) returns them.
func recallRows(s *snapshot, res *searchResult, limit int) []row {
	rows := []row{{Header: fmt.Sprintf("recall(%q, %d): what the agent gets", sanitize.Line(res.query), limit)}}
	for _, h := range res.exact {
		if len(rows) > limit {
			break
		}
		if i, ok := s.index(h.id); ok {
			rows = append(rows, row{Idx: i, Hit: hitExact, Score: h.score, Via: hitExact})
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
		if !ok || !sp.filter.Keep(s.entries[i].Kind) || (sp.keep != nil && !sp.keep(s.entries[i])) {
			continue
		}
		rows = append(rows, row{Idx: i, Hit: h.kind, Score: h.score, Via: h.via})
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
		if r.More == 0 && r.Hit != last {
			out = append(out, row{Header: sectionTitle(r.Hit, res)})
			last = r.Hit
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
	c := g.s.entries[r.Idx].CreatedAt
	if c > humanize.MaxDisplayTime {
		if g.month != -2 {
			g.out = append(g.out, row{Header: "after year 9999"})
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
			g.out = append(g.out, row{Header: t.Format("January 2006")})
			g.month, g.day = m, -1
		}
		if d != g.day {
			g.out = append(g.out, row{Header: t.Format("  Mon 2 Jan")})
			g.day = d
		}
	}
	g.out = append(g.out, r)
}

// relayout lays l's rows out again from sp, selecting the entry id when
// had and it is still listed, else the entry nearest the same position,
// and keeps the cursor in sight at height rows.
func relayout(l *list.List, s *snapshot, sp rowsSpec, id uint64, had bool, height int) {
	l.Relayout(s, layoutRows(s, sp, l.Rows()[:0]), id, had, height)
}

// rebuild lays l's rows out again from sp, keeping the selected entry if
// it is still listed, else the same row position.
func rebuild(l *list.List, s *snapshot, sp rowsSpec, height int) {
	id, had := l.SelectedID(s)
	relayout(l, s, sp, id, had, height)
}

// freshSign is the sign of an entry a reload added or changed and the
// user has not seen yet (+ ~), "" for any other: the list marks its row.
func (c *changeState) freshSign(id uint64) string {
	if k, ok := c.unseen[id]; ok {
		return k.sign()
	}
	return ""
}
