package crabdb

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/crabdb/crabdbtest"
)

// TestReloadDelta_SameAsWhole: a store.DB following a store that grows by
// random appends (new entries, upserts, deletes, values crmem cannot read
// or that name another entry, records of other columns) reloads by delta
// (LoadDelta, Memory.SyncEntries) to exactly the state, diff and warnings
// of a Source that converts and syncs the whole store at the same points:
// the same entries with the same ids, the same stored strings, the same
// bm25 hits.
func TestReloadDelta_SameAsWhole(t *testing.T) {
	for seed := range uint64(4) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			path := copyTo(t, "small.crmem")
			db, err := OpenDB(path, store.Options{Guard: passGuard, Index: store.IndexNow})
			if err != nil {
				t.Fatal(err)
			}
			f, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			whole := sourceOf(f)
			r := rand.New(rand.NewPCG(seed, 40))
			for round := range 60 {
				for range 1 + r.IntN(6) {
					crabdbtest.Append(t, path, randomRecord(r))
				}
				got, err := db.Reload()
				if err != nil {
					t.Fatal(err)
				}
				if how, err := whole.f.Reload(); err != nil || how != Appended {
					t.Fatalf("round %d: whole reload %v, %v", round, how, err)
				}
				want := whole.mem.Sync(whole.file())
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("round %d: diff %+v, whole %+v", round, got, want)
				}
				sameMemory(t, round, db, whole)
			}
		})
	}
}

// sameMemory fails unless db holds what whole holds: entries and ids,
// stored strings, warnings and search hits.
func sameMemory(t *testing.T, round int, db *store.DB, whole *Source) {
	t.Helper()
	got, want := db.Memory().Entries(), whole.mem.Entries()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("round %d: %d entries %+v\nwhole: %d entries %+v", round, len(got), got, len(want), want)
	}
	gf, wf := db.Features(), whole.Features()
	if !reflect.DeepEqual(gf.Warnings, wf.Warnings) {
		t.Fatalf("round %d: warnings %q, whole %q", round, gf.Warnings, wf.Warnings)
	}
	for _, e := range want {
		gs, gok := gf.Stored.Stored(e.ID)
		ws, wok := wf.Stored.Stored(e.ID)
		if gs != ws || gok != wok {
			t.Fatalf("round %d: %s stored %+v %v, whole %+v %v", round, e.Name, gs, gok, ws, wok)
		}
	}
	if db.Memory().NextID() != whole.mem.NextID() {
		t.Fatalf("round %d: next id %d, whole %d", round, db.Memory().NextID(), whole.mem.NextID())
	}
	for _, q := range []string{"deploy", "alpha beta", "gamma", "note"} {
		if g, w := db.Memory().Search(q, 50), whole.mem.Search(q, 50); !reflect.DeepEqual(g, w) {
			t.Fatalf("round %d: search %q %v, whole %v", round, q, g, w)
		}
	}
}

// randomRecord is one record an agent's store might append: mostly puts
// and deletes of memory entries from a small pool of names (some of the
// fixture's), now and then a value that is not an entry or names another
// entry, and records of other columns.
func randomRecord(r *rand.Rand) []byte {
	names := []string{"deploy-steps", "scratch", "n1", "n2", "n3", "n4", "n5", "n 6", "née-7", "n8"}
	name := names[r.IntN(len(names))]
	key := MemoryKey(name)
	words := []string{"alpha", "beta", "gamma", "deploy", "note", "pool", "zeta"}
	content := words[r.IntN(len(words))] + " " + words[r.IntN(len(words))] + fmt.Sprint(" ", r.IntN(5))
	switch p := r.IntN(100); {
	case p < 20:
		return crabdbtest.Record(OpDelete, ColMemory, key, "")
	case p < 25:
		return crabdbtest.Record(OpPut, ColMemory, key, `{"name":`)
	case p < 29:
		return crabdbtest.Record(OpPut, ColMemory, key, fmt.Sprintf(`{"name":%q,"kind":"note","content":%q}`, name+"-other", content))
	case p < 40:
		return crabdbtest.Record(OpPut, 6, fmt.Sprintf("idx/%d", r.IntN(50)), "x")
	}
	aliases := `[]`
	if r.IntN(3) == 0 {
		aliases = fmt.Sprintf(`[%q]`, words[r.IntN(len(words))])
	}
	kind := []string{"note", "fact", "preference"}[r.IntN(3)]
	return crabdbtest.Record(OpPut, ColMemory, key, fmt.Sprintf(`{"name":%q,"kind":%q,"content":%q,"aliases":%s,"created_at":"2026-0%d-02T03:04:05Z"}`,
		name, kind, content, aliases, 1+r.IntN(9)))
}

// TestReloadDelta_HeapFlat: following a store through a thousand appends
// of one remember each, reloaded after each, the live heap grows by about
// what was appended, not by a copy of the memory per reload: a reload
// keeps nothing of the entries it did not touch.
func TestReloadDelta_HeapFlat(t *testing.T) {
	path := copyTo(t, "small.crmem")
	db, err := OpenDB(path, store.Options{Guard: passGuard, Index: store.IndexNow})
	if err != nil {
		t.Fatal(err)
	}
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	const writes, content = 1000, 200
	appended := 0
	var at100 uint64
	for i := range writes {
		name := fmt.Sprintf("remembered-%d", i)
		rec := crabdbtest.Record(OpPut, ColMemory, MemoryKey(name), fmt.Sprintf(`{"name":%q,"kind":"note","content":%q,"aliases":[],"created_at":"2026-03-02T03:04:05Z"}`,
			name, strings.Repeat("word ", content/5)))
		crabdbtest.Append(t, path, rec)
		appended += len(rec)
		d, err := db.Reload()
		if err != nil || len(d.Added) != 1 {
			t.Fatalf("write %d: %+v, %v", i, d, err)
		}
		if i == 99 {
			at100, appended = heap(), 0
		}
	}
	grew := int64(heap()) - int64(at100)
	// Each write's bytes are kept (the store's value aliases them) with its
	// entry, name, aliases and postings: a few times the record. A reload
	// that kept a copy of the memory (26 entries here) would show as more.
	if limit := int64(8 * appended); grew > limit {
		t.Errorf("the heap grew %d bytes over %d writes of %d bytes in all (limit %d)", grew, writes-100, appended, limit)
	}
	t.Logf("heap grew %d bytes over %d writes of %d bytes", grew, writes-100, appended)
}
