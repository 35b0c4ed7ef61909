package history

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/crabdb"
)

// BenchmarkOneStore reads one entry's history from the store at
// $CRMEM_HISTORY_DB ($CRMEM_HISTORY_NAME: the entry), as `crmem history`
// does: the file mapped, the log walked once, the sessions that name it
// decoded. Make a store with a long log with
// `go run ./store/crabdb/crabdbtest/cmd/genlog` (its -help).
func BenchmarkOneStore(b *testing.B) {
	path, name := os.Getenv("CRMEM_HISTORY_DB"), os.Getenv("CRMEM_HISTORY_NAME")
	if path == "" || name == "" {
		b.Skip("set CRMEM_HISTORY_DB and CRMEM_HISTORY_NAME")
	}
	data, err := store.MapFile(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		h := OneLog(storeLog, data, name)
		if len(h.Versions) == 0 {
			b.Fatal("no versions")
		}
	}
}

// BenchmarkFollow: the history index after the agent remembers one entry
// in the store at $CRMEM_BENCH_STORE (copied first; e.g. genlog --entries
// 100000 --records 110000 --sessions 300 --index): the memory record and
// a step of one of its sessions appended, then the index built. follow-ms
// is BuildCached's way (the appended records walked, the session they
// touch decoded), full-ms, timed after it on the same file for the first
// five writes, the store read whole with its sessions cached (the way
// before); heap-MB-first and heap-MB-last the live heap after GC after
// the first write and the last.
//
//	CRMEM_BENCH_STORE=/tmp/x/store.crmem go test ./store/history -run '^$' -bench Follow -benchtime 5x
func BenchmarkFollow(b *testing.B) {
	src := os.Getenv("CRMEM_BENCH_STORE")
	if src == "" {
		b.Skip("CRMEM_BENCH_STORE not set")
	}
	data, err := os.ReadFile(src)
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "store.crmem")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		b.Fatal(err)
	}
	var step crabdb.LogRecord // a session's last step, put again under a new key
	crabdb.WalkLogFrom(data, crabdb.HeaderLen, 0, func(r crabdb.LogRecord) bool {
		if r.Col == crabdb.ColSession && r.Op == crabdb.OpPut && bytes.Contains(r.Key, []byte("/msg/")) {
			step = r
		}
		return true
	})
	step.Key, step.Value = bytes.Clone(step.Key), bytes.Clone(step.Value) // not the file's bytes, kept alive
	data = nil
	follow, full := NewSessionCache(), NewSessionCache()
	if _, err := follow.follow(storeLog, path); err != nil {
		b.Fatal(err)
	}
	if d, _, err := store.ReadFileInfo(path); err != nil {
		b.Fatal(err)
	} else {
		ReadLogCached(storeLog, d, full)
	}
	var fast, slow []time.Duration
	for i := 0; b.Loop(); i++ {
		name := fmt.Sprintf("bench-follow-%d", i)
		entry := fmt.Sprintf(`{"name":%q,"kind":"note","content":"remembered in a benchmark","aliases":[],"created_at":"2026-11-29T03:00:00Z"}`, name)
		rec := logRecord(crabdb.OpPut, crabdb.ColMemory, crabdb.MemoryPrefix+name, []byte(entry))
		rec = append(rec, logRecord(crabdb.OpPut, crabdb.ColSession, string(step.Key)+fmt.Sprintf("-%d", i), step.Value)...)
		b.StopTimer()
		appendFile(b, path, rec)
		b.StartTimer()
		start := time.Now()
		ix, err := follow.follow(storeLog, path)
		if err != nil || !follow.extended || !ix.has(name) {
			b.Fatalf("not followed: %v", err)
		}
		fast = append(fast, time.Since(start))
		b.StopTimer()
		if i == 0 {
			b.ReportMetric(liveHeapMB(), "heap-MB-first")
			b.ReportMetric(float64(len(rec)), "bytes-a-write")
		}
		if i >= 5 {
			b.StartTimer()
			continue
		}
		start = time.Now()
		d, _, err := store.ReadFileInfo(path)
		if err != nil {
			b.Fatal(err)
		}
		if !ReadLogCached(storeLog, d, full).has(name) {
			b.Fatal("not built")
		}
		slow = append(slow, time.Since(start))
		b.StartTimer()
	}
	ms := func(ts []time.Duration) float64 {
		s := slices.Clone(ts)
		slices.Sort(s)
		return float64(s[len(s)/2].Microseconds()) / 1000
	}
	b.ReportMetric(ms(fast), "follow-ms")
	b.ReportMetric(ms(slow), "full-ms")
	b.ReportMetric(liveHeapMB(), "heap-MB-last")
	runtime.KeepAlive(follow)
	runtime.KeepAlive(full)
}

// liveHeapMB is the live heap after a GC, in MiB.
func liveHeapMB() float64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return float64(ms.HeapAlloc) / (1 << 20)
}
