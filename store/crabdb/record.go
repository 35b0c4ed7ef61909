package crabdb

import (
	"encoding/binary"
	"strconv"
)

// Record operations.
const (
	OpPut    = 0
	OpDelete = 1
)

// Columns of crabtalk's keyspace (crates/store kv.rs). crmem reads
// ColSession, ColMemory and ColText and skips the rest.
const (
	ColAgent   = 0
	ColSession = 1
	ColMemory  = 2
	ColSkill   = 3
	ColHarness = 4
	ColConfig  = 5
	ColText    = 6
)

// record is one decoded record; key and value alias the buffer read from.
type record struct {
	op    byte
	col   byte
	key   []byte
	value []byte
	size  int // bytes the record occupies
}

// recordHead is op, col and the key length.
const recordHead = 6

// decodeRecord decodes the record at the start of b. ok is false when b
// ends inside the record (a torn tail); err is set for an unknown op, which
// crabdb checks before anything else. Lengths are compared with what is
// left of b before they are used, so nothing is allocated.
func decodeRecord(b []byte) (r record, ok bool, err error) {
	if len(b) == 0 {
		return r, false, nil
	}
	if b[0] != OpPut && b[0] != OpDelete {
		return r, false, &Error{Reason: unknownOp(b[0]), Offset: -1}
	}
	if len(b) < recordHead {
		return r, false, nil
	}
	r.op, r.col = b[0], b[1]
	at := uint64(recordHead)
	klen := uint64(binary.LittleEndian.Uint32(b[2:6]))
	if uint64(len(b))-at < klen {
		return r, false, nil
	}
	r.key = b[at : at+klen]
	at += klen
	if uint64(len(b))-at < 4 {
		return r, false, nil
	}
	vlen := uint64(binary.LittleEndian.Uint32(b[at : at+4]))
	at += 4
	if uint64(len(b))-at < vlen {
		return r, false, nil
	}
	r.value = b[at : at+vlen]
	r.size = int(at + vlen)
	return r, true, nil
}

// unknownOp is crabdb's wording for a bad op byte.
func unknownOp(op byte) string { return "unknown record op " + strconv.Itoa(int(op)) }
