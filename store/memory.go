package store

import (
	"slices"
	"sync"
	"time"

	"github.com/crmem/crmem/bm25"
)

// IndexMode says when a Memory builds its bm25 index.
type IndexMode int

const (
	// IndexNow builds the index before the constructor returns.
	IndexNow IndexMode = iota
	// IndexBackground returns as soon as the entries are decoded and builds
	// the index in a goroutine; Search, Index and Apply wait for it.
	IndexBackground
	// IndexOnDemand builds the index the first time Search, Index or
	// WaitIndexed needs it (a command that only lists entries never pays).
	IndexOnDemand
)

// Memory is the in-RAM state: entries, name and alias lookup, and the bm25
// index. All methods are safe for concurrent use (one writer, many readers).
// Methods return copies; nothing a caller gets can change the memory.
type Memory struct {
	mu sync.RWMutex
	// byID holds every entry. Entries are never modified in place: a change
	// replaces the pointer, so a pointer taken under the lock stays valid.
	// It is nil while asRead holds the entries (entry finds them there):
	// the first write builds it (lockWrite).
	byID map[uint64]*Entry
	// order is the ids in ascending order. It may still hold ids of removed
	// entries (stale of them); readers skip those, compact drops them.
	order []uint64
	stale int
	// asRead is the decoded file's entries when their ids ascend, until
	// the first write (lockWrite drops it): each walks it, and entry finds
	// an id in it by binary search, so an open that only reads (search,
	// bench, ls) builds no map of 100,000 ids beside the index.
	asRead []Entry
	// names and aliases are built on first use (lookups.go): call
	// m.lookups() before touching either.
	names   nameIndex         // name -> ids in file order; lookup takes the last
	aliases map[string]idList // alias -> ids; lookup takes the lowest
	lazy    lookupMaps
	nextID  uint64
	dups    []*Entry // entries shadowed by a later one with their id (dups.go)
	// gen counts the times mu was taken to write entries (lockWrite), so a
	// reader can tell the memory did not change between two reads of it.
	gen uint64

	ix      *bm25.Index   // nil until built
	ixDone  chan struct{} // nil until a build starts; closed when ix is set or the build faulted
	ixFault any           // the panic that ended the build (a fault on a mapped file), raised again by Index
	ixTook  time.Duration // how long the build took, once ix is set
	hold    buildHold     // HoldIndex's holds on the build
}

// NewMemoryWith builds a memory from a decoded file, building the index as
// mode says. The memory takes ownership of f's entries. For a file whose
// ids ascend (every file crmem or the reference writes) the name and alias
// maps wait until first needed (lookups.go), in the background from the
// start with IndexBackground.
func NewMemoryWith(f *File, mode IndexMode) *Memory {
	m := &Memory{
		order:  make([]uint64, 0, len(f.Entries)),
		nextID: max(f.NextID, 1),
	}
	for i := range f.Entries { // before a build starts reading them
		if f.Entries[i].Aliases == nil {
			f.Entries[i].Aliases = []string{}
		}
	}
	ascending := ascendingIDs(f.Entries)
	if mode != IndexOnDemand && ascending {
		// Index the file's entries while order is built.
		m.startIndexOf(func() entryDocs { return entrySlice(f.Entries) }, true)
	}
	if ascending { // no shadowed duplicates (splitDups)
		m.insertAscending(f.Entries)
		m.asRead = f.Entries
		if mode == IndexBackground { // an interactive user soon resolves names
			go m.lookupsInBackground()
		}
	} else {
		m.byID = make(map[uint64]*Entry, len(f.Entries))
		m.names, m.aliases = newNameIndex(len(f.Entries)), make(map[string]idList)
		m.dups = splitDups(f.Entries)
		for i := range f.Entries {
			e := &f.Entries[i]
			if old, ok := m.byID[e.ID]; ok { // a duplicate id: the later one wins
				m.remove(old.ID)
			}
			m.insert(e)
		}
	}
	m.compact()
	switch mode {
	case IndexNow:
		m.Index() // a build that faulted panics here, on the caller's goroutine
	case IndexBackground:
		m.startIndex(true)
	}
	return m
}

// ascendingIDs reports whether ids strictly ascend (no duplicates), as in
// every file crmem or the reference writes.
func ascendingIDs(entries []Entry) bool {
	for i := 1; i < len(entries); i++ {
		if entries[i].ID <= entries[i-1].ID {
			return false
		}
	}
	return true
}

// Len returns the number of entries (shadowed duplicates included).
func (m *Memory) Len() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.live() + len(m.dups)
}

// NextID returns the id the next Add gets.
func (m *Memory) NextID() uint64 {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.nextID
}

// Generation returns a number that changes whenever the entries may have:
// it grows by one each time a write (Apply, Sync, SyncEntries, a revert)
// takes the memory, whether or not it changed anything. A screen keeping
// a copy of the entries uses it to tell that a reload's Diff is all that
// happened to the memory since the copy was taken.
func (m *Memory) Generation() uint64 {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.gen
}

