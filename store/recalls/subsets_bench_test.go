package recalls

import (
	"os"
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
	dir := os.Getenv("CRMEM_BENCH_RECALLS")
	if dir == "" || os.Getenv("CRMEM_BENCH_DB") == "" {
		b.Skip("set CRMEM_BENCH_DB and CRMEM_BENCH_RECALLS")
	}
	db := benchDB(b)
	ix := db.Memory().Index()
	seen := map[Query]bool{}
	var qs []Query
	if _, err := sessions.WalkRecalls(dir, sessions.RecallOptions{}, func(s sessions.SessionRecalls) error {
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
