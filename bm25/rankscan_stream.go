package bm25

// Ranking is Rank for a caller that hands the documents over as it reads
// them, on several goroutines: each goroutine counts a contiguous range of
// the documents, in order, into a RankRange of its own, before it knows
// where its range starts (a file's entries decoded from several places at
// once); once every range is counted, Ranked scores them as Rank does.
// Unlike Rank, it takes the documents' ids as they come: the caller must
// hand over no two documents with one id (ids that ascend, as every file
// crmem or the reference writes has).
type Ranking struct {
	q     *queryMatcher
	terms int
}

// NewRanking returns the ranking for query, or nil when the query has no
// terms (Rank returns no hits for it).
func NewRanking(query string) *Ranking {
	terms := QueryTerms(query)
	if len(terms) == 0 {
		return nil
	}
	return &Ranking{q: newQueryMatcher(terms), terms: len(terms)}
}

// RankRange is one goroutine's range of documents for a Ranking: what
// Rank keeps of them, and the scanners that count them.
type RankRange struct {
	q  *queryMatcher
	p  rankPart
	tc termCounts
	sc scanner
	ac asciiCounter
	dl uint32 // the tokens of the document Text counts
}

// Range returns an empty range with room for n documents, a bound taken
// as address space (only the pages the matches fill are touched).
func (r *Ranking) Range(n int) *RankRange {
	rr := &RankRange{q: r.q, tc: termCounts{n: make([]uint32, len(r.q.short)+len(r.q.long))}}
	rr.p.matches = make([]rankMatch, 0, n)
	rr.p.hits = make([]termHit, 0, n)
	return rr
}

// Add counts the range's next document and reports whether its texts are
// pure ASCII (RankASCII's test: the others are the caller's to check, if
// it must know they are valid UTF-8).
func (rr *RankRange) Add(d Doc) bool {
	ascii := rr.Text(d.Content)
	for _, a := range d.Aliases {
		ascii = rr.Text(a) && ascii
	}
	rr.End(d.ID)
	return ascii
}

// Text counts one text of the range's next document, as Add counts its
// content and then each alias, and reports whether it is pure ASCII; a
// caller that decodes the document can count its content before it reads
// what follows it (while the bytes after the content come into the cache).
func (rr *RankRange) Text(text string) bool {
	n, ascii := rr.q.countText(&rr.sc, &rr.ac, text, &rr.tc)
	rr.dl += n
	return ascii
}

// End ends the range's next document, whose texts Text counted, with its
// id, and reports whether it holds a query term: only such a document can
// be among Ranked's hits.
func (rr *RankRange) End(id uint64) bool {
	matched := rr.p.endDoc(&rr.tc, rr.p.hi, id, rr.dl)
	rr.p.hi++
	rr.dl = 0
	return matched
}

// Len is the number of documents added to the range.
func (rr *RankRange) Len() int { return rr.p.hi }

// Ranked ranks the documents of ranges, which follow each other in that
// order from position 0, as Rank ranks them (at most limit hits, each with
// its position). It must be called once, after the last Add.
func (r *Ranking) Ranked(ranges []*RankRange, limit int) []Ranked {
	parts := make([]*rankPart, len(ranges))
	base := 0
	for k, rr := range ranges {
		for m := range rr.p.matches {
			rr.p.matches[m].pos += base
		}
		base += rr.p.hi
		parts[k] = &rr.p
	}
	return scoreParts(parts, r.terms, limit)
}
