package bm25

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// commonDocs returns 40 documents, the first 10 of which contain "common".
func commonDocs() []Doc {
	docs := make([]Doc, 40)
	for i := range docs {
		docs[i] = Doc{ID: uint64(i + 1), Content: fmt.Sprintf("word%d filler%d", i, i%3)}
		if i < 10 {
			docs[i].Content += " common"
		}
	}
	return docs
}

// postingsOf returns term's posting list and tombstone count.
func postingsOf(ix *Index, term string) ([]posting, int) {
	t, _ := ix.voc.lookup(term)
	return ix.postings[t], int(ix.dead[t])
}

// TestTombstones_ListCompaction removes documents containing a term one by
// one: the postings stay as tombstones (df dropping, Search, Explain and
// Expand skipping them) until they outnumber the live ones, and then the
// list is compacted in place.
func TestTombstones_ListCompaction(t *testing.T) {
	docs := commonDocs()
	ix := track(Build(docs), docs...)
	live := map[uint64]Doc{}
	for _, d := range docs {
		live[d.ID] = d
	}
	rng := rand.New(rand.NewPCG(1, 2))
	wantLen, wantDead := 10, 0
	for k := 1; k <= 10; k++ {
		ix.remove(uint64(k))
		delete(live, uint64(k))
		list, dead := postingsOf(ix.Index, "common")
		// Tombstones stay while they are at most the live postings.
		if wantDead++; 2*wantDead > wantLen {
			wantLen, wantDead = wantLen-wantDead, 0
		}
		if k == 5 && (wantLen != 10 || wantDead != 5) || k == 6 && (wantLen != 4 || wantDead != 0) {
			t.Fatalf("test's model is off at k = %d: %d, %d", k, wantLen, wantDead)
		}
		if len(list) != wantLen || dead != wantDead {
			t.Fatalf("after %d removals: %d postings, %d dead; want %d, %d", k, len(list), dead, wantLen, wantDead)
		}
		if df := ix.DocFreq("common"); df != 10-k {
			t.Fatalf("after %d removals: DocFreq = %d", k, df)
		}
		hits := ix.Search("common", 0)
		if len(hits) != 10-k || (len(hits) > 0 && hits[len(hits)-1].ID != uint64(k+1)) {
			t.Fatalf("after %d removals: Search = %v", k, hits)
		}
		ex := ix.Explain("common", uint64(k))
		if ex.Terms[0].TF != 0 || ex.Terms[0].DF != 10-k || ex.Score != 0 || ex.DocLen != 0 {
			t.Fatalf("after %d removals: Explain of the removed doc = %+v", k, ex)
		}
		got := ix.Expand("comm", 3)
		if want := []string{"common"}; k == 10 {
			want = nil
			if len(got) != 0 {
				t.Fatalf("Expand after removing every holder = %q", got)
			}
		} else if !slices.Equal(got, want) {
			t.Fatalf("after %d removals: Expand = %q", k, got)
		}
		checkSameAsBuild(t, ix.Index, live, rng)
	}
	if len(ix.docs) != 40 {
		t.Errorf("document numbers compacted early: %d numbers for %d documents", len(ix.docs), ix.Len())
	}
}

