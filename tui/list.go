package tui

import (
	"time"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/list"
)

// The list pane is a part of its own (tui/list): what it lists, its rows
// laid out from the snapshot and the search's result the root lends, the
// cursor, scroll, keys, drawing and help. What stays here is what the
// root lends it and the names the root has used for the list's types all
// along.

type (
	sortOrder  = list.Order   // the list's order
	kindFilter = list.Filter  // the kinds listed
	hitKind    = list.HitKind // why an entry is in a search's results
	row        = list.Row     // one line of the list
	hit        = list.Hit     // one search result
	rowsSpec   = list.Spec    // what the list is laid out from
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

// listSpec is what the list l is laid out from: its own filter, order
// and view of a search, with the search's result res (nil: none), the
// other filters (keep), the limits and the time zone.
func listSpec(l *list.List, res *searchResult, keep func(store.Entry) bool, lim limits, loc *time.Location) rowsSpec {
	var sr *list.Search
	if res != nil {
		sr = &res.Search
	}
	return l.Spec(sr, keep, lim.nameRows, lim.recallLimit, loc)
}

// Index is the position of the entry with id (list.Snapshot).
func (s *snapshot) Index(id uint64) (int, bool) { return s.index(id) }

// Order is the entries' positions sorted by o (list.Snapshot).
func (s *snapshot) Order(o sortOrder) []int { return s.order(o) }

// freshSign is the sign of an entry a reload added or changed and the
// user has not seen yet (+ ~), "" for any other: the list marks its row.
func (c *changeState) freshSign(id uint64) string {
	if k, ok := c.unseen[id]; ok {
		return k.sign()
	}
	return ""
}
