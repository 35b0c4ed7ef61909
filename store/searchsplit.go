package store

import (
	"cmp"
	"encoding/binary"
	"runtime"
	"slices"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/internal/workgroup"
)

// searchSplit is SearchData read from several places at once: the file is
// cut in parts, the first from the start and each other from an entry
// found where it begins (findSplit), and a worker a core takes part after
// part, decoding its entries and counting their texts for the ranking
// (bm25.Ranking) while each entry's bytes are in the cache, and checking
// the UTF-8 of the texts the counting did not find pure ASCII. No
// structure is read before the pass, on one core: reading it was a cache
// miss an entry, one after another. No entries are kept, only where those
// holding a query term begin: the hits are decoded again at the end (the
// 100k corpus's 8 MB of entries were fresh memory, zeroed by the kernel,
// and their writes, for ten hits).
//
// Where a part begins is a guess, which the part before confirms by
// ending exactly there; then the file is what one decoder reads from the
// start. done is false when that is not so, or the file is not read as a
// whole, valid file in its parts (a bad byte anywhere, ids that do not
// ascend, a count or an end that does not match, a query without terms):
// the caller then reads it the usual way, whose answer, and errors, are
// the ones that count.
func searchSplit(data []byte, query string, limit int) (f *File, hits []FileHit, done bool) {
	procs := runtime.GOMAXPROCS(0)
	return searchParts(data, query, limit, max(1, min(procs*splitPartsPerCore, len(data)/splitPartMin)), procs)
}

// searchParts is searchSplit with at most k parts read by at most workers
// goroutines, each taking the next part not yet taken.
func searchParts(data []byte, query string, limit, k, workers int) (f *File, hits []FileHit, done bool) {
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
	starts := splitParts(s, d.off, k)
	parts := make([]splitReader, len(starts))
	for j, start := range starts {
		end := len(s)
		if j+1 < len(starts) {
			end = starts[j+1]
		}
		// Room for every entry the part's bytes can hold to match.
		room := min(count, (end-start)/minEntrySize+1)
		parts[j] = splitReader{d: decoder{s: s, off: start, names: true}, end: end, rr: r.Range(room)}
	}
	var next atomic.Int64
	var g workgroup.Group // the file may be mapped (MapFile)
	for range min(workers, len(parts)) {
		g.Go(func() {
			for j := next.Add(1) - 1; j < int64(len(parts)); j = next.Add(1) - 1 {
				parts[j].read(count)
			}
		})
	}
	g.Wait()
	if !joinParts(parts, count) {
		return nil, nil, false
	}
	ranges := make([]*bm25.RankRange, len(parts))
	for j := range parts {
		ranges[j] = parts[j].rr
	}
	ranked := r.Ranked(ranges, allWithin(limit, count))
	entries := make([]Entry, len(ranked))
	hits = make([]FileHit, len(ranked))
	for i, h := range ranked {
		hd := decoder{s: s, off: matchOffset(parts, h.Pos)} // checked as the parts were read
		if hd.entry(&entries[i]) != nil {
			return nil, nil, false // not reached: its part read it
		}
		hits[i] = FileHit{Score: h.Score, Entry: &entries[i]}
	}
	return &File{NextID: nextID}, hits, true
}

// splitPartMin is the least a part of searchSplit holds, and
// splitPartsPerCore how many parts it makes a core: a worker that finishes
// first takes on another's, where a half each left one core idle while
// the other, less lucky with the scheduler on a busy machine or with the
// texts of its half, went on.
const (
	splitPartMin      = 1 << 20
	splitPartsPerCore = 4
)

// splitParts returns where k parts of the entries from first on begin (as
// findSplit guesses, from every k-th of s on): fewer where no entry is
// found.
func splitParts(s string, first, k int) []int {
	parts := []int{first}
	for j := 1; j < k; j++ {
		p, ok := findSplit(s, max(parts[len(parts)-1]+1, len(s)/k*j))
		if ok {
			parts = append(parts, p)
		}
	}
	return parts
}

// joinParts reports whether the parts were read as one decoder reads the
// file from the start: each ended where the next began, none met anything
// bad, the ids ascend from one to the next, and there are count entries
// in all.
func joinParts(parts []splitReader, count int) bool {
	total := 0
	var last uint64
	for k := range parts {
		w := &parts[k]
		if w.bad || w.d.off != w.end || w.n > 0 && total > 0 && w.first <= last {
			return false
		}
		if w.n > 0 {
			last = w.last
		}
		total += w.n
	}
	return total == count
}

