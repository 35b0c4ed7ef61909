package store_test

import (
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/crmem/crmem/store"
)

// TestApply_ForeignVersionPutBackAtOnce: when the exchange displaces a
// version nobody told us about, that version is back at the target before
// the next round even starts (not after a whole merge round of ours being
// visible, during which a lock-free writer could read ours and lose theirs).
func TestApply_ForeignVersionPutBackAtOnce(t *testing.T) {
	path := writeDB(t, 3, note(1, "a", "x"), note(2, "b", "y"))
	db := openDB(t, path)
	round := 0
	var between, secondRound []string
	store.SetBeforeExchange(db, func() {
		switch round++; round {
		case 1:
			externalWrite(t, path, 4, note(1, "a", "x"), note(2, "b", "y"), note(3, "theirs", "z"))
		case 2:
			secondRound = diskNames(t, path)
		}
	})
	store.SetBetweenSwaps(db, func() { between = diskNames(t, path) })
	dbApply(t, db, store.Add{Name: "mine", Content: "m"})
	if !slices.Equal(between, []string{"a", "b", "mine"}) {
		t.Errorf("between the exchanges the file holds %v, want ours", between)
	}
	if !slices.Equal(secondRound, []string{"a", "b", "theirs"}) {
		t.Errorf("when the second round starts the file holds %v, want theirs put back", secondRound)
	}
	if got := diskNames(t, path); !slices.Equal(got, []string{"a", "b", "mine", "theirs"}) {
		t.Errorf("file holds %v", got)
	}
}

// TestApply_ReaderOfOurInstantVersion: a lock-free writer reads our version
// in the instant it is visible (it lacks the entry our exchange displaced),
// and writes its own version on top of it after the put back. The
// displaced entry is carried forward, and our Add, already in that
// version, is not reported as a failure ("name already taken").
// Their entry takes the id ours takes (both writers read next_id 3), or
// another one.
func TestApply_ReaderOfOurInstantVersion(t *testing.T) {
	for _, theirID := range []uint64{3, 10} {
		t.Run(fmt.Sprint(theirID), func(t *testing.T) { testReaderOfOurInstantVersion(t, theirID) })
	}
}

func testReaderOfOurInstantVersion(t *testing.T, theirID uint64) {
	path := writeDB(t, 3, note(1, "a", "x"), note(2, "b", "y"))
	db := openDB(t, path)
	round := 0
	var seen *store.File
	store.SetBeforeExchange(db, func() {
		switch round++; round {
		case 1:
			externalWrite(t, path, theirID+1, note(1, "a", "x"), note(2, "b", "y"), note(theirID, "theirs", "z"))
		case 2: // it writes what it read plus its own entry
			late := append(slices.Clone(seen.Entries), note(seen.NextID, "late", "l"))
			externalWrite(t, path, seen.NextID+1, late...)
		}
	})
	store.SetBetweenSwaps(db, func() { seen = onDisk(t, path) })
	changes, err := db.Apply(store.Add{Name: "mine", Content: "m"})
	if err != nil {
		t.Fatalf("apply: %v (the add had landed)", err)
	}
	if len(changes) != 1 || changes[0].After == nil || changes[0].After.Name != "mine" {
		t.Errorf("changes %+v, want the add of mine", changes)
	}
	got := diskNames(t, path)
	slices.Sort(got)
	if !slices.Equal(got, []string{"a", "b", "late", "mine", "theirs"}) {
		t.Errorf("file holds %v, want every writer's entry", got)
	}
	ids := map[uint64]bool{}
	for _, e := range onDisk(t, path).Entries {
		if ids[e.ID] {
			t.Errorf("id %d used twice", e.ID)
		}
		ids[e.ID] = true
	}
}

// TestApply_WriterBetweenExchanges: a writer replaces our version in the
// instant between the exchange and the put back. The put back takes its
// version off the target; its change is carried into ours.
func TestApply_WriterBetweenExchanges(t *testing.T) {
	path := writeDB(t, 3, note(1, "a", "x"), note(2, "b", "y"))
	db := openDB(t, path)
	round := 0
	store.SetBeforeExchange(db, func() {
		if round++; round == 1 {
			externalWrite(t, path, 4, note(1, "a", "x"), note(2, "b", "y"), note(3, "theirs", "z"))
		}
	})
	store.SetBetweenSwaps(db, func() {
		store.SetBetweenSwaps(db, nil)
		f := onDisk(t, path) // ours
		externalWrite(t, path, f.NextID+1, append(f.Entries, note(f.NextID, "sneak", "s"))...)
	})
	dbApply(t, db, store.Add{Name: "mine", Content: "m"})
	got := diskNames(t, path)
	slices.Sort(got)
	if !slices.Equal(got, []string{"a", "b", "mine", "sneak", "theirs"}) {
		t.Errorf("file holds %v, want every writer's entry", got)
	}
	if _, err := os.Stat(path + ".tmp"); err == nil {
		t.Error("a temp file was left")
	}
}

// TestApply_WriterBeforeCheckNeverSeesOurs: a writer that lands while our
// temp file is written is found by the check just before the exchange, and
// merged with before anything of ours is visible: nothing is displaced.
func TestApply_WriterBeforeCheckNeverSeesOurs(t *testing.T) {
	path := writeDB(t, 3, note(1, "a", "x"), note(2, "b", "y"))
	db := openDB(t, path)
	store.SetBeforeSwap(db, func() {
		store.SetBeforeSwap(db, nil)
		externalWrite(t, path, 4, note(1, "a", "x"), note(2, "b", "y"), note(3, "theirs", "z"))
	})
	displaced := 0
	store.SetBetweenSwaps(db, func() { displaced++ })
	dbApply(t, db, store.Add{Name: "mine", Content: "m"})
	if displaced != 0 {
		t.Errorf("%d versions displaced, want 0 (the check finds the writer)", displaced)
	}
	if got := diskNames(t, path); !slices.Equal(got, []string{"a", "b", "mine", "theirs"}) {
		t.Errorf("file holds %v", got)
	}
}
