package store

import (
	"encoding/binary"
	"hash/maphash"
	"unsafe"
)

// Reloading a v1 file by difference. crabtalk rewrites the file whole on
// every write, so it must be read whole; but after the agent's one
// remember only one entry's bytes differ, and decoding, checking and
// syncing every entry again (copying, comparing and re-indexing 100,000
// entries to find that one) was most of a reload. The entries are
// compared instead by a sum of their bytes as the file held them at the
// last reload, and only those whose bytes differ are decoded and synced.

// v1Sums is what a reload keeps of the file the memory was synced with:
// each entry's id and a sum of its encoded bytes, in file order, and the
// version of the file they are of (the memory is that file's only while
// the DB's fingerprint is that one: a write of its own, or a failed one,
// changes it).
type v1Sums struct {
	fp   Fingerprint
	ids  []uint64
	sums []uint64
}

// v1Records reads the entries of a v1 file as Decode does, without
// keeping them: their ids and sums, in file order, calling changed (nil:
// none) with each entry whose id and sum old (nil: none) does not hold,
// decoded, its strings aliasing data and their UTF-8 checked. ok is false
// when the file is not one a reload by difference takes: anything Decode
// would refuse or warn of (then Decode says what), trailing bytes, or ids
// not strictly ascending (one id twice: the shadowed entries are synced
// by Sync only). An entry whose bytes are the old file's is as valid as
// it was, so its strings are not checked again. h (nil: none) is written
// every byte of data on the way, so when ok it holds hashBytes(data).
func v1Records(data []byte, old *v1Sums, changed func(*Entry), h *maphash.Hash) (nextID uint64, ids, sums []uint64, ok bool) {
	if len(data) < headerSize || string(data[:6]) != magic ||
		binary.LittleEndian.Uint32(data[6:]) != formatVersion || binary.LittleEndian.Uint16(data[10:]) != 0 {
		return 0, nil, nil, false
	}
	d := decoder{s: unsafe.String(&data[0], len(data)), off: headerSize}
	nextID, ok = d.u64()
	count, ok2 := d.u32()
	if !ok || !ok2 || int64(count) > int64(d.remaining()/minEntrySize) {
		return 0, nil, nil, false
	}
	ids, sums = make([]uint64, 0, count), make([]uint64, 0, count)
	if h != nil {
		h.WriteString(d.s[:d.off])
	}
	k := 0      // the next of old's entries to compare
	var e Entry // one for all: changed copies what it keeps
	for range count {
		start := d.off
		if d.entry(&e) != nil || len(ids) > 0 && e.ID <= ids[len(ids)-1] {
			return 0, nil, nil, false
		}
		sum := maphash.String(hashSeed, d.s[start:d.off])
		if h != nil {
			h.WriteString(d.s[start:d.off]) // in cache now: no pass of its own
		}
		ids, sums = append(ids, e.ID), append(sums, sum)
		if changed == nil {
			continue
		}
		for old != nil && k < len(old.ids) && old.ids[k] < e.ID {
			k++
		}
		if old != nil && k < len(old.ids) && old.ids[k] == e.ID && old.sums[k] == sum {
			continue
		}
		if !entryUTF8(&e) {
			return 0, nil, nil, false
		}
		changed(&e)
	}
	if d.remaining() != 0 {
		return 0, nil, nil, false
	}
	return nextID, ids, sums, true
}

// reloadV1 brings the memory to data's state (the file at fp, read by
// Reload), decoding and syncing only the entries whose bytes differ from
// the file's the memory was last synced with. Unless hashed, fp's Hash is
// not set yet: it sets it, hashing each entry's bytes as it reads them.
// ok is false when it cannot (no sums of the file the memory holds, or a
// file v1Records does not take; fp's Hash is then still to be set):
// Reload then decodes and syncs the whole file. db.mu is held.
func (db *DB) reloadV1(data []byte, fp *Fingerprint, hashed bool) (Diff, bool) {
	old := db.v1
	if old == nil || !old.fp.Equal(db.fp) {
		return Diff{}, false
	}
	var h *maphash.Hash
	if !hashed {
		h = new(maphash.Hash)
		h.SetSeed(hashSeed)
	}
	var put []Entry
	nextID, ids, sums, ok := v1Records(data, old, func(e *Entry) { put = append(put, *e) }, h)
	if !ok {
		return Diff{}, false
	}
	if h != nil {
		fp.Hash = h.Sum64()
	}
	var removed []uint64
	j := 0
	for _, id := range old.ids {
		for j < len(ids) && ids[j] < id {
			j++
		}
		if j == len(ids) || ids[j] != id {
			removed = append(removed, id)
		}
	}
	d := db.mem.SyncEntries(put, removed, nextID) // each entry taken is copied: data is not kept
	db.v1 = &v1Sums{fp: *fp, ids: ids, sums: sums}
	return d, true
}

// keepV1Sums keeps the sums of data, the file at fp the memory was just
// synced with whole, for the next reload (none when v1Records does not
// take it, or the memory holds an id twice). db.mu is held.
func (db *DB) keepV1Sums(data []byte, fp Fingerprint) {
	db.v1 = nil
	if len(db.mem.DuplicateIDs()) > 0 {
		return
	}
	if _, ids, sums, ok := v1Records(data, nil, nil, nil); ok {
		db.v1 = &v1Sums{fp: fp, ids: ids, sums: sums}
	}
}
