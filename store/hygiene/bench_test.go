package hygiene

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/store"
)

// corpus is n notes of 40–120 words drawn Zipf-like from a 30,000-word
// vocabulary, one in a hundred a light rewording of an earlier one.
func corpus(n int) []store.Entry {
	rng := rand.New(rand.NewPCG(7, 100))
	zipf := rand.NewZipf(rand.New(rand.NewPCG(7, 101)), 1.1, 1, 29_999)
	es := make([]store.Entry, n)
	for i := range es {
		var words []string
		if i > 100 && i%100 == 0 {
			words = strings.Fields(es[rng.IntN(i)].Content)
			for k := range words {
				if rng.IntN(10) == 0 {
					words[k] = fmt.Sprintf("w%d", zipf.Uint64())
				}
			}
		} else {
			for range 40 + rng.IntN(80) {
				words = append(words, fmt.Sprintf("w%d", zipf.Uint64()))
			}
		}
		es[i] = store.Entry{ID: uint64(i + 1), Name: fmt.Sprintf("note-%d", i), Content: strings.Join(words, " "), Aliases: []string{}}
	}
	return es
}

// BenchmarkRun_Duplicates100k is the duplicate check over 100,000 entries,
// the index already built as a memory has it.
func BenchmarkRun_Duplicates100k(b *testing.B) {
	es := corpus(100_000)
	ix := bm25.BuildFunc(len(es), func(i int) bm25.Doc { return bm25.Doc{ID: es[i].ID, Content: es[i].Content} })
	b.ResetTimer()
	for b.Loop() {
		r := Run(es, Options{Kinds: []Kind{Duplicate}, Index: ix})
		b.ReportMetric(float64(r.Count(Duplicate)), "groups")
	}
}

// BenchmarkRun_All100k is every check over the same 100,000 entries.
func BenchmarkRun_All100k(b *testing.B) {
	es := corpus(100_000)
	ix := bm25.BuildFunc(len(es), func(i int) bm25.Doc { return bm25.Doc{ID: es[i].ID, Content: es[i].Content} })
	b.ResetTimer()
	for b.Loop() {
		Run(es, Options{Index: ix})
	}
}
