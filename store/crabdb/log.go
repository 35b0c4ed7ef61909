package crabdb

import (
	"bytes"
	"encoding/binary"
)

// LogRecord is one record of a store's log, where it lies in the file.
// Key and Value alias the bytes walked.
type LogRecord struct {
	Offset int64
	Op     byte // OpPut or OpDelete
	Col    byte
	Key    []byte
	Value  []byte
}

// LogEnd says how a walk of the log ended.
type LogEnd struct {
	// Offset is where the walk stopped: the end of the file, or the start
	// of the bytes it could not read.
	Offset int64
	// Torn says the file ends inside a record (crabdb's torn tail).
	Torn bool
	// Err is set when a record does not decode (an unknown op): the log
	// cannot be read past Offset.
	Err *Error
	// Snapshots are the offsets of the snapshots skipped, the header's
	// and older ones (dead bytes a checkpoint left in the log).
	Snapshots []int64
	// Puts counts the Put records walked, those of the walk this one goes
	// on with (WalkLogFrom's puts) included.
	Puts int
}

// WalkLogFrom calls fn with every record of the store data holds, in file
// order, from offset at (HeaderLen, puts 0: the whole log, dead records
// included, where a reader replays only what follows the header's
// snapshot). Snapshots are skipped: the header's, and older ones, which
// crabdb leaves in the log when it checkpoints again. An older snapshot is
// recognised only when every one of its entries, in crabdb's key order,
// lies in the log before it (the first and last checked to be Puts of
// their own column and key); anything else is read as a record. fn
// returning false stops the walk. The header must have been checked
// (ParseHeader).
//
// It goes on with a walk of the log from offset at, where an
// earlier walk of the same log, shorter then, ended (its LogEnd.Offset,
// neither stopped by an error nor by fn), puts the Put records that walk
// gave fn: the records appended since are walked exactly as a walk from the header walks
// them in the whole log, when the bytes before at and the header are as
// they were. (A checkpoint's snapshot caught half written is the
// exception: the shorter walk read it as records, as any walk of the
// bytes then did; the header the checkpoint then writes tells it.)
func WalkLogFrom(data []byte, at int64, puts int, fn func(LogRecord) bool) LogEnd {
	h, err := ParseHeader(data)
	if err != nil {
		e, _ := err.(*Error)
		return LogEnd{Err: e}
	}
	var end LogEnd
	size := int64(len(data))
	var ahead Prefetcher
	for at < size {
		ahead.Before(data, at)
		if h.HasSnapshot() && uint64(at) == h.IndexAt && h.IndexLen <= uint64(size-at) {
			end.Snapshots = append(end.Snapshots, at)
			at += int64(h.IndexLen)
			continue
		}
		if n := oldSnapshot(data, at, puts); n > 0 {
			end.Snapshots = append(end.Snapshots, at)
			at += n
			continue
		}
		r, ok, err := decodeRecord(data[at:])
		if err != nil {
			e := err.(*Error)
			e.Offset = at
			end.Offset, end.Err, end.Puts = at, e, puts
			return end
		}
		if !ok {
			end.Offset, end.Torn, end.Puts = at, true, puts
			return end
		}
		if r.op == OpPut {
			puts++
		}
		if !fn(LogRecord{Offset: at, Op: r.op, Col: r.col, Key: r.key, Value: r.value}) {
			end.Offset, end.Puts = at+int64(r.size), puts
			return end
		}
		at += int64(r.size)
	}
	end.Offset, end.Puts = at, puts
	return end
}

// oldSnapshot is the length of the snapshot at offset at, or 0 when the
// bytes there are not one: a count of at least one and at most the Put
// records walked (puts), then exactly that many entries in ascending
// (column, key) order, each offset inside the log before at, the first
// and the last pointing at a Put record of their own column and key. A
// record read as a snapshot fails at once (its key's bytes give an entry
// running past the end), so the check costs a few comparisons per record;
// a real one costs a pass over its entries and two record reads.
func oldSnapshot(data []byte, at int64, puts int) int64 {
	b := data[at:]
	if len(b) < 4+13 || puts == 0 {
		return 0
	}
	if count := uint64(binary.LittleEndian.Uint32(b)); count == 0 || count > uint64(len(b)-4)/13 || count > uint64(puts) {
		return 0
	}
	var first, prev snapEntry
	good := true
	count, fit, used := eachSnapshotEntry(b, func(i uint32, e snapEntry) bool {
		if i > 0 && (e.col < prev.col || e.col == prev.col && bytes.Compare(e.key, prev.key) <= 0) ||
			e.off < HeaderLen || e.off >= uint64(at) {
			good = false
			return false
		}
		if i == 0 {
			first = e
		}
		prev = e
		return true
	})
	if !good || fit < count || !putOf(data[:at], first) || !putOf(data[:at], prev) {
		return 0
	}
	return int64(used)
}

// putOf reports whether a snapshot entry points at a whole Put record of
// its own column and key in log, the bytes before the snapshot.
func putOf(log []byte, e snapEntry) bool {
	r, whole, err := decodeRecord(log[e.off:])
	return err == nil && whole && r.op == OpPut && r.col == e.col && bytes.Equal(r.key, e.key)
}

// Prefetcher reads a large file's bytes ahead of a walk in order, a byte
// per cache line: records lie at irregular distances, which the
// processor's prefetcher does not follow, so a walk straight over a
// mapped file waited on memory at every record (187 ms for the 515 MB of
// a million records, against 24 ms to read every cache line in order).
// The zero value is ready; call Before with each offset the walk reaches,
// in ascending order.
type Prefetcher struct {
	upto int64 // bytes before upto have been read ahead
	sink byte  // keeps the reads
}

// prefetchWindow is how far ahead of the walk bytes are read.
const prefetchWindow = 256 << 10

// Before reads ahead of offset at when the walk nears the end of what was
// read.
func (p *Prefetcher) Before(data []byte, at int64) {
	if at+prefetchWindow/2 < p.upto {
		return
	}
	from := max(p.upto, at)
	to := min(from+prefetchWindow, int64(len(data)))
	var x byte
	for i := from; i < to; i += 64 {
		x ^= data[i]
	}
	p.sink ^= x
	p.upto = to
}

// RecordAt decodes the record at offset off of data (one WalkLogFrom gave).
func RecordAt(data []byte, off int64) (LogRecord, bool) {
	if off < HeaderLen || off >= int64(len(data)) {
		return LogRecord{}, false
	}
	r, ok, err := decodeRecord(data[off:])
	if err != nil || !ok {
		return LogRecord{}, false
	}
	return LogRecord{Offset: off, Op: r.op, Col: r.col, Key: r.key, Value: r.value}, true
}
