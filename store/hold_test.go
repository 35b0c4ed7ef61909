package store

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// HoldIndex holds a build at its next document until every hold is
// released (issue 40 §2: a query typed before the index is built is
// ranked with the cores to itself); the index built after is the one an
// unheld build makes.
func TestHoldIndex_TheBuildWaitsForEveryRelease(t *testing.T) {
	words := strings.Fields("deploy release notes postgres migration canary rollback cache vector index the a")
	rng := rand.New(rand.NewPCG(40, 2))
	file := make([]Entry, 3000)
	for i := range file {
		var b strings.Builder
		for range 1 + rng.IntN(40) {
			b.WriteString(words[rng.IntN(len(words))] + " ")
		}
		file[i] = Entry{ID: uint64(i + 1), Name: fmt.Sprintf("n%d", i), Content: b.String()}
	}
	m := NewMemoryWith(&File{Entries: slices.Clone(file)}, IndexOnDemand)
	first, second := m.HoldIndex(), m.HoldIndex()
	m.StartBackground()
	for m.hold.waiting.Load() == 0 && !m.IndexReady() { // the build reached the hold
		runtime.Gosched()
	}
	first()
	first() // a release twice is once
	if m.IndexReady() {
		t.Fatal("the index was built while a hold was in force")
	}
	second()
	ix := m.Index()
	want := NewMemoryWith(&File{Entries: slices.Clone(file)}, IndexNow).Index()
	if ix.Len() != want.Len() || ix.TotalLen() != want.TotalLen() {
		t.Fatalf("held build: %d documents of %d tokens; unheld: %d, %d", ix.Len(), ix.TotalLen(), want.Len(), want.TotalLen())
	}
	for _, w := range words {
		if got, want := ix.Search(w, 0), want.Search(w, 0); !slices.Equal(got, want) {
			t.Errorf("%q: held build %v, unheld %v", w, got, want)
		}
	}
	if m.hold.n != 0 || m.hold.held.Load() || m.hold.waiting.Load() != 0 {
		t.Errorf("holds left: %d in force, %d waiting", m.hold.n, m.hold.waiting.Load())
	}
	m.HoldIndex()() // once built, a hold holds nothing
}
