package list

import (
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/part"
)

// Laying the rows out: every listed entry in the order asked (with date
// groups when by date), or a search's sections, from the snapshot and
// the search's result the root lends.

// Snapshot is what the rows are laid out from: the memory shown, its
// entries by id, and its orders (built off the loop by the root, so a
// list of 100k entries is laid out in one pass).
type Snapshot interface {
	part.Snapshot
	// Index is the position of the entry with id among Entries.
	Index(id uint64) (int, bool)
	// Order is the positions of the entries sorted by o (not Relevance).
	Order(o Order) []int
}

// Hit is one search result: an entry id and its score. Ids (not
// snapshot positions) keep a result valid across a reload until the next
// one arrives.
type Hit struct {
	ID    uint64
	Kind  HitKind
	Score float64 // bm25 score; 0 for a name match that recall does not find
	Via   HitKind // where Score comes from: HitExact, HitPrefix, or 0
}

// Search is what the list lays out of a search's result: its sections,
// each cut to a bound with the true totals, and every hit however many
// the sections leave out.
type Search struct {
	Query  string
	Names  []Hit // name and alias matches, best first
	Exact  []Hit // exact recall, in the agent's order
	Prefix []Hit // hits only through a prefix expansion
	// The true numbers of each section's hits; PrefixOnly counts the
	// hits through the expansions that exact recall lacks.
	NameTotal, ExactTotal, PrefixOnly int

	// All is every hit, each entry once with the kind its section gives
	// it (a name match, else recall, else prefix), in no order: the
	// sorted views list them and marking all marks them. AllAt holds
	// each one's position in AllSnap, the snapshot searched, so laying
	// them out on it needs no lookup by id.
	All     []Hit
	AllAt   []int32
	AllSnap Snapshot
}

// Spec is what the list is laid out from.
type Spec struct {
	Filter      Filter
	Keep        func(store.Entry) bool // the date and editing filters; nil: all
	Order       Order
	Res         *Search // the search listed; nil: none
	NameRows    int     // name matches listed before "… N more"
	RecallLimit int     // the recall view's limit
	Expanded    bool    // every name match, not only the first NameRows
	Recall      bool    // the recall view
	Loc         *time.Location
}

// Spec is what l is laid out from: its own filter, order and view of a
// search, with the search's result res (nil: none), the other filters
// (keep), the limits and the time zone.
func (l *List) Spec(res *Search, keep func(store.Entry) bool, nameRows, recallLimit int, loc *time.Location) Spec {
	return Spec{Filter: l.Filter, Keep: keep, Order: l.Order, Res: res, NameRows: nameRows, RecallLimit: recallLimit,
		Expanded: l.Expanded, Recall: l.RecallView && res != nil, Loc: loc}
}

// Rebuild lays the rows out again from sp, keeping the selected entry if
// it is still listed, else the same row position.
func (l *List) Rebuild(s Snapshot, sp Spec, height int) {
	id, had := l.SelectedID(s)
	l.Relayout(s, sp, id, had, height)
}

// LastWord returns the run of word runes (as the tokenizer splits) that
// ends the query, or "" when the query ends in anything else (the word is
// finished): the word a prefix search expands.
func LastWord(query string) string {
	end := len(query)
	i := end
	for i > 0 {
		r, w := utf8.DecodeLastRuneInString(query[:i])
		if !bm25.IsWordRune(r) {
			break
		}
		i -= w
	}
	return query[i:end]
}

// Layout builds the list's rows: every listed entry in order (with date
// groups when sorted by date), or the search's sections. buf, if it has
// room, is reused for the rows (the previous list's: 100k rows need not be
// allocated on every rebuild).
func Layout(s Snapshot, sp Spec, buf []Row) []Row {
	if sp.Res != nil {
		return searchRows(s, sp)
	}
	o, es := s.Order(sp.Order), s.Entries()
	keep := func(e *store.Entry) bool { return sp.Filter.Keep(e.Kind) && (sp.Keep == nil || sp.Keep(*e)) }
	if need := len(o) + len(o)/8 + 2; cap(buf) < need {
		buf = make([]Row, 0, need)
	}
	if sp.Order == Newest || sp.Order == Oldest { // one pass, headers inline
		g := dateGrouper{es: es, loc: sp.Loc, out: buf[:0]}
		for _, i := range o {
			if keep(&es[i]) {
				g.add(Row{Idx: i})
			}
		}
		return g.out
	}
	rows := buf[:0]
	for _, i := range o {
		if keep(&es[i]) {
			rows = append(rows, Row{Idx: i})
		}
	}
	return rows
}

