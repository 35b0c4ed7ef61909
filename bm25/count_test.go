package bm25_test

import (
	"cmp"
	"slices"
	"strings"
	"testing"

	"github.com/crmem/crmem/bm25"
)

// TestSearchCount_CountsBeyondTheLimit: the count is every hit, the list
// is cut to the limit, and both agree with an unlimited search.
func TestSearchCount_CountsBeyondTheLimit(t *testing.T) {
	var docs []bm25.Doc
	for i := range 50 {
		docs = append(docs, bm25.Doc{ID: uint64(i + 1), Content: "postgres migration"})
	}
	docs = append(docs, bm25.Doc{ID: 99, Content: "unrelated words"})
	ix := bm25.Build(docs)
	tests := []struct {
		query     string
		limit     int
		wantHits  int
		wantCount int
	}{
		{"postgres", 5, 5, 50},
		{"postgres unrelated", 10, 10, 51},
		{"postgres", 0, 50, 50},
		{"absent", 5, 0, 0},
	}
	for _, tt := range tests {
		hits, n := ix.SearchCount(tt.query, tt.limit)
		if len(hits) != tt.wantHits || n != tt.wantCount {
			t.Errorf("SearchCount(%q, %d) = %d hits, count %d; want %d, %d", tt.query, tt.limit, len(hits), n, tt.wantHits, tt.wantCount)
		}
		if all := ix.Search(tt.query, 0); len(all) != n {
			t.Errorf("%q: count %d, unlimited search %d", tt.query, n, len(all))
		}
	}
}

// TestSearchTermsAll_EveryHitWithItsScore: all holds each document an
// unlimited search returns, with the same score, however small the limit;
// the top hits are SearchTermsCount's.
func TestSearchTermsAll_EveryHitWithItsScore(t *testing.T) {
	var docs []bm25.Doc
	for i := range 50 {
		docs = append(docs, bm25.Doc{ID: uint64(i + 1), Content: "postgres migration " + strings.Repeat("pool ", i%7)})
	}
	docs = append(docs, bm25.Doc{ID: 99, Content: "unrelated words"})
	ix := bm25.Build(docs)
	for _, terms := range [][]string{{"postgres"}, {"pool", "unrelated"}, {"absent"}} {
		top, all := ix.SearchTermsAll(terms, 3)
		wantTop, n := ix.SearchTermsCount(terms, 3)
		if !slices.Equal(top, wantTop) || len(all) != n {
			t.Errorf("%v: top %v all %d, want %v and %d", terms, top, len(all), wantTop, n)
		}
		every := ix.SearchTerms(terms, 0)
		slices.SortFunc(all, func(a, b bm25.Hit) int { return cmp.Compare(a.ID, b.ID) })
		slices.SortFunc(every, func(a, b bm25.Hit) int { return cmp.Compare(a.ID, b.ID) })
		if !slices.Equal(all, every) {
			t.Errorf("%v: all %v, want %v", terms, all, every)
		}
	}
}
