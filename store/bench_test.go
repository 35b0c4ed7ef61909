package store_test

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crmem/crmem/store"
)

// benchCorpus returns the path of the benchmark memory file: $CRMEM_BENCH_DB
// (the 100k-entry corpus of SPEC §8), else a generated 5k-entry file.
func benchCorpus(b *testing.B) string {
	b.Helper()
	if p := os.Getenv("CRMEM_BENCH_DB"); p != "" {
		return p
	}
	path := filepath.Join(b.TempDir(), "memory.db")
	if err := os.WriteFile(path, store.Encode(0, syntheticEntries(5000)), 0o600); err != nil {
		b.Fatal(err)
	}
	return path
}

var benchWords = strings.Fields("deploy canary rollback postgres migration deadlock agent memory " +
	"recall session flaky test token refresh expiry alice kubernetes cluster namespace staging " +
	"production release ship build cache index query latency budget review")

func syntheticEntries(n int) []store.Entry {
	rng := rand.New(rand.NewPCG(1, 2))
	out := make([]store.Entry, n)
	for i := range out {
		var sb strings.Builder
		for range 40 + rng.IntN(200) {
			sb.WriteString(benchWords[rng.IntN(len(benchWords))])
			sb.WriteByte(' ')
		}
		out[i] = store.Entry{ID: uint64(i + 1), Name: fmt.Sprintf("note-%d", i), Kind: store.Kind(i % 3),
			CreatedAt: 1767265200 + uint64(i), Content: sb.String(), Aliases: []string{fmt.Sprintf("alias-%d", i)}}
	}
	return out
}

