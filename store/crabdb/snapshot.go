package crabdb

import (
	"bytes"
	"encoding/binary"
	"fmt"
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

// decodeSnapshot reads snap's entries into s.live. Each offset must point
// at a whole Put record of the same column and key, before the snapshot.
func (s *Store) decodeSnapshot(data, snap []byte) error {
	at0 := int64(s.header.IndexAt)
	if len(snap) < 4 {
		return failAt(at0, "snapshot cut short: %d bytes, no room for its count", len(snap))
	}
	var prev Key
	var err error
	count, fit, used := eachSnapshotEntry(snap, func(i uint32, e snapEntry) bool {
		k := Key{e.col, string(e.key)}
		if i > 0 && compareKeys(prev, k) >= 0 {
			err = failAt(at0+int64(e.at), "snapshot keys out of order: (%d, %q) after (%d, %q)", e.col, e.key, prev.Col, prev.Key)
			return false
		}
		prev = k
		v, verr := s.checkOffset(data, e.col, e.key, e.off)
		if verr != nil {
			err = verr
			return false
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
	s.snapDead = make([]bool, len(s.snapOrder))
	if extra := uint64(len(snap)) - used; extra > 0 {
		s.warns = append(s.warns, fmt.Sprintf("%d bytes after the snapshot's last entry (offset %d) ignored", extra, at0+int64(used)))
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
