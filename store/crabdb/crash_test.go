package crabdb

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/store"
)

// helperEnv selects a child-process role when the test binary re-executes
// itself (the helper-process pattern, as store's crash tests).
const helperEnv = "CRMEM_CRABDB_HELPER"

// crashNames are the entries the crash test's writer rewrites, all in
// one Apply, each carrying the generation number.
var crashNames = []string{"crash-0", "crash-1", "crash-2", "crash-3", "crash-4"}

// crashContent is entry i's content in generation gen: its words change
// with the generation, so its index records do too.
func crashContent(gen, i int) string {
	return fmt.Sprintf("gen %d\nword%d-%d and text%d %s", gen, gen, i, gen%7, strings.Repeat(fmt.Sprintf("filler%d ", gen%13), 20+i))
}

// TestHelperProcess is not a test: it is the child side of the crash
// test, and returns at once in a normal run.
func TestHelperProcess(t *testing.T) {
	if os.Getenv(helperEnv) != "write-loop" {
		return
	}
	if err := helperWriteLoop(os.Getenv("CRMEM_HELPER_PATH")); err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// helperWriteLoop rewrites the crash entries with the next generation,
// one Apply (one append) at a time, forever; each append is written in
// small pieces with a pause between, so that a kill lands inside one.
func helperWriteLoop(path string) error {
	db, err := OpenDB(path, store.Options{Guard: passGuard, Index: store.IndexOnDemand})
	if err != nil {
		return err
	}
	db.Backend().(*Source).f.hooks = appendHooks{split: 61, pause: 50 * time.Microsecond}
	fmt.Println("opened")
	for {
		gen, err := memoryGeneration(db.Memory())
		if err != nil {
			return err
		}
		var ops []store.Op
		for i, n := range crashNames {
			ops = append(ops, store.Write{Name: n, Content: crashContent(gen+1, i)})
		}
		if _, err := db.Apply(ops...); err != nil {
			return err
		}
		fmt.Println("saved", gen+1)
	}
}

// memoryGeneration is the one generation the crash entries carry.
func memoryGeneration(m *store.Memory) (int, error) {
	gen := -1
	for _, n := range crashNames {
		e, ok := m.Lookup(n)
		if !ok {
			return 0, fmt.Errorf("no %s", n)
		}
		var g int
		if _, err := fmt.Sscanf(e.Content, "gen %d", &g); err != nil {
			return 0, err
		}
		if gen >= 0 && g != gen {
			return 0, fmt.Errorf("mixed generations %d and %d", gen, g)
		}
		gen = g
	}
	return gen, nil
}

// TestCrash_KillDuringAppend kills a child that appends to a store in a
// loop at 112 seeded random instants, most of them inside an append (its
// writes in 61-byte pieces, the reserve's too, so that a kill cuts them
// short). After each kill the store, read by crmem's reader, holds one
// whole generation (the old state or the new, never a mix), not older than
// before, with its index agreeing with its entries; and crabtalk, writing
// next as crabdb does (crabtalkAfterKill, on a copy), leaves a store its
// reader opens, with its entry. The next child's start repairs what the
// kill left. At the end nothing is left beside the store.
//
// The kills run as four chains of 28, each on its own store, side by side:
// a kill waits for the child's appends (some 200 ms each: their syncs and
// the pauses between their pieces), so one chain of 110 kept the package's
// test binary waiting 26 s, using a tenth of a core.
func TestCrash_KillDuringAppend(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	const chains, kills = 4, 28
	var (
		mu        sync.Mutex
		wg        sync.WaitGroup
		tornKills int
	)
	for c := range chains {
		// Subtests run from goroutines, not t.Parallel: all four at once
		// whatever -parallel is (they use little CPU).
		wg.Go(func() {
			t.Run(fmt.Sprintf("chain=%d", c), func(t *testing.T) {
				torn := killDuringAppend(t, uint64(31+c), kills)
				mu.Lock()
				tornKills += torn
				mu.Unlock()
			})
		})
	}
	wg.Wait()
	if !t.Failed() && tornKills == 0 {
		t.Error("no kill landed inside an append: the test proves nothing")
	}
}

// killDuringAppend is one chain of TestCrash_KillDuringAppend: kills
// children appending to a fresh store at instants drawn from seed, checks
// the store after each, and says how many kills landed inside an append.
func killDuringAppend(t *testing.T, seed uint64, kills int) (tornKills int) {
	dir := t.TempDir()
	path := copyBefore(t, dir, "store.crmem")
	db, err := OpenDB(path, store.Options{Guard: passGuard})
	if err != nil {
		t.Fatal(err)
	}
	var ops []store.Op
	for i, n := range crashNames {
		ops = append(ops, store.Add{Name: n, Content: crashContent(0, i)})
	}
	if _, err := db.Apply(ops...); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, seed))
	child := startWriter(t, path)
	child.next(t)
	start := time.Now()
	child.next(t)
	child.next(t)
	perSave := time.Since(start) / 2
	child.kill()
	last, _ := checkCrashStore(t, path, 0, -1)
	for i := range kills {
		child := startWriter(t, path)
		child.next(t) // opened: from here on, appends follow back to back
		time.Sleep(time.Duration(rng.Int64N(int64(2 * perSave))))
		child.kill()
		var torn bool
		last, torn = checkCrashStore(t, path, last, i)
		if _, err := os.Stat(IntentPath(path)); err == nil {
			torn = true // stopped inside an append: the reserve, whole or not, or past it
		}
		crabtalkAfterKill(t, path, i)
		if torn {
			tornKills++
		}
	}
	t.Logf("%d kills (one append ≈ %v): %d landed inside crmem's append (its note left; the next write rolls it back), reached generation %d", kills, perSave, tornKills, last)
	// One more write rolls back what the last kill left, and removes the note.
	db, err = OpenDB(path, store.Options{Guard: passGuard})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Apply(store.Write{Name: crashNames[0], Content: crashContent(last, 0) + " after"}); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil || len(f.Store().Warnings()) > 0 {
		t.Fatalf("after the last write: %v %q", err, f.Store().Warnings())
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{"store.crmem"}; !slices.Equal(names, want) {
		t.Errorf("folder holds %v, want %v", names, want)
	}
	return tornKills
}

