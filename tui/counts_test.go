package tui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crmem/crmem/store"
)

// TestCounts_ThousandsSeparators pins issue 17 item 14: counts on screen
// lacked thousands separators ("and 1504 more", "orphan archives only:
// 1506"). Every count the TUI prints is grouped as the list's and the
// status line's already were.
func TestCounts_ThousandsSeparators(t *testing.T) {
	var es []store.Entry
	for i := range 1506 {
		es = append(es, store.Entry{ID: uint64(i + 1), Name: fmt.Sprintf("archive-%04d", i), Kind: store.Archive,
			CreatedAt: uint64(testNow.Unix()) - uint64(i)*60, Content: "summary"})
	}
	path := filepath.Join(t.TempDir(), "memory.db")
	writeEntries(t, path, es)
	h := newEditHarnessIn(t, path, t.TempDir()) // no session references any archive
	press(h.m, "o")
	h.wantStatus("orphan archives only: 1,506")
	press(h.m, "o", "*", "D")
	h.wantOverlay("delete 1,506 entries marked", "and 1,503 more")
	press(h.m, "esc")
	// The explain view's df and N.
	press(h.m, "U", "/")
	typeText(h.m, "summary ")
	press(h.m, "enter", "x")
	if got := squeeze(plainScreen(h.m)); !strings.Contains(got, "N=1,506") || !strings.Contains(got, "summary11,506") {
		t.Errorf("the explain view does not group its counts:\n%s", plainScreen(h.m))
	}
	press(h.m, "esc", "esc")
	// The reload log's counts.
	apply(t, path, func() []store.Op {
		var ops []store.Op
		for i := range 1200 {
			ops = append(ops, store.Remove{Name: fmt.Sprintf("archive-%04d", i)})
		}
		return ops
	}()...)
	reload(h.m)
	press(h.m, "c")
	if got := plainScreen(h.m); !strings.Contains(got, "−1,200") {
		t.Errorf("the reload log does not group its counts:\n%s", got)
	}
}
