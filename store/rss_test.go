//go:build linux

package store_test

import (
	"fmt"
	"os"
	"testing"
)

// TestPeakRSS opens the benchmark corpus ($CRMEM_BENCH_DB) in a fresh child
// process and checks its peak resident set size against SPEC §8 (150 MB at
// 100k entries). It is skipped without the corpus.
func TestPeakRSS(t *testing.T) {
	path := os.Getenv("CRMEM_BENCH_DB")
	if path == "" {
		t.Skip("CRMEM_BENCH_DB not set")
	}
	out, err := helperCmd(t, "open-rss", path).Output()
	if err != nil {
		t.Fatal(err)
	}
	var kb, entries int
	if _, err := fmt.Sscan(string(out), &kb, &entries); err != nil {
		t.Fatalf("helper output %q: %v", out, err)
	}
	t.Logf("peak RSS after opening %d entries: %.1f MB", entries, float64(kb)/1024)
	if kb > 150*1024 {
		t.Errorf("peak RSS %.1f MB, over the 150 MB target", float64(kb)/1024)
	}
}
