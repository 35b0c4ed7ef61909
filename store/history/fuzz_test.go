package history

import (
	"os"
	"testing"

	"github.com/crmem/crmem/store/crabdb"
	"github.com/crmem/crmem/store/crabdb/crabdbtest/genlog"
)

// FuzzFromStore: whatever bytes a store holds (a log cut, flipped or made
// up; snapshots that are and are not), reading its histories never
// panics, numbers every history's versions 1…n, gives every log version a
// record inside the file, and one entry's history is the whole index's.
func FuzzFromStore(f *testing.F) {
	for _, p := range []string{
		"../../testdata/reference/crabdb/bad/ok-tiny-log.crmem",
		"../../testdata/reference/crabdb/bad/ok-tiny-snapshot.crmem",
		"../../testdata/reference/crabdb/bad/unknown-op-after-snapshot.crmem",
		"../../testdata/reference/crabdb/bad/snapshot-wrong-key.crmem",
	} {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	head := genlog.Header(0, 0)
	rec := func(op, col byte, key, val string) []byte {
		b := []byte{op, col, byte(len(key)), 0, 0, 0}
		b = append(b, key...)
		b = append(b, byte(len(val)), 0, 0, 0)
		return append(b, val...)
	}
	var small []byte
	small = append(small, head...)
	small = append(small, rec(0, 2, "local/memory/a", `{"name":"a","kind":"note","content":"x","aliases":[],"created_at":"2026-01-01T00:00:00+00:00"}`)...)
	small = append(small, rec(0, 2, "local/memory/b", `{"name":"b","kind":"note","content":"x","aliases":[],"created_at":"2026-01-01T00:00:00+00:00"}`)...)
	small = append(small, rec(1, 2, "local/memory/a", "")...)
	f.Add(small)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<20 {
			return
		}
		ix := ReadLog(storeLog, data, nil)
		for _, n := range ix.Names() {
			h := ix.History(n)
			for i, v := range h.Versions {
				if v.N != i+1 {
					t.Fatalf("%q: version %d numbered %d", n, i+1, v.N)
				}
				if v.Log != nil && (v.Log.Offset < crabdb.HeaderLen || v.Log.Offset >= int64(len(data))) {
					t.Fatalf("%q #%d: record at %d, outside the file", n, v.N, v.Log.Offset)
				}
			}
			one := OneLog(storeLog, data, n)
			if len(one.Versions) != len(h.Versions) {
				t.Fatalf("%q: one entry's history has %d versions, the index's %d", n, len(one.Versions), len(h.Versions))
			}
		}
		ix.Forgotten()
	})
}
