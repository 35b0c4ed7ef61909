package store

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"testing"
	"time"
)

// TestReloadV1_ByDifferenceIsAWholeReload: a v1 file the agent rewrites
// (adds, edits of content and aliases, renames, removes, several at once;
// a file with one id twice, trailing bytes, or bytes that do not decode;
// a write of the reader's own) is reloaded by difference exactly as a
// whole reload does it: the same diff, entries, next id, search hits and
// lookups, as a DB that decodes and syncs the whole file and as a fresh
// open. Most reloads went by difference.
func TestReloadV1_ByDifferenceIsAWholeReload(t *testing.T) {
	words := []string{"deploy", "pool", "alpha", "beta", "gamma", "notes", "café", "日本"}
	r := rand.New(rand.NewPCG(5, 8))
	text := func() string { return words[r.IntN(len(words))] + " " + words[r.IntN(len(words))] }
	path := filepath.Join(t.TempDir(), "memory.db")
	agent, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 50 {
		if _, err := agent.Apply(Add{Name: fmt.Sprintf("n%d", i), Content: text(), Kind: Kinds[r.IntN(3)]}); err != nil {
			t.Fatal(err)
		}
	}
	reader, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	byDifference, errs := 0, 0
	restore := false // put the agent's file back, for its next write
	for round := range 60 {
		if restore {
			writeFile(t, path, Encode(agent.Memory().NextID(), agent.Memory().Entries()))
		}
		own, odd := false, false
		switch k := r.IntN(20); {
		case k == 0: // one id twice: read whole
			odd = true
			es := agent.Memory().Entries()
			es = append(es, Entry{ID: es[0].ID, Name: "shadow", Content: text()})
			writeFile(t, path, Encode(agent.Memory().NextID(), es))
		case k == 1: // trailing bytes: read whole
			odd = true
			writeFile(t, path, append(Encode(agent.Memory().NextID(), agent.Memory().Entries()), 0, 0, 0))
		case k == 2: // a file cut short: the reload fails, as a whole one does
			odd = true
			data, _ := os.ReadFile(path)
			writeFile(t, path, data[:len(data)-3])
		case k == 3: // the reader's own write (its memory has it: no diff)
			own = true
			if _, err := reader.Apply(Add{Name: fmt.Sprintf("own%d", round), Content: text()}); err != nil {
				t.Fatal(err)
			}
		default:
			var ops []Op
			for range 1 + r.IntN(3) {
				es := agent.Memory().Entries()
				e := es[r.IntN(len(es))]
				switch r.IntN(5) {
				case 0:
					ops = append(ops, Add{Name: fmt.Sprintf("r%d-%d", round, len(ops)), Content: text(), Aliases: []string{words[r.IntN(len(words))] + fmt.Sprint(round)}})
				case 1:
					ops = append(ops, Write{Name: e.Name, Content: text()})
				case 2:
					ops = append(ops, SetAliases{Name: e.Name, Aliases: []string{fmt.Sprintf("a%d", round)}})
				case 3:
					ops = append(ops, Rename{Name: e.Name, New: e.Name + "-x"})
				case 4:
					ops = append(ops, Remove{Name: e.Name})
				}
			}
			if _, err := agent.Apply(ops...); err != nil {
				continue // two ops on one entry: the agent's error, not the reader's
			}
		}
		took := reader.v1 != nil && reader.v1.fp.Equal(reader.fp)
		got, gotErr := reader.Reload()
		whole.v1 = nil
		want, wantErr := whole.Reload()
		if own && gotErr == nil && got.Empty() {
			got = want
		}
		if (gotErr == nil) != (wantErr == nil) || !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: diff %+v (%v), a whole reload's %+v (%v)", round, got, gotErr, want, wantErr)
		}
		restore = odd
		if gotErr != nil {
			errs++
			continue
		}
		if took && reader.v1 != nil {
			byDifference++
		}
		// A reload by difference hashes the file as it reads its entries:
		// the fingerprint is the one a whole read gives.
		if _, fp, err := readState(path); err != nil || !reader.fp.Equal(fp) || !whole.fp.Equal(fp) {
			t.Fatalf("round %d: fingerprint %+v, whole reload's %+v, the file's %+v (%v)", round, reader.fp, whole.fp, fp, err)
		}
		fresh, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		sameMemory(t, round, reader.Memory(), whole.Memory(), words, true)
		sameMemory(t, round, reader.Memory(), fresh.Memory(), words, false) // a reload never takes the next id down
	}
	if byDifference < 30 {
		t.Errorf("%d reloads of 60 went by difference", byDifference)
	}
	t.Logf("%d reloads by difference, %d failed as whole ones do", byDifference, errs)
}

