package bm25

import (
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// benchCorpus loads $CRMEM_BENCH_DB once, or skips the benchmark.
var benchCorpus = sync.OnceValues(func() ([]Doc, error) {
	es, err := readCRMEM(os.Getenv("CRMEM_BENCH_DB"))
	if err != nil {
		return nil, err
	}
	return docsOf(es), nil
})

func bigDocs(b *testing.B) []Doc {
	b.Helper()
	if os.Getenv("CRMEM_BENCH_DB") == "" {
		b.Skip("set CRMEM_BENCH_DB to a CRMEM file (e.g. /tmp/crmem-bench/big.db)")
	}
	docs, err := benchCorpus()
	if err != nil {
		b.Fatal(err)
	}
	return docs
}

// smallDocs generates a deterministic corpus so the benchmarks always run.
func smallDocs(n int) []Doc {
	rng := rand.New(rand.NewPCG(7, 7))
	words := make([]string, 3000)
	for i := range words {
		var sb strings.Builder
		for range 3 + rng.IntN(8) {
			sb.WriteByte(byte('a' + rng.IntN(26)))
		}
		words[i] = sb.String()
	}
	docs := make([]Doc, n)
	for i := range docs {
		var sb strings.Builder
		for range 20 + rng.IntN(150) {
			// Zipf-like: low word indexes are far more common.
			sb.WriteString(words[int(float64(len(words))*rng.Float64()*rng.Float64()*rng.Float64())])
			sb.WriteString(" The ")
		}
		docs[i] = Doc{ID: uint64(i + 1), Content: sb.String(), Aliases: []string{words[rng.IntN(len(words))]}}
	}
	return docs
}

func benchQueries(b *testing.B) []string {
	b.Helper()
	data, err := os.ReadFile(refDir + "/bench-queries.txt")
	if err != nil {
		b.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

func benchBuild(b *testing.B, docs []Doc) {
	b.ReportAllocs()
	var cpu time.Duration
	for b.Loop() {
		// Start each build from a collected heap, as an open does, so the
		// previous index's garbage is not charged to this one.
		b.StopTimer()
		runtime.GC()
		start := cpuTime()
		b.StartTimer()
		Build(docs)
		cpu += cpuTime() - start
	}
	b.ReportMetric(float64(cpu)/float64(b.N)/1e6, "cpu-ms/op")
}
func BenchmarkBuild(b *testing.B) {
	docs := bigDocs(b)
	mb := indexHeapMB(docs)
	benchBuild(b, docs)
	b.ReportMetric(mb, "index-MB")
}

// indexHeapMB measures the live heap an index over docs adds.
func indexHeapMB(docs []Doc) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	ix := Build(docs)
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(ix)
	return float64(after.HeapAlloc-before.HeapAlloc) / (1 << 20)
}
func BenchmarkBuildSmall(b *testing.B) { benchBuild(b, smallDocs(5000)) }

// benchSearch runs the bench queries round-robin and reports the mean and
// the p99 latency per query.
func benchSearch(b *testing.B, docs []Doc, queries []string, limit int) {
	ix := Build(docs)
	lat := make([]time.Duration, 0, 1<<16)
	b.ReportAllocs()
	i := 0
	cpuStart := cpuTime()
	for b.Loop() {
		start := time.Now()
		ix.Search(queries[i%len(queries)], limit)
		if len(lat) < cap(lat) {
			lat = append(lat, time.Since(start))
		}
		i++
	}
	b.ReportMetric(float64(cpuTime()-cpuStart)/float64(b.N)/1e3, "cpu-µs/op")
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds())/1e3, "p99-µs")
}

func BenchmarkSearch(b *testing.B) { benchSearch(b, bigDocs(b), benchQueries(b), 10) }

// BenchmarkSearch1000 asks for the best 1000, as the TUI's list does.
func BenchmarkSearch1000(b *testing.B) { benchSearch(b, bigDocs(b), benchQueries(b), 1000) }

// BenchmarkSearchAll returns every hit.
func BenchmarkSearchAll(b *testing.B) { benchSearch(b, bigDocs(b), benchQueries(b), 0) }

