package hygiene

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

// TestNotDuplicatesConcurrentSaves: writers that each loaded the file
// before any saved keep every pair: Save applies each one's change to the
// file as it is under the folder's lock.
func TestNotDuplicatesConcurrentSaves(t *testing.T) {
	path := NotDuplicatesPath(filepath.Join(t.TempDir(), "memory.db"))
	const writers = 12
	loaded := make([]*NotDuplicates, writers)
	for i := range loaded {
		n, err := LoadNotDuplicates(path)
		if err != nil {
			t.Fatal(err)
		}
		n.Add("a", fmt.Sprintf("b%02d", i))
		loaded[i] = n
	}
	var wg sync.WaitGroup
	errs := make([]error, writers)
	for i, n := range loaded {
		wg.Go(func() { errs[i] = n.Save() })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	n, err := LoadNotDuplicates(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(n.Pairs()); got != writers {
		t.Fatalf("%d pairs kept of %d: %v", got, writers, n.Pairs())
	}
	// A removal saved on a stale copy removes only its own pair.
	stale := loaded[0]
	stale.Remove("a", "b00")
	if err := stale.Save(); err != nil {
		t.Fatal(err)
	}
	if n, _ = LoadNotDuplicates(path); len(n.Pairs()) != writers-1 || n.Has("a", "b00") {
		t.Fatalf("after a removal: %v", n.Pairs())
	}
}

// TestNotDuplicatesSaveKeepsFile: a save keeps the file's mode, writes
// through a link, and removes the temp files a killed writer left (this
// version's and the older os.CreateTemp names), nothing else.
func TestNotDuplicatesSaveKeepsFile(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "kept.toml")
	path := NotDuplicatesPath(filepath.Join(dir, "memory.db"))
	if err := os.WriteFile(real, []byte("pairs = [[\"x\", \"y\"]]\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(real, 0o640); err != nil { // whatever the umask
		t.Fatal(err)
	}
	if err := os.Symlink("kept.toml", path); err != nil {
		t.Fatal(err)
	}
	base := filepath.Base(path)
	leftovers := []string{"." + base + ".123456789", ".kept.toml.crmem-0011223344556677.tmp"}
	keep := []string{"." + base + ".notes", "other.toml"}
	for _, name := range append(slices.Clone(leftovers), keep...) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	n, err := LoadNotDuplicates(path)
	if err != nil {
		t.Fatal(err)
	}
	n.Add("a", "b")
	if err := n.Save(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", fi, err)
	}
	fi, err := os.Stat(real)
	if err != nil || fi.Mode().Perm() != 0o640 {
		t.Fatalf("mode %v (%v), want 0640", fi.Mode().Perm(), err)
	}
	if n, _ := LoadNotDuplicates(real); !n.Has("x", "y") || !n.Has("a", "b") {
		t.Fatalf("pairs %v", n.Pairs())
	}
	for _, name := range leftovers {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			t.Errorf("leftover temp file %s not removed", name)
		}
	}
	for _, name := range keep {
		if _, err := os.Lstat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s removed: %v", name, err)
		}
	}
}

// Pairs returns the pairs, each in name order, sorted.
func (n *NotDuplicates) Pairs() [][2]string {
	if n == nil {
		return nil
	}
	return slices.Clone(n.pairs)
}
