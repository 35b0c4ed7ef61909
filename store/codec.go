package store

import (
	"encoding/binary"
	"runtime"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/crmem/crmem/internal/hugepage"
	"github.com/crmem/crmem/internal/workgroup"
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
//
// A file of parallelCheckMin bytes or more is read in two passes at once:
// its structure, and every string's UTF-8 on every core as the structure's
// reader hands the entries on; a file that fails either is read again in
// one pass, so the error is always the first in file order.
func Decode(data []byte) (*File, error) { return decode(data, parallelCheckMin, true) }

// decode is Decode with the strings' UTF-8 checked on every core, after
// the structure, from checkMin bytes on; with check false, from checkMin
// bytes on only the structure and the names' UTF-8 are read (beside the
// length the decoder reads anyway) and the other strings are left for the
// caller to check (SearchData).
func decode(data []byte, checkMin int, check bool) (*File, error) {
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
	if !check && len(data) >= checkMin {
		d.names = true
		return d.entries()
	}
	return d.body(checkMin)
}

// decoder walks the file as one string so names, content and aliases are
// substrings of it: no copy of the 60 MB a large memory takes.
type decoder struct {
	s       string
	off     int
	aliases []string       // current alias chunk; entries take s[a:b:b] of it
	check   bool           // check each string's UTF-8 as it is read
	ready   chan<- []Entry // if not nil, given the entries read, checkChunk at a time
	names   bool           // check each name's UTF-8 as it is read (SearchData)
}

func (d *decoder) remaining() int { return len(d.s) - d.off }

// parallelCheckMin is the file size from which Decode checks the strings'
// UTF-8 on every core, beside reading the file's structure: the check is
// a pass over nearly every byte. At 100k entries (60 MB) map and decode
// took 22.1 ms in one pass and 17.7 ms so, on two cores.
const parallelCheckMin = 4 << 20

// prefetchAhead is how far ahead of the walk of a large file's structure
// its bytes are asked into the caches (prefetchLines): some entries ahead,
// as a miss takes longer than reading an entry's lengths.
const prefetchAhead = 4096

// checkChunk is how many decoded entries the structure's reader hands at
// a time to the goroutines checking their strings' UTF-8.
const checkChunk = 1024

func (d *decoder) body(checkMin int) (*File, error) {
	if len(d.s) < checkMin {
		d.check = true
		return d.entries()
	}
	start := d.off
	f, valid, err := d.entriesChecking()
	if err == nil {
		if valid {
			return f, nil
		}
		return nil, errUTF8
	}
	// The first error in file order decides, as in one pass: read again,
	// checking every string as it comes.
	d.off, d.aliases, d.check = start, nil, true
	return d.entries()
}

// entriesChecking is entries with every string's UTF-8 checked on the
// other cores as the entries are read, a chunk at a time, and on this
// one too once they are all read: the structure's walk, which waits on
// memory from entry to entry, leaves its core's neighbours idle. On one
// core the checker runs whenever the reader waits for it. valid
// reports whether every string of the entries read was valid UTF-8. The
// strings may be a mapped file's (MapFile): the checkers run in a
// workgroup, and a fault in the walk ends them before it is raised.
func (d *decoder) entriesChecking() (f *File, valid bool, err error) {
	ready := make(chan []Entry, 16)
	var bad atomic.Bool
	check := func() {
		for chunk := range ready {
			if !bad.Load() && !entriesUTF8(chunk) {
				bad.Store(true)
			}
		}
	}
	var g workgroup.Group
	for range max(1, runtime.GOMAXPROCS(0)-1) { // on one core, it runs when the reader waits
		g.Go(check)
	}
	func() {
		defer close(ready)
		d.ready = ready
		defer func() { d.ready = nil }()
		f, err = d.entries()
	}()
	check()
	g.Wait()
	return f, !bad.Load(), err
}

// entriesUTF8 reports whether every string of the entries is valid UTF-8.
func entriesUTF8(entries []Entry) bool {
	for i := range entries {
		if !entryUTF8(&entries[i]) {
			return false
		}
	}
	return true
}

// entries reads the entry count and the entries, checking each string's
// UTF-8 as it is read when d.check is set.
func (d *decoder) entries() (*File, error) {
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
	sent, ahead := 0, d.off
	for range count {
		if d.ready != nil && d.off+prefetchAhead > ahead {
			ahead = prefetchLines(d.s, ahead, min(d.off+prefetchAhead, len(d.s)))
		}
		entries = append(entries, Entry{})
		if err := d.entry(&entries[len(entries)-1]); err != nil {
			return nil, err
		}
		if d.ready != nil && len(entries)-sent == checkChunk {
			d.ready <- entries[sent:len(entries):len(entries)]
			sent = len(entries)
		}
	}
	if d.ready != nil && sent < len(entries) {
		d.ready <- entries[sent:len(entries):len(entries)]
	}
	f := &File{NextID: nextID, Entries: entries}
	f.Trailing = d.remaining()
	return f, nil
}

// checkUTF8 reports whether every string of the entries is valid UTF-8,
// checking ranges of them on every core. The strings may be a mapped
// file's (MapFile): the workers run in a workgroup.
func checkUTF8(entries []Entry) bool {
	parts := max(1, min(runtime.GOMAXPROCS(0), len(entries)/1024))
	var bad atomic.Bool
	var g workgroup.Group
	for w := range parts {
		lo, hi := w*len(entries)/parts, (w+1)*len(entries)/parts
		g.Go(func() {
			for i := lo; i < hi && !bad.Load(); i++ {
				if !entryUTF8(&entries[i]) {
					bad.Store(true)
				}
			}
		})
	}
	g.Wait()
	return !bad.Load()
}

// entryUTF8 reports whether e's name, content and aliases are valid UTF-8.
func entryUTF8(e *Entry) bool {
	if !validUTF8(e.Name) || !validUTF8(e.Content) {
		return false
	}
	for _, a := range e.Aliases {
		if !validUTF8(a) {
			return false
		}
	}
	return true
}

// asciiPrefixGo is the length of the longest run of whole 16-byte chunks
// at the start of s with no byte of 0x80 or more, or len(s) when s has
// 16 bytes or more and none of them is: pure ASCII, valid UTF-8 whatever
// follows, so validUTF8 need not decode it.
func asciiPrefixGo(s string) int {
	n := 0
	for ; n+16 <= len(s); n += 16 {
		if !ascii16(s, n) {
			return n
		}
	}
	if n < len(s) && len(s) >= 16 && ascii16(s, len(s)-16) {
		return len(s)
	}
	return n
}

// ascii16 reports whether s[i:i+16] has no byte of 0x80 or more.
func ascii16(s string, i int) bool {
	return (load64(s, i)|load64(s, i+8))&0x8080808080808080 == 0
}

// load64 reads s[i:i+8] as a little-endian word.
func load64(s string, i int) uint64 {
	return binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[i:i+8]), 8))
}

func (d *decoder) entry(e *Entry) error {
	if err := d.entryHead(e); err != nil {
		return err
	}
	var err error
	e.Aliases, err = d.aliasList()
	return err
}

// entryHead reads an entry up to its content: what entry reads before
// the aliases.
func (d *decoder) entryHead(e *Entry) error {
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
	if d.names && !validName(e.Name) {
		return errUTF8
	}
	e.Content, err = d.str()
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
	if d.check && !validUTF8(s) {
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
	buf = binary.LittleEndian.AppendUint32(buf, uint32(m.live()+len(m.dups)))
	m.eachAll(func(e *Entry) { buf = appendEntry(buf, e) })
	return buf
}
