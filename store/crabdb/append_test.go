package crabdb

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/store"
)

// crabtalkAppends does what crabtalk's daemon does to the store at path
// when it next starts and remembers an entry (lib/crabdb/src/db.rs,
// open_with then append): it reads the store as crabdb does (from the
// snapshot, stopping at a torn record: the append position is the last
// clean record boundary; an unknown op is a refusal to open), and writes
// its records at that position over whatever lies there, without cutting
// the file.
func crabtalkAppends(t *testing.T, path string, e Entry) error {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Read(data)
	if err != nil {
		return err // CrabDb::open fails: the daemon does not start
	}
	b := s.NewBatch()
	if err := b.PutMemory(e); err != nil {
		t.Fatal(err)
	}
	fh, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	if _, err := fh.WriteAt(b.Bytes(), s.End()); err != nil {
		t.Fatal(err)
	}
	return nil
}

// crabtalkReads reads the store as crabtalk's reader does and checks what
// item 1 of issue 38 asks of it: it opens (no unknown op), every memory
// entry has its index document, that of each entry of want is the terms of
// its text, and it holds the entries of want (name → content; "" must be
// absent).
func crabtalkReads(t *testing.T, path string, want map[string]string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Read(data)
	if err != nil {
		t.Fatalf("crabtalk's reader refuses the store: %v", err)
	}
	entries, problems := s.Entries()
	if len(problems) > 0 {
		t.Fatalf("entries: %v", problems)
	}
	got := map[string]string{}
	for _, e := range entries {
		got[e.Name] = e.Content
		d, err := s.Doc(e.Key)
		if err != nil {
			t.Fatalf("%s's index document: %v", e.Name, err)
		}
		if _, ok := want[e.Name]; !ok {
			continue // the fixture's own (crabtalk's tokenizer made their documents)
		}
		terms := bm25.Tokenize(e.Content)
		slices.Sort(terms)
		if !slices.Equal(d.Terms, slices.Compact(terms)) {
			t.Fatalf("%s's index document does not match its content", e.Name)
		}
	}
	if _, _, err := s.Stats(); err != nil {
		t.Fatalf("index stats: %v", err)
	}
	for name, content := range want {
		if got[name] != content {
			t.Fatalf("%s holds %q, want %q", name, got[name], content)
		}
	}
}

// stoppedAppend appends an entry "n" to a copy of the fixture store in
// dir and stops the append after step (0: not stopped). It returns the
// store's path, its bytes before and the batch's bytes.
func stoppedAppend(t *testing.T, dir string, step int) (path string, before, batch []byte) {
	t.Helper()
	path = copyBefore(t, dir, "store.crmem")
	before, _ = os.ReadFile(path)
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	f.hooks.stopAfter = step
	b := f.Store().NewBatch()
	must(t, b.PutMemory(Entry{Name: "n", Kind: "note", Content: "crmem wrote this, long enough to matter " + strings.Repeat("word ", 40), CreatedAt: "2026-01-01T00:00:00+00:00"}))
	if err := f.Append(b); step != 0 && !errors.Is(err, errStopped) || step == 0 && err != nil {
		t.Fatalf("Append: %v", err)
	}
	return path, before, b.Bytes()
}

