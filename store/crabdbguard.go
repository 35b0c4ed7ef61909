package store

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// ErrCrabdb is returned when a file that a v1 DB would read or replace is
// crabtalk's store (crabdb, SPEC §10) rather than a CRMEM v1 memory file,
// and when a store is read-only here (its tail is torn, say). Both formats
// start with the same magic and version, and the v1 reader takes a fresh
// or never-checkpointed store for an empty memory with trailing bytes: a
// v1 write would replace the daemon's whole store with it. A store is
// written through its own Backend (store/open), never as a v1 file.
var ErrCrabdb = errors.New("crmem writes crabtalk's store only when it reads whole and clean")

// crabdbHeaderLen is the size of a crabdb store's header.
const crabdbHeaderLen = 32

// CrabdbHeader is a crabdb store's 32-byte header read field by field
// (SPEC §10): the one reading of it, which crabdb.ParseHeader checks the
// way crabdb does and MayBeCrabdb tells a store's structure by.
type CrabdbHeader struct {
	Magic    string // bytes 0–5
	Version  uint32 // bytes 6–9
	Flags    uint16 // bytes 10–11
	IndexAt  uint64 // bytes 16–23: where the newest key-index snapshot is
	IndexLen uint64 // bytes 24–31: its length (0: none)
}

// ReadCrabdbHeader reads the header's fields from b's first 32 bytes; ok
// is false when b is shorter.
func ReadCrabdbHeader(b []byte) (h CrabdbHeader, ok bool) {
	if len(b) < crabdbHeaderLen {
		return CrabdbHeader{}, false
	}
	return CrabdbHeader{
		Magic:    string(b[:6]),
		Version:  binary.LittleEndian.Uint32(b[6:10]),
		Flags:    binary.LittleEndian.Uint16(b[10:12]),
		IndexAt:  binary.LittleEndian.Uint64(b[16:24]),
		IndexLen: binary.LittleEndian.Uint64(b[24:32]),
	}, true
}

// MayBeCrabdb reports whether a file of size bytes starting with head (its
// first 32 bytes or more) has the structure of a crabdb store, once a
// whole-file v1 reading has been ruled out, exactly as SPEC §10 says: at
// least 32 bytes, bytes 28–31 zero and (index_at, index_len) either
// (0, 0) or inside the file with index_at ≥ 32. Nothing else is a store:
// a file that fails it is the v1 reader's to decide, with its reason (a
// store whose header points past the end of the file is not told from a
// damaged v1 file by any rule, and the v1 reader refuses it unless it reads
// as a v1 memory with trailing bytes, which it then is). A file for which
// it is false is never a store, so a caller can look at 32 bytes before
// reading more.
func MayBeCrabdb(head []byte, size int64) bool {
	h, ok := ReadCrabdbHeader(head)
	if !ok || size < crabdbHeaderLen {
		return false
	}
	usize := uint64(size)
	at, n := h.IndexAt, h.IndexLen
	zero28 := n>>32 == 0 // bytes 28–31
	inside := (at == 0 && n == 0) || (at >= crabdbHeaderLen && at <= usize && n <= usize-at)
	return zero28 && inside
}

// decodeV1 decodes a version of the memory file that a DB reads and may
// replace. It is Decode, except that a file Decode accepts only with
// trailing bytes and whose structure is a store's fails with ErrCrabdb:
// the CLI and the TUI tell the formats apart first, and this keeps every
// write path of store from taking a store for an empty v1 memory.
func decodeV1(data []byte) (*File, error) {
	f, err := Decode(data)
	if cut := CutStore(data, err); cut != nil {
		return nil, cut
	}
	if err == nil && f.Trailing > 0 {
		switch {
		case MayBeCrabdb(data, int64(len(data))):
			return nil, ErrCrabdb
		case indexPastEnd(data, int64(len(data))):
			return nil, errIndexPastEnd{}
		}
	}
	return f, err
}

