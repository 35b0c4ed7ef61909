package crabdb

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
)

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

// snapEntry is one entry of a snapshot: a key's column, its bytes and
// the offset of its live Put record; at is where the entry starts in the
// snapshot's bytes.
type snapEntry struct {
	col byte
	key []byte
	off uint64
	at  uint64
}

// eachSnapshotEntry calls fn with the entries of snap (u32 count, then
// count × (col u8, u32 key length, key, u64 offset), as crabdb's
// checkpoint writes them) in order, until fn returns false. It returns
// the count, the entries that fit whole, and the bytes those took (the
// count's 4 included). Every length is checked against what is left
// before it is used. snap must hold at least the count's 4 bytes.
func eachSnapshotEntry(snap []byte, fn func(i uint32, e snapEntry) bool) (count, fit uint32, used uint64) {
	count = binary.LittleEndian.Uint32(snap)
	at := uint64(4)
	for i := range count {
		rest := uint64(len(snap)) - at
		if rest < 5 {
			return count, i, at
		}
		klen := uint64(binary.LittleEndian.Uint32(snap[at+1 : at+5]))
		if rest-5 < klen || rest-5-klen < 8 {
			return count, i, at
		}
		e := snapEntry{col: snap[at], key: snap[at+5 : at+5+klen], off: binary.LittleEndian.Uint64(snap[at+5+klen : at+13+klen]), at: at}
		at += 13 + klen
		if !fn(i, e) {
			return count, i + 1, at
		}
	}
	return count, count, at
}

// decodeSnapshot reads snap's entries into s.live, accepting what
// crabdb's decode_index accepts: its structure only (a count, then entries
// that fit whole; bytes after them are ignored), keys in any order, a key
// given twice taking its later offset (crabdb extends a BTreeMap with
// them). Each offset must point at a whole Put record before the snapshot,
// of the same column; in the memory column of the same key too, else an
// entry would be read as another's (crabdb's read_value does not look at
// the record's key), and the store is refused. Elsewhere a key that is
// not its record's (a bit flipped in a text-index key, say) is read as
// crabdb reads it, the snapshot's key with the record's value, and said
// in a warning, as keys out of order are.
func (s *Store) decodeSnapshot(data, snap []byte) error {
	at0 := int64(s.header.IndexAt)
	if len(snap) < 4 {
		return failAt(at0, "snapshot cut short: %d bytes, no room for its count", len(snap))
	}
	var prev Key
	var err error
	var disorder, mismatch string // the first of each, for the warnings
	mismatches := 0
	count, fit, used := eachSnapshotEntry(snap, func(i uint32, e snapEntry) bool {
		k := Key{e.col, string(e.key)}
		if i > 0 && compareKeys(prev, k) >= 0 && disorder == "" {
			disorder = fmt.Sprintf("snapshot keys out of order from offset %d: (%d, %q) after (%d, %q); read in key order, a key given twice taking its later offset, as crabdb reads them", at0+int64(e.at), e.col, e.key, prev.Col, prev.Key)
		}
		prev = k
		v, other, verr := s.checkOffset(data, e.col, e.key, e.off)
		if verr != nil {
			err = verr
			return false
		}
		if other != nil {
			if mismatches++; mismatch == "" {
				mismatch = fmt.Sprintf("snapshot entry (column %d, key %q) at offset %d points at offset %d, the record of key %q", e.col, e.key, at0+int64(e.at), e.off, other)
			}
		}
		s.live[k] = v
		s.snapOrder = append(s.snapOrder, sortedKey{k, v.val})
		return true
	})
	if err != nil {
		return err
	}
	if fit < count {
		return failAt(at0, "snapshot cut short: entry %d of %d does not fit in index_len %d", fit+1, count, len(snap))
	}
	if disorder != "" {
		s.warns = append(s.warns, disorder)
		s.snapOrder = keyOrder(s.snapOrder, s.live)
	}
	if mismatch != "" {
		more := ""
		if mismatches > 1 {
			more = fmt.Sprintf(" (and %d more)", mismatches-1)
		}
		s.warns = append(s.warns, mismatch+more+"; read as crabdb reads it, under the snapshot's key with that record's value")
	}
	s.snapDead = make([]bool, len(s.snapOrder))
	if extra := uint64(len(snap)) - used; extra > 0 {
		s.warns = append(s.warns, fmt.Sprintf("%d bytes after the snapshot's last entry (offset %d) ignored", extra, at0+int64(used)))
	}
	return nil
}

// checkOffset verifies that off is a whole Put record of (col, key) lying
// before the snapshot, and returns it. crabdb trusts the offset and would
// hand out whatever record is there. Outside the memory column a Put
// record of the column under another key is taken, as crabdb takes it:
// other is then that key (nil when it is key).
func (s *Store) checkOffset(data []byte, col byte, key []byte, off uint64) (v value, other []byte, err error) {
	bad := func(why string) (value, []byte, error) {
		return value{}, nil, fail("snapshot entry (column %d, key %q) points at offset %d, %s", col, key, off, why)
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
	case r.col != col || col == ColMemory && !bytes.Equal(r.key, key):
		return bad(fmt.Sprintf("which is the record of (column %d, key %q)", r.col, r.key))
	case !bytes.Equal(r.key, key):
		other = r.key
	}
	return value{off: int64(off), val: r.value}, other, nil
}

// keyOrder is a snapshot's entries, read out of order, put in key order,
// each key once with what live holds for it (its later offset).
func keyOrder(entries []sortedKey, live map[Key]value) []sortedKey {
	slices.SortStableFunc(entries, func(a, b sortedKey) int { return compareKeys(a.Key, b.Key) })
	entries = slices.CompactFunc(entries, func(a, b sortedKey) bool { return a.Key == b.Key })
	for i := range entries {
		entries[i].val = live[entries[i].Key].val
	}
	return entries
}