// searchRows lays out a search: in the recall view exactly the agent's
// recall; by relevance, labelled sections (name matches cut to
// lim.nameRows with an expand row, recall, prefix matches); in another
// order every hit sorted. An entry is listed once, in the first section
// that shows it.
func searchRows(s Snapshot, sp Spec) []Row {
	res := sp.Res
	if sp.Recall {
		return recallRows(s, res, sp.RecallLimit)
	}
	if sp.Order != Relevance {
		return everyHitRows(s, sp)
	}
	es := s.Entries()
	listed := func(h Hit) (Row, bool) {
		i, ok := s.Index(h.ID)
		if !ok || !sp.Filter.Keep(es[i].Kind) || (sp.Keep != nil && !sp.Keep(es[i])) {
			return Row{}, false
		}
		return Row{Idx: i, Hit: h.Kind, Score: h.Score, Via: h.Via}, true
	}
	seen := map[uint64]bool{}
	var names, rest []Row
	hidden := 0
	for _, h := range res.Names {
		if r, ok := listed(h); ok {
			if sp.Order == Relevance && !sp.Expanded && len(names) >= sp.NameRows {
				hidden++
				continue
			}
			names = append(names, r)
			seen[h.ID] = true
		}
	}
	for _, list := range [][]Hit{res.Exact, res.Prefix} {
		for _, h := range list {
			if r, ok := listed(h); ok && !seen[h.ID] {
				seen[h.ID] = true
				rest = append(rest, r)
			}
		}
	}
	if hidden > 0 {
		if sp.Filter == All && sp.Keep == nil {
			hidden += res.NameTotal - len(res.Names) // found but beyond the list's cap
		}
		names = append(names, Row{More: hidden})
	}
	return withSections(append(names, rest...), res)
}

// recallRows is the recall view: the first limit exact hits, whatever the
// filters, as the agent's recall(query, limit) returns them.
func recallRows(s Snapshot, res *Search, limit int) []Row {
	rows := []Row{{Header: fmt.Sprintf("recall(%q, %d): what the agent gets", sanitize.Line(res.Query), limit)}}
	for _, h := range res.Exact {
		if len(rows) > limit {
			break
		}
		if i, ok := s.Index(h.ID); ok {
			rows = append(rows, Row{Idx: i, Hit: HitExact, Score: h.Score, Via: HitExact})
		}
	}
	return rows
}

// keptHits is every hit of the search (res.All) that the filters keep,
// as rows in no order, and pos: 1 + each entry's row, 0 when it is none.
func KeptHits(s Snapshot, sp Spec) (rows []Row, pos []int32) {
	res := sp.Res
	es := s.Entries()
	same := s == res.AllSnap // else a reload came since the search: each is found by id
	pos = make([]int32, len(es))
	rows = make([]Row, 0, len(res.All))
	for k, h := range res.All {
		i, ok := int(res.AllAt[k]), true
		if !same {
			i, ok = s.Index(h.ID)
		}
		if !ok || !sp.Filter.Keep(es[i].Kind) || (sp.Keep != nil && !sp.Keep(es[i])) {
			continue
		}
		rows = append(rows, Row{Idx: i, Hit: h.Kind, Score: h.Score, Via: h.Via})
		pos[i] = int32(len(rows))
	}
	return rows, pos
}

// everyHitRows lists every hit the filters keep in the order sp.Order,
// read off the snapshot's order (built off the loop as for the whole
// list), so 100k hits cost one pass and no sort on the loop.
func everyHitRows(s Snapshot, sp Spec) []Row {
	hits, pos := KeptHits(s, sp)
	rows := make([]Row, 0, len(hits))
	for _, i := range s.Order(sp.Order) {
		if p := pos[i]; p > 0 {
			rows = append(rows, hits[p-1])
		}
	}
	if sp.Order == Newest || sp.Order == Oldest {
		return withDateGroups(s, rows, sp.Loc)
	}
	return rows
}

// withSections puts labelled section headers before each kind of hit,
// with the true count of each kind.
func withSections(rows []Row, res *Search) []Row {
	out := make([]Row, 0, len(rows)+3)
	last := HitKind(-1)
	for _, r := range rows {
		if r.More == 0 && r.Hit != last {
			out = append(out, Row{Header: sectionTitle(r.Hit, res)})
			last = r.Hit
		}
		out = append(out, r)
	}
	return out
}

// sectionTitle names a section and counts its hits.
func sectionTitle(k HitKind, res *Search) string {
	switch k {
	case HitName:
		return "name matches (" + humanize.Count(res.NameTotal) + ")"
	case HitPrefix:
		return "prefix matches (" + humanize.Count(res.PrefixOnly) + ", " + sanitize.Line(LastWord(res.Query)) + "*)"
	}
	return "recall (" + humanize.Count(res.ExactTotal) + ")"
}

// withDateGroups inserts month and day headers (the agent-memory timeline).
func withDateGroups(s Snapshot, rows []Row, loc *time.Location) []Row {
	g := dateGrouper{es: s.Entries(), loc: loc, out: make([]Row, 0, len(rows)+len(rows)/8+2)}
	for _, r := range rows {
		g.add(r)
	}
	return g.out
}

// dateGrouper appends rows sorted by date with a header before each new
// month and day. Dates are worked out only when a row leaves the current
// day, so 100k rows cost a few thousand conversions.
type dateGrouper struct {
	es             []store.Entry
	loc            *time.Location
	out            []Row
	month, day     int
	dayFrom, dayTo int64 // the current day's seconds [from, to)
	started        bool
}

// add appends r, after the headers its date needs.
func (g *dateGrouper) add(r Row) {
	if !g.started {
		g.month, g.day, g.dayFrom, g.dayTo, g.started = -1, -1, 1, 0, true
	}
	c := g.es[r.Idx].CreatedAt
	if c > humanize.MaxDisplayTime {
		if g.month != -2 {
			g.out = append(g.out, Row{Header: "after year 9999"})
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
			g.out = append(g.out, Row{Header: t.Format("January 2006")})
			g.month, g.day = m, -1
		}
		if d != g.day {
			g.out = append(g.out, Row{Header: t.Format("  Mon 2 Jan")})
			g.day = d
		}
	}
	g.out = append(g.out, r)
}
