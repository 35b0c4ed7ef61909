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
func (s *space) allPairs(threshold float64, r *Report, skip []bool, emit func(docPair)) {
	v := s.v
	n := v.Docs()
	// rest bounds what each document's unindexed terms can add to a
	// cosine: the smaller of their norm and their weights times the terms'
	// largest weights (below threshold, by the choice of what is indexed).
	rest := make([]float32, n)
	acc := make([]float32, n)
	seen := make([]int32, n) // d+1 once d touched the document
	var touched []int32
	var order []int // a document's term positions, most widely held first
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
	// The index is one array of exact size, each term's postings a
	// stretch of it filled in document order (a first pass counts them):
	// term t's postings so far are post[start[t]:fill[t]].
	start := make([]int, len(v.DF)+1)
	for d := range n {
		if !skip[d] {
			order = s.commonOrder(d, order[:0])
			cut, _ := s.indexCut(order, maxw, threshold)
			for _, i := range order[cut:] {
				start[v.Terms[i]+1]++
			}
		}
	}
	for t := range v.DF {
		start[t+1] += start[t]
	}
	post := make([]posting, start[len(v.DF)])
	fill := slices.Clone(start[:len(v.DF)])
	dense := make([]float32, len(v.DF))
	for d := range n {
		if skip[d] {
			continue
		}
		order = s.commonOrder(d, order[:0])
		// Find d's candidates among the earlier documents.
		touched = touched[:0]
		for _, i := range order {
			t := v.Terms[i]
			w := s.weight[i]
			list := post[start[t]:fill[t]]
			visited += len(list)
			for _, p := range list {
				if seen[p.doc] != int32(d+1) {
					seen[p.doc] = int32(d + 1)
					touched = append(touched, p.doc)
				}
				acc[p.doc] += w * p.w
			}
		}
		scattered := false
		for _, e := range touched {
			bound := float64(acc[e]) + float64(rest[e])
			acc[e] = 0
			if bound < threshold-1e-6 || exactWork > MaxExactWork {
				continue
			}
			if !scattered {
				s.scatter(d, dense)
				scattered = true
			}
			sim, cost := s.dot(int(e), d, dense)
			exactWork += cost
			if sim >= threshold {
				emit(docPair{e, int32(d), min1(sim)})
			}
		}
		if scattered {
			s.clear(d, dense)
		}
		if visited > MaxPairWork {
			r.bound(fmt.Sprintf("near-duplicates: candidates stopped after %s postings, at entry %s of %s; the later entries were not compared",
				humanize.Count(MaxPairWork), humanize.Count(d+1), humanize.Count(n)))
			break
		}
		// Index d's terms from the point where they could reach threshold.
		cut, restD := s.indexCut(order, maxw, threshold)
		for _, i := range order[cut:] {
			t := v.Terms[i]
			post[fill[t]] = posting{int32(d), s.weight[i]}
			fill[t]++
		}
		rest[d] = restD
	}
	if exactWork > MaxExactWork {
		r.bound(fmt.Sprintf("near-duplicates: exact similarities stopped after %s term comparisons; some candidate pairs were not compared", humanize.Count(MaxExactWork)))
	}
}

// commonOrder appends the positions of document d's terms outside the
// candidate terms (pairs sharing a rare term are nearPairs') to dst, the
// most widely held first (then by term id).
func (s *space) commonOrder(d int, dst []int) []int {
	v := s.v
	for i := v.Start[d]; i < v.Start[d+1]; i++ {
		if !s.rare(v.DF[v.Terms[i]]) {
			dst = append(dst, i)
		}
	}
	slices.SortFunc(dst, func(a, b int) int {
		if c := cmp.Compare(v.DF[v.Terms[b]], v.DF[v.Terms[a]]); c != 0 {
			return c
		}
		return cmp.Compare(v.Terms[a], v.Terms[b])
	})
	return dst
}

// indexCut is where a document's terms (in commonOrder) begin to be
// indexed: the first at which their weights times the terms' largest
// weights could reach threshold. rest bounds what the terms before it can
// add to a cosine: the smaller of their norm and that sum.
func (s *space) indexCut(order []int, maxw []float32, threshold float64) (cut int, rest float32) {
	var b, unindexed, prefixBound float64
	for k, i := range order {
		w := float64(s.weight[i])
		b += w * float64(maxw[s.v.Terms[i]])
		if b >= threshold-1e-6 {
			return k, float32(min(math.Sqrt(unindexed), prefixBound))
		}
		unindexed, prefixBound = unindexed+w*w, b
	}
	return len(order), float32(min(math.Sqrt(unindexed), prefixBound))
}
