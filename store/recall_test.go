package store

import (
	"cmp"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/crmem/crmem/bm25"
)

// TestV1Recall: a v1 file's recall, over a followed memory (DB) or a file
// read once (Contents), ranks as File.Search does; Recall returns the
// same hits as Rank, each explained with every query term, the parts
// summing to the score; a limit of 0 or less returns nothing, as the
// agent's recall; a file read once ranks the same before and after its
// index is built.
func TestV1Recall(t *testing.T) {
	ref, recallers := v1Recallers(t)
	for name, r := range recallers {
		if r.Stored() {
			t.Errorf("%s: a v1 recall says it ranks by a stored index", name)
		}
		for _, q := range []string{"deploy", "postgres migration", "the", "zzz"} {
			for _, limit := range []int{-1, 0, 1, 3, 1000} {
				want := ref.Search(q, max(limit, 0))
				if limit <= 0 {
					want = nil
				}
				ranked, err := r.Rank(q, limit)
				if err != nil || len(ranked) != len(want) {
					t.Fatalf("%s: Rank(%q, %d) = %d hits, %v; want %d", name, q, limit, len(ranked), err, len(want))
				}
				hits, parts, err := r.Recall(q, limit)
				if err != nil || len(hits) != len(want) || len(parts) != len(want) {
					t.Fatalf("%s: Recall(%q, %d) = %d hits, %d parts, %v", name, q, limit, len(hits), len(parts), err)
				}
				for i, w := range want {
					if ranked[i].ID != w.Entry.ID || ranked[i].Score != w.Score || hits[i] != ranked[i] || parts[i].Name != w.Entry.Name {
						t.Errorf("%s: %q hit %d: rank %+v, recall %+v %q; want %d %v %q", name, q, i, ranked[i], hits[i], parts[i].Name, w.Entry.ID, w.Score, w.Entry.Name)
					}
					sum := 0.0
					for _, p := range parts[i].Parts {
						sum += p.Contrib
					}
					if math.Abs(sum-w.Score) > 1e-9*w.Score || len(parts[i].Parts) == 0 || parts[i].DocLen == 0 {
						t.Errorf("%s: %q hit %d explained %+v, score %v", name, q, i, parts[i], w.Score)
					}
				}
			}
		}
		if st := r.RecallStats(); st.Docs == 0 || st.TotalLen == 0 {
			t.Errorf("%s: stats %+v", name, st)
		}
	}
}

// TestV1Recall_Hits: a v1 file's recall gives every hit of a query
// (Recaller.Hits) as Rank ranks them: the first limit in Rank's order,
// explained as Recall explains them when asked (else no parts), and
// every hit, however many, in any order; its terms are whole words, as
// bm25 gives them (sorted; a `*` is no prefix); it expands the word
// being typed over its own index (Expander).
func TestV1Recall_Hits(t *testing.T) {
	_, recallers := v1Recallers(t)
	for name, r := range recallers {
		every, _ := r.Rank("deploy postgres", math.MaxInt32)
		if len(every) < 3 {
			t.Fatalf("%s: %d hits, want at least 3", name, len(every))
		}
		h, err := r.Hits("deploy postgres", 2, false)
		if err != nil || !slices.Equal(h.Top, every[:2]) || h.Parts != nil || len(h.All) != len(every) {
			t.Errorf("%s: top %v, %d parts, %d in all, %v; want %v, none, %d", name, h.Top, len(h.Parts), len(h.All), err, every[:2], len(every))
		}
		all := slices.Clone(h.All)
		slices.SortFunc(all, func(a, b bm25.Hit) int { return cmp.Compare(a.ID, b.ID) })
		want := slices.Clone(every)
		slices.SortFunc(want, func(a, b bm25.Hit) int { return cmp.Compare(a.ID, b.ID) })
		if !slices.Equal(all, want) {
			t.Errorf("%s: every hit %v, want %v", name, all, want)
		}
		_, parts, _ := r.Recall("deploy postgres", 2)
		if h, _ := r.Hits("deploy postgres", 2, true); !reflect.DeepEqual(h.Parts, parts) {
			t.Errorf("%s: explained %+v, want Recall's %+v", name, h.Parts, parts)
		}
		if h, _ := r.Hits("deploy", 0, false); len(h.Top) != 0 || len(h.All) == 0 {
			t.Errorf("%s: limit 0: %d listed, %d in all; want none listed, every hit counted", name, len(h.Top), len(h.All))
		}
		if got := r.Terms("Deploy depl*"); !slices.Equal(got, []RecallTerm{{Text: "depl"}, {Text: "deploy"}}) {
			t.Errorf("%s: terms %v", name, got)
		}
		if x, ok := r.(Expander); !ok || len(x.Index().Expand("depl", 8)) == 0 {
			t.Errorf("%s: not an Expander over its index", name)
		}
	}
}

// v1Recallers are the two recalls of a copy of the small v1 fixture, over
// a followed memory ("db") and over the file read once ("contents"), with
// the file decoded apart (ref) to compare them with.
func v1Recallers(t *testing.T) (ref *File, recallers map[string]Recaller) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "reference", "crmem", "small.db"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "memory.db")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if ref, err = Decode(data); err != nil {
		t.Fatal(err)
	}
	return ref, map[string]Recaller{"db": db.Features().Recall, "contents": V1Contents(path, f, "").Features.Recall}
}
