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
// the terms' largest weights could reach threshold are indexed. Two
// documents whose common terms' dot product reaches threshold share an
// indexed term of the earlier one (the rest could not add up to it), so
// every such pair is found, however common the words they share: a
// reordered copy, or one with a third of its words replaced, is compared
// even where every word is held by thousands of entries. Candidates are
// scored through their indexed terms plus a bound on the rest, and exactly
// when that reaches threshold. The work is bounded by MaxPairWork postings
// visited and MaxExactWork term comparisons; a bound reached is said.
func (s *space) allPairs(threshold float64, r *Report, skip []bool) []docPair {
	v := s.v
	n := v.Docs()
	index := make([][]posting, len(v.DF))
	// rest bounds what each document's unindexed terms can add to a
	// cosine: the smaller of their norm and their weights times the terms'
	// largest weights (below threshold, by the choice of what is indexed).
	rest := make([]float32, n)
	acc := make([]float32, n)
	seen := make([]int32, n) // d+1 once d touched the document
	var touched []int32
	var order []int // a document's term positions, most widely held first
	var pairs []docPair
	visited, exactWork := 0, 0
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
	for d := range n {
		if skip[d] {
			continue
		}
		lo, hi := v.Start[d], v.Start[d+1]
		order = order[:0]
		for i := lo; i < hi; i++ {
			if !s.rare(v.DF[v.Terms[i]]) { // pairs sharing a rare term are nearPairs'
				order = append(order, i)
			}
		}
		slices.SortFunc(order, func(a, b int) int {
			if c := cmp.Compare(v.DF[v.Terms[b]], v.DF[v.Terms[a]]); c != 0 {
				return c
			}
			return cmp.Compare(v.Terms[a], v.Terms[b])
		})
		// Find d's candidates among the earlier documents.
		touched = touched[:0]
		for _, i := range order {
			t := v.Terms[i]
			w := s.weight[i]
			visited += len(index[t])
			for _, p := range index[t] {
				if seen[p.doc] != int32(d+1) {
					seen[p.doc] = int32(d + 1)
					touched = append(touched, p.doc)
				}
				acc[p.doc] += w * p.w
			}
		}
		for _, e := range touched {
			bound := float64(acc[e]) + float64(rest[e])
			acc[e] = 0
			if bound < threshold-1e-6 || exactWork > MaxExactWork {
				continue
			}
			sim, cost := s.cosine(int(e), d)
			exactWork += cost
			if sim >= threshold {
				pairs = append(pairs, docPair{e, int32(d), min1(sim)})
			}
		}
		if visited > MaxPairWork {
			r.bound(fmt.Sprintf("near-duplicates: candidates stopped after %s postings, at entry %s of %s; the later entries were not compared",
				humanize.Count(MaxPairWork), humanize.Count(d+1), humanize.Count(n)))
			break
		}
		// Index d's terms from the point where they could reach threshold.
		var b, unindexed, prefixBound float64
		for _, i := range order {
			t := v.Terms[i]
			w := float64(s.weight[i])
			b += w * float64(maxw[t])
			if b < threshold-1e-6 {
				unindexed, prefixBound = unindexed+w*w, b
				continue
			}
			index[t] = append(index[t], posting{int32(d), s.weight[i]})
		}
		rest[d] = float32(min(math.Sqrt(unindexed), prefixBound))
	}
	if exactWork > MaxExactWork {
		r.bound(fmt.Sprintf("near-duplicates: exact similarities stopped after %s term comparisons; some candidate pairs were not compared", humanize.Count(MaxExactWork)))
	}
	return pairs
}
