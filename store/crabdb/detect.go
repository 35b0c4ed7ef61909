package crabdb

import (
	"encoding/binary"

	"github.com/crmem/crmem/store"
)

// Format is what a CRMEM file holds.
type Format int

// The formats Detect tells apart.
const (
	// FormatUnknown is neither a whole v1 file nor a store's structure:
	// the v1 reader decides (it may accept odd files, trailing bytes
	// included, or give its reason).
	FormatUnknown Format = iota
	// FormatV1 is a CRMEM v1 memory file (SPEC §1) decoding exactly to
	// its end.
	FormatV1
	// FormatStore is a crabdb store (SPEC §10).
	FormatStore
)

// String names the format as check reports it.
func (f Format) String() string {
	switch f {
	case FormatV1:
		return "CRMEM v1 memory file"
	case FormatStore:
		return "crabtalk store (crabdb)"
	}
	return "unknown"
}

// v1MinEntry is the fewest bytes a v1 entry takes (id, created_at, kind
// and three u32 lengths/counts).
const v1MinEntry = 32

// Detect tells a v1 memory file from a store by structure, never by name.
// A file that decodes as v1 exactly to its end is v1. Otherwise it is a
// store when it is at least 32 bytes long, bytes 28–31 are zero and
// (index_at, index_len) is (0, 0) or lies inside the file from byte 32 on
// (SPEC §10). One case more is a store: a 32-byte header whose v1 reading
// cannot go past the v1 header (v1's entry count is 0 with bytes after it,
// or more entries than the file could hold) and which points at a snapshot
// inside the file or has bytes 28–31 zero — a store whose header names a
// snapshot running past the end of the file, which the v1 reader would
// otherwise read as an empty memory with trailing bytes. The store reader
// then refuses it with that reason.
func Detect(data []byte) Format {
	if f, err := store.Decode(data); err == nil && f.Trailing == 0 {
		return FormatV1
	}
	if len(data) < HeaderLen {
		return FormatUnknown
	}
	size := uint64(len(data))
	at := binary.LittleEndian.Uint64(data[16:24])
	n := binary.LittleEndian.Uint64(data[24:32])
	zero28 := binary.LittleEndian.Uint32(data[28:32]) == 0
	inside := (at == 0 && n == 0) || (at >= HeaderLen && at <= size && n <= size-at)
	if zero28 && inside {
		return FormatStore
	}
	if _, err := ParseHeader(data); err != nil {
		return FormatUnknown
	}
	count := uint64(binary.LittleEndian.Uint32(data[24:28]))
	implausible := count == 0 || count*v1MinEntry > size-28
	if implausible && (zero28 || (at >= HeaderLen && at < size)) {
		return FormatStore
	}
	return FormatUnknown
}
