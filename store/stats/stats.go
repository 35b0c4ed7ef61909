// Package stats computes a picture of a memory from its entries: how many
// entries, bytes and recall tokens each kind holds, how many entries were
// added each month over the memory's life, and the biggest entries. It
// reads a []store.Entry (a Source's Memory().Entries()) and knows nothing
// of a terminal; the command line and the TUI draw what it returns.
//
// # Bounds
//
// Compute makes one pass over the entries: time is linear in their total
// size (counting tokens tokenizes every document once, as recall's index
// does) and memory is O(months with additions + Options.Top), independent
// of how big the entries are.
package stats

import (
	"slices"
	"time"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/recalls"
)

// DefaultTop is how many of the biggest entries Compute keeps per measure
// when Options.Top is 0.
const DefaultTop = 10

// Options tune Compute.
type Options struct {
	// Top is how many of the biggest entries to keep, by bytes and by
	// tokens; 0 means DefaultTop, a negative number none.
	Top int
	// Loc is the time zone whose calendar months the growth is counted
	// in; nil means UTC.
	Loc *time.Location
	// Recalled is the recall history, read by recalls.ReadThen; nil
	// leaves Stats.Recalls nil (no history was read).
	Recalled *recalls.Then
	// Now is when the figures are made, for the ages of never-recalled
	// entries; zero means time.Now.
	Now time.Time
}

// Sizes are an entry count with the entries' content bytes and recall
// tokens (store.Entry.Tokens: content and aliases, as recall indexes them).
type Sizes struct {
	Entries int `json:"entries"`
	Bytes   int `json:"bytes"`
	Tokens  int `json:"tokens"`
}

// add counts one entry of b bytes and t tokens.
func (s *Sizes) add(b, t int) {
	s.Entries++
	s.Bytes += b
	s.Tokens += t
}

// KindSizes are the Sizes of one kind.
type KindSizes struct {
	Kind store.Kind `json:"kind"`
	Sizes
}

// Counts are entry counts by kind.
type Counts struct {
	Note    int `json:"note"`
	Archive int `json:"archive"`
	Topic   int `json:"topic"`
}

// Of returns the count of kind k (0 for a kind Counts does not know).
func (c Counts) Of(k store.Kind) int {
	switch k {
	case store.Note:
		return c.Note
	case store.Archive:
		return c.Archive
	case store.Topic:
		return c.Topic
	}
	return 0
}

// Total is the count of every kind.
func (c Counts) Total() int { return c.Note + c.Archive + c.Topic }

// add counts one entry of kind k.
func (c *Counts) add(k store.Kind) {
	switch k {
	case store.Note:
		c.Note++
	case store.Archive:
		c.Archive++
	case store.Topic:
		c.Topic++
	}
}

// Month is what one calendar month added.
type Month struct {
	// Month is the month as "2006-01".
	Month string `json:"month"`
	// Added counts the entries created that month, by kind.
	Added Counts `json:"added"`
	// Total is how many dated entries were created up to the month's end.
	Total int `json:"total"`

	key int // year*12 + month-1, for ordering and gaps
}

// Index is the month's position on a calendar count (year*12 + month - 1):
// two months are n months apart when their indexes differ by n.
func (m Month) Index() int { return m.key }

// Big is one of the biggest entries.
type Big struct {
	ID     uint64     `json:"id,omitempty"` // 0 (left out) for an entry without one
	Name   string     `json:"name"`
	Kind   store.Kind `json:"kind"`
	Bytes  int        `json:"bytes"`
	Tokens int        `json:"tokens"`
}

// Stats is the picture of a memory.
type Stats struct {
	// Total sums every entry.
	Total Sizes `json:"total"`
	// Kinds has one row per kind, in store.Kinds order, empty kinds too.
	Kinds []KindSizes `json:"kinds"`
	// Months are the months that added entries, oldest first; months
	// that added nothing are left out (Month.Index tells the gaps).
	Months []Month `json:"months"`
	// Undated counts the entries whose creation time is unknown (0) or
	// beyond what a calendar shows (after year 9999): they are in no month.
	Undated Counts `json:"undated"`
	// Largest are the biggest entries by content bytes, biggest first
	// (ties: lower id first).
	Largest []Big `json:"largest"`
	// MostTokens are the biggest entries by recall tokens, biggest first
	// (ties: lower id first).
	MostTokens []Big `json:"most_tokens"`
	// Recalls is what the agent's recorded recalls returned then; nil when
	// none was read, and left out of JSON when there is no history (no
	// sessions, or no recall in them): see Recalls.IsZero.
	Recalls *Recalls `json:"recalls,omitzero"`
}

