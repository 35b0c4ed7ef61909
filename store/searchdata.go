package store

import (
	"unicode/utf8"

	"github.com/crmem/crmem/bm25"
)

// SearchData reads data as Decode does and ranks the file's entries for
// query as File.Search does, at most limit hits (limit ≥ 1), for a
// process that searches a large file once. Decode checks every string's
// UTF-8 in a pass of its own before the search reads the texts again;
// here the names are checked as the entries are read, the ranking says
// which entries' texts it found pure ASCII (bm25.RankASCII, or
// bm25.RankRange as searchSplit reads the file in parts on every core),
// which are valid UTF-8, and only the other entries' texts are checked:
// one pass over the file's bytes fewer.
//
// ok is true only for a whole, valid CRMEM v1 file of parallelCheckMin
// bytes or more with no bytes after its last entry: then hits are what
// Decode(data).Search returns, each with its entry as Decode reads it,
// and f is the file Decode returns but for its entries, which f need not
// hold (a file searchSplit reads keeps only its hits' entries). Otherwise
// (a smaller file, or one Decode fails or finds trailing bytes in)
// nothing is returned, and the caller reads data the usual way, whose
// errors say what is wrong.
func SearchData(data []byte, query string, limit int) (f *File, hits []FileHit, ok bool) {
	if len(data) < parallelCheckMin || limit < 1 {
		return nil, nil, false
	}
	if f, hits, done := searchSplit(data, query, limit); done {
		return f, hits, true
	}
	f, err := decode(data, 0, false)
	if err != nil || f.Trailing != 0 {
		return nil, nil, false
	}
	n := len(f.Entries)
	ranked, mixed, scanned := bm25.RankASCII(n, func(i int) bm25.Doc { return docOf(&f.Entries[i]) }, query, allWithin(limit, n))
	if !scanned {
		if !checkUTF8(f.Entries) {
			return nil, nil, false
		}
	} else if !someUTF8(f.Entries, mixed) {
		return nil, nil, false
	}
	hits = make([]FileHit, len(ranked))
	for i, r := range ranked {
		hits[i] = FileHit{Score: r.Score, Entry: &f.Entries[r.Pos]}
	}
	return f, hits, true
}

// someUTF8 reports whether the entries at the positions pos have valid
// UTF-8 strings (entryUTF8).
func someUTF8(entries []Entry, pos []int) bool {
	for _, i := range pos {
		if !entryUTF8(&entries[i]) {
			return false
		}
	}
	return true
}

// validName is utf8.ValidString for a name a search reads, most of which
// are ASCII: those are told by the OR of their words of eight bytes (the
// last one overlapping), where ValidString's byte-by-byte loop over a short
// string's tail was mispredicted about four times a name (a fifth of a
// 100k search's mispredicted branches).
func validName(s string) bool {
	if n := len(s); n >= 8 {
		or := le64(s, n-8)
		for i := 0; i+8 < n; i += 8 {
			or |= le64(s, i)
		}
		if or&0x8080808080808080 == 0 {
			return true
		}
	}
	return utf8.ValidString(s)
}

// le64 reads s[i:i+8] as a little-endian word (one load after inlining).
func le64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