// TestAppend_KilledAtEachStepThenCrabtalk stops crmem's append after each
// of its steps (as a kill there would), and also inside its two large
// writes (the reserve cut short, the fill cut short), then lets crabtalk
// write as crabdb does (overwriting from its append position, never
// truncating): crabtalk's reader then opens the store, its index matches
// its entries, and it holds crabtalk's entry and either the old state of
// crmem's write or the new, nothing between. A crmem start after that
// (recoverAppend) keeps all of it and leaves the store as crabtalk reads it;
// where crabtalk did not write, recoverAppend leaves the old state or the new
// and the file as crabtalk's own code would have written it.
func TestAppend_KilledAtEachStepThenCrabtalk(t *testing.T) {
	crabs := Entry{Name: "crab-new", Kind: "note", Content: "the daemon remembered this", CreatedAt: "2026-02-02T00:00:00+00:00"}
	type cut struct {
		name string
		step int
		// edit, when set, changes the file after the stop (a write cut
		// short inside: only part of it reached the file).
		edit func(t *testing.T, path string, before, batch []byte)
		// state is "old" or "new": what crmem's write left.
		state string
	}
	tornReserve := func(keep int) func(*testing.T, string, []byte, []byte) {
		return func(t *testing.T, path string, before, batch []byte) {
			must(t, os.Truncate(path, int64(len(before)+keep)))
		}
	}
	tornFill := func(t *testing.T, path string, before, batch []byte) {
		fh, err := os.OpenFile(path, os.O_WRONLY, 0)
		must(t, err)
		defer fh.Close()
		_, err = fh.WriteAt(batch[recordHead:len(batch)/2], int64(len(before)+recordHead))
		must(t, err)
	}
	for _, c := range []cut{
		{"noted", stepNoted, nil, "old"},
		{"reserve cut short at 3", stepReserved, tornReserve(3), "old"},
		{"reserve cut short at 40", stepReserved, tornReserve(40), "old"},
		{"reserve cut short at 300", stepReserved, tornReserve(300), "old"},
		{"reserved", stepReserved, nil, "old"},
		{"fill cut short", stepReserved, tornFill, "old"},
		{"filled", stepFilled, nil, "old"},
		{"switched", stepSwitched, nil, "new"},
		{"trimmed", stepTrimmed, nil, "new"},
		{"done", 0, nil, "new"},
	} {
		want := func(path string, before, batch []byte) map[string]string {
			s, err := Read(append(before, batch...))
			must(t, err)
			v, _ := s.Get(ColMemory, MemoryKey("n"))
			var e Entry
			if c.state == "new" {
				e, err = decodeEntry(MemoryKey("n"), v)
				must(t, err)
			}
			return map[string]string{"n": e.Content}
		}
		t.Run(c.name+"/then crabtalk", func(t *testing.T) {
			path, before, batch := stoppedAppend(t, t.TempDir(), c.step)
			if c.edit != nil {
				c.edit(t, path, before, batch)
			}
			w := want(path, before, batch)
			if err := crabtalkAppends(t, path, crabs); err != nil {
				t.Fatalf("crabtalk cannot open the store crmem left: %v", err)
			}
			w[crabs.Name] = crabs.Content
			crabtalkReads(t, path, w)
			r, err := recoverReport(path)
			must(t, err)
			if r != nil && r.CutAt >= 0 && r.CutAt < int64(len(before)) {
				t.Fatalf("recoverAppend cut into the old store: %v", r)
			}
			crabtalkReads(t, path, w)
			if _, err := os.Stat(IntentPath(path)); err == nil {
				t.Error("the note is left")
			}
			// crabtalk writes again after the crmem start: still whole.
			again := crabs
			again.Name, again.Content = "crab-again", "and this"
			must(t, crabtalkAppends(t, path, again))
			w[again.Name] = again.Content
			crabtalkReads(t, path, w)
		})
		t.Run(c.name+"/then crmem", func(t *testing.T) {
			path, before, batch := stoppedAppend(t, t.TempDir(), c.step)
			if c.edit != nil {
				c.edit(t, path, before, batch)
			}
			w := want(path, before, batch)
			r, err := recoverReport(path)
			must(t, err)
			if c.step != 0 && r == nil {
				t.Fatal("no note")
			}
			if r != nil {
				t.Logf("%v", r)
			}
			got, _ := os.ReadFile(path)
			wantBytes := before
			if c.state == "new" {
				wantBytes = append(slices.Clone(before), batch...)
			}
			if !bytes.Equal(got, wantBytes) {
				t.Fatalf("after recoverAppend: %d bytes, want the %s store's %d bytes", len(got), c.state, len(wantBytes))
			}
			crabtalkReads(t, path, w)
		})
	}
}

// TestAppend_ReserveIsHarmless: the reserve record, the reserve with the
// batch inside its key, and the tail the switch leaves are, to crmem's
// reader as to crabtalk's, deletes of keys nobody has: no warning, no key
// more or less, and crmem's log walk sees them as records of column 0.
func TestAppend_ReserveIsHarmless(t *testing.T) {
	for _, step := range []int{stepReserved, stepFilled, stepSwitched} {
		t.Run(fmt.Sprint(step), func(t *testing.T) {
			path, before, _ := stoppedAppend(t, t.TempDir(), step)
			old, err := Read(before)
			must(t, err)
			f, err := Open(path)
			must(t, err)
			if w := f.Store().Warnings(); len(w) > 0 {
				t.Errorf("warnings %q", w)
			}
			if err := f.Writable(); err != nil {
				t.Errorf("Writable: %v", err)
			}
			if step < stepSwitched && f.Store().Len() != old.Len() {
				t.Errorf("%d keys, want %d", f.Store().Len(), old.Len())
			}
			data, _ := os.ReadFile(path)
			WalkLog(data, func(r LogRecord) bool {
				if r.Offset >= int64(len(before)) && r.Col == ColAgent && r.Op != OpDelete {
					t.Errorf("a column-0 record at %d is not a delete", r.Offset)
				}
				return true
			})
		})
	}
}

