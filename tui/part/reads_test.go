package part

import (
	"testing"

	"github.com/crmem/crmem/store/history"
)

type stubIndex struct{}

func (stubIndex) History(string) history.History { return history.History{} }
func (stubIndex) Forgotten() []history.Forgotten { return nil }
func (stubIndex) Summary(string) history.Summary { return history.Summary{} }

// A view reads each new index once and takes only the read it waits for:
// one from an index replaced meanwhile is dropped.
func TestReads_EachIndexOnceNewestWins(t *testing.T) {
	var r Reads
	if _, _, ok := r.Ask(History{Gen: 1}); ok {
		t.Fatal("asked to read with no index built")
	}
	if _, gen, ok := r.Ask(History{Index: stubIndex{}, Gen: 1}); !ok || gen != 1 {
		t.Fatalf("first index: ok %v gen %d", ok, gen)
	}
	if _, _, ok := r.Ask(History{Index: stubIndex{}, Gen: 1}); ok {
		t.Fatal("the index being read asked for again")
	}
	if r.Read() || r.Updating(false) {
		t.Fatal("nothing taken yet, but Read or Updating")
	}
	if _, gen, ok := r.Ask(History{Index: stubIndex{}, Gen: 2}); !ok || gen != 2 {
		t.Fatalf("a newer index while the first is read: ok %v gen %d", ok, gen)
	}
	if r.Take(1) {
		t.Fatal("the read of a replaced index was taken")
	}
	if !r.Take(2) || r.Of() != 2 || !r.Read() {
		t.Fatalf("the awaited read was not taken: of %d", r.Of())
	}
	if r.Updating(false) || !r.Updating(true) {
		t.Fatal("Updating should follow a build once a read is taken")
	}
	if _, _, ok := r.Ask(History{Index: stubIndex{}, Gen: 2}); ok {
		t.Fatal("the index read asked for again")
	}
	if _, _, ok := r.Ask(History{Index: stubIndex{}, Gen: 3}); !ok || !r.Updating(false) {
		t.Fatal("a third index: not asked, or not shown as updating")
	}
}
