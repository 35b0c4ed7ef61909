package crabdb

import (
	"bytes"
	"cmp"
	"encoding/binary"
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

// Keys returns the live keys of col that start with prefix, ascending.
func (s *Store) Keys(col byte, prefix string) []string {
	var out []string
	s.scan(col, prefix, func(k string, _ []byte) { out = append(out, k) })
	return out
}

// scan calls fn with every live key of col that starts with prefix, and
// its value, in ascending key order.
func (s *Store) scan(col byte, prefix string, fn func(key string, val []byte)) {
	keys := s.keys()
	i, _ := slices.BinarySearchFunc(keys, Key{col, prefix}, func(a sortedKey, b Key) int { return compareKeys(a.Key, b) })
	for ; i < len(keys) && keys[i].Col == col && strings.HasPrefix(keys[i].Key.Key, prefix); i++ {
		fn(keys[i].Key.Key, keys[i].val)
	}
}

// sortedKey is a live key and its value, in the store's key order.
type sortedKey struct {
	Key
	val []byte
}

// keys returns every live key in order: the snapshot's keys (in order
// already) merged with the keys replayed after it, sorted.
func (s *Store) keys() []sortedKey {
	if s.sorted != nil {
		return s.sorted
	}
	var tail []Key
	for k := range s.replayed {
		if _, ok := s.live[k]; ok {
			tail = append(tail, k)
		}
	}
	slices.SortFunc(tail, compareKeys)
	s.sorted = make([]sortedKey, 0, len(s.live))
	head, dead := s.snapOrder, s.snapDead
	for len(head) > 0 || len(tail) > 0 {
		switch {
		case len(head) > 0 && dead[0]:
			// Its live version, if any, is in tail.
		case len(tail) == 0 || len(head) > 0 && compareKeys(head[0].Key, tail[0]) < 0:
			s.sorted = append(s.sorted, head[0])
		default:
			s.sorted = append(s.sorted, sortedKey{tail[0], s.live[tail[0]].val})
			tail = tail[1:]
			continue
		}
		head, dead = head[1:], dead[1:]
	}
	return s.sorted
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

// loadSnapshot reads the snapshot the header names, checking every offset
// in it, and returns where the replay starts. A snapshot that lies wholly
// beyond the end of the file is skipped with a warning (the whole log is
// replayed, as crabdb does); one that starts inside the file but runs past
// its end, or does not decode, is refused: replaying from byte 32 would read
// its bytes as records.
func (s *Store) loadSnapshot(data []byte) (int64, error) {
	h, size := s.header, uint64(len(data))
	if !h.HasSnapshot() {
		return HeaderLen, nil
	}
	if h.IndexAt < HeaderLen {
		return 0, fail("the header's snapshot offset %d lies inside the header", h.IndexAt)
	}
	if h.IndexAt >= size {
		s.warns = append(s.warns, fmt.Sprintf("the header's snapshot (index_at %d) lies beyond the end of the file (%d bytes); replayed the whole log", h.IndexAt, size))
		return HeaderLen, nil
	}
	if h.IndexLen > size-h.IndexAt {
		return 0, failAt(int64(h.IndexAt), "snapshot of %d bytes runs past the end of the file (%d bytes)", h.IndexLen, size)
	}
	snap := data[h.IndexAt : h.IndexAt+h.IndexLen]
	if err := s.decodeSnapshot(data, snap); err != nil {
		return 0, err
	}
	return int64(h.IndexAt + h.IndexLen), nil
}

// decodeSnapshot reads snap's entries into s.live. Each offset must point
// at a whole Put record of the same column and key, before the snapshot.
func (s *Store) decodeSnapshot(data, snap []byte) error {
	at0 := int64(s.header.IndexAt)
	short := func(i uint32, count uint32) error {
		return failAt(at0, "snapshot cut short: entry %d of %d does not fit in index_len %d", i+1, count, len(snap))
	}
	if len(snap) < 4 {
		return failAt(at0, "snapshot cut short: %d bytes, no room for its count", len(snap))
	}
	count := binary.LittleEndian.Uint32(snap)
	at := uint64(4)
	var prev Key
	for i := range count {
		rest := uint64(len(snap)) - at
		if rest < 5 {
			return short(i, count)
		}
		col := snap[at]
		klen := uint64(binary.LittleEndian.Uint32(snap[at+1 : at+5]))
		if rest-5 < klen || rest-5-klen < 8 {
			return short(i, count)
		}
		key := snap[at+5 : at+5+klen]
		off := binary.LittleEndian.Uint64(snap[at+5+klen : at+13+klen])
		entryAt := at0 + int64(at)
		at += 13 + klen
		k := Key{col, string(key)}
		if i > 0 && compareKeys(prev, k) >= 0 {
			return failAt(entryAt, "snapshot keys out of order: (%d, %q) after (%d, %q)", col, key, prev.Col, prev.Key)
		}
		prev = k
		v, err := s.checkOffset(data, col, key, off)
		if err != nil {
			return err
		}
		s.live[k] = v
		s.snapOrder = append(s.snapOrder, sortedKey{k, v.val})
	}
	s.snapDead = make([]bool, len(s.snapOrder))
	if extra := uint64(len(snap)) - at; extra > 0 {
		s.warns = append(s.warns, fmt.Sprintf("%d bytes after the snapshot's last entry (offset %d) ignored", extra, at0+int64(at)))
	}
	return nil
}

// checkOffset verifies that off is a whole Put record of (col, key) lying
// before the snapshot, and returns it. crabdb trusts the offset and would
// hand out whatever record is there.
func (s *Store) checkOffset(data []byte, col byte, key []byte, off uint64) (value, error) {
	bad := func(why string) (value, error) {
		return value{}, fail("snapshot entry (column %d, key %q) points at offset %d, %s", col, key, off, why)
	}
	if off < HeaderLen || off >= s.header.IndexAt {
		if off >= uint64(len(data)) {
			return bad("beyond the end of the file")
		}
		return bad("outside the log before the snapshot")
	}
	r, ok, err := decodeRecord(data[off:s.header.IndexAt])
	switch {
	case err != nil:
		return bad("which is not a record (" + err.(*Error).Reason + ")")
	case !ok:
		return bad("which is not a whole record before the snapshot")
	case r.op != OpPut:
		return bad("which is a Delete record")
	case r.col != col || !bytes.Equal(r.key, key):
		return bad(fmt.Sprintf("which is the record of (column %d, key %q)", r.col, r.key))
	}
	return value{off: int64(off), val: r.value}, nil
}

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
	n, _ := s.apply(tail, s.end, nil)
	s.end += int64(n)
	s.size = s.end + int64(len(tail)-n)
	s.sorted, s.docs = nil, nil
	return nil
}

// tornWarning starts the warning about a torn tail.
const tornWarning = "torn record"
