package recalls

import (
	"maps"
	"os"
	"slices"
	"testing"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/store/sessions"
)

// BenchmarkSubsetsSessions ranks by bm25.Subsets, its terms' documents
// made before the clock starts, every distinct query the recalls of the
// sessions folder $CRMEM_BENCH_RECALLS ask of $CRMEM_BENCH_DB (skipped
// without both): the ranking recalls --report does for queries of many
// distinct words.
func BenchmarkSubsetsSessions(b *testing.B) {
	if os.Getenv("CRMEM_BENCH_RECALLS") == "" || os.Getenv("CRMEM_BENCH_DB") == "" {
		b.Skip("set CRMEM_BENCH_DB and CRMEM_BENCH_RECALLS")
	}
	ix, qs, terms := sessionQueries(b)
	m := ix.Subsets()
	ranked := 0
	for i, q := range qs {
		if _, ok := m.SearchTerms(terms[i], q.Limit); ok {
			ranked++
		}
	}
	for b.Loop() {
		for i, q := range qs {
			m.SearchTerms(terms[i], q.Limit)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/float64(max(ranked, 1)), "µs/query")
}

// BenchmarkGroupsSessions makes bm25.Groups of every term the recalls of
// $CRMEM_BENCH_RECALLS ask of $CRMEM_BENCH_DB (skipped without both, or
// past the 64 terms Groups takes) and ranks by them every distinct query,
// both on the clock: what recalls --report does once an agent's words are
// few (scripts/gen-sessions.py's own 35 words).
func BenchmarkGroupsSessions(b *testing.B) {
	if os.Getenv("CRMEM_BENCH_RECALLS") == "" || os.Getenv("CRMEM_BENCH_DB") == "" {
		b.Skip("set CRMEM_BENCH_DB and CRMEM_BENCH_RECALLS")
	}
	ix, qs, terms := sessionQueries(b)
	asked := map[string]bool{}
	for _, t := range terms {
		for _, w := range t {
			asked[w] = true
		}
	}
	all := slices.Collect(maps.Keys(asked))
	if ix.Groups(all) == nil {
		b.Skipf("%d terms: more than Groups takes", len(all))
	}
	for b.Loop() {
		g := ix.Groups(all)
		for i, q := range qs {
			g.SearchTerms(terms[i], q.Limit)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/float64(max(len(qs), 1)), "µs/query")
}

// sessionQueries is the index of $CRMEM_BENCH_DB and the distinct queries
// (and their terms) the recalls of $CRMEM_BENCH_RECALLS ask.
func sessionQueries(b *testing.B) (*bm25.Index, []Query, [][]string) {
	b.Helper()
	db := benchDB(b)
	ix := db.Memory().Index()
	seen := map[Query]bool{}
	var qs []Query
	if _, err := sessions.WalkRecalls(os.Getenv("CRMEM_BENCH_RECALLS"), sessions.RecallOptions{}, func(s sessions.SessionRecalls) error {
		for _, r := range s.Recalls {
			if q := (Query{r.Query, r.Limit}); !seen[q] && q.Limit > 0 {
				seen[q] = true
				qs = append(qs, q)
			}
		}
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	terms := make([][]string, len(qs))
	for i, q := range qs {
		terms[i] = bm25.QueryTerms(q.Text)
	}
	return ix, qs, terms
}
