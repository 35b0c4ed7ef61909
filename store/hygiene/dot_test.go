package hygiene

import (
	"cmp"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/crmem/crmem/bm25"
)

// cosine is the exact similarity of documents a and b as the report
// computed it before dot, a merge of their sorted term lists, and the term
// comparisons it cost: the reference dot must match to the bit.
func (s *space) cosine(a, b int) (float64, int) {
	v := s.v
	i, ie := v.Start[a], v.Start[a+1]
	j, je := v.Start[b], v.Start[b+1]
	cost := ie - i + je - j
	var dot float64
	for i < ie && j < je {
		switch ti, tj := v.Terms[i], v.Terms[j]; {
		case ti < tj:
			i++
		case ti > tj:
			j++
		default:
			dot += float64(s.weight[i]) * float64(s.weight[j])
			i++
			j++
		}
	}
	return dot, cost
}

// TestDot_SameAsMerge: the scattered dot product is the merged cosine to
// the last bit, and costs the same, for every pair of a corpus (so a
// report's similarities and where its work bounds stop are unchanged).
func TestDot_SameAsMerge(t *testing.T) {
	es := corpus(400)
	ix := bm25.BuildFunc(len(es), func(i int) bm25.Doc { return bm25.Doc{ID: es[i].ID, Content: es[i].Content} })
	v := ix.Vectors()
	s := newSpace(v, rareCut(v))
	n := s.v.Docs()
	dense := make([]float32, len(s.v.DF))
	for d := range n {
		s.scatter(d, dense)
		for a := range n {
			got, gotCost := s.dot(a, d, dense)
			want, wantCost := s.cosine(a, d)
			if got != want || gotCost != wantCost {
				t.Fatalf("docs %d, %d: dot %v (cost %d), merge %v (cost %d)", a, d, got, gotCost, want, wantCost)
			}
		}
		s.clear(d, dense)
		for t2, w := range dense {
			if w != 0 {
				t.Fatalf("after clear(%d): term %d still %v", d, t2, w)
			}
		}
	}
}

// TestPairs_EachOnceWhateverTheCut: the near pairs of a graded set are
// exactly those a comparison of every pair finds, each emitted once, for
// any cut of the candidate terms (the memory's own and lower ones, as a
// memory of many near-identical entries gets): a lower cut moves pairs
// from nearPairs to allPairs and loses none, so a report says nothing of
// it. Before, a pair of two entries holding most of their weight in common
// words and sharing a rare one was found by both and listed twice.
func TestPairs_EachOnceWhateverTheCut(t *testing.T) {
	for _, vocab := range []int{4000, 500} {
		es, _, _ := gradedSet(800, 20, vocab)
		ix := bm25.BuildFunc(len(es), func(i int) bm25.Doc { return bm25.Doc{ID: es[i].ID, Content: es[i].Content} })
		v := ix.Vectors()
		all := newSpace(v, 0)
		want := map[[2]int32]bool{}
		dense := make([]float32, len(v.DF))
		for d := range v.Docs() {
			all.scatter(d, dense)
			for e := range d {
				if sim, _ := all.dot(e, d, dense); sim >= DefaultMinSimilarity {
					want[[2]int32{int32(e), int32(d)}] = true
				}
			}
			all.clear(d, dense)
		}
		if len(want) < 80 {
			t.Fatalf("vocabulary %d: %d pairs at the threshold; the set is meant to plant about 200", vocab, len(want))
		}
		for _, cut := range []int{rareCut(v), 20, 5, 2} {
			var r Report
			got := map[[2]int32]bool{}
			newSpace(v, cut).pairs(DefaultMinSimilarity, &r, make([]bool, v.Docs()), func(p docPair) {
				k := [2]int32{min(p.a, p.b), max(p.a, p.b)}
				if got[k] {
					t.Errorf("vocabulary %d, cut %d: pair %v emitted twice", vocab, cut, k)
				}
				got[k] = true
			})
			if !maps.Equal(got, want) || len(r.Bounded) > 0 {
				t.Errorf("vocabulary %d, cut %d: %d pairs (bounded %q), want the %d of a comparison of every pair", vocab, cut, len(got), r.Bounded, len(want))
			}
		}
	}
}

// topPairs returns the k most similar of pairs as addTop keeps them.
func topPairs(pairs []entryPair, k int) []entryPair {
	var top []entryPair
	for _, p := range pairs {
		top = addTop(top, p, k)
	}
	return top
}

// TestTopPairs_SameAsStableSort: a group's listed pairs (addTop) are the
// first k of its pairs sorted by similarity, most similar first, ties in
// the order found.
func TestTopPairs_SameAsStableSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 9))
	for range 2000 {
		pairs := make([]entryPair, rng.IntN(60))
		for i := range pairs {
			pairs[i] = entryPair{a: int32(i), b: int32(rng.IntN(1000)), sim: float64(rng.IntN(8)) / 8}
		}
		k := 1 + rng.IntN(25)
		want := slices.Clone(pairs)
		slices.SortStableFunc(want, func(x, y entryPair) int { return cmp.Compare(y.sim, x.sim) })
		want = want[:min(k, len(want))]
		if got := topPairs(slices.Clone(pairs), k); !slices.Equal(got, want) {
			t.Fatalf("topPairs(%v, %d) = %v, want %v", pairs, k, got, want)
		}
	}
}

