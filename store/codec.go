package store

import (
	"encoding/binary"
	"slices"
	"unicode/utf8"
	"unsafe"

	"github.com/crmem/crmem/internal/hugepage"
)

// On-disk layout constants of CRMEM v1 (see doc.go).
const (
	headerSize    = 16
	formatVersion = 1
	// minEntrySize is the smallest possible encoded entry: id, created_at,
	// kind, three empty length-prefixed fields (name, content, alias count).
	minEntrySize = 8 + 8 + 4 + 4 + 4 + 4
	// aliasChunk is how many alias strings Decode allocates at a time; all
	// entries' alias slices are carved out of such shared chunks.
	aliasChunk = 4096
)

const magic = "CRMEM\x00"

// File is the decoded content of a CRMEM v1 file.
type File struct {
	NextID  uint64
	Entries []Entry // in file order
	// Trailing is the number of bytes after the last entry (ignored on read).
	Trailing int
}

// Decode parses a CRMEM v1 file. It never allocates more than a small
// multiple of len(data), whatever the counts in the file claim. Errors match
// ErrBadFormat and carry the reference implementation's reason.
//
// The returned entries' strings share memory with data, which must not be
// modified afterwards. Entries with no aliases have an empty, non-nil slice.
func Decode(data []byte) (*File, error) {
	if len(data) < headerSize {
		return nil, errShortHeader
	}
	if string(data[:6]) != magic {
		return nil, errMagic
	}
	if binary.LittleEndian.Uint32(data[6:]) != formatVersion {
		return nil, errVersion
	}
	if binary.LittleEndian.Uint16(data[10:]) != 0 {
		return nil, errFlags
	}
	d := decoder{s: unsafe.String(&data[0], len(data)), off: headerSize}
	return d.body()
}

// decoder walks the file as one string so names, content and aliases are
// substrings of it: no copy of the 60 MB a large memory takes.
type decoder struct {
	s       string
	off     int
	aliases []string // current alias chunk; entries take s[a:b:b] of it
}

func (d *decoder) remaining() int { return len(d.s) - d.off }

func (d *decoder) body() (*File, error) {
	nextID, ok := d.u64()
	if !ok {
		return nil, errTruncated
	}
	count, ok := d.u32()
	if !ok {
		return nil, errTruncated
	}
	// Cap preallocation by what the remaining bytes can hold.
	if int64(count) > int64(d.remaining()/minEntrySize) {
		return nil, errTruncated
	}
	// Preallocate no more than the file's size could hold as Entry values;
	// a file that is truly that dense grows the slice as it goes.
	// Filled at once: laid out for huge pages (package hugepage).
	entries := hugepage.Slice[Entry](min(int(count), d.remaining()/int(unsafe.Sizeof(Entry{}))))
	for range count {
		entries = append(entries, Entry{})
		if err := d.entry(&entries[len(entries)-1]); err != nil {
			return nil, err
		}
	}
	f := &File{NextID: nextID, Entries: entries}
	f.Trailing = d.remaining()
	return f, nil
}

func (d *decoder) entry(e *Entry) error {
	var ok bool
	var kind uint32
	if e.ID, ok = d.u64(); !ok {
		return errTruncated
	}
	if e.CreatedAt, ok = d.u64(); !ok {
		return errTruncated
	}
	if kind, ok = d.u32(); !ok {
		return errTruncated
	}
	if kind > uint32(Topic) {
		return errKind
	}
	e.Kind = Kind(kind)
	var err error
	if e.Name, err = d.str(); err != nil {
		return err
	}
	if e.Content, err = d.str(); err != nil {
		return err
	}
	e.Aliases, err = d.aliasList()
	return err
}

func (d *decoder) aliasList() ([]string, error) {
	n, ok := d.u32()
	if !ok {
		return nil, errTruncated
	}
	// Every alias takes at least its 4-byte length.
	if int64(n) > int64(d.remaining()/4) {
		return nil, errTruncated
	}
	count := int(n)
	if cap(d.aliases)-len(d.aliases) < count {
		// A new chunk, sized within what the remaining bytes can justify;
		// appends below grow it if the aliases really are that many.
		d.aliases = make([]string, 0, max(aliasChunk, min(count, d.remaining()/16)))
	}
	start := len(d.aliases)
	for range count {
		a, err := d.str()
		if err != nil {
			return nil, err
		}
		d.aliases = append(d.aliases, a)
	}
	end := len(d.aliases)
	if d.aliases == nil {
		return []string{}, nil
	}
	return d.aliases[start:end:end], nil
}

