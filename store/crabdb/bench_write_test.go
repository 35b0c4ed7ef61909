package crabdb

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/crmem/crmem/store"
)

// bigEntries is the size of the store the write benchmarks edit.
const bigEntries = 100_000

// bigStore writes a checkpointed store of n entries (three in five of them
// archives, named archive-NNNNNN, the rest note-NNNNNN), each with a few
// dozen words from a vocabulary of some thousands, and returns its path.
func bigStore(tb testing.TB, dir string, n int) string {
	tb.Helper()
	w := newStoreWriter()
	for i := range n {
		e := store.Entry{Name: fmt.Sprintf("note-%06d", i), Kind: store.Note, CreatedAt: 1767265200 + uint64(i),
			Content: fmt.Sprintf("entry %d about w%d and w%d, then w%d; the deploy of service%d went fine after step%d",
				i, i%4001, i%577, i%97, i%1013, i%31)}
		if i%5 < 3 {
			e.Name, e.Kind = fmt.Sprintf("archive-%06d", i), store.Archive
		}
		w.remember(e)
	}
	w.checkpoint()
	path := filepath.Join(dir, "store.crmem")
	if err := os.WriteFile(path, w.buf, 0o600); err != nil {
		tb.Fatal(err)
	}
	return path
}

// archiveNames are the first n archive names of bigStore from the k-th on.
func archiveNames(k, n int) []string {
	var out []string
	for i := 0; len(out) < n; i++ {
		if i%5 < 3 {
			if k > 0 {
				k--
				continue
			}
			out = append(out, fmt.Sprintf("archive-%06d", i))
		}
	}
	return out
}

// TestBigStore_EditAppendsOnlyThatEntry: an edit on a 10,000-entry store
// appends that entry's records and nothing else (no rewrite), and a
// removal of 1,000 archives in one Apply is one append.
func TestBigStore_EditAppendsOnlyThatEntry(t *testing.T) {
	path := bigStore(t, t.TempDir(), 10_000)
	db, err := OpenDB(path, store.Options{Guard: passGuard, Index: store.IndexOnDemand})
	if err != nil {
		t.Fatal(err)
	}
	src := db.Backend().(*Source)
	before, _ := os.ReadFile(path)
	if _, err := db.Apply(store.Write{Name: "note-000003", Content: "new words only"}); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(path)
	if string(after[:len(before)]) != string(before) {
		t.Fatal("the edit rewrote the file")
	}
	recs := recordLines(t, after[len(before):])
	for _, r := range recs {
		if !strings.Contains(r, "note-000003") && !strings.Contains(r, "local/idx/text/mem/stats") {
			t.Errorf("the edit appended a record of something else: %s", r)
		}
	}
	var ops []store.Op
	for _, n := range archiveNames(0, 1000) {
		ops = append(ops, store.Remove{Name: n})
	}
	n0 := src.f.appends
	if _, err := db.Apply(ops...); err != nil {
		t.Fatal(err)
	}
	if got := src.f.appends - n0; got != 1 {
		t.Errorf("removing 1,000 archives made %d appends, want 1", got)
	}
	if db.Memory().Len() != 9_000 {
		t.Errorf("%d entries left", db.Memory().Len())
	}
}

// BenchmarkStoreEdit100k is one edit (a new content) of one entry of a
// 100,000-entry store through store.DB.Apply: guard, lock, fresh load,
// the records appended in one append, fsync'd and read back.
func BenchmarkStoreEdit100k(b *testing.B) {
	path := bigStore(b, b.TempDir(), bigEntries)
	db, err := OpenDB(path, store.Options{Guard: passGuard, Index: store.IndexOnDemand})
	if err != nil {
		b.Fatal(err)
	}
	size0 := fileSizeOf(b, path)
	b.ResetTimer()
	for i := range b.N {
		if _, err := db.Apply(store.Write{Name: fmt.Sprintf("note-%06d", 3+5*(i%1000)), Content: fmt.Sprintf("edited %d: the deploy moved to friday", i)}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(fileSizeOf(b, path)-size0)/float64(b.N), "appended-B/op")
	b.ReportMetric(float64(size0), "store-B")
}

// BenchmarkStoreRm1000Archives100k removes 1,000 archives of a
// 100,000-entry store in one Apply: one lock, one append.
func BenchmarkStoreRm1000Archives100k(b *testing.B) {
	path := bigStore(b, b.TempDir(), bigEntries)
	db, err := OpenDB(path, store.Options{Guard: passGuard, Index: store.IndexOnDemand})
	if err != nil {
		b.Fatal(err)
	}
	size0 := fileSizeOf(b, path)
	b.ResetTimer()
	for i := range b.N {
		if (i+1)*1000 > bigEntries*3/5 {
			b.Fatal("out of archives: run with -benchtime=Nx, N ≤ 60")
		}
		var ops []store.Op
		for _, n := range archiveNames(i*1000, 1000) {
			ops = append(ops, store.Remove{Name: n})
		}
		if _, err := db.Apply(ops...); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(fileSizeOf(b, path)-size0)/float64(b.N), "appended-B/op")
}

// fileSizeOf is the size of the file at path.
func fileSizeOf(tb testing.TB, path string) int64 {
	tb.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		tb.Fatal(err)
	}
	return fi.Size()
}

// TestKeys_LogOnlyStore: on a store never checkpointed, Keys sorts only
// the keys asked for, and gives exactly what the ordered scan of every
// key gives.
func TestKeys_LogOnlyStore(t *testing.T) {
	w := newStoreWriter()
	for i := range 300 {
		w.remember(store.Entry{Name: fmt.Sprintf("e-%03d", (i*7)%300), Content: fmt.Sprintf("word%d text", i)})
	}
	s, err := Read(w.buf)
	if err != nil {
		t.Fatal(err)
	}
	got := s.Keys(ColMemory, MemoryPrefix)
	if s.sorted != nil {
		t.Error("Keys sorted every key of a log-only store")
	}
	var want []string
	s.keys()
	s.scan(ColMemory, MemoryPrefix, func(k string, _ []byte) { want = append(want, k) })
	if len(got) != 300 || !slices.Equal(got, want) {
		t.Errorf("Keys = %d keys, want the scan's %d", len(got), len(want))
	}
}
