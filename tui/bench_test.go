package tui

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/store"
)

// The benchmarks measure SPEC §8's TUI rows on the corpus named by
// $CRMEM_BENCH_DB (e.g. /tmp/crmem-bench/big.db or 10k.db), driving the
// model directly: time from a message to the rendered frame text.
//
//	CRMEM_BENCH_DB=/tmp/crmem-bench/10k.db go test ./tui -run '^$' -bench . -benchtime 3x

func benchDB(b *testing.B) string {
	b.Helper()
	path := os.Getenv("CRMEM_BENCH_DB")
	if path == "" {
		b.Skip("CRMEM_BENCH_DB not set")
	}
	return path
}

// benchModel opens path at 120×40 and waits for the index.
func benchModel(b *testing.B, path string) *Model {
	b.Helper()
	m := newModel(config{path: path, style: "dark", after: noTimer})
	drive(m, func() tea.Msg { return tea.WindowSizeMsg{Width: 120, Height: 40} })
	drive(m, openCmd(path, ""))
	if m.c.db == nil {
		b.Fatalf("open %s: %s", path, m.st.fileWarning)
	}
	return m
}

// BenchmarkFirstScreen: open (decode, start indexing), build the list and
// draw the first frame — what a user waits for before the list appears.
func BenchmarkFirstScreen(b *testing.B) {
	path := benchDB(b)
	for b.Loop() {
		m := newModel(config{path: path, style: "dark", after: noTimer})
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		m.Update(openCmd(path, "")())
		if len(m.list.Rows()) == 0 || m.screen() == "" {
			b.Fatal("empty first screen")
		}
		b.StopTimer()
		m.c.db.Memory().WaitIndexed() // do not overlap the next iteration
		b.StartTimer()
	}
}

// BenchmarkKeystroke types the bench queries character by character; each
// keystroke runs its search and draws the frame. Reports mean and worst.
func BenchmarkKeystroke(b *testing.B) {
	m := benchModel(b, benchDB(b))
	queries := benchQueries(b)
	var times []time.Duration
	for b.Loop() {
		for _, q := range queries {
			press(m, "/")
			for _, r := range q {
				times = append(times, keystroke(m, string(r)))
			}
			press(m, "esc")
		}
	}
	reportTimes(b, times)
}

// BenchmarkNavigate moves the selection down and draws the frame.
func BenchmarkNavigate(b *testing.B) {
	m := benchModel(b, benchDB(b))
	var times []time.Duration
	for b.Loop() {
		for range 50 {
			times = append(times, keystroke(m, "j"))
		}
		press(m, "g")
	}
	reportTimes(b, times)
}

// keystroke times one key to its frame, running the search it starts (the
// rendering of the preview goes on off the loop and is not waited for).
func keystroke(m *Model, k string) time.Duration {
	start := time.Now()
	_, cmd := m.Update(keyMsg(k))
	runSearchOnly(m, cmd)
	_ = m.screen()
	return time.Since(start)
}

// runSearchOnly runs the search commands among cmd's, dropping renders.
func runSearchOnly(m *Model, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			runSearchOnly(m, c)
		}
	case searchDoneMsg:
		_, next := m.Update(msg)
		runSearchOnly(m, next)
	}
}

// BenchmarkExternalWrite: another writer changes one entry; the reload
// (fingerprint, read, decode, sync, snapshot) and the new frame. The
// watcher's 100 ms debounce comes on top.
func BenchmarkExternalWrite(b *testing.B) {
	src := benchDB(b)
	data, err := os.ReadFile(src)
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "memory.db")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		b.Fatal(err)
	}
	m := benchModel(b, path)
	other, err := store.OpenWith(path, store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		b.StopTimer()
		changes, err := other.Apply(store.Add{Name: "bench-" + time.Now().Format("150405.000000000"), Content: "external write"})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		drive(m, reloadCmd(m.c.db, m.c.snap, false))
		if _, ok := m.c.snap.entry(changes[0].After.ID); !ok {
			b.Fatal("reload did not bring the new entry")
		}
		_ = m.screen()
	}
}

func benchQueries(b *testing.B) []string {
	f, err := os.Open(filepath.Join("..", "testdata", "reference", "bench-queries.txt"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var qs []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if sc.Text() != "" {
			qs = append(qs, sc.Text())
		}
	}
	return qs
}

// reportTimes reports mean, p99 and max per keystroke in milliseconds.
func reportTimes(b *testing.B, ts []time.Duration) {
	if len(ts) == 0 {
		return
	}
	slices.Sort(ts)
	var sum time.Duration
	for _, t := range ts {
		sum += t
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(sum/time.Duration(len(ts))), "ms/key")
	b.ReportMetric(ms(ts[len(ts)*99/100]), "p99-ms/key")
	b.ReportMetric(ms(ts[len(ts)-1]), "max-ms/key")
}