// Entries returns every entry in ascending id order, including entries
// whose id a later entry also holds (before it, in file order). The slice,
// and every alias list in it, is a copy.
func (m *Memory) Entries() []Entry {
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := make([]Entry, 0, m.live()+len(m.dups))
	n := 0
	m.eachAll(func(e *Entry) { out = append(out, *e); n += len(e.Aliases) })
	pool := make([]string, 0, n) // one allocation for every alias list
	for i := range out {
		start := len(pool)
		pool = append(pool, out[i].Aliases...)
		out[i].Aliases = pool[start:len(pool):len(pool)]
	}
	return out
}

// each calls fn for every entry in ascending id order; the caller holds mu.
func (m *Memory) each(fn func(*Entry)) {
	if m.asRead != nil { // as decoded: order is their ids, entry finds them
		for i := range m.asRead {
			fn(&m.asRead[i])
		}
		return
	}
	for _, id := range m.order {
		if e, ok := m.byID[id]; ok {
			fn(e)
		}
	}
}

// Get returns a copy of the entry with the given id (of two entries with
// one id, the later in file order).
func (m *Memory) Get(id uint64) (Entry, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	e := m.entry(id)
	if e == nil {
		return Entry{}, false
	}
	return *cloneEntry(e), true
}

// Lookup resolves a name by the SPEC §2 rule: the entry with that name (the
// later one in file order if a file holds two), else the lowest-id entry
// having it as an alias. Comparison is exact. An entry whose id a later
// entry also holds is found by its name too.
func (m *Memory) Lookup(name string) (Entry, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	e := m.lookup(name)
	if e == nil {
		e = m.dupNamed(name)
	}
	if e == nil {
		return Entry{}, false
	}
	return *cloneEntry(e), true
}

func (m *Memory) lookup(name string) *Entry {
	m.lookups()
	if id, ok := m.names.last(name); ok {
		return m.entry(id)
	}
	if l, ok := m.aliases[name]; ok {
		return m.entry(l.lowest())
	}
	return nil
}

// insertAscending inserts the entries of a file whose ids strictly ascend
// into an empty memory: no id repeats, so nothing is removed first. The
// name and alias maps are left to lookups, built from the same entries.
func (m *Memory) insertAscending(entries []Entry) {
	for i := range entries {
		id := entries[i].ID
		m.order = append(m.order, id)
		m.nextID = raiseNextID(m.nextID, id)
	}
	m.lazy.from = entries
}

