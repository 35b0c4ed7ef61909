package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/crmem/crmem/store"
)

// TestSearchStatus_CountsInWords (issue 29 item 8): the search status
// says "2 names", not "2 name", and "prefix matches".
func TestSearchStatus_CountsInWords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.db")
	writeEntries(t, path, []store.Entry{
		{ID: 1, Name: "gamma-one", Content: "about gamma rays", CreatedAt: 1_700_000_000},
		{ID: 2, Name: "gamma-two", Content: "more gamma", CreatedAt: 1_700_000_001},
		{ID: 3, Name: "other", Content: "gammas and gammaflux", CreatedAt: 1_700_000_002},
	})
	m := openModel(t, path, 160, 30)
	press(m, "/")
	typeText(m, "gamma")
	got := m.searchStatus()
	if !strings.Contains(got, "2 hits · 2 names · 1 prefix match in ") {
		t.Errorf("status %q", got)
	}
}
