package genlog

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"github.com/crmem/crmem/store/crabdb"
)

// memBatch is one op's memory records: through crabdb's Batch with the
// index, or the column-2 records alone.
type memBatch struct {
	g   *gen
	b   *crabdb.Batch
	buf []byte
}

func (g *gen) batch() *memBatch {
	if g.st != nil {
		return &memBatch{g: g, b: g.st.NewBatch()}
	}
	return &memBatch{g: g}
}

func (m *memBatch) put(e crabdb.Entry) error {
	if m.b != nil {
		if err := m.b.PutMemory(e); err != nil {
			return fmt.Errorf("genlog: put %q: %w", e.Name, err)
		}
		return nil
	}
	m.buf = appendRecord(m.buf, crabdb.OpPut, crabdb.ColMemory, crabdb.MemoryKey(e.Name), crabdb.EntryJSON(e))
	return nil
}

func (m *memBatch) remove(name string) error {
	if m.b != nil {
		existed, err := m.b.RemoveMemory(name)
		if err != nil {
			return fmt.Errorf("genlog: remove %q: %w", name, err)
		}
		if !existed {
			return fmt.Errorf("genlog: remove %q: not live", name)
		}
		return nil
	}
	m.buf = appendRecord(m.buf, crabdb.OpDelete, crabdb.ColMemory, crabdb.MemoryKey(name), nil)
	return nil
}

// flush writes the batch's records and returns the offsets of its
// column-2 records.
func (g *gen) flush(m *memBatch) []int64 {
	b := m.buf
	if m.b != nil {
		b = m.b.Bytes()
		if err := g.st.Extend(b); err != nil {
			panic(fmt.Sprintf("genlog: crabdb's own batch does not replay: %v", err)) // cannot happen: Batch encodes whole records
		}
	}
	var offs []int64
	base := g.off
	walkRecords(b, func(op, col byte, key []byte, at int) {
		g.track(op, col, string(key), base+int64(at))
		if col == crabdb.ColMemory {
			offs = append(offs, base+int64(at))
		}
	})
	g.write(b)
	return offs
}

// record writes one record outside the memory batches.
func (g *gen) record(op, col byte, key string, val []byte) {
	g.track(op, col, key, g.off)
	g.write(appendRecord(nil, op, col, key, val))
}

// track counts a record and keeps the live keys' offsets.
func (g *gen) track(op, col byte, key string, at int64) {
	g.stats.Records++
	switch col {
	case crabdb.ColMemory:
		g.stats.MemoryRecords++
	case crabdb.ColText:
		g.stats.IndexRecords++
	default:
		g.stats.SessionRecords++
	}
	if g.opt.CheckpointEvery == 0 {
		return // no snapshot will list them
	}
	k := crabdb.Key{Col: col, Key: key}
	if op == crabdb.OpPut {
		g.live[k] = at
	} else {
		delete(g.live, k)
	}
}

// write appends bytes to the file (a failure is the bufio.Writer's, seen
// at its Flush).
func (g *gen) write(b []byte) {
	g.bw.Write(b)
	g.off += int64(len(b))
}

// checkpoint appends a snapshot of the live keys as crabdb's snapshot()
// encodes it: u32 count, then per key in (col, key) order col, u32 key
// length, key, u64 offset of its Put.
func (g *gen) checkpoint() {
	keys := make([]crabdb.Key, 0, len(g.live))
	for k := range g.live {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b crabdb.Key) int {
		return cmp.Or(cmp.Compare(a.Col, b.Col), strings.Compare(a.Key, b.Key))
	})
	buf := binary.LittleEndian.AppendUint32(nil, uint32(len(keys)))
	for _, k := range keys {
		buf = append(buf, k.Col)
		buf = binary.LittleEndian.AppendUint32(buf, uint32(len(k.Key)))
		buf = append(buf, k.Key...)
		buf = binary.LittleEndian.AppendUint64(buf, uint64(g.live[k]))
	}
	g.stats.Snapshots = append(g.stats.Snapshots, Snapshot{At: uint64(g.off), Len: uint64(len(buf)), Keys: len(keys)})
	g.write(buf)
}

// appendRecord appends one record: op, col, u32 key length, key, u32
// value length, value.
func appendRecord(dst []byte, op, col byte, key string, val []byte) []byte {
	dst = append(dst, op, col)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(key)))
	dst = append(dst, key...)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(val)))
	return append(dst, val...)
}

// walkRecords calls fn with each whole record of b and its offset in b.
func walkRecords(b []byte, fn func(op, col byte, key []byte, at int)) {
	for at := 0; at+6 <= len(b); {
		klen := int(binary.LittleEndian.Uint32(b[at+2:]))
		key := b[at+6 : at+6+klen]
		vlen := int(binary.LittleEndian.Uint32(b[at+6+klen:]))
		fn(b[at], b[at+1], key, at)
		at += 10 + klen + vlen
	}
}
