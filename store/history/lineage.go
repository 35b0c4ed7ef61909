package history

import (
	"slices"
	"sort"
)

// An entry's lives in a store's log, and the renames that link them.

// lifetime is one life of a name in the log: the records from a Put
// while it was not live to the Delete that ended it (or the log's end),
// as indices into recs.
type lifetime struct {
	name       string
	start, end int // indices into recs; end is the last record of it
}

// lifetimes splits the records of name into its lives.
func (d *logData) lifetimes(name string) []lifetime {
	var out []lifetime
	open := false
	for _, i := range d.indices(name) {
		if !open {
			out = append(out, lifetime{name: name, start: i, end: i})
			open = !d.recs[i].del
			continue
		}
		out[len(out)-1].end = i
		if d.recs[i].del {
			open = false
		}
	}
	return out
}

// lifetimeEndingAt is the life of its name that the Delete recs[i] ended
// (a rename's, renamed away), and its records in order, found back along
// the name's hash chain to the record after its Delete before: only that
// life's records are read, whatever the number of the name's others.
func (d *logData) lifetimeEndingAt(i int) (lifetime, []int) {
	recs := []int{i}
	for j, ok := d.previous(i); ok && !d.recs[j].del; j, ok = d.previous(j) {
		recs = append(recs, j)
	}
	slices.Reverse(recs)
	return lifetime{name: string(d.name(i)), start: recs[0], end: i}, recs
}

// lineage is the story of the name asked about as records, split into
// its lives: every life of name in the log, each with, back through the
// renames into it, the life of the entry before it under the name it was
// renamed from (up to that rename), transitively. Never the life of the
// entry after a rename away: that is another name's story. life maps each
// record kept to its life, numbered from 1 in log order; a record lies in
// one life only, the latest holding it (a name renamed away and back is
// one entry: its earlier life is part of the later). names are the names
// those lives are under, name first; recs the records kept of each, in
// order.
func (d *logData) lineage(name string) *lineage {
	if ln, ok := d.lineages[name]; ok {
		return ln
	}
	ln := &lineage{life: map[int]int{}, names: []string{name}, recs: map[string][]int{}}
	seen := map[string]bool{name: true}
	own := d.lifetimes(name)
	var order []int // provisional life numbers kept, latest first
	for k := len(own) - 1; k >= 0; k-- {
		id, added := k+1, false
		l, idx := own[k], d.indices(name)
		idx = idx[sort.SearchInts(idx, l.start):]
		for {
			if !seen[l.name] {
				seen[l.name] = true
				ln.names = append(ln.names, l.name)
			}
			for _, i := range idx {
				if i > l.end {
					break
				}
				if _, taken := ln.life[i]; !taken {
					ln.life[i], added = id, true
					ln.recs[l.name] = append(ln.recs[l.name], i)
				}
			}
			r, isRename := d.renameAt(l.start)
			if !isRename {
				break
			}
			l, idx = d.lifetimeEndingAt(r.at + 1)
		}
		if added {
			order = append(order, id)
		}
	}
	renumber := map[int]int{}
	for k, id := range order {
		renumber[id] = len(order) - k
	}
	for i, id := range ln.life {
		ln.life[i] = renumber[id]
	}
	for _, idx := range ln.recs {
		slices.Sort(idx)
	}
	ln.lives = len(order)
	d.lineages[name] = ln
	return ln
}

// lineage is what logData.lineage finds of a name.
type lineage struct {
	life  map[int]int      // record → its life, from 1
	lives int              // how many
	names []string         // the names its records are under, the name asked about first
	recs  map[string][]int // name → its records kept, in order
}

// renamedAway is the name recs[i] was renamed to when it is the Delete
// that ended a life by a rename away (the rename's Put just before it).
func (d *logData) renamedAway(i int) (string, bool) {
	if i == 0 || !d.recs[i].del {
		return "", false
	}
	r, ok := d.renameAt(i - 1)
	if !ok {
		return "", false
	}
	return r.to, true
}
