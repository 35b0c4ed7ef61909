package hygiene

import (
	"fmt"
	"math"
	"slices"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/internal/humanize"
)

// space is the entries as tf-idf vectors: bm25's term vectors with each
// term weighted (1 + ln tf) × ln(N / df) and each document scaled to unit
// length, so the dot product of two documents is their cosine similarity.
// Two entries score high when they hold the same rare words as often, which
// is exactly when they compete for the same recall queries.
type space struct {
	v      *bm25.Vectors
	weight []float32 // parallel to v.Terms
	// rest is each document's length outside candidate terms: the most
	// those terms can add to a cosine (Cauchy–Schwarz).
	rest []float32
	// postings of candidate terms: term t's documents and weights are
	// docs[start[t]:start[t+1]], ascending by document.
	start []int
	docs  []int32
	w     []float32
	// rareDF is the candidate terms' document-frequency cut.
	rareDF int
	// maxPairWork and maxExactWork bound the all-pairs search's postings
	// visited and each search's term comparisons, each raised by
	// pairPerFound and exactPerFound for every near pair the search found
	// so far (Options.workBounds; none but the first two in tests).
	maxPairWork, maxExactWork   int
	pairPerFound, exactPerFound int
}

// newSpace weights v and indexes its candidate terms: those held by at
// least two and at most rareDF documents.
func newSpace(v *bm25.Vectors, rareDF int) *space {
	n := v.Docs()
	s := &space{v: v, weight: make([]float32, len(v.Terms)), rest: make([]float32, n), rareDF: rareDF,
		maxPairWork: math.MaxInt, maxExactWork: math.MaxInt}
	// Each term's ln(N / df) and the first tfs' 1 + ln tf, computed once:
	// the same float64s weighDoc would compute for each of a memory's
	// millions of terms.
	idf := make([]float64, len(v.DF))
	for t, df := range v.DF {
		idf[t] = math.Log(float64(n) / float64(df))
	}
	var tfw [64]float64
	for tf := range tfw {
		tfw[tf] = 1 + math.Log(float64(tf))
	}
	for d := range n {
		s.weighDoc(d, idf, &tfw)
	}
	s.indexRare()
	return s
}

// workLimit is a work bound of base raised by perFound for each of found
// near pairs; math.MaxInt (no bound) stays so.
func workLimit(base, perFound, found int) int {
	if base == math.MaxInt {
		return base
	}
	return base + perFound*found
}

// rareCut is the candidate terms' document-frequency cut for v's N
// documents: max(MinRareDF, N/RareDivisor), lowered until the pairs
// their lists form stay within MaxCandidateWork (pairBudgetCut). A lower cut
// loses no pair: it moves the entries whose weight lies in the terms it
// leaves out to allPairs.
func rareCut(v *bm25.Vectors) int {
	return pairBudgetCut(v.DF, max(MinRareDF, v.Docs()/RareDivisor))
}

// pairBudgetCut lowers cut until the candidate terms' pairs, df²/2 summed
// over terms with 2 <= df <= cut, are at most MaxCandidateWork.
func pairBudgetCut(df []uint32, cut int) int {
	for cut >= 2 {
		work := 0
		for _, f := range df {
			if f >= 2 && int(f) <= cut {
				work += int(f) * int(f) / 2
			}
		}
		if work <= MaxCandidateWork {
			return cut
		}
		cut = cut * 3 / 4
	}
	return cut
}

// rare reports whether a term of document frequency df is a candidate term.
func (s *space) rare(df uint32) bool { return df >= 2 && int(df) <= s.rareDF }

// weighDoc sets document d's weights, scaled to unit length, and its rest.
// idf holds each term's ln(N / df), tfw 1 + ln tf for the first tfs.
func (s *space) weighDoc(d int, idf []float64, tfw *[64]float64) {
	v := s.v
	lo, hi := v.Start[d], v.Start[d+1]
	var norm float64
	for i := lo; i < hi; i++ {
		var w float64
		if tf := v.TF[i]; int(tf) < len(tfw) {
			w = tfw[tf] * idf[v.Terms[i]]
		} else {
			w = (1 + math.Log(float64(tf))) * idf[v.Terms[i]]
		}
		s.weight[i] = float32(w)
		norm += w * w
	}
	if norm == 0 {
		return
	}
	scale := 1 / math.Sqrt(norm)
	var rest float64
	for i := lo; i < hi; i++ {
		s.weight[i] = float32(float64(s.weight[i]) * scale)
		if !s.rare(v.DF[v.Terms[i]]) {
			rest += float64(s.weight[i]) * float64(s.weight[i])
		}
	}
	s.rest[d] = float32(math.Sqrt(rest))
}

// indexRare builds the posting lists of the candidate terms.
func (s *space) indexRare() {
	v := s.v
	s.start = make([]int, len(v.DF)+1)
	for t, df := range v.DF {
		s.start[t+1] = s.start[t]
		if s.rare(df) {
			s.start[t+1] += int(df)
		}
	}
	total := s.start[len(v.DF)]
	s.docs, s.w = make([]int32, total), make([]float32, total)
	fill := slices.Clone(s.start[:len(v.DF)])
	for d := range v.Docs() {
		for i := v.Start[d]; i < v.Start[d+1]; i++ {
			if t := v.Terms[i]; s.rare(v.DF[t]) {
				s.docs[fill[t]], s.w[fill[t]] = int32(d), s.weight[i]
				fill[t]++
			}
		}
	}
}

