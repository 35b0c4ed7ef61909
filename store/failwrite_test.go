package store_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/crmem/crmem/store"
)

// dirNames lists a folder's names.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, de := range des {
		out = append(out, de.Name())
	}
	return out
}

// TestApply_FailedWriteLeavesNothing: a temp file write that fails half way
// (a full disk) leaves no temp file, and the old file as it was. After a
// successful write the folder holds the memory file alone: no temp file,
// no lock file.
func TestApply_FailedWriteLeavesNothing(t *testing.T) {
	path := writeDB(t, 2, note(1, "a", "x"))
	before, _ := os.ReadFile(path)
	db := openDB(t, path)
	store.SetWriteFailure(db, syscall.ENOSPC)
	_, err := db.Apply(store.Add{Name: "b", Content: "y"})
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("error %v, want ENOSPC", err)
	}
	// The message names the memory file once, never the temp file.
	if msg := err.Error(); strings.Count(msg, filepath.Dir(path)) != 1 || strings.Contains(msg, ".tmp") || !strings.Contains(msg, "(the file is unchanged)") {
		t.Errorf("message %q: want the path once, no temp file, and that the file is unchanged", msg)
	}
	if got := dirNames(t, filepath.Dir(path)); !slices.Equal(got, []string{"memory.db"}) {
		t.Errorf("after a failed write the folder holds %v", got)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("the old file changed")
	}
	store.SetWriteFailure(db, nil)
	dbApply(t, db, store.Add{Name: "b", Content: "y"})
	if got := dirNames(t, filepath.Dir(path)); !slices.Equal(got, []string{"memory.db"}) {
		t.Errorf("after a write the folder holds %v", got)
	}
}

// TestApply_FailedWriteCreatesNoFolder: a write to a path whose folders do
// not exist creates them only if it succeeds.
func TestApply_FailedWriteCreatesNoFolder(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "a", "b", "memory.db")
	db := openDB(t, path)
	if _, err := db.Apply(store.Remove{Name: "nothing"}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("error %v, want ErrNotFound", err)
	}
	if got := dirNames(t, root); len(got) != 0 {
		t.Errorf("a failed op created %v", got)
	}
	store.SetWriteFailure(db, syscall.ENOSPC)
	if _, err := db.Apply(store.Add{Name: "x"}); err == nil {
		t.Fatal("a failing write succeeded")
	}
	if got := dirNames(t, root); len(got) != 0 {
		t.Errorf("a failed write created %v", got)
	}
	store.SetWriteFailure(db, nil)
	dbApply(t, db, store.Add{Name: "x"})
	if got := dirNames(t, filepath.Dir(path)); !slices.Equal(got, []string{"memory.db"}) {
		t.Errorf("after a write the folder holds %v", got)
	}
}

// TestApply_NoChangeCreatesNoFolder: ops that change nothing on a missing
// file (a load of an empty tree) write nothing, so they leave no folder
// either: a missing file already is the empty memory they describe.
func TestApply_NoChangeCreatesNoFolder(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "a", "b", "memory.db")
	db := openDB(t, path)
	dbApply(t, db, store.Replace{})
	if got := dirNames(t, root); len(got) != 0 {
		t.Errorf("a write that changed nothing created %v", got)
	}
	if db.Exists() {
		t.Error("the DB says the file exists")
	}
}

// TestApply_FullDisk fills a small tmpfs: the write fails with "no space",
// leaves no temp file and the old file intact. It needs root (to mount).
func TestApply_FullDisk(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a small tmpfs needs root")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	path := filepath.Join(dir, "memory.db")
	if err := os.WriteFile(path, store.Encode(2, []store.Entry{note(1, "a", strings.Repeat("x", 20<<10))}), 0o600); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	db := openDB(t, path)
	_, err := db.Apply(store.Add{Name: "big", Content: strings.Repeat("y", 60<<10)})
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("error %v, want no space left", err)
	}
	if got := dirNames(t, dir); !slices.Equal(got, []string{"memory.db"}) {
		t.Errorf("after a full disk the folder holds %v", got)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("the old file changed")
	}
}