// Compute builds the picture of entries.
func Compute(entries []store.Entry, opt Options) Stats {
	loc := opt.Loc
	if loc == nil {
		loc = time.UTC
	}
	top := opt.Top
	if top == 0 {
		top = DefaultTop
	}
	s := Stats{Kinds: make([]KindSizes, len(store.Kinds))}
	for i, k := range store.Kinds {
		s.Kinds[i].Kind = k
	}
	months := map[int]*Counts{}
	byBytes, byTokens := newTopList(top, func(b Big) int { return b.Bytes }), newTopList(top, func(b Big) int { return b.Tokens })
	for i := range entries {
		e := &entries[i]
		b, t := len(e.Content), e.Tokens()
		s.Total.add(b, t)
		if int(e.Kind) < len(s.Kinds) {
			s.Kinds[e.Kind].add(b, t)
		}
		countMonth(months, &s.Undated, e, loc)
		big := Big{ID: e.ID, Name: e.Name, Kind: e.Kind, Bytes: b, Tokens: t}
		byBytes.offer(big)
		byTokens.offer(big)
	}
	s.Months = sortedMonths(months)
	s.Largest, s.MostTokens = byBytes.items, byTokens.items
	if opt.Recalled != nil {
		now := opt.Now
		if now.IsZero() {
			now = time.Now()
		}
		s.Recalls = computeRecalls(entries, opt.Recalled, top, now)
	}
	return s
}

// countMonth counts e in its creation month, or as undated.
func countMonth(months map[int]*Counts, undated *Counts, e *store.Entry, loc *time.Location) {
	if e.CreatedAt == 0 || e.CreatedAt > humanize.MaxDisplayTime {
		undated.add(e.Kind)
		return
	}
	t := time.Unix(int64(e.CreatedAt), 0).In(loc)
	key := t.Year()*12 + int(t.Month()) - 1
	c := months[key]
	if c == nil {
		c = &Counts{}
		months[key] = c
	}
	c.add(e.Kind)
}

// sortedMonths lists the counted months oldest first, with running totals.
func sortedMonths(months map[int]*Counts) []Month {
	out := make([]Month, 0, len(months))
	for key, c := range months {
		out = append(out, Month{Month: MonthLabel(key), Added: *c, key: key})
	}
	slices.SortFunc(out, func(a, b Month) int { return a.key - b.key })
	total := 0
	for i := range out {
		total += out[i].Added.Total()
		out[i].Total = total
	}
	return out
}

// MonthLabel writes a month index (Month.Index) as "2006-01".
func MonthLabel(key int) string {
	return time.Date(key/12, time.Month(key%12+1), 1, 0, 0, 0, 0, time.UTC).Format("2006-01")
}

// topList keeps the n first items by an order: n is small, so an
// insertion into a sorted slice is cheaper than a heap.
type topList[T any] struct {
	n      int
	before func(a, b T) bool // a ranks before b
	items  []T
}

// newTopList keeps the n biggest by measure, ties by lower id.
func newTopList(n int, measure func(Big) int) *topList[Big] {
	return newOrderedList(n, func(a, b Big) bool {
		ma, mb := measure(a), measure(b)
		return ma > mb || ma == mb && a.ID < b.ID
	})
}

// newOrderedList keeps the n first by before.
func newOrderedList[T any](n int, before func(a, b T) bool) *topList[T] {
	return &topList[T]{n: max(n, 0), before: before, items: make([]T, 0, max(n, 0))}
}

// offer keeps b if it is among the n first so far.
func (l *topList[T]) offer(b T) {
	if l.n == 0 || len(l.items) == l.n && !l.before(b, l.items[len(l.items)-1]) {
		return
	}
	i, _ := slices.BinarySearchFunc(l.items, b, func(x, y T) int {
		if l.before(x, y) {
			return -1
		}
		return 1
	})
	if len(l.items) == l.n {
		l.items = l.items[:len(l.items)-1]
	}
	l.items = slices.Insert(l.items, i, b)
}
