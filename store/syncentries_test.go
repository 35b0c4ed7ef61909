package store

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// TestSyncEntries_SameAsSync: bringing a memory to a new state by the
// entries that changed (SyncEntries: those added, changed or unchanged
// among them, and the ids removed) gives exactly what Sync gives with the
// whole new file: the diff, the entries, the next id, the lookups and the
// search hits.
func TestSyncEntries_SameAsSync(t *testing.T) {
	words := []string{"deploy", "pool", "alpha", "beta", "gamma", "notes"}
	text := func(r *rand.Rand) string { return words[r.IntN(len(words))] + " " + words[r.IntN(len(words))] }
	for seed := range uint64(20) {
		r := rand.New(rand.NewPCG(seed, 3))
		var before []Entry
		for id := uint64(1); id <= 40; id++ {
			before = append(before, Entry{ID: id, Name: fmt.Sprintf("n%d", id), Content: text(r), Kind: Kinds[r.IntN(3)], CreatedAt: id})
		}
		var after, put []Entry
		var removed []uint64
		for _, e := range before {
			switch p := r.IntN(10); {
			case p < 2:
				removed = append(removed, e.ID)
				continue
			case p < 4:
				e.Content = text(r)
				if r.IntN(2) == 0 {
					e.Name += "-renamed"
					e.Aliases = []string{words[r.IntN(len(words))]}
				}
				put = append(put, e)
			case p < 5:
				put = append(put, e) // unchanged, yet given
			}
			after = append(after, e)
		}
		for id := uint64(41); id < 41+uint64(r.IntN(6)); id++ {
			e := Entry{ID: id, Name: fmt.Sprintf("n%d", id), Content: text(r), CreatedAt: id}
			after, put = append(after, e), append(put, e)
		}
		r.Shuffle(len(put), func(i, j int) { put[i], put[j] = put[j], put[i] })
		whole, delta := NewMemory(&File{Entries: clone(before), NextID: 41}), NewMemory(&File{Entries: clone(before), NextID: 41})
		next := uint64(41 + r.IntN(10))
		want := whole.Sync(&File{Entries: clone(after), NextID: next})
		got := delta.SyncEntries(put, append(removed, 999), next)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("seed %d: diff %+v, Sync's %+v", seed, got, want)
		}
		if g, w := delta.Entries(), whole.Entries(); !reflect.DeepEqual(g, w) {
			t.Fatalf("seed %d: entries %+v\nSync's %+v", seed, g, w)
		}
		if delta.NextID() != whole.NextID() {
			t.Fatalf("seed %d: next id %d, Sync's %d", seed, delta.NextID(), whole.NextID())
		}
		for _, w := range words {
			if g, s := delta.Search(w, 100), whole.Search(w, 100); !reflect.DeepEqual(g, s) {
				t.Fatalf("seed %d: search %q %v, Sync's %v", seed, w, g, s)
			}
			ge, gok := delta.Lookup(w)
			we, wok := whole.Lookup(w)
			if gok != wok || !reflect.DeepEqual(ge, we) {
				t.Fatalf("seed %d: lookup %q %+v, Sync's %+v", seed, w, ge, we)
			}
		}
	}
}

// clone copies entries (a memory keeps the slice it is built from).
func clone(es []Entry) []Entry { return append([]Entry(nil), es...) }

// TestMemory_GenerationCountsWrites: every write taking the memory (Apply,
// Sync, SyncEntries), changing anything or not, moves the generation on,
// and reading does not, so a screen can tell a reload was the only write
// between two looks (tui's patched snapshot).
func TestMemory_GenerationCountsWrites(t *testing.T) {
	m := NewMemoryWith(&File{NextID: 2, Entries: []Entry{{ID: 1, Name: "a", Content: "x"}}}, IndexOnDemand)
	g := m.Generation()
	steps := []struct {
		name  string
		write func()
	}{
		{"Apply", func() { _, _ = m.Apply(time.Unix(5, 0), Add{Name: "b", Content: "y"}) }},
		{"Sync, no change", func() { m.Sync(&File{NextID: m.NextID(), Entries: m.Entries()}) }},
		{"SyncEntries", func() { m.SyncEntries([]Entry{{ID: 9, Name: "c", Content: "z"}}, nil, 10) }},
		{"SyncEntries, nothing", func() { m.SyncEntries(nil, nil, 0) }},
	}
	for _, s := range steps {
		m.Entries()
		m.Get(1)
		if got := m.Generation(); got != g {
			t.Fatalf("before %s: reads moved the generation %d to %d", s.name, g, got)
		}
		s.write()
		if got := m.Generation(); got != g+1 {
			t.Fatalf("%s: generation %d, want %d", s.name, got, g+1)
		}
		g++
	}
}