func BenchmarkSearchSmall(b *testing.B) {
	docs := smallDocs(5000)
	queries := []string{docs[0].Aliases[0], docs[1].Aliases[0] + " " + docs[2].Aliases[0], "the", "zzzz"}
	benchSearch(b, docs, queries, 10)
}

// benchSet replaces documents with other documents' text.
func benchSet(b *testing.B, docs []Doc) {
	ix := Build(docs)
	cur := slices.Clone(docs) // what each position's id holds now
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		k := i % len(docs)
		d := docs[(i*7919)%len(docs)]
		d.ID = docs[k].ID
		ix.Replace(cur[k], d)
		cur[k] = d
		i++
	}
}

func BenchmarkSet(b *testing.B)      { benchSet(b, bigDocs(b)) }
func BenchmarkSetSmall(b *testing.B) { benchSet(b, smallDocs(5000)) }

// benchRemove removes documents, putting each back untimed.
func benchRemove(b *testing.B, docs []Doc) {
	ix := Build(docs)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		d := docs[(i*7919)%len(docs)]
		ix.Remove(d)
		b.StopTimer()
		ix.Set(d)
		b.StartTimer()
		i++
	}
}

func BenchmarkRemove(b *testing.B)      { benchRemove(b, bigDocs(b)) }
func BenchmarkRemoveSmall(b *testing.B) { benchRemove(b, smallDocs(5000)) }

func BenchmarkTokenize(b *testing.B)    { benchTokenize(b, smallDocs(200)) }
func BenchmarkTokenizeBig(b *testing.B) { benchTokenize(b, bigDocs(b)[:10000]) }

// benchTokenize reports the tokenizer's throughput over docs.
func benchTokenize(b *testing.B, docs []Doc) {
	var n int64
	for _, d := range docs {
		n += int64(len(d.Content))
	}
	b.SetBytes(n)
	tz := tokenizer{}
	start := cpuTime()
	for b.Loop() {
		for _, d := range docs {
			tz.reset(d.Content)
			for tz.next() {
			}
		}
	}
	reportCPU(b, start)
}

func BenchmarkExpand(b *testing.B) {
	ix := Build(smallDocs(5000))
	for b.Loop() {
		ix.Expand("a", 30)
		ix.Expand("ab", 30)
	}
}

// reportCPU reports CPU time per operation since start.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N)/1e6, "cpu-ms/op")
}

// BenchmarkRank is a one-shot search's ranking: every document scanned
// for its length and the query terms' frequencies (run with -cpu 1 for
// one core's cost).
func BenchmarkRank(b *testing.B) { benchRank(b, bigDocs(b), benchQueries(b)) }

// BenchmarkRankSmall ranks the generated corpus, so it always runs.
func BenchmarkRankSmall(b *testing.B) {
	benchRank(b, smallDocs(5000), []string{"abc the", "qwert zxcv hjk", "deploy"})
}

func benchRank(b *testing.B, docs []Doc, queries []string) {
	doc := func(i int) Doc { return docs[i] }
	b.ReportAllocs()
	i := 0
	start := cpuTime()
	for b.Loop() {
		Rank(len(docs), doc, queries[i%len(queries)], 10)
		i++
	}
	reportCPU(b, start)
}

// BenchmarkVectors compares the two ways to a corpus's term vectors: the
// index built and turned around (index), as lint did, and the
// vectors-only build (direct), as lint does. CRMEM_BENCH_DB's corpus, or
// the generated one.
func BenchmarkVectors(b *testing.B) {
	docs := smallDocs(20000)
	if os.Getenv("CRMEM_BENCH_DB") != "" {
		docs = bigDocs(b)
	}
	src := func(i int) Doc { return docs[i] }
	for _, way := range []struct {
		name  string
		build func() *Vectors
	}{
		{"index", func() *Vectors { return BuildFunc(len(docs), src).Vectors() }},
	} {
		b.Run(way.name, func(b *testing.B) {
			b.ReportAllocs()
			var cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				runtime.GC()
				start := cpuTime()
				b.StartTimer()
				way.build()
				cpu += cpuTime() - start
			}
			b.ReportMetric(float64(cpu)/float64(b.N)/1e6, "cpu-ms/op")
		})
	}
}