// crabtalkAfterKill lets crabtalk write to a copy of the store a kill
// left, as crabdb does (from its append position, over what lies there,
// never cutting): crabtalk's reader must then open the copy and hold
// crabtalk's entry beside one whole generation.
func crabtalkAfterKill(t *testing.T, path string, kill int) {
	t.Helper()
	data, err := os.ReadFile(path)
	must(t, err)
	cp := filepath.Join(t.TempDir(), "store.crmem")
	must(t, os.WriteFile(cp, data, 0o600))
	crabs := Entry{Name: "crab-new", Kind: "note", Content: fmt.Sprintf("the daemon after kill %d", kill), CreatedAt: "2026-02-02T00:00:00+00:00"}
	if err := crabtalkAppends(t, cp, crabs); err != nil {
		t.Fatalf("kill %d: crabtalk cannot open the store: %v", kill, err)
	}
	crabtalkReads(t, cp, map[string]string{crabs.Name: crabs.Content})
	checkCrashStore(t, cp, 0, kill)
}

// writer is a child process appending in a loop; it prints a line after
// opening and after every append.
type writer struct {
	cmd   *exec.Cmd
	lines *bufio.Scanner
}

func startWriter(t *testing.T, path string) *writer {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperEnv+"=write-loop", "CRMEM_HELPER_PATH="+path)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return &writer{cmd: cmd, lines: bufio.NewScanner(out)}
}

func (w *writer) next(t *testing.T) {
	t.Helper()
	if !w.lines.Scan() {
		w.kill()
		t.Fatal("writer child exited")
	}
}

func (w *writer) kill() {
	w.cmd.Process.Signal(syscall.SIGKILL)
	w.cmd.Wait()
}

// checkCrashStore reads the store after a kill, as crmem's reader (and so
// crabtalk's, which stops at the same torn record) reads it: one whole
// generation, not older than last, every crash entry's index document the
// terms of its text. torn says the kill left a torn tail.
func checkCrashStore(t *testing.T, path string, last, kill int) (gen int, torn bool) {
	t.Helper()
	f, err := Open(path)
	if err != nil {
		t.Fatalf("kill %d: %v", kill, err)
	}
	s := f.Store()
	for _, w := range s.Warnings() {
		if !strings.HasPrefix(w, tornWarning) {
			t.Fatalf("kill %d: warning %q", kill, w)
		}
		torn = true
	}
	entries, problems := s.Entries()
	if len(problems) > 0 {
		t.Fatalf("kill %d: %v", kill, problems)
	}
	gen = -1
	for _, e := range entries {
		if !strings.HasPrefix(e.Name, "crash-") {
			continue
		}
		var g int
		fmt.Sscanf(e.Content, "gen %d", &g)
		if gen >= 0 && g != gen {
			t.Fatalf("kill %d: mixed generations %d and %d", kill, gen, g)
		}
		gen = g
		d, err := s.Doc(e.Key)
		if err != nil {
			t.Fatal(err)
		}
		want := bm25.Tokenize(e.Content)
		slices.Sort(want)
		if !slices.Equal(d.Terms, slices.Compact(want)) {
			t.Fatalf("kill %d: %s's index document does not match its content", kill, e.Name)
		}
	}
	if gen < last {
		t.Fatalf("kill %d: generation went back from %d to %d", kill, last, gen)
	}
	return gen, torn
}

