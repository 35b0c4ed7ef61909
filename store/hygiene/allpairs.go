package hygiene

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/crmem/crmem/internal/humanize"
)

// posting is a document's weight for a term, in the index nearPairs builds.
type posting struct {
	doc int32
	w   float32
}

// allPairs returns the pairs of documents not marked in skip whose cosine
// is at least threshold through the terms outside the candidate terms
// alone (every near pair that shares no rare word: nearPairs finds the
// others), each once (a < b), by the all-pairs method of Bayardo, Ma and
// Srikant (2007): a document's terms are taken from the most widely held
// to the rarest, and only those after the point where their weights times
// the terms' largest weights, and their norm, could reach threshold are
// indexed (at a high threshold most of a document's weight is not). Two
// documents whose common terms' dot product reaches threshold share an
// indexed term of the earlier one (the rest could not add up to it), so
// every such pair is found, however common the words they share: a
// reordered copy, or one with a third of its words replaced, is compared
// even where every word is held by thousands of entries. Candidates are
// scored through their indexed terms plus a bound on the rest, and exactly
// when that reaches threshold. The work is bounded by s.maxPairWork
// postings visited and s.maxExactWork term comparisons, each raised for
// every pair found (Options.workBounds): at either bound the visit stops,
// and the report says at which entry (every pair of the entries before it
// was compared: Report.partial).
// A pair sharing a candidate term whose earlier document is one of the
// first rareDone (those nearPairs compared with every later one) is left
// to nearPairs, which found it: no pair is emitted twice.
func (s *space) allPairs(threshold float64, r *Report, skip []bool, rareDone int, emit func(docPair)) {
	v := s.v
	n := v.Docs()
	// rest bounds what each document's unindexed terms can add to a
	// cosine: the smaller of their norm and their weights times the terms'
	// largest weights (below threshold, by the choice of what is indexed).
	rest := make([]float32, n)
	// unNorm and cutRank are each document's unindexed terms' norm and
	// the rank (commonRanks) of its first indexed term: its unindexed
	// terms all rank before it, so what they add to a cosine with d is at
	// most unNorm times the norm of d's terms ranked before it (the L2
	// bound of Anastasiu and Karypis, 2014), far below rest at a high
	// threshold, where most of a document's weight is left unindexed.
	unNorm := make([]float32, n)
	cutRank := make([]uint32, n)
	var prefixNorm []float32 // d's terms' norm before each of its terms (in order)
	acc := make([]accSlot, n)
	buf := make([]int32, n) // the documents d touched, in the order touched
	var touched []int32
	var order []uint64 // a document's term positions, most widely held first (commonOrder)
	visited, exactWork, found := 0, 0, 0
	pairLimit, exactLimit := workLimit(s.maxPairWork, s.pairPerFound, 0), workLimit(s.maxExactWork, s.exactPerFound, 0)
	maxw := make([]float32, len(v.DF)) // each term's largest weight among the documents compared
	for d := range n {
		if !skip[d] {
			for i := v.Start[d]; i < v.Start[d+1]; i++ {
				if s.rare(v.DF[v.Terms[i]]) {
					continue
				}
				maxw[v.Terms[i]] = max(maxw[v.Terms[i]], s.weight[i])
			}
		}
	}
	rank := s.commonRanks()
	// The index: term t's postings so far, in document order. It grows as
	// documents are visited (a pass sizing it first sorted the terms of
	// every document, though the work bound may stop the visit early).
	post := make([][]posting, len(v.DF))
	dense := make([]float32, len(v.DF))
	var rareOf []uint32 // d's candidate terms, when one of its pairs reaches threshold
	for d := range n {
		if skip[d] {
			continue
		}
		order = s.commonOrder(d, rank, order[:0])
		prefixNorm = s.prefixNorms(d, order, prefixNorm[:0])
		// Find d's candidates among the earlier documents. A document
		// sharing none of d's terms from open on has a cosine with d of at
		// most the norm of d's terms before open (below threshold): only
		// those terms admit candidates, the others add to them.
		open := 0
		for open < len(order) && float64(prefixNorm[open+1]) < threshold-1e-6 {
			open++
		}
		nt, mark := 0, int32(d+1)
		for _, o := range order[open:] {
			i := v.Start[d] + int(uint32(o))
			w := s.weight[i]
			list := post[v.Terms[i]]
			visited += len(list)
			for _, p := range list {
				// Without a branch: most documents are touched once or
				// twice, so whether one is new cannot be predicted.
				a := &acc[p.doc]
				x := uint32(a.seen ^ mark)
				buf[nt] = p.doc
				nt += int((x | -x) >> 31) // 1 if not yet touched
				a.seen = mark
				a.sum += w * p.w
			}
		}
		for _, o := range order[:open] {
			i := v.Start[d] + int(uint32(o))
			w := s.weight[i]
			list := post[v.Terms[i]]
			visited += len(list)
			for _, p := range list {
				if a := &acc[p.doc]; a.seen == mark {
					a.sum += w * p.w
				}
			}
		}
		touched = buf[:nt]
		scattered := false
		rare, rareKnown := rareOf[:0], false
		for _, e := range touched {
			bound := float64(acc[e].sum) + float64(min(rest[e], unNorm[e]*prefixNorm[rankedBefore(order, cutRank[e])]))
			acc[e].sum = 0
			if bound < threshold-1e-6 || exactWork > exactLimit {
				continue
			}
			if !scattered {
				s.scatter(d, dense)
				scattered = true
			}
			sim, cost := s.dot(int(e), d, dense)
			exactWork += cost
			if sim < threshold {
				continue
			}
			compared := int(e) < rareDone // e < d: nearPairs compared them if they share a candidate term
			if compared && !rareKnown {
				rare, rareKnown = s.rareTerms(d, rare), true
			}
			if !compared || !s.sharesRare(int(e), rare) {
				emit(docPair{e, int32(d), min1(sim)})
				found++
				pairLimit, exactLimit = workLimit(s.maxPairWork, s.pairPerFound, found), workLimit(s.maxExactWork, s.exactPerFound, found)
			}
		}
		rareOf = rare
		if scattered {
			s.clear(d, dense)
		}
		if exactWork > exactLimit { // the later candidates could only be walked, never scored
			r.partial(d, n, fmt.Sprintf("%s term comparisons", humanize.Count(exactLimit)), false)
			break
		}
		if visited > pairLimit {
			r.partial(d+1, n, fmt.Sprintf("%s postings", humanize.Count(pairLimit)), false)
			break
		}
		// Index d's terms from the point where they could reach threshold.
		cut, restD, normD := s.indexCut(d, order, maxw, threshold)
		if cut < len(order) {
			cutRank[d], unNorm[d] = uint32(order[cut]>>32), normD
		}
		for _, o := range order[cut:] {
			i := v.Start[d] + int(uint32(o))
			post[v.Terms[i]] = append(post[v.Terms[i]], posting{int32(d), s.weight[i]})
		}
		rest[d] = restD
	}
}