// TestAppend_LegacyLeftoverRepaired: the state the two-write append of
// crmem before the reserve left (the batch with its first 6 bytes zeroed,
// then killed), and the same after crabtalk wrote its record over the
// zeros (crabdb then refuses the store: unknown record op), are repaired by
// a crmem start that only reads (RepairAtStart): crabtalk then opens the
// store and holds its own record.
func TestAppend_LegacyLeftoverRepaired(t *testing.T) {
	crabs := Entry{Name: "crab-new", Kind: "note", Content: "the daemon remembered this", CreatedAt: "2026-02-02T00:00:00+00:00"}
	for _, overwritten := range []bool{false, true} {
		t.Run(fmt.Sprint("overwritten=", overwritten), func(t *testing.T) {
			path := copyBefore(t, t.TempDir(), "store.crmem")
			f, err := Open(path)
			must(t, err)
			before, _ := os.ReadFile(path)
			b := f.Store().NewBatch()
			must(t, b.PutMemory(Entry{Name: "n", Kind: "note", Content: "crmem wrote this " + strings.Repeat("filler text ", 300), CreatedAt: "2026-01-01T00:00:00+00:00"}))
			data := b.Bytes()
			sum := sha256.Sum256(data)
			must(t, writeIntent(path, intent{Offset: int64(len(before)), Length: int64(len(data)), SHA256: hex.EncodeToString(sum[:]), Header: fmt.Sprintf("%x", before[:HeaderLen])}))
			legacy := append(make([]byte, recordHead), data[recordHead:len(data)*2/3]...)
			must(t, os.WriteFile(path, append(slices.Clone(before), legacy...), 0o600))
			want := map[string]string{"n": ""}
			if overwritten {
				must(t, crabtalkAppends(t, path, crabs))
				got, _ := os.ReadFile(path)
				if _, err := Read(got); err == nil {
					t.Fatal("the legacy leftover after crabtalk's write reads cleanly: the test proves nothing")
				}
				want[crabs.Name] = crabs.Content
			}
			r, err := RepairAtStart(path, passGuard)
			must(t, err)
			if r == nil || r.CutAt < 0 {
				t.Fatalf("not repaired: %v", r)
			}
			t.Log(r)
			crabtalkReads(t, path, want)
			if _, err := os.Stat(IntentPath(path)); err == nil {
				t.Error("the note is left")
			}
		})
	}
}

// TestAppend_RecheckAfterReserve: where Append holds no write lease (here
// another descriptor of the store is open, so the kernel grants none), it
// runs the guard again once its reserve is synced; a writer found then
// stops the append with the guard's reason, the reserve stays (a harmless
// record, which that writer reads and appends after, or writes over),
// nothing else is written and the note is gone. crabtalk's reader opens
// the store, with the old state and the other writer's record.
func TestAppend_RecheckAfterReserve(t *testing.T) {
	path := copyBefore(t, t.TempDir(), "store.crmem")
	other, err := os.Open(path) // someone has the store open: no lease
	must(t, err)
	defer other.Close()
	before, _ := os.ReadFile(path)
	f, err := Open(path)
	must(t, err)
	var leased bool
	f.hooks.leased = func(l bool) { leased = l }
	daemon := errors.New("crabtalk's daemon started")
	calls := 0
	f.recheck = func() error { calls++; return daemon }
	b := f.Store().NewBatch()
	must(t, b.PutMemory(Entry{Name: "n", Kind: "note", Content: "not written", CreatedAt: "2026-01-01T00:00:00+00:00"}))
	if err := f.Append(b); !errors.Is(err, daemon) {
		t.Fatalf("Append = %v, want the guard's reason", err)
	}
	if leased || calls != 1 {
		t.Fatalf("leased %v, %d re-checks; want no lease and one re-check", leased, calls)
	}
	got, _ := os.ReadFile(path)
	if !bytes.Equal(got, append(slices.Clone(before), reserveRecord(len(b.Bytes()))...)) {
		t.Errorf("the file is not the old store and the reserve (%d bytes, before %d)", len(got), len(before))
	}
	if _, err := os.Stat(IntentPath(path)); err == nil {
		t.Error("the note is left")
	}
	crabs := Entry{Name: "crab-new", Kind: "note", Content: "the daemon remembered this", CreatedAt: "2026-02-02T00:00:00+00:00"}
	must(t, crabtalkAppends(t, path, crabs))
	crabtalkReads(t, path, map[string]string{"n": "", crabs.Name: crabs.Content})
}

