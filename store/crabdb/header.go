package crabdb

import "github.com/crmem/crmem/store"

// HeaderLen is the size of a store's fixed header.
const HeaderLen = 32

// Magic starts every CRMEM file, v1 and store alike.
const Magic = "CRMEM\x00"

// Version is the only format version there is.
const Version = 1

// Header is the part of a store's header that varies: where the newest
// key-index snapshot lives. Zeroes mean there is none.
type Header struct {
	IndexAt  uint64
	IndexLen uint64
}

// HasSnapshot reports whether the header names a snapshot. Like crabdb, a
// zero length means none, whatever IndexAt holds.
func (h Header) HasSnapshot() bool { return h.IndexLen > 0 }

// ParseHeader checks the first 32 bytes of b the way crabdb does and in its
// order: length, magic, version, flags.
// The fields are read by store.ReadCrabdbHeader, the one reading of the
// header, which store.MayBeCrabdb also tells a store by.
func ParseHeader(b []byte) (Header, error) {
	h, ok := store.ReadCrabdbHeader(b)
	switch {
	case !ok:
		return Header{}, fail("file shorter than its header")
	case h.Magic != Magic:
		return Header{}, fail("not a CRMEM file")
	case h.Version != Version:
		return Header{}, fail("unsupported format version %d", h.Version)
	case h.Flags != 0:
		return Header{}, fail("unknown flags 0x%04x", h.Flags)
	}
	return Header{IndexAt: h.IndexAt, IndexLen: h.IndexLen}, nil
}
