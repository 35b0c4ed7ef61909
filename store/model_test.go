package store_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/crmem/crmem/store"
)

// modelWriter is a lock-free writer driven at the save's hook points: it
// adds "f-N" entries by read-modify-write, and at the instant our version
// is visible (between the exchange and the put back) it may read that
// version and write on top of it at a later hook point — the race of
// issue 9 — which loses the entry the exchange displaced unless crmem
// carries it forward.
type modelWriter struct {
	t     *testing.T
	path  string
	rng   *rand.Rand
	n     int
	stale *store.File // a version read at the instant, to be written later
	added []string
}

func (w *modelWriter) write(base *store.File) {
	name := fmt.Sprintf("f-%d", w.n)
	w.n++
	// Its ids sometimes skip ahead (it may have handed some out and lost
	// them), so its entry and ours do not always share an id.
	id := max(base.NextID, 1) + uint64(w.rng.IntN(2)*5)
	externalWrite(w.t, w.path, id+1, append(slices.Clone(base.Entries), note(id, name, "foreign"))...)
	w.added = append(w.added, name)
}

func (w *modelWriter) read() *store.File {
	if _, err := os.Stat(w.path); err != nil {
		return &store.File{NextID: 1}
	}
	return onDisk(w.t, w.path)
}

// act is called at a hook point: finish a pending write from a stale read,
// or now and then write on top of the current file.
func (w *modelWriter) act() {
	switch {
	case w.stale != nil && w.rng.IntN(2) == 0:
		w.write(w.stale)
		w.stale = nil
	case w.stale == nil && w.rng.IntN(3) == 0:
		w.write(w.read())
	}
}

// instant is called while our version is visible.
func (w *modelWriter) instant() {
	if w.stale == nil && w.rng.IntN(2) == 0 {
		w.stale = w.read()
		return
	}
	w.act()
}

// TestApply_RandomInterleavings runs many adds with a lock-free writer
// acting at random at every point of the save: at the end every entry of
// either writer is in the file, and every add reported its truth.
func TestApply_RandomInterleavings(t *testing.T) {
	for seed := range uint64(20) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			path := writeDB(t, 2, note(1, "start", "x"))
			w := &modelWriter{t: t, path: path, rng: rand.New(rand.NewPCG(seed, 9))}
			var ours []string
			for i := range 30 {
				db := openDB(t, path)
				store.SetBeforeSwap(db, w.act)
				store.SetBeforeExchange(db, w.act)
				store.SetBetweenSwaps(db, w.instant)
				name := fmt.Sprintf("c-%d", i)
				if _, err := db.Apply(store.Add{Name: name, Content: "crmem"}); err != nil {
					t.Fatalf("add %s: %v", name, err)
				}
				ours = append(ours, name)
				// A read of our instant version not written back by the
				// end of the save is dropped: once the save is over,
				// nothing crmem does can stand in its way.
				w.stale = nil
				if w.rng.IntN(2) == 0 {
					w.write(w.read())
				}
			}
			got := map[string]bool{}
			for _, e := range onDisk(t, path).Entries {
				got[e.Name] = true
			}
			for _, n := range slices.Concat(w.added, ours) {
				if !got[n] {
					t.Errorf("%s lost (%d foreign writes, %d adds)", n, len(w.added), len(ours))
				}
			}
		})
	}
}