// TestCompactDocs_Renumbers replaces one document until the numbers of
// replaced versions outnumber the live documents; the index then renumbers
// densely and keeps answering like a fresh Build.
func TestCompactDocs_Renumbers(t *testing.T) {
	docs := commonDocs()[:10]
	ix := track(Build(docs), docs...)
	live := map[uint64]Doc{}
	for _, d := range docs {
		live[d.ID] = d
	}
	vocab := len(ix.voc.terms)
	if vocab/4 >= 10 {
		t.Fatalf("test assumes a small vocabulary, got %d terms", vocab)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for k := 1; k <= 11; k++ {
		d := Doc{ID: 3, Content: fmt.Sprintf("common replaced%d word2", k%2)}
		ix.set(d)
		live[3] = d
		want := 10 + k // each replacement takes a new number
		if k == 11 {   // 11 dead numbers > 10 live documents: renumbered
			want = 10
		}
		if len(ix.docs) != want {
			t.Fatalf("after %d replacements: %d document numbers, want %d", k, len(ix.docs), want)
		}
		checkSameAsBuild(t, ix.Index, live, rng)
	}
	if list, dead := postingsOf(ix.Index, "common"); len(list) != 10 || dead != 0 {
		t.Errorf("after renumbering: %d postings, %d dead", len(list), dead)
	}
}

// TestCompactDocs_EmptyIndex removes everything: the index empties to no
// document numbers and keeps working.
func TestCompactDocs_EmptyIndex(t *testing.T) {
	docs := commonDocs()
	ix := track(Build(docs), docs...)
	for _, d := range docs {
		ix.remove(d.ID)
	}
	if ix.Len() != 0 || len(ix.docs) > len(ix.voc.terms)/4+1 || ix.DocFreq("common") != 0 {
		t.Fatalf("emptied index: N=%d, %d numbers, df %d", ix.Len(), len(ix.docs), ix.DocFreq("common"))
	}
	checkInvariants(t, ix.Index)
	ix.set(Doc{ID: 99, Content: "common again"})
	if hits := ix.Search("common", 0); len(hits) != 1 || hits[0].ID != 99 {
		t.Fatalf("Search after refilling = %v", hits)
	}
}

// TestRemove_StaleDoc checks that a wrong old document is refused rather
// than corrupting the index, and that Set refuses an indexed id.
func TestRemove_StaleDoc(t *testing.T) {
	ix := Build([]Doc{{ID: 1, Content: "alpha beta"}, {ID: 2, Content: "beta gamma"}})
	for name, f := range map[string]func(){
		"unknown term": func() { ix.Remove(Doc{ID: 1, Content: "alpha zeta"}) },
		"other length": func() { ix.Remove(Doc{ID: 1, Content: "alpha beta beta"}) },
		"absent term":  func() { ix.Replace(Doc{ID: 1, Content: "alpha gamma"}, Doc{ID: 1}) },
		"set indexed":  func() { ix.Set(Doc{ID: 2, Content: "delta"}) },
		"replace onto": func() { ix.Replace(Doc{ID: 7}, Doc{ID: 2, Content: "delta"}) },
	} {
		func() {
			defer func() {
				r := recover()
				if r == nil {
					t.Errorf("%s: no panic", name)
				}
				if err, ok := r.(error); ok && !errors.Is(err, ErrStaleDoc) {
					t.Errorf("%s: panic %v", name, err)
				}
			}()
			f()
		}()
	}
}

// TestBuild_Escapes builds with term frequencies around the packed limit
// and with local term ids escaped from a low limit: the index must equal
// one made by Sets.
func TestBuild_Escapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var docs []Doc
	for i := range 3 * minPartDocs {
		d := randomDoc(rng, uint64(rng.IntN(1400)+1), testWords)
		if i%97 == 0 {
			reps := []int{tfEscape - 1, tfEscape, tfEscape + 1, 3 * tfEscape}[i%4]
			d.Content += strings.Repeat(" many", reps)
		}
		docs = append(docs, d)
	}
	seq := track(New())
	live := map[uint64]Doc{}
	for _, d := range docs {
		seq.set(d)
		live[d.ID] = d
	}
	for _, limit := range []uint32{0, 3, termEscape} {
		for _, parts := range []int{1, 3} {
			ix := buildPacked(sliceSource(docs), parts, limit)
			checkInvariants(t, ix)
			checkSameIndex(t, ix, seq.Index, live, rng)
			for id := range live {
				if ix.TermFreq("many", id) != seq.TermFreq("many", id) {
					t.Fatalf("limit %d: TermFreq(many, %d) = %d, want %d", limit, id, ix.TermFreq("many", id), seq.TermFreq("many", id))
				}
			}
		}
	}
	if seq.DocFreq("many") == 0 {
		t.Fatal("test documents lack the repeated term")
	}
}

// TestBuildFunc_EqualsBuild checks BuildFunc against Build.
func TestBuildFunc_EqualsBuild(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	var docs []Doc
	live := map[uint64]Doc{}
	for range 2 * minPartDocs {
		d := randomDoc(rng, uint64(rng.IntN(900)+1), testWords)
		docs = append(docs, d)
		live[d.ID] = d
	}
	ix := BuildFunc(len(docs), func(i int) Doc { return docs[i] })
	checkInvariants(t, ix)
	checkSameIndex(t, ix, Build(docs), live, rng)
}

// TestReplace_PanicLeavesIndexUnchanged checks that a refused Replace or
// Remove changes nothing.
func TestReplace_PanicLeavesIndexUnchanged(t *testing.T) {
	docs := []Doc{{ID: 1, Content: "alpha beta"}, {ID: 2, Content: "beta gamma"}}
	ix := Build(docs)
	for _, f := range []func(){
		func() { ix.Replace(Doc{ID: 1, Content: "alpha gamma"}, Doc{ID: 1, Content: "delta"}) },
		func() { ix.Replace(docs[0], Doc{ID: 2, Content: "delta"}) },
		func() { ix.Remove(Doc{ID: 2, Content: "beta alpha"}) },
	} {
		func() {
			defer func() { _ = recover() }()
			f()
		}()
		checkInvariants(t, ix)
		live := map[uint64]Doc{1: docs[0], 2: docs[1]}
		checkSameIndex(t, ix, Build(docs), live, rand.New(rand.NewPCG(1, 1)))
	}
}

// TestFindDoc checks the interpolation search against a binary search on
// even, clustered and exponentially skewed lists, for present and absent
// numbers.
func TestFindDoc(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	spreads := map[string]func(i int) uint32{
		"even":      func(i int) uint32 { return uint32(3*i + rng.IntN(3)) },
		"clustered": func(i int) uint32 { return uint32(i + (i/50)*10000) },
		"skewed":    func(i int) uint32 { return uint32(i) + 1<<min(i/8, 31) },
	}
	for name, at := range spreads {
		for _, n := range []int{0, 1, 2, 9, 10, 100, 5000} {
			var list []posting
			for i := range n {
				d := at(i)
				if len(list) > 0 && d <= list[len(list)-1].doc {
					d = list[len(list)-1].doc + 1
				}
				list = append(list, posting{doc: d, tf: 1})
			}
			for range 300 {
				doc := uint32(rng.Uint64N(uint64(at(n)) + 3))
				if n > 0 && rng.IntN(2) == 0 {
					doc = list[rng.IntN(n)].doc
				}
				span := at(n) + 3 // above every number in list and every doc tried
				i, found := findDoc(list, doc, span)
				wi, wfound := slices.BinarySearchFunc(list, doc, func(p posting, d uint32) int {
					return int(int64(p.doc) - int64(d))
				})
				if i != wi || found != wfound {
					t.Fatalf("%s, n=%d: findDoc(%d) = %d, %v; want %d, %v", name, n, doc, i, found, wi, wfound)
				}
			}
		}
	}
}