// sameMemory fails unless got holds and finds what want does, and
// (nextID) has its next id.
func sameMemory(t *testing.T, round int, got, want *Memory, words []string, nextID bool) {
	t.Helper()
	if g, w := got.Entries(), want.Entries(); !reflect.DeepEqual(g, w) {
		t.Fatalf("round %d: entries %+v\nwant %+v", round, g, w)
	}
	if nextID && got.NextID() != want.NextID() || !reflect.DeepEqual(got.DuplicateIDs(), want.DuplicateIDs()) {
		t.Fatalf("round %d: next id %d, dups %v; want %d, %v", round, got.NextID(), got.DuplicateIDs(), want.NextID(), want.DuplicateIDs())
	}
	for _, w := range words {
		if g, s := got.Search(w, 100), want.Search(w, 100); !reflect.DeepEqual(g, s) {
			t.Fatalf("round %d: search %q %v, want %v", round, w, g, s)
		}
	}
	for _, e := range want.Entries() {
		ge, gok := got.Lookup(e.Name)
		we, wok := want.Lookup(e.Name)
		if gok != wok || !reflect.DeepEqual(ge, we) {
			t.Fatalf("round %d: lookup %q %+v, want %+v", round, e.Name, ge, we)
		}
	}
}

// writeFile replaces the file at path as a writer of its own would.
func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// TestReloadV1_HeapStaysFlat: a reader following a v1 file through
// hundreds of the agent's writes keeps no file's bytes: each reload's
// buffer is garbage once the entries it changed are copied out, so the
// live heap after GC grows by the entries added, not by a file a write.
func TestReloadV1_HeapStaysFlat(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.db")
	agent, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var ops []Op
	for i := range 3000 {
		ops = append(ops, Add{Name: fmt.Sprintf("n%d", i), Content: fmt.Sprintf("entry %d of a memory the agent keeps writing to, deploy notes %d", i, i%97)})
	}
	if _, err := agent.Apply(ops...); err != nil {
		t.Fatal(err)
	}
	reader, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	reader.Memory().WaitIndexed()
	write := func(i int) {
		if _, err := agent.Apply(Add{Name: fmt.Sprintf("w%d", i), Content: fmt.Sprintf("write %d", i)}); err != nil {
			t.Fatal(err)
		}
		if d, err := reader.Reload(); err != nil || len(d.Added) != 1 {
			t.Fatalf("write %d: reload %+v, %v", i, d, err)
		}
	}
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	for i := range 10 {
		write(i)
	}
	before := heap()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	const writes = 200
	for i := 10; i < 10+writes; i++ {
		write(i)
	}
	after := heap()
	// Each write adds an entry of some 100 bytes, its index and sums;
	// a file kept alive would be fi.Size() bytes.
	if limit := before + writes*1024 + 1<<20; after > limit {
		t.Errorf("live heap %d → %d bytes over %d reloads of a %d-byte file: more than %d", before, after, writes, fi.Size(), limit)
	}
	t.Logf("live heap %d → %d bytes over %d reloads of a %d-byte file", before, after, writes, fi.Size())
	runtime.KeepAlive(reader)
}

// BenchmarkReloadV1: the reload after the agent's one remember in the v1
// file at $CRMEM_BENCH_DB (copied first; else a generated 20k-entry
// file), by difference (diff-ms) and, right after it on the same file
// version, as a whole (whole-ms: decoded and synced whole, as Reload did
// before), on
// two readers open on it: paired in one run.
//
//	CRMEM_BENCH_DB=/tmp/m/big.db go test ./store -run '^$' -bench ReloadV1 -benchtime 10x
func BenchmarkReloadV1(b *testing.B) {
	path := filepath.Join(b.TempDir(), "memory.db")
	if src := os.Getenv("CRMEM_BENCH_DB"); src != "" {
		data, err := os.ReadFile(src)
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o600); err != nil {
			b.Fatal(err)
		}
	} else {
		var es []Entry
		for i := range 20000 {
			es = append(es, Entry{ID: uint64(i + 1), Name: fmt.Sprintf("n%d", i), Content: fmt.Sprintf("entry %d, deploy notes and the rest of a memory %d", i, i%89), CreatedAt: uint64(i)})
		}
		if err := os.WriteFile(path, Encode(0, es), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	agent, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	diff, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	whole, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	diff.Memory().WaitIndexed()
	whole.Memory().WaitIndexed()
	var byDiff, byWhole []time.Duration
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		if _, err := agent.Apply(Add{Name: fmt.Sprintf("bench-reload-%d", i), Content: "the agent remembered this"}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		if d, err := diff.Reload(); err != nil || len(d.Added) != 1 {
			b.Fatalf("reload %+v, %v", d, err)
		}
		byDiff = append(byDiff, time.Since(start))
		b.StopTimer()
		start = time.Now()
		if d, err := wholeReload(whole); err != nil || len(d.Added) != 1 {
			b.Fatalf("reload %+v, %v", d, err)
		}
		byWhole = append(byWhole, time.Since(start))
		b.StartTimer()
	}
	ms := func(ts []time.Duration) float64 {
		s := slices.Clone(ts)
		slices.Sort(s)
		return float64(s[len(s)/2].Microseconds()) / 1000
	}
	b.ReportMetric(ms(byDiff), "diff-ms")
	b.ReportMetric(ms(byWhole), "whole-ms")
}

// wholeReload is Reload as it was before the reload by difference: the
// file read, decoded and synced whole.
func wholeReload(db *DB) (Diff, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	data, fp, changed, err := readIfChanged(db.path, db.fp)
	if err != nil || !changed {
		return Diff{}, err
	}
	f, err := decodeV1(data)
	if err != nil {
		return Diff{}, err
	}
	d := db.mem.Sync(f)
	db.fp = fp
	return d, nil
}
