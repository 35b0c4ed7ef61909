package crabdb

import (
	"fmt"

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

// Detect tells a v1 memory file from a store by structure, never by name,
// exactly as SPEC §10 says: a file that decodes as v1 exactly to its end is
// v1; otherwise it is a store when it is at least 32 bytes long, bytes
// 28–31 are zero and (index_at, index_len) is (0, 0) or lies inside the
// file with index_at ≥ 32; otherwise the v1 reader decides (FormatUnknown:
// its error, or a v1 memory with trailing bytes).
func Detect(data []byte) Format {
	format, _, _ := DetectDecoded(data)
	return format
}

// DetectDecoded is Detect that also returns the v1 decoding it made (the
// file or the v1 reader's error), so that a caller going on with a file
// that is not a store does not decode it again.
func DetectDecoded(data []byte) (Format, *store.File, error) {
	f, err := store.Decode(data)
	switch {
	case err == nil && f.Trailing == 0:
		return FormatV1, f, nil
	case mayBeStore(data, int64(len(data))):
		return FormatStore, f, err
	}
	if cut := CutShort(data, err); cut != nil {
		err = cut // not the v1 reader's words for a store cut short
	}
	return FormatUnknown, f, err
}

// CutShort is store.CutStore for data, which the v1 reader refused with
// v1err (nil when it is not a store cut short), saying what crabtalk's own
// reader then does: it replays the log from byte 32, over the snapshot's
// bytes, as crabdb's open does.
func CutShort(data []byte, v1err error) *store.CutStoreError {
	cut := store.CutStore(data, v1err)
	if cut == nil {
		return nil
	}
	at, n := int64(HeaderLen), 0
	for at < int64(len(data)) {
		r, ok, err := decodeRecord(data[at:])
		switch {
		case err != nil:
			cut.Then = fmt.Sprintf("reads %d records, then fails at offset %d: %s (it does not open the store)", n, at, err.(*Error).Reason)
			return cut
		case !ok:
			cut.Then = fmt.Sprintf("reads %d records and drops the torn bytes from offset %d (it opens the store with what they hold, and writes over the rest)", n, at)
			return cut
		}
		at += int64(r.size)
		n++
	}
	cut.Then = fmt.Sprintf("and opens the store with its %d records", n)
	return cut
}

// mayBeStore reports whether a file of size bytes starting with head (its
// first 32 bytes or more) has a store's structure, as Detect decides it
// after ruling v1 out. A file for which it is false is never a store, so a
// caller can look at 32 bytes before reading a large v1 file. It is
// store.MayBeCrabdb: the v1 write path refuses the same files.
func mayBeStore(head []byte, size int64) bool { return store.MayBeCrabdb(head, size) }
