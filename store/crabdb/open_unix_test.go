//go:build unix

package crabdb

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/crmem/crmem/store"
)

// TestReadFile_OnlyRegularFiles: opening a FIFO or a folder at the path fails at
// once with store.ErrNotRegular (the store's own check, shared), and a
// reload of a store replaced by a FIFO fails the same way, never hangs.
func TestReadFile_OnlyRegularFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "store.crmem")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v (no FIFOs here)", err)
	}
	for _, p := range []string{fifo, dir} {
		if _, err := Open(p); !errors.Is(err, store.ErrNotRegular) {
			t.Errorf("Open(%s): %v, want ErrNotRegular", p, err)
		}
		if IsStore(p) {
			t.Errorf("IsStore(%s) is true", p)
		}
	}
	data, err := os.ReadFile(filepath.Join(refDir, "empty.crmem"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "real.crmem")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(fifo, path); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Reload(); !errors.Is(err, store.ErrNotRegular) {
		t.Errorf("Reload of a FIFO: %v, want ErrNotRegular", err)
	}
}
