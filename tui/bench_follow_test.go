package tui

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/crmem/crmem/store"
)

// benchCopy copies the bench corpus into a temp folder (it is written to).
func benchCopy(b *testing.B) string {
	b.Helper()
	data, err := os.ReadFile(benchDB(b))
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "memory.db")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkLatestChange: `.` to its frame, from the bottom of the list
// sorted by name, after an external write (SPEC §8: ≤ 50 ms at 100k).
func BenchmarkLatestChange(b *testing.B) {
	path := benchCopy(b)
	m := settledBenchModel(b, path)
	drive(m, m.setOrder(sortName))
	other, err := store.OpenWith(path, store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := other.Apply(store.Write{Name: m.c.snap.entries[len(m.c.snap.entries)/2].Name, Content: "changed by the agent"}); err != nil {
		b.Fatal(err)
	}
	drive(m, reloadCmd(m.c.db, m.c.snap, false))
	var times []time.Duration
	for b.Loop() {
		press(m, "G")
		times = append(times, keystroke(m, "."))
	}
	reportTimes(b, times)
}

// BenchmarkDateFilter: enter at the date prompt to its frame, cycling
// through the filter's forms and off (SPEC §8: ≤ 50 ms at 100k).
func BenchmarkDateFilter(b *testing.B) {
	m := settledBenchModel(b, benchDB(b))
	forms := []string{"<30d", ">90d", "2026-03", "2025-01-01..2026-04-15", ""}
	var times []time.Duration
	for i := 0; b.Loop(); i++ {
		press(m, "f")
		typeText(m, forms[i%len(forms)])
		times = append(times, keystroke(m, "enter"))
	}
	reportTimes(b, times)
}

// settledBenchModel is benchModel once the index and the background
// orders are built, so no timing overlaps that work.
func settledBenchModel(b *testing.B, path string) *Model {
	b.Helper()
	m := benchModel(b, path)
	m.c.db.Memory().WaitIndexed()
	drive(m, indexReadyCmd())
	drive(m, warmCmd(m.c.snap))
	return m
}
