package tui

import (
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// BenchmarkFirstHits is what a user who types at once waits for: open the
// memory as BenchmarkFirstScreen does and draw the first frame, then type
// "/deploy" straight away, the keys in one burst, and wait for the frame
// with the query's ranked hits. The open's commands (the index build among
// them) and each key's run as Bubble Tea runs them, each on a goroutine of
// its own, their messages handed to Update as they come. It reports the
// median and worst time from the start to the first frame, to the first
// frame with ranked hits (before the index is built, from a pass over the
// entries), and to the frame with the index's hits, on $CRMEM_BENCH_DB.
// Between iterations, uncounted, it waits for every command and background
// build of the last one to end and collects the garbage, so each open
// starts as a new process's does, not beside the last one's leftovers:
//
//	CRMEM_BENCH_DB=/tmp/crmem-bench/big.db go test ./tui -run '^$' -bench FirstHits -benchtime 5x
func BenchmarkFirstHits(b *testing.B) {
	path := benchDB(b)
	var frames, hits, indexed []time.Duration
	var cmds sync.WaitGroup
	for b.Loop() {
		start := time.Now()
		m := newModel(config{path: path, style: "dark", after: noTimer})
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		_, opened := m.Update(openCmd(path, "")())
		if len(m.list.Rows()) == 0 || m.screen() == "" {
			b.Fatal("empty first screen")
		}
		frames = append(frames, time.Since(start))
		msgs := make(chan tea.Msg, 1024)
		runAsync(&cmds, opened, msgs)
		for _, k := range []string{"/", "d", "e", "p", "l", "o", "y"} {
			_, cmd := m.Update(keyMsg(k))
			runAsync(&cmds, cmd, msgs)
		}
		ranked := func() bool {
			return m.result != nil && m.result.Query == "deploy" && len(m.result.Exact) > 0
		}
		var first time.Duration
		for !ranked() || m.result.indexing {
			_, cmd := m.Update(<-msgs)
			runAsync(&cmds, cmd, msgs)
			if first == 0 && ranked() {
				_ = m.screen()
				first = time.Since(start)
			}
		}
		_ = m.screen()
		hits, indexed = append(hits, first), append(indexed, time.Since(start))
		b.StopTimer()
		// Do not overlap the next iteration: the commands (the other
		// orders, built once the index is), the memory's name maps.
		cmds.Wait()
		m.c.db.Memory().Lookup("")
		runtime.GC()
		b.StartTimer()
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
	b.ReportMetric(median(indexed), "indexed-hits-ms")
}

// runAsync runs cmd as Bubble Tea does: each command of a batch on a
// goroutine of its own, their messages sent to msgs (buffered enough that
// none of a benchmark's blocks); running counts the commands not ended.
func runAsync(running *sync.WaitGroup, cmd tea.Cmd, msgs chan<- tea.Msg) {
	if cmd == nil {
		return
	}
	running.Go(func() {
		switch msg := cmd().(type) {
		case nil:
		case tea.BatchMsg:
			for _, c := range msg {
				runAsync(running, c, msgs)
			}
		default:
			msgs <- msg
		}
	})
}