// indexPastEnd reports whether a file the v1 reader takes for an empty
// memory with trailing bytes has, read as a store's header, an index from
// byte 32 on that runs past the end of the file: a crabtalk store cut
// short, or with its header damaged (fixtures/crabdb/bad/big-index-len).
// By SPEC §10 it is not a store, and it is read as the v1 file it decodes
// as; but it is never written, which would replace what may be the
// daemon's whole store with an empty memory. A v1 file's next_id below 32
// (an empty memory followed by zeros, say) is never taken for one.
func indexPastEnd(head []byte, size int64) bool {
	if len(head) < crabdbHeaderLen || size < crabdbHeaderLen {
		return false
	}
	at := binary.LittleEndian.Uint64(head[16:24])
	n := binary.LittleEndian.Uint64(head[24:32])
	return at >= crabdbHeaderLen && (at > uint64(size) || n > uint64(size)-at)
}

// errIndexPastEnd is why a DB refuses a file indexPastEnd describes; it
// matches ErrCrabdb, as every refusal to write over a store does.
type errIndexPastEnd struct{}

func (errIndexPastEnd) Error() string {
	return "not written: it reads as a CRMEM v1 memory only with trailing bytes, and its header as a crabtalk store's whose index runs past the end of the file (a store cut short?)"
}

func (errIndexPastEnd) Is(target error) bool { return target == ErrCrabdb }

// CutStoreError is why a file whose header is a crabtalk store's, with an
// index snapshot that runs past the end of the file, is not read: a store
// cut short (a copy interrupted, a disk that filled), which SPEC §10's
// structure rule does not take for a store and the v1 reader does not
// decode. It says so, and where the file ends, rather than give the v1
// reader's words ("truncated body") for what is no v1 file. errors.Is
// matches ErrBadFormat through the v1 reader's reason.
type CutStoreError struct {
	Size     int64  // the file's length: where it was cut
	IndexAt  uint64 // where the header says the snapshot starts
	IndexLen uint64 // and its length
	// Then is what crabtalk's own reader does next, after it warns and
	// replays the log from byte 32 ("" when not worked out).
	Then string
	V1   error // the v1 reader's reason
}

// Error says where the store was cut and what crabtalk does with it.
func (e *CutStoreError) Error() string {
	var where string
	switch end := e.IndexAt + e.IndexLen; {
	case e.IndexAt >= uint64(e.Size):
		where = fmt.Sprintf("before its index snapshot (%d bytes at offset %d)", e.IndexLen, e.IndexAt)
	default:
		where = fmt.Sprintf("inside its index snapshot (offsets %d to %d)", e.IndexAt, end)
	}
	msg := fmt.Sprintf("crabtalk's store cut short at offset %d, %s: crabtalk's own reader warns \"crabdb: unreadable index snapshot, replaying the log\" and replays the log from offset %d", e.Size, where, crabdbHeaderLen)
	if e.Then != "" {
		msg += ", " + e.Then
	}
	return msg + "; crmem does not read a store cut short (restore it from a copy)"
}

// Unwrap is the v1 reader's reason.
func (e *CutStoreError) Unwrap() error { return e.V1 }

// CutStore is the CutStoreError for data, which the v1 reader refused
// with v1err, when its header is a crabtalk store's (magic, version 1,
// bytes 28–31 zero) naming a snapshot from byte 32 on that runs past the
// end of the file; nil otherwise.
func CutStore(data []byte, v1err error) *CutStoreError {
	h, ok := ReadCrabdbHeader(data)
	size := uint64(len(data))
	if !ok || v1err == nil || h.Magic != magic || h.Version != 1 || h.IndexLen == 0 || h.IndexLen>>32 != 0 ||
		h.IndexAt < crabdbHeaderLen || h.IndexAt <= size && h.IndexLen <= size-h.IndexAt {
		return nil
	}
	return &CutStoreError{Size: int64(size), IndexAt: h.IndexAt, IndexLen: h.IndexLen, V1: v1err}
}
