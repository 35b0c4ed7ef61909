package hygiene

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/store"
)

// denseSet is a memory too alike to list at the default threshold: n notes
// of 40 words drawn from 30, so that (at 2,000) about 1.3 million pairs
// reach 0.65, 280,000 reach 0.75 and 5,000 reach 0.85, plus copies of
// the first ten notes with one word of 40 changed for another of the
// notes: the pairs a report at a raised threshold must still list.
func denseSet(n int) (es []store.Entry, planted [][2]string) {
	rng := rand.New(rand.NewPCG(30, 9))
	words := make([]string, 40)
	for i := range n {
		for k := range words {
			words[k] = fmt.Sprintf("w%d", rng.IntN(30))
		}
		es = append(es, store.Entry{ID: uint64(len(es) + 1), Name: fmt.Sprintf("note-%d", i), Content: strings.Join(words, " "), Aliases: []string{}})
	}
	for i := range 10 {
		ws := strings.Fields(es[i].Content)
		ws[5] = ws[6]
		name := fmt.Sprintf("copy-%d", i)
		es = append(es, store.Entry{ID: uint64(len(es) + 1), Name: name, Content: strings.Join(ws, " "), Aliases: []string{}})
		planted = append(planted, [2]string{es[i].Name, name})
	}
	return es, planted
}

// TestNearDuplicates_DenseAdapts: on a memory whose notes are so alike
// that about a million pairs reach the default threshold, the default
// search runs at a higher one, completely, lists the planted copies, and
// says so in one line (the asked threshold, the searched one, the
// estimate and how to force it); the estimate and the threshold are the
// same on every run. Before, the search ran at 0.65, hit its bounds and
// listed one group of most of the memory.
func TestNearDuplicates_DenseAdapts(t *testing.T) {
	es, planted := denseSet(2000)
	r := Run(es, Options{Kinds: []Kind{Duplicate}})
	a := r.Adapted
	if a == nil {
		t.Fatalf("the default did not adapt; bounded %q, %d findings", r.Bounded, len(r.Findings))
	}
	if a.Asked != DefaultMinSimilarity || a.Searched <= a.Asked || a.EstimatedPairs <= MaxListedPairs || a.Sampled == 0 {
		t.Errorf("adapted %+v: want asked %.2f, searched above it, more than %d pairs estimated", *a, DefaultMinSimilarity, MaxListedPairs)
	}
	if len(r.Bounded) != 1 {
		t.Fatalf("bounded %q: want the one line saying the threshold was raised (and no work bound reached)", r.Bounded)
	}
	for _, want := range []string{fmt.Sprintf("searched at similarity %.2f, not 0.65", a.Searched), "pairs (estimated by comparing", "too alike to list", "--min-similarity 0.65"} {
		if !strings.Contains(r.Bounded[0], want) {
			t.Errorf("note %q lacks %q", r.Bounded[0], want)
		}
	}
	found := nearPairNames(es, r)
	for _, p := range planted {
		if !found[p] {
			t.Errorf("planted copy %v not listed at %.2f", p, a.Searched)
		}
	}
	t.Logf("adapted %+v; %d findings", *a, len(r.Findings))
	if again := Run(es, Options{Kinds: []Kind{Duplicate}}); again.Adapted == nil || *again.Adapted != *a {
		t.Errorf("second run adapted %+v, first %+v: want the same", again.Adapted, *a)
	}
}

// TestNearDuplicates_ExplicitThresholdDoesNotAdapt: a threshold the user
// gives, even the default's value, is searched as asked on the same dense
// memory (within the work bounds, which say where they stopped).
func TestNearDuplicates_ExplicitThresholdDoesNotAdapt(t *testing.T) {
	es, _ := denseSet(2000)
	r := Run(es, Options{Kinds: []Kind{Duplicate}, MinSimilarity: DefaultMinSimilarity})
	if r.Adapted != nil {
		t.Fatalf("an explicit %.2f adapted: %+v", DefaultMinSimilarity, *r.Adapted)
	}
	for _, b := range r.Bounded {
		if strings.Contains(b, "searched at similarity") {
			t.Errorf("an explicit threshold says it was raised: %q", b)
		}
	}
	biggest := 0
	for _, f := range r.Findings {
		biggest = max(biggest, len(f.Entries))
	}
	if biggest < 1000 {
		t.Errorf("largest group %d entries: want the memory joined into one group at 0.65", biggest)
	}
}

// TestNearDuplicates_GradedDoesNotAdapt: the graded sets (3,000 notes, a
// vocabulary of 4,000 or of 500 words) are not dense: the default is
// searched as it is, so TestNearDuplicates_Graded measures the default.
func TestNearDuplicates_GradedDoesNotAdapt(t *testing.T) {
	for _, vocab := range []int{4000, 500} {
		es, _, _ := gradedSet(3000, 60, vocab)
		r := Run(es, Options{Kinds: []Kind{Duplicate}})
		if r.Adapted != nil || len(r.Bounded) != 0 {
			t.Errorf("vocabulary %d: adapted %+v, bounded %q: want neither", vocab, r.Adapted, r.Bounded)
		}
	}
}

// TestSampleDensity_WholeMemoryIsExact: when the sample is the whole
// memory (fewer entries than DensitySample), the estimate is the exact
// number of pairs at each threshold, as comparing every pair counts them
// (float32 sums: a pair within 1e-4 of a threshold may fall either way).
func TestSampleDensity_WholeMemoryIsExact(t *testing.T) {
	es, _ := denseSet(150)
	ix := bm25.BuildFunc(len(es), func(i int) bm25.Doc { return bm25.Doc{ID: es[i].ID, Content: es[i].Content} })
	v := ix.Vectors()
	s := newSpace(v, rareCut(v))
	ths := []float64{0.5, 0.65, 0.8, 0.95}
	dn := s.sampleDensity(make([]bool, v.Docs()), ths)
	if dn.sampled != v.Docs() {
		t.Fatalf("sampled %d of %d", dn.sampled, v.Docs())
	}
	for k, th := range ths {
		exact, edge := 0, 0
		for a := range v.Docs() {
			for b := a + 1; b < v.Docs(); b++ {
				c, _ := s.cosine(a, b)
				if c >= th {
					exact++
				}
				if c > th-1e-4 && c < th+1e-4 {
					edge++
				}
			}
		}
		if got := dn.pairs(k); got < exact-edge || got > exact+edge {
			t.Errorf("at %.2f: estimated %d pairs, exact %d (±%d at the edge)", th, got, exact, edge)
		}
	}
}

// TestRoughCount: an estimate is written to two significant digits.
func TestRoughCount(t *testing.T) {
	for n, want := range map[int]string{7: "7", 999: "999", 1234: "1,200", 123_456: "120,000", 264_040_756: "260 million", 1_050_000: "1.1 million", 3_000_000_000: "3 billion"} {
		if got := roughCount(n); got != want {
			t.Errorf("roughCount(%d) = %q, want %q", n, got, want)
		}
	}
}

// nearPairNames is the near pairs r lists, by name, both ways round.
func nearPairNames(es []store.Entry, r Report) map[[2]string]bool {
	byID := map[uint64]string{}
	for _, e := range es {
		byID[e.ID] = e.Name
	}
	out := map[[2]string]bool{}
	for _, f := range r.Findings {
		for _, p := range f.Duplicate.Pairs {
			a, b := byID[p.A], byID[p.B]
			out[[2]string{a, b}], out[[2]string{b, a}] = true, true
		}
	}
	return out
}
