package tui

import (
	"cmp"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/store"
)

// Sorting 100k entries by name takes a large part of a second, far beyond a
// keystroke's budget (SPEC §8: 50 ms at 100k). So the orders are never
// computed on the update loop: they are built in the background after an
// open, derived in linear time from the previous snapshot's after a reload
// or a write (entries that did not change keep their relative order; the
// few that did are merged in), and a sort switch that finds its order not
// yet built waits for it off the loop while the list keeps its old order.

// cmpIndexes returns the comparison of entry indexes for order o; ties
// fall back to the id, so the order is total.
func (s *snapshot) cmpIndexes(o sortOrder) func(a, b int) int {
	e := s.entries
	switch o {
	case sortOldest:
		return func(a, b int) int { return -cmpDesc(e[a].CreatedAt, e[b].CreatedAt, e[a].ID, e[b].ID) }
	case sortName:
		return func(a, b int) int {
			return cmp.Or(strings.Compare(e[a].Name, e[b].Name), cmp.Compare(e[a].ID, e[b].ID))
		}
	case sortSize:
		return func(a, b int) int {
			return cmp.Or(cmp.Compare(len(e[b].Content), len(e[a].Content)), cmp.Compare(e[b].ID, e[a].ID))
		}
	}
	return func(a, b int) int { return cmpDesc(e[a].CreatedAt, e[b].CreatedAt, e[a].ID, e[b].ID) }
}

// sameSortKey reports whether an entry sorts the same before (a) and after
// (b) a change under order o.
func sameSortKey(o sortOrder, a, b *store.Entry) bool {
	switch o {
	case sortName:
		return a.Name == b.Name
	case sortSize:
		return len(a.Content) == len(b.Content)
	}
	return a.CreatedAt == b.CreatedAt
}

// ready reports whether order o is built.
func (s *snapshot) ready(o sortOrder) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.sorted[o]
	return ok
}

// deriveOrders builds every order old had for s, whose entries are old's
// after some changes, in time linear in the entries.
func (s *snapshot) deriveOrders(old *snapshot) {
	if old == nil {
		return
	}
	old.mu.Lock()
	orders := make(map[sortOrder][]int, len(old.sorted))
	for o, idx := range old.sorted {
		orders[o] = idx
	}
	old.mu.Unlock()
	if len(orders) == 0 {
		return
	}
	remap := remapIndexes(old.entries, s.entries)
	for o, idx := range orders {
		derived := s.derive(o, old, idx, remap)
		s.mu.Lock()
		s.sorted[o] = derived
		s.mu.Unlock()
	}
}

// remapIndexes maps each old entry index to the new index of the entry with
// the same id, or -1 (both slices are in ascending id order).
func remapIndexes(old, cur []store.Entry) []int {
	remap := make([]int, len(old))
	j := 0
	for i := range old {
		for j < len(cur) && cur[j].ID < old[i].ID {
			j++
		}
		if j < len(cur) && cur[j].ID == old[i].ID {
			remap[i] = j
			j++
		} else {
			remap[i] = -1
		}
	}
	return remap
}

// derive is order o for s from old's order idx: the unchanged entries in
// their old relative order, merged with the added and changed ones sorted.
func (s *snapshot) derive(o sortOrder, old *snapshot, idx, remap []int) []int {
	kept := make([]int, 0, len(s.entries))
	covered := make([]bool, len(s.entries))
	for _, oi := range idx {
		if nj := remap[oi]; nj >= 0 && sameSortKey(o, &old.entries[oi], &s.entries[nj]) {
			kept = append(kept, nj)
			covered[nj] = true
		}
	}
	var rest []int
	for j, c := range covered {
		if !c {
			rest = append(rest, j)
		}
	}
	less := s.cmpIndexes(o)
	slices.SortFunc(rest, less)
	return mergeSorted(kept, rest, less)
}

// mergeSorted merges two lists sorted by less.
func mergeSorted(a, b []int, less func(x, y int) int) []int {
	if len(b) == 0 {
		return a
	}
	out := make([]int, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if less(b[j], a[i]) < 0 {
			out = append(out, b[j])
			j++
		} else {
			out = append(out, a[i])
			i++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// warmOrders builds every order not built yet.
func (s *snapshot) warmOrders() {
	for _, o := range []sortOrder{sortNewest, sortOldest, sortName, sortSize} {
		s.order(o)
	}
}

// orderReadyMsg says order o of snap is built.
type orderReadyMsg struct {
	snap *snapshot
	o    sortOrder
}

// orderCmd builds order o of s off the update loop.
func orderCmd(s *snapshot, o sortOrder) tea.Cmd {
	return func() tea.Msg {
		s.order(o)
		return orderReadyMsg{snap: s, o: o}
	}
}
