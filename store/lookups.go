package store

import (
	"runtime/debug"
	"sync"
)

// lookupMaps defers building a memory's name and alias maps, the costliest
// part of an open after the bm25 index, until something resolves a name or
// changes the memory: search, bench, ls and export never do, and skip it.
//
// from is the decoded file's entries (ids strictly ascending, so each is
// also the entry Memory.entry finds by its id); they are never modified, so the maps can be
// built from them without holding the memory's lock, by whichever goroutine
// needs them first (or a background one), exactly once.
type lookupMaps struct {
	once  sync.Once
	from  []Entry // nil once built
	fault any     // the panic that ended the build (a fault on a mapped file)
}

// lookups makes sure the name and alias maps are built. Every access to
// m.names or m.aliases calls it first; the caller holds mu (read or
// write) or, from the background, nothing (see lookupMaps). A build that
// faulted (the mapped file was cut short) panics again here, on the
// caller's goroutine, where the command turns it into one line.
func (m *Memory) lookups() {
	m.buildLookups()
	if m.lazy.fault != nil {
		panic(m.lazy.fault)
	}
}

// buildLookups builds the maps once; a panic while building is kept for
// lookups to raise rather than raised on whichever goroutine built them.
func (m *Memory) buildLookups() {
	m.lazy.once.Do(func() {
		defer func() {
			if r := recover(); r != nil {
				m.lazy.fault = r
			}
		}()
		if m.names.first == nil { // not built eagerly (NewMemoryWith)
			m.fillLookups(m.lazy.from)
			m.lazy.from = nil
		}
	})
}

// lookupsInBackground builds the maps on a goroutine of its own: a fault
// on a mapped file there is a panic (kept for lookups), not a crash.
func (m *Memory) lookupsInBackground() {
	debug.SetPanicOnFault(true)
	m.buildLookups()
}

// fillLookups builds the name and alias maps of entries whose ids strictly
// ascend, as inserting them one by one would. No id repeats, so nothing is
// removed first, and a name costs one map assignment instead of add's
// lookup and assignment: the name index only grows by one each time when
// no name repeats. When one does, the earlier entry's id was just
// overwritten, so the name index is rebuilt with add up to there and add
// takes over. Alias lists grow in id order, so addSorted only appends.
func (m *Memory) fillLookups(entries []Entry) {
	n := 0
	for i := range entries {
		n += len(entries[i].Aliases)
	}
	names, aliases := newNameIndex(len(entries)), make(map[string]idList, n)
	first := names.first
	for i := range entries {
		e := &entries[i]
		for _, a := range e.Aliases {
			aliases[a] = aliases[a].addSorted(e.ID)
		}
		if first == nil {
			names.add(e.Name, e.ID)
			continue
		}
		if first[e.Name] = e.ID; len(first) != i+1 { // a repeated name
			names, first = newNameIndex(len(entries)), nil
			for k := range i + 1 {
				names.add(entries[k].Name, entries[k].ID)
			}
		}
	}
	m.names, m.aliases = names, aliases
}
