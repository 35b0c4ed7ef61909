package recalls

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/crmem/crmem/store"
)

// TestIndexRanker_AsRank checks that the ranker a report replays with
// gives exactly what the memory's own recall (Rank) gives, names and
// scores, for queries asked again in other words and at other limits:
// wider after narrower, past TieWindow, every hit, none.
func TestIndexRanker_AsRank(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.db")
	if err := os.WriteFile(path, store.Encode(0, synthetic(400)), 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := store.OpenWith(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rank := SourceRanker(db)
	recall, mem := db.Features().Recall, db.Memory()
	queries := []string{"deploy", "Deploy deploy", "deploy canary", "canary deploy", "canary, DEPLOY!", "agent memory recall session", "session recall memory agent", "canary", "nothing matches this", ""}
	limits := []int{1, 3, 5, 2, 40, 33, 100, 0, -1, math.MaxInt, 5}
	for round := range 2 { // the second round asks every term again
		for _, q := range queries {
			for _, limit := range limits {
				got, err := rank(q, limit)
				if err != nil {
					t.Fatal(err)
				}
				hits, err := recall.Rank(q, limit)
				if err != nil {
					t.Fatal(err)
				}
				want := named(mem, hits)
				if !slices.Equal(got.Names, want.Names) || !slices.Equal(got.Scores, want.Scores) || got.TiedPast != nil {
					t.Errorf("round %d: rank(%q, %d) = %q %v, Rank %q %v", round, q, limit, got.Names, got.Scores, want.Names, want.Scores)
				}
			}
		}
	}
}

// TestIndexRanker_Groups checks that once the queries come back to the
// same words the ranker ranks them by the index's groups (bm25.Groups),
// and still gives exactly what Rank gives, at every limit.
func TestIndexRanker_Groups(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.db")
	if err := os.WriteFile(path, store.Encode(0, synthetic(600)), 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := store.OpenWith(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ex, ok := db.Features().Recall.(store.Expander)
	if !ok {
		t.Fatal("a v1 file's recall is not an Expander")
	}
	x := newIndexRanking(ex, db.Memory())
	recall, mem := db.Features().Recall, db.Memory()
	for i, q := range benchQueries(mem, 400) {
		limit := []int{5, 1, 8, 3, 64, 65, 37}[i%7]
		got, err := x.rank(q.Text, limit)
		if err != nil {
			t.Fatal(err)
		}
		hits, err := recall.Rank(q.Text, limit)
		if err != nil {
			t.Fatal(err)
		}
		want := named(mem, hits)
		if !slices.Equal(got.Names, want.Names) || !slices.Equal(got.Scores, want.Scores) {
			t.Fatalf("rank(%q, %d) = %q %v, Rank %q %v", q.Text, limit, got.Names, got.Scores, want.Names, want.Scores)
		}
	}
	x.gr.mu.Lock()
	defer x.gr.mu.Unlock()
	if x.gr.groups == nil {
		t.Error("400 queries of the same few words ranked without groups")
	}
}

// TestIndexRanker_GroupsConcurrent replays queries of the same few words on
// four goroutines at once, as Stream does, while the groups are made and
// made again (run with -race): every ranking is still Rank's.
func TestIndexRanker_GroupsConcurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.db")
	if err := os.WriteFile(path, store.Encode(0, synthetic(600)), 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := store.OpenWith(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	recall, mem := db.Features().Recall, db.Memory()
	qs := benchQueries(mem, 600)
	for i := range qs {
		qs[i].Limit = 1 + i%9
	}
	got, err := Replay(SourceRanker(db), qs, 4)
	if err != nil {
		t.Fatal(err)
	}
	for i, q := range qs {
		hits, err := recall.Rank(q.Text, q.Limit)
		if err != nil {
			t.Fatal(err)
		}
		want := named(mem, hits)
		if !slices.Equal(got[i].Names, want.Names) || !slices.Equal(got[i].Scores, want.Scores) {
			t.Fatalf("Replay %q at %d = %q %v, Rank %q %v", q.Text, q.Limit, got[i].Names, got[i].Scores, want.Names, want.Scores)
		}
	}
}
