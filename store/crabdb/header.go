package crabdb

import "encoding/binary"

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
func ParseHeader(b []byte) (Header, error) {
	if len(b) < HeaderLen {
		return Header{}, fail("file shorter than its header")
	}
	if string(b[:6]) != Magic {
		return Header{}, fail("not a CRMEM file")
	}
	if v := binary.LittleEndian.Uint32(b[6:10]); v != Version {
		return Header{}, fail("unsupported format version %d", v)
	}
	if f := binary.LittleEndian.Uint16(b[10:12]); f != 0 {
		return Header{}, fail("unknown flags 0x%04x", f)
	}
	return Header{
		IndexAt:  binary.LittleEndian.Uint64(b[16:24]),
		IndexLen: binary.LittleEndian.Uint64(b[24:32]),
	}, nil
}
