package store

import (
	"encoding/binary"
	"runtime"
	"unsafe"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/internal/hugepage"
	"github.com/crmem/crmem/internal/workgroup"
)

// searchSplit is SearchData read from several places at once: one worker
// a core decodes the entries of its part of the file, the first from the
// start and each other from an entry found where its part begins
// (findSplit), counting the entries' texts for the ranking as it decodes
// them (bm25.Ranking), while the entry's bytes are in the cache, and
// checking the UTF-8 of the texts the counting did not find pure ASCII.
// No structure is read before the pass, on one core: reading it was a
// cache miss an entry, one after another.
//
// Where a part begins is a guess, which the worker before confirms by
// ending exactly there; then the file is what one decoder reads from the
// start. done is false when that is not so, or the file is not read as a
// whole, valid file by the workers (a bad byte anywhere, ids that do not
// ascend, a count or an end that does not match, a query without terms):
// the caller then reads it the usual way, whose answer, and errors, are
// the ones that count.
func searchSplit(data []byte, query string, limit int) (f *File, hits []FileHit, done bool) {
	return searchParts(data, query, limit, max(1, min(runtime.GOMAXPROCS(0), len(data)/splitPartMin)))
}

// searchParts is searchSplit with at most k workers.
func searchParts(data []byte, query string, limit, k int) (f *File, hits []FileHit, done bool) {
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
	parts := splitParts(s, d.off, k)
	// The entries go where they will lie, as near as the parts' offsets
	// say: each worker fills a region of one slice (laid out for huge
	// pages, package hugepage) from where its entries are guessed to
	// begin, with room to spare, and the regions are closed up at the end.
	slack := count/32 + 64
	all := hugepage.Slice[Entry](count + len(parts)*slack)
	all = all[:cap(all)]
	workers := make([]splitReader, len(parts))
	var g workgroup.Group // the file may be mapped (MapFile)
	for k, start := range parts {
		w := &workers[k]
		*w = splitReader{d: decoder{s: s, off: start, names: true}, end: len(s), rr: r.Range(count)}
		w.at = count*(start-parts[0])/(len(s)-parts[0]) + k*slack
		if k > 0 {
			workers[k-1].end = start
			workers[k-1].entries = all[workers[k-1].at:workers[k-1].at:w.at]
		}
		if k == len(parts)-1 {
			w.entries = all[w.at:w.at]
		}
	}
	for k := range workers {
		w := &workers[k]
		g.Go(func() { w.read(count) })
	}
	g.Wait()
	entries, ok := joinParts(all, workers, count)
	if !ok {
		return nil, nil, false
	}
	f = &File{NextID: nextID, Entries: entries}
	ranges := make([]*bm25.RankRange, len(workers))
	for k := range workers {
		ranges[k] = workers[k].rr
	}
	ranked := r.Ranked(ranges, allWithin(limit, count))
	hits = make([]FileHit, len(ranked))
	for i, h := range ranked {
		hits[i] = FileHit{Score: h.Score, Entry: &f.Entries[h.Pos]}
	}
	return f, hits, true
}

// splitPartMin is the least a worker of searchSplit is given to read.
const splitPartMin = 1 << 20

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

// joinParts returns the workers' entries in one slice, if the workers
// read the file as one decoder does from the start: each ended where the
// next began, none met anything bad, the ids ascend from one to the next,
// and there are count entries in all. The regions of all they filled are
// closed up in place, or, if one outgrew its room (append moved it),
// copied into a new slice.
func joinParts(all []Entry, workers []splitReader, count int) ([]Entry, bool) {
	total := 0
	var last *Entry
	inPlace := true
	for k := range workers {
		w := &workers[k]
		if w.bad || w.d.off != w.end {
			return nil, false
		}
		if len(w.entries) > 0 {
			if last != nil && last.ID >= w.entries[0].ID {
				return nil, false
			}
			last = &w.entries[len(w.entries)-1]
			inPlace = inPlace && &w.entries[0] == &all[w.at]
		}
		total += len(w.entries)
	}
	if total != count {
		return nil, false
	}
	if !inPlace {
		entries := hugepage.Slice[Entry](count)
		for k := range workers {
			entries = append(entries, workers[k].entries...)
		}
		return entries, true
	}
	// Each region moves down to follow the ones before it, in order: none
	// holds more entries than its room, so none moves up.
	n := 0
	for k := range workers {
		w := &workers[k]
		if n != w.at {
			copy(all[n:], w.entries)
		}
		n += len(w.entries)
	}
	return all[:count:count], true
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
	end     int // where the next part begins
	at      int // where its entries begin in searchParts' slice
	rr      *bm25.RankRange
	entries []Entry
	bad     bool
}

// read decodes and counts entries until the decoder reaches w.end (or
// goes past it) or most entries are read. An entry's content is counted before
// its aliases are read: the count streams through the content, so the
// alias count after it is in the cache when it is read, where reading it
// first (decoding the whole entry) was a cache miss an entry.
func (w *splitReader) read(most int) {
	var prev uint64
	for w.d.off < w.end && len(w.entries) < most {
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