// TestAppend_NoLeaseKeepsTheTailWhenSomeoneWrites: without a write lease,
// the guard runs once more just before the trim; when it finds another
// writer then, the append is whole and the harmless 10-byte delete it
// leaves after the batch stays (a writer that read it would otherwise
// leave a hole of zeros past the cut), and crabtalk reads the new state.
func TestAppend_NoLeaseKeepsTheTailWhenSomeoneWrites(t *testing.T) {
	path := copyBefore(t, t.TempDir(), "store.crmem")
	other, err := os.Open(path) // someone has the store open: no lease
	must(t, err)
	defer other.Close()
	before, _ := os.ReadFile(path)
	f, err := Open(path)
	must(t, err)
	calls := 0
	f.recheck = func() error {
		if calls++; calls == 2 {
			return errors.New("someone opened the store for writing")
		}
		return nil
	}
	b := f.Store().NewBatch()
	must(t, b.PutMemory(Entry{Name: "n", Kind: "note", Content: "written", CreatedAt: "2026-01-01T00:00:00+00:00"}))
	must(t, f.Append(b))
	got, _ := os.ReadFile(path)
	if want := append(append(slices.Clone(before), b.Bytes()...), deleteTail...); !bytes.Equal(got, want) || calls != 2 {
		t.Fatalf("%d bytes after %d checks, want the store, the batch and the 10-byte delete (%d) after 2", len(got), calls, len(want))
	}
	if _, ok := f.Store().Get(ColMemory, MemoryKey("n")); !ok {
		t.Error("the store as read does not hold the entry")
	}
	crabtalkReads(t, path, map[string]string{"n": "written"})
}

// TestRepairAtStart_LockTaken: a start that finds the note while another
// crmem holds the folder's lock (appending now, its note its own) waits
// for it a while, then leaves the file alone and says what the note
// stands for.
func TestRepairAtStart_LockTaken(t *testing.T) {
	path, before, _ := stoppedAppend(t, t.TempDir(), stepReserved)
	unlock, err := store.LockDir(filepath.Dir(path), 0)
	must(t, err)
	defer unlock()
	data, _ := os.ReadFile(path)
	r, err := RepairAtStart(path, passGuard)
	must(t, err)
	if r == nil || !r.Busy || r.CutAt != int64(len(before)) || !strings.Contains(r.String(), "reserved (another crmem holds the folder's lock") {
		t.Fatalf("RepairAtStart = %v", r)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, data) {
		t.Error("the file changed")
	}
	if _, err := os.Stat(IntentPath(path)); err != nil {
		t.Error("the note is gone")
	}
}

// TestRepairAtStart_HeldWhileSomeoneWrites: a start whose guard fails
// (crabtalk's daemon has the store open, its append position in memory)
// cuts nothing, says why, and keeps the note for a later start; so does
// one with no guard at all. A start whose guard passes then repairs.
func TestRepairAtStart_HeldWhileSomeoneWrites(t *testing.T) {
	path, before, _ := stoppedAppend(t, t.TempDir(), stepSwitched)
	data, _ := os.ReadFile(path)
	daemon := func(string) (string, error) {
		return "", errors.New("store.crmem is open for writing in crabtalkd (pid 4242)")
	}
	for _, guard := range []store.Guard{daemon, nil} {
		r, err := RepairAtStart(path, guard)
		must(t, err)
		if r == nil || r.Held == "" || !strings.Contains(r.String(), "switched; left as it is") {
			t.Fatalf("RepairAtStart = %v", r)
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, data) {
			t.Fatal("the file changed")
		}
	}
	r, err := RepairAtStart(path, passGuard)
	must(t, err)
	if r == nil || r.CutAt != int64(len(data)-len(deleteTail)) || r.Held != "" {
		t.Fatalf("RepairAtStart = %v", r)
	}
	if _, err := os.Stat(IntentPath(path)); err == nil {
		t.Error("the note is left")
	}
	if got, _ := os.ReadFile(path); len(got) != len(data)-len(deleteTail) || !bytes.HasPrefix(got, before) {
		t.Errorf("%d bytes, want %d", len(got), len(data)-len(deleteTail))
	}
}

// TestRepairAtStart_NoteCutShortIsRemoved: a crmem killed as it created
// its note (an empty note, or one cut short: seen in the oracle's kill
// matrix, SIGQUIT at an openat) wrote nothing to the store; the next start
// removes the note, says so, and leaves the store as it is, where it was
// left beside the store until the next crmem write.
func TestRepairAtStart_NoteCutShortIsRemoved(t *testing.T) {
	for _, note := range []string{"", `{"offset":1107`} {
		dir := t.TempDir()
		path := filepath.Join(dir, "store.crmem")
		before, err := os.ReadFile(filepath.Join(writesDir, "before.crmem"))
		must(t, err)
		must(t, os.WriteFile(path, before, 0o600))
		must(t, os.WriteFile(IntentPath(path), []byte(note), 0o600))
		r, err := RepairAtStart(path, passGuard)
		must(t, err)
		if r == nil || r.CutAt >= 0 || !strings.Contains(r.String(), "removed") {
			t.Fatalf("note %q: RepairAtStart = %v", note, r)
		}
		if _, err := os.Stat(IntentPath(path)); err == nil {
			t.Errorf("note %q: the note is left", note)
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, before) {
			t.Errorf("note %q: the store changed", note)
		}
		crabtalkReads(t, path, nil)
	}
}
