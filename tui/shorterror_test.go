package tui

import (
	"io/fs"
	"testing"

	"github.com/crmem/crmem/store"
)

// TestShortError_NamesTheFileNowhere: the status line's reason drops
// every layer naming the memory file, as the CLI's does (store.Cause):
// a store error around the open's *fs.PathError no longer repeats the
// path.
func TestShortError_NamesTheFileNowhere(t *testing.T) {
	m := &Model{path: "/m/memory.db"}
	err := &store.PathError{Path: m.path, Err: &fs.PathError{Op: "open", Path: m.path, Err: fs.ErrPermission}}
	if got := m.shortError(err); got != "permission denied" {
		t.Errorf("shortError = %q, want %q", got, "permission denied")
	}
}