// TestRecover, on notes of the two-write append crmem made before the
// reserve (a note without a scheme): a note whose append is whole is
// dropped and the store kept; one whose append was cut before its head
// was written (the zeros it left) has its bytes cut off (crmem's own
// half-written tail); bytes that another writer's record left undecodable
// or torn inside crmem's room are cut at the first that does not decode,
// so crabtalk reads the store whole; a stale note (the header changed: a
// compaction since) leaves the file alone. The note is dropped each time,
// and while it is there it is said in the reader's warnings.
func TestRecover(t *testing.T) {
	for _, tc := range []struct {
		name      string
		cut       int  // bytes of the append left off the file
		stale     bool // the header changed since the note
		wantBytes func(before, full int) int
		rolled    bool
	}{
		{"whole", 0, false, func(_, full int) int { return full }, false},
		{"head written, rest short", 5, false, nil, true}, // the last record torn inside crmem's room: cut
		{"stale", 5, true, func(_, full int) int { return full - 5 }, false},
		{"head still zeros", -1, false, func(before, _ int) int { return before }, true},
		{"crabtalk wrote since", -2, false, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := copyBefore(t, t.TempDir(), "store.crmem")
			f, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			before := int(f.Store().Size())
			b := f.Store().NewBatch()
			if err := b.PutMemory(Entry{Name: "n", Kind: "note", Content: "some words", CreatedAt: "2026-01-01T00:00:00+00:00"}); err != nil {
				t.Fatal(err)
			}
			data := b.Bytes()
			head := f.head
			if tc.stale {
				head = append([]byte{}, head...)
				head[20]++
			}
			sum := sha256.Sum256(data)
			if err := writeIntent(path, intent{Offset: int64(before), Length: int64(len(data)), SHA256: hex.EncodeToString(sum[:]), Header: hex.EncodeToString(head)}); err != nil {
				t.Fatal(err)
			}
			all, _ := os.ReadFile(path)
			tail := data
			switch tc.cut {
			case -1: // killed between the body and the head
				tail = append(make([]byte, recordHead), data[recordHead:len(data)-5]...)
			case -2: // then crabtalk wrote a record of its own over the head
				tail = append(make([]byte, recordHead), data[recordHead:len(data)-5]...)
				copy(tail, data[:recordHead])
				tail[2]++ // another key length: not our head
			default:
				tail = data[:len(data)-tc.cut]
			}
			must(t, os.WriteFile(path, append(all, tail...), 0o600))
			if w := intentWarning(path); !strings.Contains(w, "cut short") {
				t.Errorf("warning %q does not say the write was cut short", w)
			}
			rolled, err := recoverAppend(path)
			if err != nil || rolled != tc.rolled {
				t.Fatalf("recoverAppend = %v, %v; want %v", rolled, err, tc.rolled)
			}
			if tc.wantBytes == nil {
				got, _ := os.ReadFile(path)
				if s, err := Read(got); err != nil || len(s.Warnings()) > 0 || len(got) < before {
					t.Errorf("after recoverAppend: %d bytes (before %d), %v, %q", len(got), before, err, s.Warnings())
				}
			} else if n := int(fileSize(t, path)); n != tc.wantBytes(before, before+len(data)) {
				t.Errorf("%d bytes, want %d", n, tc.wantBytes(before, before+len(data)))
			}
			if _, err := os.Stat(IntentPath(path)); !os.IsNotExist(err) {
				t.Errorf("note left: %v", err)
			}
		})
	}
}

// must fails the test on err.
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestRecover_WritableAfterCrash: a store crmem's own append left half
// written (killed between the two writes of crmem before the reserve) is
// repaired when crmem next opens it, and is writable: the screen offers
// writes (Features().Writer), the warning says what was repaired, and the
// next write appends where the half append was.
func TestRecover_WritableAfterCrash(t *testing.T) {
	path := copyBefore(t, t.TempDir(), "store.crmem")
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	before := f.Store().Size()
	b := f.Store().NewBatch()
	if err := b.PutMemory(Entry{Name: "n", Kind: "note", Content: "some words"}); err != nil {
		t.Fatal(err)
	}
	data := b.Bytes()
	sum := sha256.Sum256(data)
	must(t, writeIntent(path, intent{Offset: before, Length: int64(len(data)), SHA256: hex.EncodeToString(sum[:]), Header: hex.EncodeToString(f.head)}))
	all, _ := os.ReadFile(path)
	must(t, os.WriteFile(path, append(all, append(make([]byte, recordHead), data[recordHead:len(data)/2]...)...), 0o600))
	db, err := OpenDB(path, store.Options{Guard: passGuard})
	if err != nil {
		t.Fatal(err)
	}
	if ft := db.Features(); ft.Writer == nil || !slices.ContainsFunc(ft.Warnings, func(w string) bool { return strings.Contains(w, "legacy; repaired") }) {
		t.Fatalf("writer %v, warnings %q", ft.Writer, ft.Warnings)
	}
	if _, err := db.Apply(store.Remove{Name: "scratch"}); err != nil {
		t.Fatal(err)
	}
	g, err := Open(path)
	if err != nil || len(g.Store().Warnings()) > 0 {
		t.Fatalf("%v %q", err, g.Store().Warnings())
	}
	got, _ := os.ReadFile(path)
	if !bytes.Equal(got[:before], all) || got[before] == 0 {
		t.Error("the half append was not rolled back before the write")
	}
	if _, ok := g.Store().Get(ColMemory, MemoryKey("n")); ok {
		t.Error("the half-written entry is in the store")
	}
}
