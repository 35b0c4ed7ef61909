package stats_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/stats"
)

// corpus builds n entries of about 600 bytes (the size of the generated
// 100k corpus's entries), a third of them archives, spread over ten years.
func corpus(n int) []store.Entry {
	words := strings.Fields("deploy rollback server api token cache latency user prefers dark mode the a of config " +
		"release notes meeting summary database index query memory agent recall session archive topic")
	r := rand.New(rand.NewPCG(7, 7))
	out := make([]store.Entry, n)
	var b strings.Builder
	for i := range out {
		b.Reset()
		for b.Len() < 600 {
			b.WriteString(words[r.IntN(len(words))])
			b.WriteByte(' ')
		}
		out[i] = store.Entry{
			ID: uint64(i + 1), Name: "entry", Kind: store.Kind(r.IntN(3) / 2),
			CreatedAt: 1_450_000_000 + uint64(r.IntN(10*365*86400)), Content: b.String(), Aliases: []string{"alias"},
		}
	}
	return out
}

// BenchmarkCompute_100k computes the picture of 100,000 entries (about
// 60 MB of content), the size of the generated corpus.
func BenchmarkCompute_100k(b *testing.B) {
	entries := corpus(100_000)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		stats.Compute(entries, stats.Options{})
	}
}