// matchOffset returns where the entry at pos (counted over all the
// parts' entries, in order) begins in the file: one of the entries
// holding a query term, whose offsets the parts keep.
func matchOffset(parts []splitReader, pos int) int {
	for k := range parts {
		w := &parts[k]
		if pos < w.n {
			i, _ := slices.BinarySearchFunc(w.matched, pos, func(m matchAt, pos int) int { return cmp.Compare(m.pos, pos) })
			return w.matched[i].off
		}
		pos -= w.n
	}
	return -1
}

// validHeader reports whether data starts with a CRMEM v1 header decode
// accepts.
func validHeader(data []byte) bool {
	return len(data) >= headerSize && string(data[:6]) == magic &&
		binary.LittleEndian.Uint32(data[6:]) == formatVersion && binary.LittleEndian.Uint16(data[10:]) == 0
}

// splitReader is one of searchSplit's parts: its decoder and its range
// of the ranking; how many entries it read, the first's and the last's
// ids, and where each entry holding a query term begins (by its position
// among them); bad is set when it met anything a whole, valid file with
// ascending ids does not have. It keeps no entries: a search prints only
// its hits, decoded again at the end.
type splitReader struct {
	d           decoder
	end         int // where the next part begins
	rr          *bm25.RankRange
	n           int
	first, last uint64
	matched     []matchAt
	bad         bool
}

// matchAt is where an entry holding a query term begins, by its position.
type matchAt struct{ pos, off int }

// read decodes and counts entries until the decoder reaches w.end (or
// goes past it) or most entries are read. An entry's content is counted
// before its aliases are read: the count streams through the content, so
// the alias count after it is in the cache when it is read, where reading
// it first (decoding the whole entry) was a cache miss an entry.
func (w *splitReader) read(most int) {
	var e Entry
	for w.d.off < w.end && w.n < most {
		start := w.d.off
		if w.d.entryHead(&e) != nil || w.n > 0 && e.ID <= w.last {
			w.bad = true
			return
		}
		if w.n == 0 {
			w.first = e.ID
		}
		w.last = e.ID
		ascii := w.rr.Text(e.Content)
		aliases := w.d.off
		na, ok := w.d.u32()
		if !ok || int64(na) > int64(w.d.remaining()/4) {
			w.bad = true
			return
		}
		for range na {
			a, err := w.d.str()
			if err != nil {
				w.bad = true
				return
			}
			ascii = w.rr.Text(a) && ascii
		}
		if w.rr.End(e.ID) {
			w.matched = append(w.matched, matchAt{pos: w.n, off: start})
		}
		if !ascii && !textsUTF8(w.d.s, e.Content, aliases) {
			w.bad = true
			return
		}
		w.n++
	}
}

// textsUTF8 reports whether content and the aliases listed at offset
// aliases of s (read whole before) are valid UTF-8.
func textsUTF8(s, content string, aliases int) bool {
	if !utf8.ValidString(content) {
		return false
	}
	d := decoder{s: s, off: aliases}
	na, _ := d.u32()
	for range na {
		if a, _ := d.str(); !utf8.ValidString(a) {
			return false
		}
	}
	return true
}

// splitChain is how many entries in a row findSplit must find, each with
// a greater id than the one before (or the file's end sooner), before it
// takes the first of them as one.
const splitChain = 4

// splitSearch bounds how far findSplit looks (an entry is rarely longer),
// and splitTries how many offsets that look like an entry's start it
// tries (in a content of zeros every offset does, until its chain of ids
// fails): where no entry is found within them, the part is not cut there.
const (
	splitSearch = 256 << 10
	splitTries  = 1024
)

// findSplit returns the first offset from from on where splitChain
// entries in a row can be read (or entries up to the end of s), a guess
// at where an entry starts that searchSplit confirms or discards.
func findSplit(s string, from int) (int, bool) {
	tries := 0
	for p := from; p+minEntrySize <= len(s) && p < from+splitSearch && tries < splitTries; p++ {
		// The kind: a u32 of 0 to 2, 16 bytes in.
		if s[p+17]|s[p+18]|s[p+19] != 0 || s[p+16] > byte(Topic) {
			continue
		}
		if entryChain(s, p) {
			return p, true
		}
		tries++
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
	for range 2 { // name and content
		if !d.skip() {
			return 0, 0, false
		}
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
