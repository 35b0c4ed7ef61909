package store

import (
	"encoding/binary"
	"unsafe"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/internal/hugepage"
	"github.com/crmem/crmem/internal/workgroup"
)

// searchSplit is SearchData read from two places at once: one worker
// decodes the entries from the start of the file and another from an
// entry found near its middle (findSplit), each counting the entries'
// texts for the ranking as it decodes them (bm25.Ranking), while the
// entry's bytes are in the cache, and checking the UTF-8 of the texts the
// counting did not find pure ASCII. No structure is read before the pass,
// on one core: reading it was a cache miss an entry, one after another.
//
// The middle entry is a guess, which the first worker confirms by ending
// exactly there; then the file is what one decoder reads from the start.
// done is false when that is not so, or the file is not read as a whole,
// valid file by the two (a bad byte anywhere, ids that do not ascend, a
// count or an end that does not match, a query without terms): the caller
// then reads it the usual way, whose answer, and errors, are the ones that
// count.
func searchSplit(data []byte, query string, limit int) (f *File, hits []FileHit, done bool) {
	r := bm25.NewRanking(query)
	if r == nil || len(data) < headerSize+12 || !validHeader(data) {
		return nil, nil, false
	}
	s := unsafe.String(&data[0], len(data))
	d := decoder{s: s, off: headerSize, names: true}
	nextID, _ := d.u64()
	n, _ := d.u32()
	count := int(n)
	if int64(count) > int64(d.remaining()/minEntrySize) {
		return nil, nil, false
	}
	mid, ok := findSplit(s, max(d.off, len(s)/2))
	if !ok {
		return nil, nil, false
	}
	room := min(count, d.remaining()/int(unsafe.Sizeof(Entry{})))
	// Filled at once: laid out for huge pages (package hugepage). The
	// second worker's entries are copied after the first's at the end.
	first := splitReader{d: d, rr: r.Range(count), entries: hugepage.Slice[Entry](room)}
	second := splitReader{d: decoder{s: s, off: mid, names: true}, rr: r.Range(count), entries: hugepage.Slice[Entry](room)}
	var g workgroup.Group // the file may be mapped (MapFile)
	g.Go(func() { first.read(mid, count) })
	g.Go(func() { second.read(len(s), count) })
	g.Wait()
	a, b := first.entries, second.entries
	if first.bad || second.bad || first.d.off != mid || second.d.off != len(s) || len(a)+len(b) != count ||
		len(a) > 0 && len(b) > 0 && a[len(a)-1].ID >= b[0].ID {
		return nil, nil, false
	}
	f = &File{NextID: nextID, Entries: append(a, b...)}
	ranked := r.Ranked([]*bm25.RankRange{first.rr, second.rr}, allWithin(limit, count))
	hits = make([]FileHit, len(ranked))
	for i, h := range ranked {
		hits[i] = FileHit{Score: h.Score, Entry: &f.Entries[h.Pos]}
	}
	return f, hits, true
}

// validHeader reports whether data starts with a CRMEM v1 header decode
// accepts.
func validHeader(data []byte) bool {
	return len(data) >= headerSize && string(data[:6]) == magic &&
		binary.LittleEndian.Uint32(data[6:]) == formatVersion && binary.LittleEndian.Uint16(data[10:]) == 0
}

// splitReader is one of searchSplit's workers: its decoder, its range of
// the ranking and the entries it decoded; bad is set when it met anything
// a whole, valid file with ascending ids does not have.
type splitReader struct {
	d       decoder
	rr      *bm25.RankRange
	entries []Entry
	bad     bool
}

// read decodes and counts entries until the decoder reaches end (or goes
// past it) or most entries are read. An entry's content is counted before
// its aliases are read: the count streams through the content, so the
// alias count after it is in the cache when it is read, where reading it
// first (decoding the whole entry) was a cache miss an entry.
func (w *splitReader) read(end, most int) {
	var prev uint64
	for w.d.off < end && len(w.entries) < most {
		w.entries = append(w.entries, Entry{})
		e := &w.entries[len(w.entries)-1]
		if w.d.entryHead(e) != nil || len(w.entries) > 1 && e.ID <= prev {
			w.bad = true
			return
		}
		prev = e.ID
		ascii := w.rr.Text(e.Content)
		var err error
		if e.Aliases, err = w.d.aliasList(); err != nil {
			w.bad = true
			return
		}
		for _, a := range e.Aliases {
			ascii = w.rr.Text(a) && ascii
		}
		w.rr.End(e.ID)
		if !ascii && !entryUTF8(e) {
			w.bad = true
			return
		}
	}
}

// splitChain is how many entries in a row findSplit must find, each with
// a greater id than the one before (or the file's end sooner), before it
// takes the first of them as one.
const splitChain = 4

// splitSearch bounds how far findSplit looks: an entry is rarely longer.
const splitSearch = 1 << 20

// findSplit returns the first offset from from on where splitChain
// entries in a row can be read (or entries up to the end of s), a guess
// at where an entry starts that searchSplit confirms or discards.
func findSplit(s string, from int) (int, bool) {
	for p := from; p+minEntrySize <= len(s) && p < from+splitSearch; p++ {
		// The kind: a u32 of 0 to 2, 16 bytes in.
		if s[p+17]|s[p+18]|s[p+19] != 0 || s[p+16] > byte(Topic) {
			continue
		}
		if entryChain(s, p) {
			return p, true
		}
	}
	return 0, false
}

// entryChain reports whether splitChain entries can be read from p on
// with ascending ids, or entries up to the end of s.
func entryChain(s string, p int) bool {
	var prev uint64
	for k := 0; k < splitChain && p < len(s); k++ {
		id, next, ok := skipEntry(s, p)
		if !ok || k > 0 && id <= prev {
			return false
		}
		prev, p = id, next
	}
	return true
}

// skipEntry reads the structure of the entry at p: its id and where the
// next entry starts.
func skipEntry(s string, p int) (id uint64, next int, ok bool) {
	d := decoder{s: s, off: p}
	id, ok = d.u64()
	if _, ok2 := d.u64(); !ok || !ok2 {
		return 0, 0, false
	}
	if kind, ok := d.u32(); !ok || kind > uint32(Topic) {
		return 0, 0, false
	}
	if !d.skip() || !d.skip() { // name and content
		return 0, 0, false
	}
	aliases, ok := d.u32()
	if !ok || int64(aliases) > int64(d.remaining()/4) {
		return 0, 0, false
	}
	for range aliases {
		if !d.skip() {
			return 0, 0, false
		}
	}
	return id, d.off, true
}

// skip passes over a length-prefixed string, reporting whether it is
// whole.
func (d *decoder) skip() bool {
	n, ok := d.u32()
	if !ok || int64(n) > int64(d.remaining()) {
		return false
	}
	d.off += int(n)
	return true
}
