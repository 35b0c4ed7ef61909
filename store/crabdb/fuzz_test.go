package crabdb

import (
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// FuzzCrabdbRead feeds arbitrary bytes to the reader: it never panics, never
// allocates more than a small multiple of the input (claimed lengths are
// checked before use), and reading a log-only store in two parts — a prefix,
// then Extend with the rest — gives the same keys as reading it whole.
func FuzzCrabdbRead(f *testing.F) {
	for _, name := range []string{"empty.crmem", "bad/ok-tiny-log.crmem", "bad/ok-tiny-snapshot.crmem",
		"bad/big-index-len.crmem", "bad/huge-index-len.crmem", "bad/index-len-short.crmem",
		"bad/snapshot-wrong-key.crmem", "bad/snapshot-to-delete.crmem", "bad/unknown-op.crmem",
		"bad/index-beyond-eof-logonly.crmem", "bad/short-header.crmem"} {
		data, err := os.ReadFile(filepath.Join(refDir, name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, 40)
	}
	f.Fuzz(func(t *testing.T, data []byte, cut int) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		s, err := Read(data)
		Detect(data)
		if err == nil {
			s.Entries()
			s.Sessions()
			s.Recall("deploy depl* a*", 10)
		}
		runtime.ReadMemStats(&after)
		if grew := after.TotalAlloc - before.TotalAlloc; grew > uint64(200*len(data)+1<<20) {
			t.Fatalf("%d bytes allocated for %d bytes of input", grew, len(data))
		}
		if err != nil {
			return
		}
		if s.End() > s.Size() || s.Size() != int64(len(data)) {
			t.Fatalf("end %d, size %d, input %d", s.End(), s.Size(), len(data))
		}
		checkOrder(t, s)
		if s.Header().HasSnapshot() || cut < HeaderLen || cut > len(data) {
			return
		}
		part, err := Read(data[:cut])
		if err != nil {
			t.Fatalf("a prefix of a readable log fails: %v", err)
		}
		if err := part.Extend(data[part.End():]); err != nil {
			t.Fatalf("extend: %v", err)
		}
		if !maps.EqualFunc(part.live, s.live, func(a, b value) bool { return a.off == b.off && string(a.val) == string(b.val) }) {
			t.Fatalf("read in two parts: %d keys, whole: %d", len(part.live), len(s.live))
		}
		checkOrder(t, part)
		if part.End() != s.End() || part.Size() != s.Size() {
			t.Fatalf("two parts end %d size %d, whole %d %d", part.End(), part.Size(), s.End(), s.Size())
		}
	})
}

// checkOrder fails unless the store's key order holds every live key once,
// ascending, with its value.
func checkOrder(t *testing.T, s *Store) {
	t.Helper()
	keys := s.keys()
	if len(keys) != len(s.live) {
		t.Fatalf("%d ordered keys, %d live", len(keys), len(s.live))
	}
	for i, k := range keys {
		if i > 0 && compareKeys(keys[i-1].Key, k.Key) >= 0 {
			t.Fatalf("keys out of order at %d: %v, %v", i, keys[i-1].Key, k.Key)
		}
		if v, ok := s.live[k.Key]; !ok || string(v.val) != string(k.val) {
			t.Fatalf("ordered key %v is not live with its value", k.Key)
		}
	}
}