// commonRanks numbers the terms from the most widely held (then by term
// id), the order commonOrder sorts a document's terms in.
func (s *space) commonRanks() []uint32 {
	v := s.v
	terms := make([]uint32, len(v.DF))
	for t := range terms {
		terms[t] = uint32(t)
	}
	slices.SortFunc(terms, func(a, b uint32) int {
		if c := cmp.Compare(v.DF[b], v.DF[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	rank := make([]uint32, len(terms))
	for r, t := range terms {
		rank[t] = uint32(r)
	}
	return rank
}

// commonOrder appends document d's terms outside the candidate terms
// (pairs sharing a rare term are nearPairs') to dst, the most widely held
// first (then by term id): each as its rank (commonRanks) in the high 32
// bits and its position in d's terms in the low ones, so that a sort of
// plain integers orders them.
func (s *space) commonOrder(d int, rank []uint32, dst []uint64) []uint64 {
	v := s.v
	lo := v.Start[d]
	for i := lo; i < v.Start[d+1]; i++ {
		if t := v.Terms[i]; !s.rare(v.DF[t]) {
			dst = append(dst, uint64(rank[t])<<32|uint64(i-lo))
		}
	}
	slices.Sort(dst)
	return dst
}

// indexCut is where document d's terms (in commonOrder) begin to be
// indexed: the first at which what the terms so far could add to a cosine
// reaches threshold, the smaller of their weights times the terms' largest
// weights and their norm (a later document's norm is 1). rest bounds what
// the terms before the cut can add: the smaller of the two there; norm is
// their norm alone.
func (s *space) indexCut(d int, order []uint64, maxw []float32, threshold float64) (cut int, rest, norm float32) {
	var b, unindexed, prefixBound float64
	lo := s.v.Start[d]
	for k, o := range order {
		i := lo + int(uint32(o))
		w := float64(s.weight[i])
		b += w * float64(maxw[s.v.Terms[i]])
		if min(b, math.Sqrt(unindexed+w*w)) >= threshold-1e-6 {
			return k, float32(min(math.Sqrt(unindexed), prefixBound)), float32(math.Sqrt(unindexed))
		}
		unindexed, prefixBound = unindexed+w*w, b
	}
	return len(order), float32(min(math.Sqrt(unindexed), prefixBound)), float32(math.Sqrt(unindexed))
}

// prefixNorms appends to dst, for each k from 0 to len(order), the norm
// of document d's first k terms in order (rounded up a little, so a bound
// built on it never falls short by float32 rounding).
func (s *space) prefixNorms(d int, order []uint64, dst []float32) []float32 {
	lo := s.v.Start[d]
	var sq float64
	dst = append(dst, 0)
	for _, o := range order {
		w := float64(s.weight[lo+int(uint32(o))])
		sq += w * w
		dst = append(dst, float32(math.Sqrt(sq)*(1+1e-6)))
	}
	return dst
}

// rankedBefore is how many of order's terms rank before r.
func rankedBefore(order []uint64, r uint32) int {
	k, _ := slices.BinarySearch(order, uint64(r)<<32)
	return k
}
