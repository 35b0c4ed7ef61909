package bm25

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestSubsets_MatchSearch checks that Subsets ranks every query of up to
// six terms as Search does (the same hits, scores to the bit, order, ties
// by id at the cut) at every limit it takes, on documents built to tie,
// some holding a term more than 254 times, with tombstones left by
// changes before it was made, and with terms of more documents than it
// keeps in order; that a limit past 64 or a seventh term is left to
// Search; and that a change to the index retires it.
func TestSubsets_MatchSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 5))
	ix := tieIndex(rng, true)
	m := ix.Subsets()
	queries := []string{"alpha", "alpha beta", "beta gamma deploy", "zeta", "gamma", "absent", "absent alpha", "", "the of",
		"deployment depot café v1.2 rollback", "alpha beta gamma delta the of"}
	for range 150 {
		var q []string
		for range 1 + rng.IntN(6) {
			q = append(q, testWords[rng.IntN(len(testWords))])
		}
		queries = append(queries, strings.Join(q, " "))
	}
	for _, q := range queries {
		qt := QueryTerms(q)
		for _, limit := range []int{1, 2, 3, 5, 8, 37, 64} {
			got, ok := m.SearchTerms(qt, limit)
			if want := ix.SearchTerms(qt, limit); !ok || !slices.Equal(got, want) {
				t.Fatalf("SearchTerms(%q, %d) = %v, %v; Search %v", qt, limit, got, ok, want)
			}
		}
		for _, limit := range []int{0, -1, 65} {
			if _, ok := m.SearchTerms(qt, limit); ok {
				t.Errorf("SearchTerms(%q, %d) ranked a limit Subsets does not take", qt, limit)
			}
		}
	}
	if _, ok := m.SearchTerms(QueryTerms("alpha beta gamma delta epsilon zeta deploy"), 5); ok {
		t.Error("SearchTerms ranked seven terms")
	}
	ix.Set(Doc{ID: 9999, Content: "alpha beta"})
	if _, ok := m.SearchTerms([]string{"alpha"}, 5); ok {
		t.Error("Subsets made before a change ranked after it")
	}
}

// TestSubsets_Empty checks an empty index and a query of no known term.
func TestSubsets_Empty(t *testing.T) {
	m := New().Subsets()
	if hits, ok := m.SearchTerms([]string{"alpha"}, 5); !ok || len(hits) != 0 {
		t.Errorf("empty index: %v, %v", hits, ok)
	}
	m = Build([]Doc{{ID: 1, Content: "alpha"}}).Subsets()
	if hits, ok := m.SearchTerms([]string{"beta"}, 5); !ok || len(hits) != 0 {
		t.Errorf("unknown term: %v, %v", hits, ok)
	}
}

// TestSubsets_MemoryBound checks that once the terms kept take the memory
// Subsets keeps, a query of another term is left to the caller, and the
// terms kept still rank as Search does.
func TestSubsets_MemoryBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 8))
	var docs []Doc
	for id := uint64(1); id <= 500; id++ {
		docs = append(docs, randomDoc(rng, id, testWords))
	}
	ix := Build(docs)
	m := ix.Subsets()
	m.maxBytes = m.termBytes(ix.DocFreq("alpha")) + m.termBytes(ix.DocFreq("beta"))
	for _, q := range []string{"alpha beta", "beta", "alpha"} {
		got, ok := m.SearchTerms(QueryTerms(q), 5)
		if want := ix.SearchTerms(QueryTerms(q), 5); !ok || !slices.Equal(got, want) {
			t.Fatalf("SearchTerms(%q) = %v, %v; Search %v", q, got, ok, want)
		}
	}
	if _, ok := m.SearchTerms(QueryTerms("alpha gamma"), 5); ok {
		t.Error("a third term ranked past the memory bound")
	}
	if got, ok := m.SearchTerms(QueryTerms("beta alpha"), 3); !ok || !slices.Equal(got, ix.SearchTerms(QueryTerms("alpha beta"), 3)) {
		t.Errorf("the terms kept, after a query refused: %v, %v", got, ok)
	}
}

// TestSubsets_Topics checks Subsets against Search where terms meet in
// few blocks or none: documents of four topics of their own words, a few
// bridging two topics, queries mixing the topics' words (sets that hold
// no document, or a handful far apart), ranked with every pair's meet
// kept, with none kept, and from several goroutines at once.
func TestSubsets_Topics(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 4))
	topics := [][]string{
		{"deploy", "canary", "rollback", "staging"},
		{"postgres", "schema", "migration", "index"},
		{"token", "oauth", "expiry", "session"},
		{"flaky", "fixture", "coverage", "lint"},
	}
	var docs []Doc
	for id := uint64(1); id <= 9000; id++ {
		words := topics[rng.IntN(len(topics))]
		if id%301 == 0 { // a rare bridge between two topics
			words = append(slices.Clone(words), topics[rng.IntN(len(topics))]...)
		}
		d := randomDoc(rng, id, words)
		if id%613 == 0 {
			d.Content += strings.Repeat(" "+words[0], 260) // past a byte
		}
		docs = append(docs, d)
	}
	ix := Build(docs)
	var all []string
	for _, ws := range topics {
		all = append(all, ws...)
	}
	var queries [][]string
	for range 300 {
		var q []string
		for range 2 + rng.IntN(5) {
			q = append(q, all[rng.IntN(len(all))])
		}
		queries = append(queries, QueryTerms(strings.Join(q, " ")))
	}
	check := func(m *Subsets, qt []string) error {
		for _, limit := range []int{1, 3, 8, 64} {
			got, ok := m.SearchTerms(qt, limit)
			if want := ix.SearchTerms(qt, limit); !ok || !slices.Equal(got, want) {
				return fmt.Errorf("SearchTerms(%q, %d) = %v, %v; Search %v", qt, limit, got, ok, want)
			}
		}
		return nil
	}
	kept, none := ix.Subsets(), ix.Subsets()
	none.maxMeet = 0
	for _, qt := range queries {
		for _, m := range []*Subsets{kept, none} {
			if err := check(m, qt); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(kept.meets) == 0 || len(none.meets) != 0 {
		t.Errorf("meets kept: %d with room, %d without", len(kept.meets), len(none.meets))
	}
	shared := ix.Subsets()
	errs := make(chan error, 4)
	for g := range 4 {
		go func() {
			for i := g; i < len(queries); i += 2 {
				if err := check(shared, queries[i]); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestMeetInto checks meetInto against a bit set per block, at lengths
// that end a word of the meet anywhere, on sparse and dense bitmaps.
func TestMeetInto(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, n := range []int{0, 1, 3, 4, 5, 63, 64, 65, 127, 130, 1563} {
		for _, density := range []int{1, 8, 64} { // one bit in density set, about
			x, y := make([]uint64, n), make([]uint64, n)
			for w := range n {
				for b := range 64 {
					if rng.IntN(density) == 0 {
						x[w] |= 1 << b
					}
					if rng.IntN(density) == 0 {
						y[w] |= 1 << b
					}
				}
			}
			got := make([]uint64, meetLen(n*64))
			meetInto(got, x, y)
			want := make([]uint64, len(got))
			for w := range n {
				if x[w]&y[w] != 0 {
					want[w/64] |= 1 << (w % 64)
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%d blocks, density 1/%d: %x, want %x", n, density, got, want)
			}
		}
	}
}
