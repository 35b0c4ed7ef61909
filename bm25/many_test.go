package bm25

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestMany_MatchesSearch checks that Many ranks every query as Search does
// (the same hits, scores to the bit, order), on documents built to tie,
// over several ranges, before and after changes that leave tombstones and
// move avgdl.
func TestMany_MatchesSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	tieDoc := func(id uint64) Doc {
		// Few distinct texts, so many documents share a score.
		return Doc{ID: id, Content: strings.Repeat("alpha ", rng.IntN(4)+1) + strings.Repeat("beta ", rng.IntN(3)) + testWords[rng.IntN(len(testWords))]}
	}
	var docs []Doc
	for id := uint64(1); id <= 4000; id++ {
		if id%3 == 0 {
			docs = append(docs, tieDoc(id))
		} else {
			docs = append(docs, randomDoc(rng, id, testWords))
		}
	}
	ix := Build(docs)
	m := ix.Many()
	queries := []string{"alpha", "alpha beta", "beta gamma deploy", "zeta", "nothing here", "", "the of"}
	for range 60 {
		queries = append(queries, randomDoc(rng, 0, testWords).Content)
	}
	check := func(stage string) {
		t.Helper()
		for _, q := range queries {
			for _, limit := range []int{-1, 0, 1, 2, 5, 8, 37, 64, 65, 4000} {
				got, want := m.Search(q, limit), ix.Search(q, limit)
				if !slices.Equal(got, want) {
					t.Fatalf("%s: Many.Search(%q, %d) = %v, Search %v", stage, q, limit, got, want)
				}
			}
		}
	}
	check("built")
	for i := range 300 {
		id := uint64(1 + rng.IntN(4000))
		switch i % 3 {
		case 0:
			ix.Remove(docs[id-1])
			docs[id-1] = Doc{ID: id}
		case 1:
			d := tieDoc(id)
			ix.Replace(docs[id-1], d)
			docs[id-1] = d
		default:
			d := Doc{ID: uint64(5000 + i), Content: "alpha alpha deploy rollback"}
			ix.Set(d)
		}
	}
	check("changed")
}

// TestMany_Concurrent ranks from several goroutines at once, as the
// recalls report does (run with -race).
func TestMany_Concurrent(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	var docs []Doc
	for id := uint64(1); id <= 2000; id++ {
		docs = append(docs, randomDoc(rng, id, testWords))
	}
	ix := Build(docs)
	m := ix.Many()
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for g := range 4 {
		wg.Go(func() {
			for i := range 50 {
				q := testWords[(g+i)%len(testWords)] + " " + testWords[i%len(testWords)]
				if got, want := m.Search(q, 5), ix.Search(q, 5); !slices.Equal(got, want) {
					errs <- fmt.Errorf("Many.Search(%q, 5) = %v, Search %v", q, got, want)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
