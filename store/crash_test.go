package store_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/crmem/crmem/store"
)

const crashEntries = 20000

// generation builds n entries that all carry generation gen: a file mixing
// generations would be a torn write.
func generation(gen, n int) []store.Entry {
	out := make([]store.Entry, n)
	for i := range out {
		out[i] = store.Entry{ID: uint64(i + 1), Name: fmt.Sprintf("entry-%05d", i), CreatedAt: 1767265200,
			Content: fmt.Sprintf("gen %d\n%s", gen, strings.Repeat("lorem ipsum ", 8+i%16)),
			Aliases: []string{fmt.Sprintf("g%d-%d", gen, i)}}
	}
	return out
}

// generationOf returns the one generation every entry carries.
func generationOf(entries []store.Entry) (int, error) {
	gen := -1
	for _, e := range entries {
		var g int
		if _, err := fmt.Sscanf(e.Content, "gen %d", &g); err != nil {
			return 0, fmt.Errorf("entry %q: %w", e.Name, err)
		}
		if gen >= 0 && g != gen {
			return 0, fmt.Errorf("mixed generations %d and %d", gen, g)
		}
		gen = g
	}
	return gen, nil
}

// TestCrash_KillDuringSave kills a child that saves a 20k-entry memory in a
// loop at seeded random instants: the file always decodes to one whole
// generation, and leftover temp files are never the data.
func TestCrash_KillDuringSave(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	path := filepath.Join(t.TempDir(), "memory.db")
	if err := os.WriteFile(path, store.Encode(0, generation(0, crashEntries)), 0o600); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	last := 0
	for i := range 20 {
		cmd := helperCmd(t, "save-loop", path)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(20+rng.IntN(150)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		db, err := store.OpenWith(path, store.Options{Index: store.IndexOnDemand})
		if err != nil {
			t.Fatalf("kill %d: %v", i, err)
		}
		if db.Memory().Len() != crashEntries {
			t.Fatalf("kill %d: %d entries", i, db.Memory().Len())
		}
		gen, err := generationOf(db.Memory().Entries())
		if err != nil {
			t.Fatalf("kill %d: %v", i, err)
		}
		if gen < last {
			t.Fatalf("kill %d: generation went back from %d to %d", i, last, gen)
		}
		last = gen
	}
	if last == 0 {
		t.Fatal("the child never completed a save: the test proved nothing")
	}
	t.Logf("reached generation %d", last)
	// The next save sweeps leftover temp files.
	db, err := store.OpenWith(path, store.Options{Index: store.IndexOnDemand})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Apply(store.Add{Name: "after"}); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if want := []string{".memory.db.crmem.lock", "memory.db"}; !slices.Equal(got, want) {
		t.Errorf("directory holds %v, want %v", got, want)
	}
}
