package tui

import (
	"cmp"
	"slices"
	"sort"

	"github.com/crmem/crmem/store"
)

// Patching a snapshot after a reload. The agent's one remember changes one
// entry of 100,000; copying every entry out of the memory again and
// deriving each order by comparing every entry (remapIndexes, the merge)
// cost the screen ~30 ms a frame. A reload's Diff says which entries
// changed, so the snapshot after it is the previous one with those
// patched in: the unchanged entries copied by runs, each order filtered
// of the changed ones and the changed and added ones inserted by binary
// search. That is only right when the previous snapshot is the memory as
// it was just before the reload, which the memory's generation proves;
// anything else is built whole as before.

// patchLimit is the share of the entries a reload may change (one in
// patchLimit) for the snapshot to be patched rather than built whole.
const patchLimit = 8

// reloadedSnapshot is the snapshot of mem after a reload that changed d,
// given old, the snapshot before it, and gen, mem's generation read just
// before the reload: old patched with d when old is mem as it was at gen
// and the reload was mem's only write since, else built whole.
func reloadedSnapshot(mem *store.Memory, old *snapshot, d store.Diff, gen uint64) *snapshot {
	if old == nil || !old.genKnown || old.gen != gen || len(old.dups) > 0 ||
		(len(d.Added)+len(d.Removed)+len(d.Changed))*patchLimit > len(old.entries) {
		return listedSnapshot(mem, old)
	}
	after := mem.Generation()
	if after != gen+1 || len(mem.DuplicateIDs()) > 0 {
		return listedSnapshot(mem, old)
	}
	s, ok := old.patched(mem.Get, d)
	if !ok || mem.Len() != len(s.entries) || mem.Generation() != after {
		return listedSnapshot(mem, old)
	}
	s.gen, s.genKnown = after, true
	s.order(sortNewest)
	return s
}

// patched returns s with the changes d applied, taking each added or
// changed entry from get, with every order s had built carried over. ok
// is false when d does not fit s (an id it removes or changes that s does
// not hold, one it adds that s holds, one get does not have).
func (s *snapshot) patched(get func(uint64) (store.Entry, bool), d store.Diff) (*snapshot, bool) {
	type change struct {
		id   uint64
		kind int // 0 removed, 1 changed, 2 added
	}
	changes := make([]change, 0, len(d.Added)+len(d.Removed)+len(d.Changed))
	for k, ids := range [...][]uint64{d.Removed, d.Changed, d.Added} {
		for _, id := range ids {
			changes = append(changes, change{id, k})
		}
	}
	slices.SortFunc(changes, func(a, b change) int { return cmp.Compare(a.id, b.id) })

	n := len(s.entries)
	entries := make([]store.Entry, 0, n+len(d.Added)-len(d.Removed))
	counts := s.counts
	remap := make([]int, n)              // old index -> new index, for the entries kept
	dropped := make([]uint64, (n+63)/64) // old indexes left out of the orders: removed or changed
	var fresh []int                      // new indexes of the changed and added entries
	count := func(e *store.Entry, by int) {
		if int(e.Kind) < len(counts) {
			counts[e.Kind] += by
		}
	}
	keep := func(from, to int) { // copies old entries [from, to)
		off := len(entries) - from
		for i := from; i < to; i++ {
			remap[i] = i + off
		}
		entries = append(entries, s.entries[from:to]...)
	}
	next := 0 // the next old entry to copy
	for j, c := range changes {
		if j > 0 && changes[j-1].id == c.id {
			return nil, false
		}
		i, held := s.index(c.id)
		if held == (c.kind == 2) || i < next {
			return nil, false
		}
		keep(next, i)
		next = i
		if held {
			dropped[i/64] |= 1 << (i % 64)
			count(&s.entries[i], -1)
			next = i + 1
		}
		if c.kind == 0 {
			continue
		}
		e, ok := get(c.id)
		if !ok {
			return nil, false
		}
		count(&e, 1)
		fresh = append(fresh, len(entries))
		entries = append(entries, e)
	}
	keep(next, n)

	p := &snapshot{entries: entries, counts: counts, sorted: map[sortOrder][]int{}}
	s.mu.Lock()
	orders := make(map[sortOrder][]int, len(s.sorted))
	for o, idx := range s.sorted {
		orders[o] = idx
	}
	s.mu.Unlock()
	for o, idx := range orders {
		out := make([]int, 0, len(entries))
		for _, oi := range idx {
			if dropped[oi/64]&(1<<(oi%64)) == 0 {
				out = append(out, remap[oi])
			}
		}
		less := p.cmpIndexes(o)
		ins := slices.Clone(fresh)
		slices.SortFunc(ins, less)
		p.sorted[o] = insertSorted(out, ins, less)
	}
	return p, true
}

// insertSorted inserts b into a, both sorted by less, in place in a's
// spare capacity when it has enough: each of b's few elements finds its
// place by binary search, so the cost is a's copy, not a comparison of
// each of a's elements.
func insertSorted(a, b []int, less func(x, y int) int) []int {
	if len(b) == 0 {
		return a
	}
	end := len(a)
	a = slices.Grow(a, len(b))[:len(a)+len(b)]
	for j := len(b) - 1; j >= 0; j-- {
		// The first of a[:end] that sorts after b[j]: b[j] goes before it.
		pos := sort.Search(end, func(x int) bool { return less(a[x], b[j]) > 0 })
		copy(a[pos+j+1:end+j+1], a[pos:end])
		a[pos+j] = b[j]
		end = pos
	}
	return a
}
