package tui

import "github.com/crmem/crmem/store"

// markSet is the marked entries by id, each as it was when marked (what D
// deletes, and what "changed since you marked it" compares with), and
// their content bytes, for the status line.
type markSet struct {
	byID  map[uint64]store.Entry
	bytes int
}

// newMarkSet is an empty set.
func newMarkSet() markSet { return markSet{byID: map[uint64]store.Entry{}} }

// has reports whether the entry with id is marked.
func (s *markSet) has(id uint64) bool { _, ok := s.byID[id]; return ok }

// as returns the entry with id as it was when marked.
func (s *markSet) as(id uint64) (store.Entry, bool) {
	e, ok := s.byID[id]
	return e, ok
}

// put marks e, unless it is marked.
func (s *markSet) put(e store.Entry) {
	if !s.has(e.ID) {
		s.byID[e.ID] = e
		s.bytes += len(e.Content)
	}
}

// drop unmarks e, given as it is now: the bytes count the entries as
// they are now (keepOnly counts them again after a reload).
func (s *markSet) drop(e store.Entry) {
	if s.has(e.ID) {
		delete(s.byID, e.ID)
		s.bytes -= len(e.Content)
	}
}

// len is how many entries are marked.
func (s *markSet) len() int { return len(s.byID) }

// ids returns the marked entries' ids, in no order.
func (s *markSet) ids() []uint64 {
	ids := make([]uint64, 0, len(s.byID))
	for id := range s.byID {
		ids = append(ids, id)
	}
	return ids
}

// clear unmarks everything.
func (s *markSet) clear() { *s = newMarkSet() }

// reserve makes room for n marks at once when nothing is marked, so that
// marking 100k entries does not rehash the map as it grows (about a fifth
// of `*`'s CPU profile at 100k).
func (s *markSet) reserve(n int) {
	if len(s.byID) == 0 && n > 0 {
		s.byID = make(map[uint64]store.Entry, n)
	}
}

// keepOnly drops the marks of entries the snapshot s no longer holds and
// returns them, as they were when marked; the bytes are counted again
// from s (an entry may have changed since it was marked).
func (s *markSet) keepOnly(snap *snapshot) (dropped []store.Entry) {
	s.bytes = 0
	for id, was := range s.byID {
		if e, ok := snap.entry(id); ok {
			s.bytes += len(e.Content)
		} else {
			dropped = append(dropped, was)
			delete(s.byID, id)
		}
	}
	return dropped
}

// setListed marks (or unmarks) every entry l lists of s and returns how
// many there are; it reads the entries from the rows, so 100k marks stay
// cheap.
func (s *markSet) setListed(snap *snapshot, l *listView, on bool) int {
	n := 0
	for _, r := range l.rows {
		if !r.isEntry() {
			continue
		}
		n++
		e := &snap.entries[r.idx]
		if on {
			s.put(*e)
		} else {
			s.drop(*e)
		}
	}
	return n
}
