package tui

import (
	"cmp"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/store"
)

// snapshot is an immutable view of the memory's entries with what the screen
// derives from them (orders, the name index). It is built off the update
// loop and replaced whole on every reload; derived parts are computed on
// first use, so the first screen of a large file appears quickly.
type snapshot struct {
	entries []store.Entry // ascending id
	counts  [3]int        // entries per kind
	dups    []uint64      // ids held by more than one entry (read off the loop)
	// gen is the memory's generation the entries are of, when genKnown
	// (no write came between reading it and the entries): a reload
	// patches such a snapshot rather than building one (snapshot_patch.go).
	gen      uint64
	genKnown bool

	mu     sync.Mutex
	sorted map[sortOrder][]int // entry indexes per order, built on first use
	names  *nameIndex          // built on first use

	// namesBuild is held while names is built, so the searches and the
	// warming that want it at once wait for one build, not make their own.
	namesBuild sync.Mutex
}

// nameIndex holds every entry's lower-case name and aliases in one string,
// newest entry first, so a substring search is one fast scan. Every key
// starts after a \x01 and ends before one, and its name and aliases are
// separated by \x00, so a whole name or alias is q framed by separators.
type nameIndex struct {
	buf  string // \x01key\x01key…\x01
	offs []int  // start of each key in buf
	idx  []int  // entry index of each key
}

// newSnapshot wraps entries in ascending id order.
func newSnapshot(entries []store.Entry) *snapshot {
	s := &snapshot{entries: entries, sorted: map[sortOrder][]int{}}
	for _, e := range entries {
		if int(e.Kind) < len(s.counts) {
			s.counts[e.Kind]++
		}
	}
	return s
}

// index returns the position of the entry with id (binary search: entries
// are in ascending id order).
func (s *snapshot) index(id uint64) (int, bool) {
	i, ok := slices.BinarySearchFunc(s.entries, id, func(e store.Entry, id uint64) int {
		switch {
		case e.ID < id:
			return -1
		case e.ID > id:
			return 1
		}
		return 0
	})
	return i, ok
}

// entry returns the entry with id.
func (s *snapshot) entry(id uint64) (store.Entry, bool) {
	i, ok := s.index(id)
	if !ok {
		return store.Entry{}, false
	}
	return s.entries[i], true
}

// label is the entry's name, safe to display on one line.
func (s *snapshot) label(i int) string { return sanitize.Name(s.entries[i].Name) }

// len returns the number of entries.
func (s *snapshot) len() int { return len(s.entries) }

// nameIndex returns the name index, building it on first use. It is safe
// for concurrent use.
func (s *snapshot) nameIndex() *nameIndex {
	newest := s.order(sortNewest)
	s.mu.Lock()
	n := s.names
	s.mu.Unlock()
	if n != nil {
		return n
	}
	// Built outside mu, so the update loop, which takes it to read an
	// order, never waits for the build.
	s.namesBuild.Lock()
	defer s.namesBuild.Unlock()
	s.mu.Lock()
	n = s.names
	s.mu.Unlock()
	if n == nil { // no other build ran meanwhile
		n = buildNameIndex(s.entries, newest)
		s.mu.Lock()
		s.names = n
		s.mu.Unlock()
	}
	return n
}

// buildNameIndex joins the entries' match keys in the given order: each
// entry's name and aliases, lower-cased as strings.ToLower does, joined by
// NUL, so a substring search never matches across two of them. The keys
// are written into one buffer sized up front, with no string made per
// entry: the first search of a memory just opened waits for this build.
func buildNameIndex(entries []store.Entry, order []int) *nameIndex {
	size := 1
	for _, i := range order {
		e := &entries[i]
		size += len(e.Name) + 1
		for _, a := range e.Aliases {
			size += len(a) + 1
		}
	}
	var b strings.Builder
	b.Grow(size) // lower-casing rarely changes a length
	n := &nameIndex{offs: make([]int, len(order)), idx: order}
	b.WriteByte(1)
	for k, i := range order {
		e := &entries[i]
		n.offs[k] = b.Len()
		writeLower(&b, e.Name)
		for _, a := range e.Aliases {
			b.WriteByte(0)
			writeLower(&b, a)
		}
		b.WriteByte(1)
	}
	n.buf = b.String()
	return n
}

// writeLower writes strings.ToLower(s) to b: ASCII by runs, copying what
// needs no change; from the first byte past ASCII on, by strings.ToLower
// (an ASCII byte is a whole rune, so the text splits there as it lowers).
func writeLower(b *strings.Builder, s string) {
	start := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf:
			b.WriteString(s[start:i])
			b.WriteString(strings.ToLower(s[i:]))
			return
		case 'A' <= c && c <= 'Z':
			b.WriteString(s[start:i])
			b.WriteByte(c + 'a' - 'A')
			start = i + 1
		}
	}
	b.WriteString(s[start:])
}