// commonHeavy marks the documents whose weight outside the candidate
// terms reaches threshold. A pair that shares no candidate term has a
// cosine of at most the smaller of the two's weight outside them
// (Cauchy–Schwarz), so only pairs of such documents can be near without a
// rare word in common; allPairs compares them with one another.
func (s *space) commonHeavy(threshold float64) []bool {
	out := make([]bool, s.v.Docs())
	for d := range out {
		out[d] = float64(s.rest[d]) >= threshold-1e-6
	}
	return out
}

// scatter writes document d's weights into dense, indexed by term, for
// dot; clear takes them out again.
func (s *space) scatter(d int, dense []float32) {
	v := s.v
	for i := v.Start[d]; i < v.Start[d+1]; i++ {
		dense[v.Terms[i]] = s.weight[i]
	}
}

// clear zeroes what scatter wrote for document d.
func (s *space) clear(d int, dense []float32) {
	v := s.v
	for i := v.Start[d]; i < v.Start[d+1]; i++ {
		dense[v.Terms[i]] = 0
	}
}

// dot is cosine(a, d) for the document d scattered into dense: the same
// products added in the same order (a's terms ascending; a term d lacks
// adds an exact zero), so the same float64 to the last bit, but a walk of
// a's terms alone instead of a merge of both lists, about half the work
// and none of the merge's unpredictable branches. Its cost is cosine's,
// so the work bounds stop where they stopped.
func (s *space) dot(a, d int, dense []float32) (float64, int) {
	v := s.v
	lo, hi := v.Start[a], v.Start[a+1]
	terms, weight := v.Terms[lo:hi], s.weight[lo:hi]
	var dot float64
	for k, t := range terms {
		dot += float64(weight[k]) * float64(dense[t])
	}
	return dot, hi - lo + v.Start[d+1] - v.Start[d]
}

// accSlot is a document's sum of products with the document being
// visited, and that document's number + 1 once it touched it: side by
// side, so a posting costs one cache line, not two.
type accSlot struct {
	sum  float32
	seen int32
}

// docPair is two documents of a space and their cosine.
type docPair struct {
	a, b int32
	sim  float64
}

// nearPairs returns every pair of documents whose cosine is at least
// threshold and that share a candidate term, each once (a < b). For each document it
// sums the candidate terms' products with every later document sharing
// one, keeps those whose sum plus the most the other terms could add
// reaches threshold, and computes their exact cosine, within s.maxExactWork.
//
// Documents marked in skip (copies of an earlier exact duplicate) take no
// part. At the exact work bound it stops and says at which entry. It
// returns how many of the first documents it compared with every later
// one (all of them unless stopped).
func (s *space) nearPairs(threshold float64, r *Report, skip []bool, emit func(docPair)) (done int) {
	n := s.v.Docs()
	acc := make([]accSlot, n)
	var touched []int32
	cursor := slices.Clone(s.start[:len(s.start)-1]) // term t: its list's position of the document being visited
	exactWork, found := 0, 0
	limit := workLimit(s.maxExactWork, s.exactPerFound, 0)
	dense := make([]float32, len(s.v.DF))
	for d := range n {
		touched = s.accumulate(d, cursor, acc, touched[:0])
		scattered := false
		for _, e := range touched {
			if skip[d] || skip[e] {
				acc[e].sum = 0
				continue
			}
			bound := float64(acc[e].sum) + float64(s.rest[d])*float64(s.rest[e])
			acc[e].sum = 0
			if bound < threshold-1e-6 || exactWork > limit {
				continue
			}
			if !scattered {
				s.scatter(d, dense)
				scattered = true
			}
			sim, cost := s.dot(int(e), d, dense)
			exactWork += cost
			if sim >= threshold {
				emit(docPair{int32(d), e, min1(sim)})
				found++
				limit = workLimit(s.maxExactWork, s.exactPerFound, found)
			}
		}
		if scattered {
			s.clear(d, dense)
		}
		if exactWork > limit {
			r.partial(d, n, fmt.Sprintf("%s term comparisons", humanize.Count(limit)), true)
			return d
		}
	}
	return n
}

// sharesRare reports whether document e holds one of the candidate terms
// in terms (ascending; another document's).
func (s *space) sharesRare(e int, terms []uint32) bool {
	v := s.v
	have := v.Terms[v.Start[e]:v.Start[e+1]]
	for _, t := range terms {
		if _, ok := slices.BinarySearch(have, t); ok {
			return true
		}
	}
	return false
}

// rareTerms appends document d's candidate terms to dst, ascending.
func (s *space) rareTerms(d int, dst []uint32) []uint32 {
	v := s.v
	for _, t := range v.Terms[v.Start[d]:v.Start[d+1]] {
		if s.rare(v.DF[t]) {
			dst = append(dst, t)
		}
	}
	return dst
}

// accumulate adds document d's products with every later document through
// their shared candidate terms into acc, and returns the documents touched.
func (s *space) accumulate(d int, cursor []int, acc []accSlot, touched []int32) []int32 {
	v := s.v
	for i := v.Start[d]; i < v.Start[d+1]; i++ {
		t := v.Terms[i]
		if !s.rare(v.DF[t]) {
			continue
		}
		at := cursor[t] // documents are visited in order: d is next in t's list
		cursor[t]++
		w := s.weight[i]
		end := s.start[t+1]
		for k := at + 1; k < end; k++ {
			e := s.docs[k]
			a := &acc[e]
			if a.seen != int32(d+1) {
				a.seen = int32(d + 1)
				touched = append(touched, e)
			}
			a.sum += w * s.w[k]
		}
	}
	return touched
}

// min1 clamps a cosine that rounding put above 1.
func min1(x float64) float64 { return math.Min(x, 1) }
