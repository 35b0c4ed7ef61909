package store

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"
)

// lookupsFile returns n entries with strictly ascending ids whose names
// repeat and whose aliases are shared and collide with names, as the SPEC
// §2 lookup rule must untangle.
func lookupsFile(rng *rand.Rand, n int) []Entry {
	entries := make([]Entry, n)
	id := uint64(0)
	for i := range entries {
		id += 1 + uint64(rng.IntN(3))
		var aliases []string
		for range rng.IntN(3) {
			aliases = append(aliases, fmt.Sprintf("n%d", rng.IntN(n)))
		}
		entries[i] = Entry{ID: id, Name: fmt.Sprintf("n%d", rng.IntN(n)), Content: "x", Aliases: aliases}
	}
	return entries
}

// modelLookup is SPEC §2's rule on a slice of entries in file order: the
// last entry with the name, else the lowest-id entry with it as an alias.
func modelLookup(entries []Entry, name string) (uint64, bool) {
	for i := len(entries) - 1; i >= 0; i-- {
		if entries[i].Name == name {
			return entries[i].ID, true
		}
	}
	for _, e := range entries { // ids ascend
		for _, a := range e.Aliases {
			if a == name {
				return e.ID, true
			}
		}
	}
	return 0, false
}

// TestLookups_LazyMapsResolveAsSpecSays opens files with ascending ids in
// every index mode, resolves every name from several goroutines at once
// (the first of them builds the maps; -race checks the hand-over, and the
// background build of IndexBackground), then removes entries and resolves
// again.
func TestLookups_LazyMapsResolveAsSpecSays(t *testing.T) {
	for _, mode := range []IndexMode{IndexNow, IndexBackground, IndexOnDemand} {
		for seed := range uint64(4) {
			t.Run(fmt.Sprintf("mode=%d/seed=%d", mode, seed), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(seed, 13))
				n := 1 + rng.IntN(60)
				file := lookupsFile(rng, n)
				entries := append([]Entry(nil), file...)
				m := NewMemoryWith(&File{Entries: file}, mode)
				check := func(entries []Entry) {
					var wg sync.WaitGroup
					for range 4 {
						wg.Go(func() {
							for k := range n + 1 {
								name := fmt.Sprintf("n%d", k)
								want, wok := modelLookup(entries, name)
								got, ok := m.Lookup(name)
								if ok != wok || ok && got.ID != want {
									t.Errorf("Lookup(%q) = %d,%v; want %d,%v", name, got.ID, ok, want, wok)
								}
							}
						})
					}
					wg.Wait()
				}
				check(entries)
				for range 3 {
					name := fmt.Sprintf("n%d", rng.IntN(n))
					id, ok := modelLookup(entries, name)
					if !ok {
						continue
					}
					if _, err := m.Apply(time.Unix(1767300000, 0), Remove{Name: name}); err != nil {
						t.Fatalf("remove %q: %v", name, err)
					}
					for i := range entries {
						if entries[i].ID == id {
							entries = append(entries[:i:i], entries[i+1:]...)
							break
						}
					}
					check(entries)
				}
			})
		}
	}
}

// TestLookups_SearchDoesNotBuildMaps pins what makes search and bench
// cheaper to open: neither opening with the index nor searching builds the
// name and alias maps; the first name lookup does.
func TestLookups_SearchDoesNotBuildMaps(t *testing.T) {
	file := lookupsFile(rand.New(rand.NewPCG(1, 1)), 50)
	name := file[len(file)-1].Name
	m := NewMemoryWith(&File{Entries: file}, IndexNow)
	m.Search("x", 10)
	if _, ok := m.Get(file[0].ID); !ok {
		t.Fatal("Get of the first entry failed")
	}
	if m.names.first != nil || m.aliases != nil {
		t.Fatal("name and alias maps were built by open, Search or Get")
	}
	if _, ok := m.Lookup(name); !ok {
		t.Fatalf("Lookup(%q) failed", name)
	}
	if m.names.first == nil || m.aliases == nil {
		t.Fatal("Lookup did not build the maps")
	}
}