func (d *decoder) u32() (uint32, bool) {
	if d.remaining() < 4 {
		return 0, false
	}
	s := d.s[d.off:]
	v := uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
	d.off += 4
	return v, true
}

func (d *decoder) u64() (uint64, bool) {
	lo, ok := d.u32()
	if !ok {
		return 0, false
	}
	hi, ok := d.u32()
	if !ok {
		return 0, false
	}
	return uint64(lo) | uint64(hi)<<32, true
}

func (d *decoder) str() (string, error) {
	n, ok := d.u32()
	if !ok || int64(n) > int64(d.remaining()) {
		return "", errTruncated
	}
	s := d.s[d.off : d.off+int(n)]
	d.off += int(n)
	if !utf8.ValidString(s) {
		return "", errUTF8
	}
	return s, nil
}

// Encode serialises entries in ascending id order (entries with equal ids
// keep their relative order) with the given next_id, raised above every id
// when needed so the next Add never reuses one. Reserved bytes are zero.
func Encode(nextID uint64, entries []Entry) []byte {
	ptrs := sortedByID(entries)
	size := headerSize + 12
	for _, e := range ptrs {
		size += encodedSize(e)
		nextID = raiseNextID(nextID, e.ID)
	}
	buf := make([]byte, 0, size)
	buf = append(buf, magic...)
	buf = binary.LittleEndian.AppendUint32(buf, formatVersion)
	buf = append(buf, 0, 0, 0, 0, 0, 0) // flags, reserved
	buf = binary.LittleEndian.AppendUint64(buf, nextID)
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(ptrs)))
	for _, e := range ptrs {
		buf = appendEntry(buf, e)
	}
	return buf
}

// sortedByID returns pointers to the entries in ascending id order, stable.
func sortedByID(entries []Entry) []*Entry {
	ptrs := make([]*Entry, len(entries))
	for i := range entries {
		ptrs[i] = &entries[i]
	}
	if !slices.IsSortedFunc(ptrs, cmpID) {
		slices.SortStableFunc(ptrs, cmpID)
	}
	return ptrs
}

func cmpID(a, b *Entry) int {
	switch {
	case a.ID < b.ID:
		return -1
	case a.ID > b.ID:
		return 1
	}
	return 0
}

func encodedSize(e *Entry) int {
	n := minEntrySize + len(e.Name) + len(e.Content)
	for _, a := range e.Aliases {
		n += 4 + len(a)
	}
	return n
}

func appendEntry(buf []byte, e *Entry) []byte {
	buf = binary.LittleEndian.AppendUint64(buf, e.ID)
	buf = binary.LittleEndian.AppendUint64(buf, e.CreatedAt)
	buf = binary.LittleEndian.AppendUint32(buf, uint32(e.Kind))
	buf = appendString(buf, e.Name)
	buf = appendString(buf, e.Content)
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(e.Aliases)))
	for _, a := range e.Aliases {
		buf = appendString(buf, a)
	}
	return buf
}

func appendString(buf []byte, s string) []byte {
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(s)))
	return append(buf, s...)
}

// encode serialises the memory without copying its entries.
func (m *Memory) encode() []byte {
	m.mu.RLock()
	defer m.mu.RUnlock()
	size := headerSize + 12
	m.eachAll(func(e *Entry) { size += encodedSize(e) })
	buf := make([]byte, 0, size)
	buf = append(buf, magic...)
	buf = binary.LittleEndian.AppendUint32(buf, formatVersion)
	buf = append(buf, 0, 0, 0, 0, 0, 0) // flags, reserved
	buf = binary.LittleEndian.AppendUint64(buf, m.nextID)
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(m.byID)+len(m.dups)))
	m.eachAll(func(e *Entry) { buf = appendEntry(buf, e) })
	return buf
}