// Name-match classes, best first.
const (
	nameEqual    = iota // a name or alias equals the query
	namePrefix          // the name starts with it
	aliasPrefix         // an alias starts with it
	nameContains        // the name or an alias contains it
)

// find returns the entry indexes whose key contains q (already lower-case)
// with the class of each, grouped by class and each group in the index's
// order (newest first): every equal one however many, then the others up to
// limit in all. total counts every key that contains q; every is the
// entry index of each of them, in the index's order (an entry may appear
// twice, by its name and an alias).
func (n *nameIndex) find(q string, limit int) (found, classes []int, total int, every []int) {
	if q == "" || strings.ContainsAny(q, "\x00\x01") {
		return nil, nil, 0, nil
	}
	class := map[int]int{}
	for _, k := range n.exactKeys(q) {
		class[k] = nameEqual
	}
	for c, pat := range [...]string{namePrefix: "\x01" + q, aliasPrefix: "\x00" + q} {
		if pat == "" {
			continue
		}
		n.scan(pat, func(k int) bool {
			old, ok := class[k]
			if !ok && len(class) >= limit {
				return false
			}
			if !ok || c < old {
				class[k] = c
			}
			return true
		})
	}
	n.scan(q, func(k int) bool {
		total++
		every = append(every, n.idx[k])
		if _, ok := class[k]; !ok && len(class) < limit {
			class[k] = nameContains
		}
		return true
	})
	keys := make([]int, 0, len(class))
	for k := range class {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b int) int { return cmp.Or(cmp.Compare(class[a], class[b]), cmp.Compare(a, b)) })
	found, classes = make([]int, len(keys)), make([]int, len(keys))
	for i, k := range keys {
		found[i], classes[i] = n.idx[k], class[k]
	}
	return found, classes, total, every
}

// scan calls fn with each key holding pat (the key of pat's first byte
// after a leading separator), once per key, in order, until fn says stop.
func (n *nameIndex) scan(pat string, fn func(key int) bool) {
	for pos := 0; pos < len(n.buf); {
		j := strings.Index(n.buf[pos:], pat)
		if j < 0 {
			return
		}
		k := sort.SearchInts(n.offs, pos+j+2) - 1 // the key holding the match
		if !fn(k) || k+1 >= len(n.offs) {
			return
		}
		pos = n.offs[k+1] - 1 // from the separator before the next key, which pat may start with
	}
}

// exactKeys returns, ascending, the keys holding q as a whole name or alias:
// each place q is found with a separator (\x00 or \x01) on either side.
// One scan for q itself: a pattern that starts with a separator, found
// every few bytes, costs a scan several times longer, and four of them.
func (n *nameIndex) exactKeys(q string) []int {
	var keys []int
	if q == "" {
		return nil
	}
	for pos := 0; ; {
		j := strings.Index(n.buf[pos:], q)
		if j < 0 {
			break
		}
		at, end := pos+j, pos+j+len(q)
		if at > 0 && end < len(n.buf) && n.buf[at-1] <= 1 && n.buf[end] <= 1 {
			keys = append(keys, sort.SearchInts(n.offs, at+1)-1)
		}
		pos = at + 1
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// order returns the entry indexes sorted by o (not relevance), computed once
// per snapshot. It is safe for concurrent use.
func (s *snapshot) order(o sortOrder) []int {
	s.mu.Lock()
	idx, ok := s.sorted[o]
	s.mu.Unlock()
	if ok {
		return idx
	}
	idx = s.sortedIndexes(o) // outside the lock: a reader of another order need not wait
	s.mu.Lock()
	defer s.mu.Unlock()
	if prev, ok := s.sorted[o]; ok {
		return prev
	}
	s.sorted[o] = idx
	return idx
}

// sortedIndexes sorts entry indexes by o. Files are usually written in
// creation order, so date orders first try the id order as it is.
func (s *snapshot) sortedIndexes(o sortOrder) []int {
	n := len(s.entries)
	idx := make([]int, n)
	if (o == sortNewest || o == sortOldest) && s.createdInIDOrder() {
		for i := range idx {
			idx[i] = i
			if o == sortNewest {
				idx[i] = n - 1 - i
			}
		}
		return idx
	}
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, s.cmpIndexes(o))
	return idx
}

// createdInIDOrder reports whether created_at never decreases with id.
func (s *snapshot) createdInIDOrder() bool {
	for i := 1; i < len(s.entries); i++ {
		if s.entries[i].CreatedAt < s.entries[i-1].CreatedAt {
			return false
		}
	}
	return true
}

// warm builds the derived parts searching and sorting need, off the
// update loop.
func (s *snapshot) warm() {
	s.nameIndex()
	s.warmOrders()
}
