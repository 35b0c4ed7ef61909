package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/crmem/crmem/store"
)

// TestStatus_WarnsAboutDuplicateIDs: a file with two entries of one id
// lists both and says so on the status line.
func TestStatus_WarnsAboutDuplicateIDs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.db")
	writeEntries(t, path, []store.Entry{
		{ID: 1, Name: "first", Content: "a"},
		{ID: 1, Name: "second", Content: "b"},
		{ID: 2, Name: "third", Content: "c"},
	})
	m := openModel(t, path, 160, 30)
	if got := len(m.c.db.Memory().Entries()); got != 3 {
		t.Errorf("%d entries listed, want 3", got)
	}
	if screen := plainScreen(m); !strings.Contains(screen, "first") || !strings.Contains(screen, "second") {
		t.Errorf("screen does not list both entries of id 1:\n%s", screen)
	}
	if line := statusText(m); !strings.Contains(line, "held by more than one entry") {
		t.Errorf("status line %q has no duplicate-id warning", line)
	}
	clean := filepath.Join(t.TempDir(), "memory.db")
	writeEntries(t, clean, []store.Entry{{ID: 1, Name: "first", Content: "a"}})
	if line := statusText(openModel(t, clean, 160, 30)); strings.Contains(line, "more than one entry") {
		t.Errorf("status line %q warns about a clean file", line)
	}
}
