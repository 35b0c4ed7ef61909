package store

import (
	"slices"
	"strings"
)

// Diff counts what differs between two states by id.
type Diff struct{ Added, Removed, Changed []uint64 }

// Empty reports whether nothing changed.
func (d Diff) Empty() bool { return len(d.Added)+len(d.Removed)+len(d.Changed) == 0 }

// Sync brings the memory to the file's state in place, diffing by id and
// re-indexing only the entries whose content or aliases differ, and returns
// what changed (ids ascending). Entries taken from f are copied, so the
// memory keeps no reference to f's buffer. The next id never goes down.
// If f holds one id twice, the later entry in file order wins.
func (m *Memory) Sync(f *File) Diff {
	m.lockWrite()
	defer m.mu.Unlock()
	m.compact()
	var d Diff
	incoming := sortedByID(f.Entries)
	old := slices.Clone(m.order) // inserts below may shift m.order in place
	i, j := 0, 0
	for i < len(old) || j < len(incoming) {
		switch {
		case j == len(incoming) || i < len(old) && old[i] < incoming[j].ID:
			if m.syncRemove(old[i]) {
				d.Removed = append(d.Removed, old[i])
			}
			i++
		default:
			e := incoming[j]
			for j+1 < len(incoming) && incoming[j+1].ID == e.ID { // duplicate id
				j++
				e = incoming[j]
			}
			if i < len(old) && old[i] == e.ID {
				switch {
				case m.byID[e.ID] == nil: // removed here; its id stays in order until compact
					m.syncAdd(e)
					d.Added = append(d.Added, e.ID)
				case m.syncChange(e):
					d.Changed = append(d.Changed, e.ID)
				}
				i++
			} else {
				m.syncAdd(e)
				d.Added = append(d.Added, e.ID)
			}
			j++
		}
	}
	m.nextID = max(m.nextID, f.NextID)
	m.compact()
	m.syncDups(f, &d)
	return d
}

// syncDups takes the file's shadowed entries (dups.go); their ids count as
// changed when the shadows differ.
func (m *Memory) syncDups(f *File, d *Diff) {
	dups := splitDups(f.Entries)
	for i, e := range dups {
		dups[i] = detach(e)
	}
	if sameDups(m.dups, dups) {
		return
	}
	for _, e := range slices.Concat(m.dups, dups) {
		d.Changed = append(d.Changed, e.ID)
	}
	m.dups = dups
	slices.Sort(d.Changed)
	d.Changed = slices.Compact(d.Changed)
}

func (m *Memory) syncRemove(id uint64) bool {
	e, ok := m.byID[id]
	if !ok {
		return false
	}
	m.remove(id)
	m.reindex(Change{Before: e})
	return true
}

// syncChange replaces the entry with e's id (which the memory holds) by e,
// reporting whether they differed.
func (m *Memory) syncChange(e *Entry) bool {
	cur := m.byID[e.ID]
	if sameEntry(cur, e) {
		return false
	}
	n := detach(e)
	m.put(n)
	m.reindex(Change{Before: cur, After: n})
	return true
}

func (m *Memory) syncAdd(e *Entry) {
	n := detach(e)
	m.put(n)
	m.reindex(Change{After: n})
}

// detach copies an entry's strings so it no longer pins the decoded file's
// buffer: after many reloads only the first file's buffer stays alive.
func detach(e *Entry) *Entry {
	n := *e
	n.Name = strings.Clone(e.Name)
	n.Content = strings.Clone(e.Content)
	n.Aliases = make([]string, len(e.Aliases))
	for i, a := range e.Aliases {
		n.Aliases[i] = strings.Clone(a)
	}
	return &n
}

// SyncEntries brings the memory to the file's state in place when only
// some entries changed since the last Sync: put holds each entry added or
// perhaps changed, with its id, removed the ids of entries the file no
// longer holds (ids it does not hold are ignored). It does what Sync does
// with a File that differs from the memory in those entries only, at a
// cost in proportion to them rather than to the whole memory: an entry of
// put equal to the memory's is no change, the next id never goes down,
// and the shadowed entries (dups.go) are left as they are (a format that
// loads by delta has none). put must not hold one id twice.
func (m *Memory) SyncEntries(put []Entry, removed []uint64, nextID uint64) Diff {
	m.lockWrite()
	defer m.mu.Unlock()
	m.compact()
	var d Diff
	for _, id := range removed {
		if m.syncRemove(id) {
			d.Removed = append(d.Removed, id)
		}
	}
	for i := range put {
		e := &put[i]
		if _, ok := m.byID[e.ID]; !ok {
			m.syncAdd(e)
			d.Added = append(d.Added, e.ID)
		} else if m.syncChange(e) {
			d.Changed = append(d.Changed, e.ID)
		}
	}
	m.nextID = max(m.nextID, nextID)
	m.compact()
	slices.Sort(d.Added)
	slices.Sort(d.Removed)
	slices.Sort(d.Changed)
	return d
}
