package tui

import (
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// BenchmarkFirstHits is what a user who types at once waits for: open the
// memory as BenchmarkFirstScreen does and draw the first frame, then type
// "/deploy" straight away and wait for the frame with the query's ranked
// hits (the index is built in the background from the open on; until it
// is ready the search shows name matches only). It reports the median and
// worst time from the start to each of the two frames, on $CRMEM_BENCH_DB:
//
//	CRMEM_BENCH_DB=/tmp/crmem-bench/big.db go test ./tui -run '^$' -bench FirstHits -benchtime 5x
func BenchmarkFirstHits(b *testing.B) {
	path := benchDB(b)
	var frames, hits []time.Duration
	for b.Loop() {
		start := time.Now()
		m := newModel(config{path: path, style: "dark", after: noTimer})
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		m.Update(openCmd(path, "")())
		if len(m.list.Rows()) == 0 || m.screen() == "" {
			b.Fatal("empty first screen")
		}
		frames = append(frames, time.Since(start))
		press(m, "/")
		typeText(m, "deploy")
		m.c.db.Memory().WaitIndexed()
		drive(m, func() tea.Msg { return indexReadyMsg{} })
		if m.result == nil || m.result.indexing || len(m.result.Exact) == 0 {
			b.Fatal("no ranked hits once indexed")
		}
		_ = m.screen()
		hits = append(hits, time.Since(start))
	}
	median := func(ts []time.Duration) float64 {
		slices.Sort(ts)
		return float64(ts[len(ts)/2].Microseconds()) / 1000
	}
	worst := func(ts []time.Duration) float64 { return float64(slices.Max(ts).Microseconds()) / 1000 }
	b.ReportMetric(median(frames), "frame-ms")
	b.ReportMetric(worst(frames), "max-frame-ms")
	b.ReportMetric(median(hits), "hits-ms")
	b.ReportMetric(worst(hits), "max-hits-ms")
}