// TestPairs_BoundSaysWhereItStopped: when a work bound stops the search,
// the report names the entry it stopped at, every pair at the threshold
// among the entries before it was found, and none twice. Before, when the exact
// similarities ran out, the candidates of the later entries were still
// walked (and never scored) up to the other bound, whose note named a
// later entry: on the 100k corpus the scores stopped at entry 9,061 and
// the note said 9,752.
func TestPairs_BoundSaysWhereItStopped(t *testing.T) {
	es, _, _ := gradedSet(800, 20, 500)
	ix := bm25.BuildFunc(len(es), func(i int) bm25.Doc { return bm25.Doc{ID: es[i].ID, Content: es[i].Content} })
	v := ix.Vectors()
	all := newSpace(v, 0)
	var want [][2]int32
	dense := make([]float32, len(v.DF))
	for d := range v.Docs() {
		all.scatter(d, dense)
		for e := range d {
			if sim, _ := all.dot(e, d, dense); sim >= DefaultMinSimilarity {
				want = append(want, [2]int32{int32(e), int32(d)})
			}
		}
		all.clear(d, dense)
	}
	// Postings, term comparisons and the candidate terms' cut (0: every
	// pair is allPairs').
	for _, lim := range [][3]int{{1 << 40, 3_000, rareCut(v)}, {4_000, 1 << 40, rareCut(v)}, {20_000, 6_000, rareCut(v)}, {6_000, 20_000, rareCut(v)},
		{1 << 40, 20_000, 0}, {40_000, 20_000, 0}, {20_000, 1 << 40, 0}} {
		sp := newSpace(v, lim[2])
		sp.maxPairWork, sp.maxExactWork = lim[0], lim[1]
		var r Report
		got := map[[2]int32]bool{}
		sp.pairs(DefaultMinSimilarity, &r, make([]bool, v.Docs()), func(p docPair) {
			k := [2]int32{min(p.a, p.b), max(p.a, p.b)}
			if got[k] {
				t.Errorf("limits %v: pair %v emitted twice", lim, k)
			}
			got[k] = true
		})
		stop := v.Docs()
		for _, b := range r.Bounded {
			var at, of int
			_, after, _ := strings.Cut(b, ", at entry ")
			if _, err := fmt.Sscanf(strings.ReplaceAll(after, ",", ""), "%d of %d", &at, &of); err != nil || of != v.Docs() {
				t.Fatalf("limits %v: the note %q names no entry of %d", lim, b, v.Docs())
			}
			stop = min(stop, at)
		}
		if stop == v.Docs() {
			t.Fatalf("limits %v: no bound reached (%q); the test needs one", lim, r.Bounded)
		}
		t.Logf("limits %v: %q", lim, r.Bounded)
		missed := 0
		for _, p := range want {
			if int(p[1]) < stop-1 && !got[p] {
				missed++
			}
		}
		if missed > 0 {
			t.Errorf("limits %v: %q, but %d pairs of entries before %d were not found", lim, r.Bounded, missed, stop)
		}
	}
}

// TestPairs_HighThresholdPrunes: on a dense memory (2,000 notes in 30
// words), the search at 0.85 and 0.95 finds exactly the pairs a
// comparison of every pair finds, and at 0.95 within 6 million postings
// visited: it indexes a document's terms only from where their norm could
// reach the threshold, admits candidates only through d's terms whose
// norm could, and bounds a candidate's unindexed terms by the two norms
// (3.8 million postings; 15.3 million when only the terms' largest
// weights decided, which stopped at entry 800 here).
func TestPairs_HighThresholdPrunes(t *testing.T) {
	es, _ := denseSet(2000)
	ix := bm25.BuildFunc(len(es), func(i int) bm25.Doc { return bm25.Doc{ID: es[i].ID, Content: es[i].Content} })
	v := ix.Vectors()
	all := newSpace(v, rareCut(v))
	ths := []float64{0.85, 0.95}
	want := make([]map[[2]int32]bool, len(ths))
	for k := range ths {
		want[k] = map[[2]int32]bool{}
	}
	dense := make([]float32, len(v.DF))
	for d := range v.Docs() {
		all.scatter(d, dense)
		for e := range d {
			sim, _ := all.dot(e, d, dense)
			for k, th := range ths {
				if sim >= th {
					want[k][[2]int32{int32(e), int32(d)}] = true
				}
			}
		}
		all.clear(d, dense)
	}
	for k, th := range ths {
		s := newSpace(v, rareCut(v))
		if th == 0.95 {
			s.maxPairWork = 6_000_000
		}
		var r Report
		got := map[[2]int32]bool{}
		s.pairs(th, &r, make([]bool, v.Docs()), func(p docPair) { got[[2]int32{min(p.a, p.b), max(p.a, p.b)}] = true })
		if !maps.Equal(got, want[k]) || len(r.Bounded) > 0 {
			t.Errorf("at %.2f: %d pairs (bounded %q), want the %d of a comparison of every pair", th, len(got), r.Bounded, len(want[k]))
		}
	}
}
