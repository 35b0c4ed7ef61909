package store

// ContentNamed returns the content of the entry whose name is exactly name,
// by Lookup's rule for names (the later one in file order if a file holds
// two, else the last shadow of that name) but without aliases and without
// copying the entry: for a reader that asks for many names, such as
// package recalls reading the names a recorded recall returned, it uses
// the memory's own name map rather than one of its own.
func (m *Memory) ContentNamed(name string) (content string, ok bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	m.lookups()
	if id, found := m.names.last(name); found {
		if e := m.entry(id); e != nil && e.Name == name {
			return e.Content, true
		}
	}
	if e := m.dupNamed(name); e != nil {
		return e.Content, true
	}
	return "", false
}

// LongestName returns the length in bytes of the longest entry name,
// shadows included (0 for an empty memory): a name longer than that is
// no entry's, and can be refused before it is looked up.
func (m *Memory) LongestName() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	n := 0
	m.eachAll(func(e *Entry) { n = max(n, len(e.Name)) })
	return n
}

// NameOf returns the name of the entry id names (as Get finds it),
// without copying the entry: for a reader that names many hits, such as
// package recalls naming each replayed query's.
func (m *Memory) NameOf(id uint64) (name string, ok bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if e := m.entry(id); e != nil {
		return e.Name, true
	}
	return "", false
}
