package store

import (
	"fmt"
	"slices"
)

// A file from elsewhere may hold two entries with one id. The reader
// accepts it, and crmem never drops an entry it was not asked to remove
// (SPEC §1), so such entries are kept: the later entry of an id, in file
// order, is the one the id names (Get, the index, every op by id); the
// earlier ones are its "shadows", kept in Memory.dups in ascending id
// order (file order within an id). Shadows are listed by Entries, found by
// name by Lookup, written back by every save in their place, and can be
// removed by name; any other op on one fails with ErrSharedID. They are
// not in the search index (its documents are keyed by id).

// splitDups returns the entries of f that are shadowed by a later entry
// with the same id, in file order by ascending id.
func splitDups(entries []Entry) []*Entry {
	if ascendingIDs(entries) {
		return nil
	}
	last := make(map[uint64]int, len(entries))
	for i := range entries {
		last[entries[i].ID] = i
	}
	var out []*Entry
	for i := range entries {
		if last[entries[i].ID] != i {
			out = append(out, &entries[i])
		}
	}
	slices.SortStableFunc(out, cmpID)
	return out
}

// eachAll calls fn for every entry, shadows included, in ascending id
// order with an id's shadows before the entry it names (file order); the
// caller holds mu.
func (m *Memory) eachAll(fn func(*Entry)) {
	d := m.dups
	m.each(func(e *Entry) {
		for len(d) > 0 && d[0].ID <= e.ID {
			fn(d[0])
			d = d[1:]
		}
		fn(e)
	})
	for _, e := range d {
		fn(e)
	}
}

// DuplicateIDs returns the ids that more than one entry holds, ascending.
func (m *Memory) DuplicateIDs() []uint64 {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var out []uint64
	for _, e := range m.dups {
		if len(out) == 0 || out[len(out)-1] != e.ID {
			out = append(out, e.ID)
		}
	}
	return out
}

// dupNamed returns the last shadow named name, or nil.
func (m *Memory) dupNamed(name string) *Entry {
	for i := len(m.dups) - 1; i >= 0; i-- {
		if m.dups[i].Name == name {
			return m.dups[i]
		}
	}
	return nil
}

// nameTaken reports whether an entry, shadows included, has the name.
func (m *Memory) nameTaken(name string) bool {
	m.lookups()
	return m.names.has(name) || m.dupNamed(name) != nil
}

// insertDup puts a shadow back in its place (after the shadows of its id).
func (m *Memory) insertDup(e *Entry) {
	i, _ := slices.BinarySearchFunc(m.dups, e.ID+1, func(d *Entry, id uint64) int {
		return cmpID(d, &Entry{ID: id})
	})
	if e.ID == ^uint64(0) {
		i = len(m.dups)
	}
	m.dups = slices.Insert(m.dups, i, e)
}

// dropDup removes the shadow e (by identity).
func (m *Memory) dropDup(e *Entry) {
	if i := slices.Index(m.dups, e); i >= 0 {
		m.dups = slices.Delete(m.dups, i, i+1)
	}
}

// sameDups reports whether two shadow lists hold the same entries.
func sameDups(a, b []*Entry) bool {
	return slices.EqualFunc(a, b, func(x, y *Entry) bool { return sameEntry(x, y) })
}

// removeDup removes a shadow inside a transaction.
func (tx *txn) removeDup(e *Entry) {
	tx.touchDups()
	tx.m.dropDup(e)
}

// touchDups remembers the shadow list before the transaction's first
// change to it, for rollback and for the changes it reports.
func (tx *txn) touchDups() {
	if !tx.dupsTouched {
		tx.dupsTouched = true
		tx.dupsBefore = slices.Clone(tx.m.dups)
	}
}

// dupChanges reports each shadow the transaction removed.
func (tx *txn) dupChanges() []Change {
	if !tx.dupsTouched {
		return nil
	}
	var out []Change
	for _, e := range tx.dupsBefore {
		if !slices.Contains(tx.m.dups, e) {
			out = append(out, Change{Before: cloneEntry(e), shadow: true})
		}
	}
	return out
}

// sharedIDError is the error for an op other than Remove on a shadow.
func sharedIDError(e *Entry) error {
	return fmt.Errorf("%q: %w (id %d); it can only be removed", e.Name, ErrSharedID, e.ID)
}