// entry returns the entry with the given id, nil if there is none; the
// caller holds mu. Before the first write of a file whose ids ascend it
// is found in asRead by binary search, byID not being built yet: at its
// place first when the ids are 1 to n (a file written without deletions),
// one load rather than the search's misses (package recalls names each
// replayed query's hits by id).
func (m *Memory) entry(id uint64) *Entry {
	if m.byID != nil || m.asRead == nil {
		return m.byID[id]
	}
	if i := id - 1; i < uint64(len(m.asRead)) && m.asRead[i].ID == id {
		return &m.asRead[i]
	}
	lo, hi := 0, len(m.asRead)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if m.asRead[mid].ID < id {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(m.asRead) && m.asRead[lo].ID == id {
		return &m.asRead[lo]
	}
	return nil
}

// live is the number of entries entry finds; the caller holds mu.
func (m *Memory) live() int {
	if m.byID == nil {
		return len(m.asRead)
	}
	return len(m.byID)
}

// mapIDs builds byID from asRead, before the first write drops asRead; the
// caller holds mu for writing.
func (m *Memory) mapIDs() {
	if m.byID != nil {
		return
	}
	m.byID = make(map[uint64]*Entry, len(m.asRead))
	for i := range m.asRead {
		m.byID[m.asRead[i].ID] = &m.asRead[i]
	}
}

// insert adds e to every lookup structure; the caller holds mu for writing
// and has removed any entry with the same id.
func (m *Memory) insert(e *Entry) {
	m.lookups()
	m.names.add(e.Name, e.ID)
	m.byID[e.ID] = e
	m.insertOrder(e.ID)
	for _, a := range e.Aliases {
		m.aliases[a] = m.aliases[a].addSorted(e.ID)
	}
	m.nextID = raiseNextID(m.nextID, e.ID)
}

// put stores e, replacing the entry with its id if any; the caller holds mu
// for writing. An entry whose name stays the same keeps its place in the
// name index, so a name held twice still resolves to the later entry.
func (m *Memory) put(e *Entry) {
	m.lookups()
	old, ok := m.byID[e.ID]
	if !ok || old.Name != e.Name {
		m.remove(e.ID)
		m.insert(e)
		return
	}
	for _, a := range old.Aliases {
		setList(m.aliases, a, m.aliases[a].dropSorted(e.ID))
	}
	m.byID[e.ID] = e
	for _, a := range e.Aliases {
		m.aliases[a] = m.aliases[a].addSorted(e.ID)
	}
}

// remove drops the entry with the given id from every lookup structure; the
// caller holds mu for writing.
func (m *Memory) remove(id uint64) {
	e, ok := m.byID[id]
	if !ok {
		return
	}
	m.lookups()
	delete(m.byID, id)
	m.stale++ // its id stays in order until compact
	m.names.drop(e.Name, id)
	for _, a := range e.Aliases {
		setList(m.aliases, a, m.aliases[a].dropSorted(id))
	}
}

func (m *Memory) insertOrder(id uint64) {
	if n := len(m.order); n == 0 || m.order[n-1] < id {
		m.order = append(m.order, id)
		return
	}
	i, found := slices.BinarySearch(m.order, id)
	if found { // the id of a removed entry, still in order
		m.stale--
		return
	}
	m.order = slices.Insert(m.order, i, id)
}

// compact drops removed ids from order once they are a fair share of it.
func (m *Memory) compact() {
	if m.stale == 0 || m.stale < len(m.order)/8 && m.stale < 4096 {
		return
	}
	m.order = slices.DeleteFunc(m.order, func(id uint64) bool {
		_, ok := m.byID[id]
		return !ok
	})
	m.stale = 0
}

func setList(m map[string]idList, key string, l idList) {
	if l.empty() {
		delete(m, key)
		return
	}
	m[key] = l
}

// nameIndex maps each name to its entries' ids in insertion (file) order.
// Nearly every name has one entry, so the first id sits in a map of plain
// ids (24-byte slots rather than an idList's 56, about 4 MB less at 100k
// entries) and only a duplicate name's later ids go to a second map.
type nameIndex struct {
	first map[string]uint64
	more  map[string][]uint64 // name -> ids after the first; no empty lists
}

// newNameIndex returns an empty index with room for n names.
func newNameIndex(n int) nameIndex {
	return nameIndex{first: make(map[string]uint64, n), more: map[string][]uint64{}}
}

// has reports whether some entry has the name.
func (x nameIndex) has(name string) bool {
	_, ok := x.first[name]
	return ok
}

// last returns the id added last under name.
func (x nameIndex) last(name string) (uint64, bool) {
	if ids := x.more[name]; len(ids) > 0 {
		return ids[len(ids)-1], true
	}
	id, ok := x.first[name]
	return id, ok
}

// add appends id under name; the caller never adds an id twice.
func (x nameIndex) add(name string, id uint64) {
	if _, ok := x.first[name]; !ok {
		x.first[name] = id
		return
	}
	x.more[name] = append(x.more[name], id)
}

// drop removes id from name's ids, wherever it is; the next id, if any,
// becomes the first.
func (x nameIndex) drop(name string, id uint64) {
	first, ok := x.first[name]
	ids := x.more[name]
	switch {
	case !ok:
		return
	case first == id && len(ids) == 0:
		delete(x.first, name)
		return
	case first == id:
		x.first[name] = ids[0]
		ids = slices.Delete(ids, 0, 1)
	default:
		i := slices.Index(ids, id)
		if i < 0 {
			return
		}
		ids = slices.Delete(ids, i, i+1)
	}
	if len(ids) == 0 {
		delete(x.more, name)
	} else {
		x.more[name] = ids
	}
}

// idList is a list of ids without an allocation for the common single id:
// one is the first, more the rest, kept in ascending order so the lowest id
// is first (alias lists). An idList lives only in its map, so methods may
// reuse the backing array.
type idList struct {
	one  uint64
	more []uint64
	n    int
}

func (l idList) empty() bool { return l.n == 0 }

// addSorted inserts id keeping ascending order.
func (l idList) addSorted(id uint64) idList {
	switch {
	case l.n == 0:
		return idList{one: id, n: 1}
	case id < l.one:
		l.more = slices.Insert(l.more, 0, l.one)
		l.one = id
	default:
		i, found := slices.BinarySearch(l.more, id)
		if found || id == l.one {
			return l
		}
		l.more = slices.Insert(l.more, i, id)
	}
	l.n++
	return l
}

// drop removes id wherever it is.
func (l idList) drop(id uint64) idList {
	if l.n > 0 && l.one == id {
		if len(l.more) == 0 {
			return idList{}
		}
		l.one = l.more[0]
		l.more = slices.Delete(l.more, 0, 1)
		l.n--
		return l
	}
	if i := slices.Index(l.more, id); i >= 0 {
		l.more = slices.Delete(l.more, i, i+1)
		l.n--
	}
	return l
}

// dropSorted removes id from an ascending list.
func (l idList) dropSorted(id uint64) idList {
	if l.n > 0 && l.one == id {
		return l.drop(id)
	}
	if i, found := slices.BinarySearch(l.more, id); found {
		l.more = slices.Delete(l.more, i, i+1)
		l.n--
	}
	return l
}

// lowest returns the first id of an ascending list.
func (l idList) lowest() uint64 { return l.one }
