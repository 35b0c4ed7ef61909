package history

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"testing"

	"github.com/crmem/crmem/store/crabdb"
	"github.com/crmem/crmem/store/crabdb/crabdbtest/genlog"
)

// TestFollow_ExtendedIsAFreshBuild: a store followed as it grows (the
// agent's remembers, forgets and upserts, renames, archived entries,
// re-creations, new sessions, steps added to old ones, an agent renamed,
// checkpoints' snapshots left in the log, appends cut in the middle of a
// record) gives after every append exactly the index a fresh build of
// the file gives: every name's history, summary, the forgotten entries,
// and what the index holds (the log's records, the sessions' writes).
// The builds after appends walked only the appended records and decoded
// again only the sessions those touched; a file replaced (compacted) is
// read whole.
func TestFollow_ExtendedIsAFreshBuild(t *testing.T) {
	for _, c := range []struct {
		index      bool
		checkpoint int
	}{{false, 0}, {true, 0}, {true, 300}} {
		t.Run(fmt.Sprintf("index=%v,checkpoint=%d", c.index, c.checkpoint), func(t *testing.T) {
			data, _ := generated(t, genlog.Options{Seed: 26, Entries: 75, MemoryRecords: 750, Sessions: 16, Index: c.index, CheckpointEvery: c.checkpoint})
			data = append(data, agentRenamed(t, data)...)
			data = append(data, sessionCopied(t, data, "gen-000003", "gen-000003-again")...)
			data = append(data, sessionCopied(t, data, "gen-000007", "gen-000001")...) // steps over an old session's
			rng := rand.New(rand.NewPCG(1, uint64(c.checkpoint)))
			cuts := []int{crabdb.HeaderLen + rng.IntN(len(data)/4)}
			for len(cuts) < 16 {
				cuts = append(cuts, cuts[len(cuts)-1]+1+rng.IntN((len(data)-cuts[len(cuts)-1])/8+1))
			}
			cuts = append(cuts[:len(cuts)-1], len(data)-1, len(data), len(data))
			path := filepath.Join(t.TempDir(), "store.crmem")
			if err := os.WriteFile(path, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			cache := NewSessionCache()
			extended, was := 0, 0
			for k, cut := range cuts {
				appendFile(t, path, data[was:cut])
				was = cut
				got, err := cache.follow(storeLog, path)
				if err != nil {
					t.Fatal(err)
				}
				if cache.extended {
					extended++
				}
				sameBuild(t, cut, got, ReadLog(storeLog, slices.Clone(data[:cut]), nil), k%4 == 3 || k == len(cuts)-1)
			}
			if extended < len(cuts)*2/3 {
				t.Errorf("%d builds of %d walked only what was appended", extended, len(cuts))
			}
			if cache.reused == 0 {
				t.Errorf("the last build decoded every session again")
			}
			// Compacted: another file in its place, read whole.
			other := filepath.Join(filepath.Dir(path), "new")
			if err := os.WriteFile(other, data, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(other, path); err != nil {
				t.Fatal(err)
			}
			got, err := cache.follow(storeLog, path)
			if err != nil {
				t.Fatal(err)
			}
			if cache.extended {
				t.Errorf("a replaced file was taken as appended to")
			}
			sameBuild(t, len(data), got, ReadLog(storeLog, data, nil), true)
			t.Logf("%d appends, %d followed; sessions reused by the last build: %d", len(cuts), extended, cache.reused)
		})
	}
}

// sameBuild fails unless got holds what want holds, which makes every
// answer the same, and (answers) gives every answer want gives (sameIndex).
func sameBuild(t *testing.T, cut int, got, want *Index, answers bool) {
	t.Helper()
	if answers {
		sameIndex(t, cut, got, want)
	}
	g, w := got.log, want.log
	w.indexAll()
	for _, f := range []struct {
		what      string
		got, want any
	}{
		{"records", g.recs, w.recs}, {"hashes", g.hashes, w.hashes}, {"renames", g.cand, w.cand},
		{"session records", g.sessOffs, w.sessOffs}, {"agent records", g.agentOffs, w.agentOffs},
		{"names", g.byName, w.byName}, {"stop", g.stop, w.stop}, {"torn", g.torn, w.torn},
		{"end", g.end, w.end},
		{"writes", got.writes, want.writes}, {"sessions", got.sessInfo, want.sessInfo}, {"problems", got.problems, want.problems},
	} {
		if !reflect.DeepEqual(f.got, f.want) {
			t.Fatalf("cut %d: %s differ:\n got %v\nwant %v", cut, f.what, f.got, f.want)
		}
	}
	if !bytes.Equal(g.data, w.data) {
		t.Fatalf("cut %d: the bytes read differ", cut)
	}
}

// appendFile appends b to the file at path, as crabtalk appends.
func appendFile(t testing.TB, path string, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
}

// logRecord encodes one record of a store's log.
func logRecord(op, col byte, key string, val []byte) []byte {
	b := append([]byte{op, col}, binary.LittleEndian.AppendUint32(nil, uint32(len(key)))...)
	b = append(b, key...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(val)))
	return append(b, val...)
}

// agentRenamed is the record that renames the first agent of data's log.
func agentRenamed(t *testing.T, data []byte) []byte {
	t.Helper()
	var key []byte
	crabdb.WalkLogFrom(data, crabdb.HeaderLen, 0, func(r crabdb.LogRecord) bool {
		if r.Col == crabdb.ColAgent && r.Op == crabdb.OpPut {
			key = r.Key
		}
		return key == nil
	})
	if key == nil {
		t.Fatal("no agent in the log")
	}
	return logRecord(crabdb.OpPut, crabdb.ColAgent, string(key), []byte(`{"name":"renamed-agent"}`))
}

// sessionPrefix starts every session key of crabtalk's store.
const sessionPrefix = "local/session/"

// sessionCopied is every record of session from in data's log, put again
// under the handle to.
func sessionCopied(t *testing.T, data []byte, from, to string) []byte {
	t.Helper()
	var out []byte
	prefix := []byte(sessionPrefix + from + "/")
	crabdb.WalkLogFrom(data, crabdb.HeaderLen, 0, func(r crabdb.LogRecord) bool {
		if r.Col == crabdb.ColSession && r.Op == crabdb.OpPut && bytes.HasPrefix(r.Key, prefix) {
			out = append(out, logRecord(r.Op, r.Col, sessionPrefix+to+"/"+string(r.Key[len(prefix):]), r.Value)...)
		}
		return true
	})
	if out == nil {
		t.Fatalf("no session %s in the log", from)
	}
	return out
}

// TestFollow_HeapStaysFlat: following a store through hundreds of the
// agent's writes (a memory record and a session step each) keeps no more
// than the store's bytes: the live heap after GC grows by what was
// appended, not by a copy of the store, an index or the sessions a write.
func TestFollow_HeapStaysFlat(t *testing.T) {
	data, _ := generated(t, genlog.Options{Seed: 3, Entries: 200, MemoryRecords: 1500, Sessions: 12})
	var step crabdb.LogRecord
	crabdb.WalkLogFrom(data, crabdb.HeaderLen, 0, func(r crabdb.LogRecord) bool {
		if r.Col == crabdb.ColSession && r.Op == crabdb.OpPut && bytes.Contains(r.Key, []byte("/msg/")) {
			step = r
		}
		return true
	})
	path := filepath.Join(t.TempDir(), "store.crmem")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	cache := NewSessionCache()
	ix, err := cache.follow(storeLog, path)
	if err != nil {
		t.Fatal(err)
	}
	write := func(i int) int {
		name := fmt.Sprintf("flat-%d", i)
		rec := logRecord(crabdb.OpPut, crabdb.ColMemory, crabdb.MemoryPrefix+name,
			fmt.Appendf(nil, `{"name":%q,"kind":"note","content":"write %d","aliases":[],"created_at":"2026-11-29T03:00:00Z"}`, name, i))
		rec = append(rec, logRecord(crabdb.OpPut, crabdb.ColSession, fmt.Sprintf("%s-%06d", step.Key, i), step.Value)...)
		appendFile(t, path, rec)
		var err error
		if ix, err = cache.follow(storeLog, path); err != nil || !cache.extended || !ix.has(name) {
			t.Fatalf("write %d not followed: %v", i, err)
		}
		return len(rec)
	}
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	for i := range 20 {
		write(i)
	}
	before, appended := heap(), 0
	const writes = 200
	for i := 20; i < 20+writes; i++ {
		appended += write(i)
	}
	after := heap()
	// Each write's bytes are held (the log and the index of its records,
	// the session's step); allow three times them and 1 MiB of slack.
	if limit := before + 3*uint64(appended) + 1<<20; after > limit {
		t.Errorf("live heap %d → %d bytes over %d writes of %d bytes in all (store %d bytes): more than %d", before, after, writes, appended, len(data), limit)
	}
	t.Logf("live heap %d → %d bytes over %d writes appending %d bytes (store %d bytes)", before, after, writes, appended, len(data))
	runtime.KeepAlive(ix)
}
