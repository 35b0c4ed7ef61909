package crabdb

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Key is a key qualified by its column.
type Key struct {
	Col byte
	Key string
}

// compareKeys orders keys as crabdb's BTreeMap does: column, then key bytes.
func compareKeys(a, b Key) int {
	if c := cmp.Compare(a.Col, b.Col); c != 0 {
		return c
	}
	return strings.Compare(a.Key, b.Key)
}

// value is a live key's record: where it starts and its value (aliasing the
// bytes the record was read from).
type value struct {
	off int64
	val []byte
}

// Store is a store's live keys as read from its bytes. It is not safe for
// concurrent use: reads build caches (key order, decoded doc records).
type Store struct {
	header Header
	live   map[Key]value
	end    int64 // the clean end: just after the last whole record
	size   int64 // bytes read, torn tail included
	warns  []string
	sorted []sortedKey        // live keys and values in order, built on demand; nil after a change
	docs   map[string]docInfo // recall's decoded doc records; nil after a change
	// entries caches decoded memory entries by key, with the offset of
	// the record they came from (still valid after an append).
	entries map[string]cachedEntry
	// snapOrder is the snapshot's keys, already in order (checked on
	// read); replayed holds the keys records after it touched. Together
	// they give the key order without sorting every key.
	snapOrder []sortedKey
	snapDead  []bool // snapOrder[i] was put or deleted again after the snapshot
	replayed  map[Key]bool
	// touched holds the memory keys Extend changed since the last
	// TakeTouched: what a reload by delta converts again.
	touched map[string]bool
}

// Header returns the header the store was read with.
func (s *Store) Header() Header { return s.header }

// End is the offset just after the last whole record: a reload of a store
// that only grew reads from here.
func (s *Store) End() int64 { return s.end }

// Size is the number of bytes read (a torn tail included).
func (s *Store) Size() int64 { return s.size }

// Warnings lists what was odd but readable: a torn tail, a snapshot past
// the end of the file that a replay of the whole log made up for, bytes
// left over in a snapshot.
func (s *Store) Warnings() []string { return slices.Clone(s.warns) }

// Len is the number of live keys in every column.
func (s *Store) Len() int { return len(s.live) }

// Get returns the live value of (col, key).
func (s *Store) Get(col byte, key string) ([]byte, bool) {
	v, ok := s.live[Key{col, key}]
	return v.val, ok
}

// Read reads a whole store from its bytes. Nothing is allocated beyond the
// keys and values the bytes really hold: every length is checked against
// what remains first. Values alias data, which must not change afterwards.
func Read(data []byte) (*Store, error) {
	h, err := ParseHeader(data)
	if err != nil {
		return nil, err
	}
	s := &Store{header: h, live: map[Key]value{}, size: int64(len(data))}
	from, err := s.loadSnapshot(data)
	if err != nil {
		return nil, err
	}
	if err := s.replay(data, from); err != nil {
		if from == HeaderLen && h.HasSnapshot() {
			return nil, fail("the header's snapshot (index_at %d, index_len %d) lies beyond the end of the file (%d bytes), and the log does not replay without it: %s",
				h.IndexAt, h.IndexLen, len(data), err.(*Error).withoutPrefix())
		}
		return nil, err
	}
	return s, nil
}

// withoutPrefix is the error's text without "crabdb: ".
func (e *Error) withoutPrefix() string { return strings.TrimPrefix(e.Error(), "crabdb: ") }

// replay applies the records of data from offset from to its end. A torn
// tail stops it with a warning; an unknown op fails it.
func (s *Store) replay(data []byte, from int64) error {
	n, err := s.apply(data[from:], from, nil)
	s.end = from + int64(n)
	return err
}

// apply replays the records of b, which starts at file offset base, into
// s.live, calling touched (if set) with each key it changes. It returns how
// many bytes of whole records it consumed.
func (s *Store) apply(b []byte, base int64, touched func(Key)) (int, error) {
	at := 0
	for at < len(b) {
		r, ok, err := decodeRecord(b[at:])
		if err != nil {
			e := err.(*Error)
			e.Offset = base + int64(at)
			return at, e
		}
		if !ok {
			s.warns = append(s.warns, fmt.Sprintf(tornWarning+" at offset %d (%d bytes) ignored: the file ends inside it", base+int64(at), len(b)-at))
			return at, nil
		}
		k := Key{r.col, string(r.key)}
		if s.replayed == nil {
			s.replayed = map[Key]bool{}
		}
		s.replayed[k] = true
		if i, found := slices.BinarySearchFunc(s.snapOrder, k, func(a sortedKey, b Key) int { return compareKeys(a.Key, b) }); found {
			s.snapDead[i] = true
		}
		if r.op == OpPut {
			s.live[k] = value{off: base + int64(at), val: r.value}
		} else {
			delete(s.live, k)
		}
		if touched != nil {
			touched(k)
		}
		at += r.size
	}
	return at, nil
}

// Extend replays tail, the bytes of the file from End() on, into the
// store: the records appended since it was read (a torn tail read before is
// read again, now perhaps whole). If tail holds an unknown op the store is
// left exactly as it was.
func (s *Store) Extend(tail []byte) error {
	// Validate first so that a bad append changes nothing.
	at := 0
	for at < len(tail) {
		r, ok, err := decodeRecord(tail[at:])
		if err != nil {
			e := err.(*Error)
			e.Offset = s.end + int64(at)
			return e
		}
		if !ok {
			break
		}
		at += r.size
	}
	s.warns = slices.DeleteFunc(s.warns, func(w string) bool { return strings.HasPrefix(w, tornWarning) })
	n, _ := s.apply(tail, s.end, func(k Key) {
		if k.Col == ColMemory && strings.HasPrefix(k.Key, MemoryPrefix) {
			if s.touched == nil {
				s.touched = map[string]bool{}
			}
			s.touched[k.Key] = true
		}
	})
	s.end += int64(n)
	s.size = s.end + int64(len(tail)-n)
	s.sorted, s.docs = nil, nil
	return nil
}

// TakeTouched returns the memory keys Extend changed (put or deleted)
// since the last call, in key order, and forgets them.
func (s *Store) TakeTouched() []string {
	keys := make([]string, 0, len(s.touched))
	for k := range s.touched {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	s.touched = nil
	return keys
}

// tornWarning starts the warning about a torn tail.
const tornWarning = "torn record"
