package store_test

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
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
	// Calibrate: how long does one save take on this machine, now?
	child := startSaver(t, path)
	child.next(t) // opened
	start := time.Now()
	child.next(t)
	child.next(t)
	perSave := time.Since(start) / 2
	child.kill()
	last := checkGeneration(t, path, 0, -1)
	for i := range 20 {
		child := startSaver(t, path)
		child.next(t) // opened: from here on, saves follow back to back
		time.Sleep(time.Duration(rng.Int64N(int64(2 * perSave))))
		child.kill()
		last = checkGeneration(t, path, last, i)
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
	if want := []string{"memory.db"}; !slices.Equal(got, want) {
		t.Errorf("directory holds %v, want %v", got, want)
	}
}

// saver is a child process saving in a loop; it prints a line after opening
// and after every save.
type saver struct {
	cmd   *exec.Cmd
	lines *bufio.Scanner
}

func startSaver(t *testing.T, path string) *saver {
	t.Helper()
	cmd := helperCmd(t, "save-loop", path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return &saver{cmd: cmd, lines: bufio.NewScanner(out)}
}

func (s *saver) next(t *testing.T) {
	t.Helper()
	if !s.lines.Scan() {
		s.kill()
		t.Fatal("saver child exited")
	}
}

func (s *saver) kill() {
	s.cmd.Process.Signal(syscall.SIGKILL)
	s.cmd.Wait()
}

// checkGeneration opens the file after a kill: it must hold one whole
// generation, not older than the last one seen.
func checkGeneration(t *testing.T, path string, last, kill int) int {
	t.Helper()
	db, err := store.OpenWith(path, store.Options{Index: store.IndexOnDemand})
	if err != nil {
		t.Fatalf("kill %d: %v", kill, err)
	}
	if db.Memory().Len() != crashEntries {
		t.Fatalf("kill %d: %d entries", kill, db.Memory().Len())
	}
	gen, err := generationOf(db.Memory().Entries())
	if err != nil {
		t.Fatalf("kill %d: %v", kill, err)
	}
	if gen < last {
		t.Fatalf("kill %d: generation went back from %d to %d", kill, last, gen)
	}
	return gen
}