func benchRead(b *testing.B, path string) []byte {
	b.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkDecode measures decoding alone (the file already in memory).
func BenchmarkDecode(b *testing.B) {
	data := benchRead(b, benchCorpus(b))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := store.Decode(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpen measures what a user waits for: read, decode and index.
func BenchmarkOpen(b *testing.B) { benchOpen(b, store.Options{Index: store.IndexNow}) }

// BenchmarkOpenNoIndex measures read and decode: the time until OpenLazy
// can show the entry list.
func BenchmarkOpenNoIndex(b *testing.B) { benchOpen(b, store.Options{Index: store.IndexOnDemand}) }

// benchOpen opens the corpus with opts.
func benchOpen(b *testing.B, opts store.Options) {
	path := benchCorpus(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := store.OpenWith(path, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScanFloor is the floor under BenchmarkOpen that no tokenizer
// can beat: read and decode the file, then classify every byte of every
// entry's content and aliases once (ASCII alphanumeric, other ASCII, byte
// of a multi-byte rune; eight bytes at a time) and count where runs of
// word bytes start, on as many cores as the index build uses. It builds no
// lookup maps and no index.
func BenchmarkScanFloor(b *testing.B) {
	path := benchCorpus(b)
	b.ReportAllocs()
	for b.Loop() {
		data, err := store.ReadFile(path) // as every crmem read: on every core
		if err != nil {
			b.Fatal(err)
		}
		f, err := store.Decode(data)
		if err != nil {
			b.Fatal(err)
		}
		if countRunsParallel(f.Entries) == 0 && len(f.Entries) > 0 {
			b.Fatal("no words")
		}
	}
}

// countRunsParallel counts the word-byte runs of every entry's content and
// aliases, splitting the entries into one contiguous range per core.
func countRunsParallel(entries []store.Entry) int {
	n := runtime.GOMAXPROCS(0)
	counts := make([]int, n)
	var wg sync.WaitGroup
	for w := range n {
		lo, hi := w*len(entries)/n, (w+1)*len(entries)/n
		wg.Go(func() {
			c := 0
			for i := lo; i < hi; i++ {
				c += countRuns(entries[i].Content)
				for _, a := range entries[i].Aliases {
					c += countRuns(a)
				}
			}
			counts[w] = c
		})
	}
	wg.Wait()
	total := 0
	for _, c := range counts {
		total += c
	}
	return total
}

// countRuns classifies each byte of s once and counts the runs of word
// bytes (ASCII letters and digits, and bytes of multi-byte runes).
func countRuns(s string) int {
	const lsbs, msbs = 0x0101010101010101, 0x8080808080808080
	runs, carry := 0, uint64(0)
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := s[i : i+8] // one little-endian load once compiled
		x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
			uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
		multi := x & msbs
		y := x ^ multi
		z := y | 0x2020202020202020
		letters := (z + lsbs*(0x80-'a')) &^ (z + lsbs*(0x7F-'z'))
		digits := (y + lsbs*(0x80-'0')) &^ (y + lsbs*(0x7F-'9'))
		word := (letters|digits)&msbs | multi
		runs += bits.OnesCount64(word &^ (word<<8 | carry))
		carry = word >> 56
	}
	for prev := carry != 0; i < len(s); i++ {
		c := s[i] | 0x20
		word := s[i] >= 0x80 || c >= 'a' && c <= 'z' || s[i] >= '0' && s[i] <= '9'
		if word && !prev {
			runs++
		}
		prev = word
	}
	return runs
}

func benchMemory(b *testing.B) *store.Memory {
	b.Helper()
	db, err := store.Open(benchCorpus(b))
	if err != nil {
		b.Fatal(err)
	}
	return db.Memory()
}

// BenchmarkUpdateOne is one Update applied in memory, index included.
func BenchmarkUpdateOne(b *testing.B) {
	m := benchMemory(b)
	entries := m.Entries()
	rng := rand.New(rand.NewPCG(3, 4))
	at := time.Unix(1767300000, 0)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		e := entries[rng.IntN(len(entries))]
		i++
		content := fmt.Sprintf("%s edited %d", e.Content, i)
		if _, err := m.Apply(at, store.Update{Name: e.Name, Content: content, Aliases: e.Aliases}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRemoveRestore is one Remove and one Restore (undo) in memory,
// index included; the figure is per operation.
func BenchmarkRemoveRestore(b *testing.B) {
	m := benchMemory(b)
	entries := m.Entries()
	rng := rand.New(rand.NewPCG(5, 6))
	at := time.Unix(1767300000, 0)
	b.ReportAllocs()
	for b.Loop() {
		e := entries[rng.IntN(len(entries))]
		if _, err := m.Apply(at, store.Remove{Name: e.Name}); err != nil {
			b.Fatal(err)
		}
		if _, err := m.Apply(at, store.Restore{Entry: e}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(2*b.N)/1e3, "µs/op-each")
}

// BenchmarkEncode is serialising the whole memory into a buffer.
func BenchmarkEncode(b *testing.B) {
	f, err := store.Decode(benchRead(b, benchCorpus(b)))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		store.Encode(f.NextID, f.Entries)
	}
}

// BenchmarkSave is a whole DB.Apply of one Write: lock, fingerprint check
// (read and hash), apply, encode, temp write, fsync, exchange, check of the
// displaced file, directory fsync. NoSync leaves out both fsyncs.
func BenchmarkSave(b *testing.B) {
	for _, sync := range []bool{true, false} {
		b.Run(fmt.Sprintf("fsync=%v", sync), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "memory.db")
			if err := os.WriteFile(path, benchRead(b, benchCorpus(b)), 0o600); err != nil {
				b.Fatal(err)
			}
			db, err := store.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			if !sync {
				store.SetNoSync(db)
			}
			name := db.Memory().Entries()[0].Name
			i := 0
			for b.Loop() {
				i++
				if _, err := db.Apply(store.Write{Name: name, Content: fmt.Sprint("edit ", i)}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSync is bringing a memory to a freshly decoded file that differs
// in one entry (diff by id, re-index of that entry).
func BenchmarkSync(b *testing.B) {
	data := benchRead(b, benchCorpus(b))
	fa, err := store.Decode(data)
	if err != nil {
		b.Fatal(err)
	}
	changed := append([]store.Entry(nil), fa.Entries...)
	changed[len(changed)/2].Content += " changed by the agent"
	fb, err := store.Decode(store.Encode(fa.NextID, changed))
	if err != nil {
		b.Fatal(err)
	}
	db, err := store.Open(benchCorpus(b))
	if err != nil {
		b.Fatal(err)
	}
	m := db.Memory()
	files := []*store.File{fb, fa}
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		if d := m.Sync(files[i%2]); len(d.Changed) != 1 {
			b.Fatalf("diff %+v", d)
		}
		i++
	}
}

// BenchmarkReload is the watcher's path after the agent rewrote the file
// with one entry changed: read, hash, decode, sync.
func BenchmarkReload(b *testing.B) {
	dir := b.TempDir()
	data := benchRead(b, benchCorpus(b))
	fa, err := store.Decode(data)
	if err != nil {
		b.Fatal(err)
	}
	changed := append([]store.Entry(nil), fa.Entries...)
	changed[len(changed)/2].Content += " changed by the agent"
	versions := []string{filepath.Join(dir, "b.db"), filepath.Join(dir, "a.db")}
	os.WriteFile(versions[0], store.Encode(fa.NextID, changed), 0o600)
	os.WriteFile(versions[1], data, 0o600)
	path := filepath.Join(dir, "memory.db")
	os.Link(versions[1], path)
	db, err := store.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		b.StopTimer()
		os.Remove(path + ".tmp")
		os.Link(versions[i%2], path+".tmp")
		os.Rename(path+".tmp", path)
		i++
		b.StartTimer()
		if d, err := db.Reload(); err != nil || len(d.Changed) != 1 {
			b.Fatalf("reload: %+v %v", d, err)
		}
	}
}
