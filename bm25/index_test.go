package bm25

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
)

// randomDoc makes a document over a small vocabulary so terms collide;
// some documents have no tokens at all.
func randomDoc(rng *rand.Rand, id uint64, words []string) Doc {
	text := func(max int) string {
		n := rng.IntN(max + 1)
		ws := make([]string, n)
		for i := range ws {
			ws[i] = words[rng.IntN(len(words))]
		}
		return strings.Join(ws, " ")
	}
	d := Doc{ID: id, Content: text(12)}
	for range rng.IntN(3) {
		d.Aliases = append(d.Aliases, text(2))
	}
	return d
}

var testWords = []string{
	"alpha", "Beta", "gamma", "delta", "the", "of", "x", "epsilon", "zeta",
	"ΣΟΦΟΣ", "东京", "deploy", "deployment", "depot", "café", "v1.2", "rollback",
}

// tracked is an Index with the documents it holds, for tests that insert or
// replace by id and remove by id, as the store does with its entries.
type tracked struct {
	*Index
	mu   sync.Mutex
	held map[uint64]Doc // id → the document indexed under it
}

// track wraps ix, which indexes docs (a later duplicate id wins).
func track(ix *Index, docs ...Doc) *tracked {
	tr := &tracked{Index: ix, held: map[uint64]Doc{}}
	for _, d := range docs {
		tr.held[d.ID] = d
	}
	return tr
}

// set inserts d or replaces the document with its id.
func (tr *tracked) set(d Doc) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if old, ok := tr.held[d.ID]; ok {
		tr.Replace(old, d)
	} else {
		tr.Set(d)
	}
	tr.held[d.ID] = d
}

// remove drops the document with id, if any.
func (tr *tracked) remove(id uint64) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if old, ok := tr.held[id]; ok {
		tr.Remove(old)
		delete(tr.held, id)
	}
}

// checkInvariants checks the index's internal invariants: posting lists
// sorted by document number, dead counting exactly the tombstones and never
// exceeding the live postings, live postings only for live documents, and
// byID agreeing with docs.
func checkInvariants(t *testing.T, ix *Index) {
	t.Helper()
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	total := 0
	for term, list := range ix.postings {
		dead := 0
		for i, p := range list {
			if i > 0 && list[i-1].doc >= p.doc {
				t.Fatalf("term %q: postings not sorted by doc: %v", ix.voc.terms[term], list)
			}
			if p.tf == 0 {
				dead++
			} else if !ix.docs[p.doc].live {
				t.Fatalf("term %q: live posting for removed doc %d", ix.voc.terms[term], p.doc)
			} else {
				total += int(p.tf)
			}
		}
		if dead != int(ix.dead[term]) || 2*dead > len(list) {
			t.Fatalf("term %q: %d tombstones in %d postings, dead = %d", ix.voc.terms[term], dead, len(list), ix.dead[term])
		}
	}
	n, sortedLive := 0, 0
	for d, info := range ix.docs {
		if d > 0 && uint32(d) < ix.sorted && ix.docs[d-1].id >= info.id {
			t.Fatalf("doc %d of the %d sorted: id %d after %d", d, ix.sorted, info.id, ix.docs[d-1].id)
		}
		if info.live {
			n++
			if uint32(d) < ix.sorted {
				sortedLive++
			}
			if got, ok := ix.docNum(info.id); !ok || got != uint32(d) {
				t.Fatalf("docNum(%d) = %d, %v, want %d", info.id, got, ok, d)
			}
		}
	}
	for id, d := range ix.byID {
		if d < ix.sorted || !ix.docs[d].live || ix.docs[d].id != id {
			t.Fatalf("byID[%d] = %d: sorted below %d, doc %+v", id, d, ix.sorted, ix.docs[d])
		}
	}
	if n != ix.n || len(ix.byID)+sortedLive != n || int64(total) != ix.total {
		t.Fatalf("n = %d, byID %d + %d sorted, live docs %d; total %d, postings sum %d", ix.n, len(ix.byID), sortedLive, n, total, ix.total)
	}
}

// checkSameAsBuild compares an incrementally maintained index with a fresh
// Build over the same documents.
func checkSameAsBuild(t *testing.T, ix *Index, live map[uint64]Doc, rng *rand.Rand) {
	t.Helper()
	checkInvariants(t, ix)
	docs := make([]Doc, 0, len(live))
	for _, d := range live {
		docs = append(docs, d)
	}
	checkSameIndex(t, ix, Build(docs), live, rng)
}

// checkSameIndex compares every statistic and some searches of two indexes
// over the same live documents.
func checkSameIndex(t *testing.T, ix, fresh *Index, live map[uint64]Doc, rng *rand.Rand) {
	t.Helper()
	if ix.Len() != fresh.Len() || ix.AvgDocLen() != fresh.AvgDocLen() {
		t.Fatalf("N/avgdl = %d/%v, fresh build %d/%v", ix.Len(), ix.AvgDocLen(), fresh.Len(), fresh.AvgDocLen())
	}
	for _, w := range testWords {
		for _, term := range Tokenize(w + " " + w) {
			if ix.DocFreq(term) != fresh.DocFreq(term) {
				t.Fatalf("DocFreq(%q) = %d, fresh %d", term, ix.DocFreq(term), fresh.DocFreq(term))
			}
			for id := range live {
				if ix.TermFreq(term, id) != fresh.TermFreq(term, id) {
					t.Fatalf("TermFreq(%q, %d) = %d, fresh %d", term, id, ix.TermFreq(term, id), fresh.TermFreq(term, id))
				}
			}
		}
	}
	for id := range live {
		if ix.DocLen(id) != fresh.DocLen(id) {
			t.Fatalf("DocLen(%d) = %d, fresh %d", id, ix.DocLen(id), fresh.DocLen(id))
		}
	}
	for range 5 {
		q := randomDoc(rng, 0, testWords).Content
		limit := rng.IntN(6)
		if got, want := ix.Search(q, limit), fresh.Search(q, limit); !slices.Equal(got, want) {
			t.Fatalf("Search(%q, %d) = %v, fresh build %v", q, limit, got, want)
		}
	}
	for _, p := range []string{"", "de", "deploy", "zz"} {
		if got, want := ix.Expand(p, 4), fresh.Expand(p, 4); !slices.Equal(got, want) {
			t.Fatalf("Expand(%q) = %q, fresh %q", p, got, want)
		}
	}
}

func TestIndex_UpdatesMatchFreshBuild(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		rng := rand.New(rand.NewPCG(seed, 99))
		live := map[uint64]Doc{}
		var initial []Doc
		for id := uint64(1); id <= 30; id++ {
			d := randomDoc(rng, id, testWords)
			initial = append(initial, d)
			live[id] = d
		}
		ix := track(Build(initial), initial...)
		for step := range 200 {
			id := uint64(rng.IntN(45) + 1)
			if rng.IntN(3) == 0 {
				ix.remove(id)
				delete(live, id)
			} else {
				d := randomDoc(rng, id, testWords)
				ix.set(d)
				live[id] = d
			}
			if step%20 == 0 {
				checkSameAsBuild(t, ix.Index, live, rng)
			}
		}
		checkSameAsBuild(t, ix.Index, live, rng)
	}
}

// TestBuild_EqualsSets checks the parallel Build, with several parts and
// duplicate ids across parts, against one Set per document in order.
func TestBuild_EqualsSets(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var docs []Doc
	for range 3 * minPartDocs {
		docs = append(docs, randomDoc(rng, uint64(rng.IntN(1200)+1), testWords))
	}
	for _, parts := range []int{1, 2, 3, 8} {
		live := map[uint64]Doc{}
		seq := track(New())
		for _, d := range docs {
			live[d.ID] = d
			seq.set(d)
		}
		ix := track(buildParts(sliceSource(docs), parts), docs...)
		checkSameIndex(t, ix.Index, seq.Index, live, rng)
		// The built index keeps working under updates.
		for id := uint64(1); id <= 1200; id += 7 {
			ix.remove(id)
			seq.remove(id)
			delete(live, id)
		}
		for id := uint64(3); id <= 1300; id += 11 {
			d := randomDoc(rng, id, testWords)
			ix.set(d)
			seq.set(d)
			live[id] = d
		}
		checkSameIndex(t, ix.Index, seq.Index, live, rng)
		checkSameAsBuild(t, ix.Index, live, rng)
	}
	if got := Build(nil); got.Len() != 0 || len(got.Search("alpha", 0)) != 0 {
		t.Errorf("Build(nil) = %d documents", got.Len())
	}
}

func TestIndex_SetRemoveEdgeCases(t *testing.T) {
	ix := New()
	ix.Remove(Doc{ID: 7, Content: "alpha"}) // absent: no-op
	ix.Set(Doc{ID: 7, Content: "alpha beta alpha"})
	if ix.Len() != 1 || ix.DocLen(7) != 3 || ix.TermFreq("alpha", 7) != 2 || ix.AvgDocLen() != 3 {
		t.Fatalf("after Set: N=%d dl=%d tf=%d", ix.Len(), ix.DocLen(7), ix.TermFreq("alpha", 7))
	}
	ix.Replace(Doc{ID: 7, Content: "alpha beta alpha"}, Doc{ID: 7, Content: "the"}) // replaced by a document without tokens
	if ix.Len() != 0 || ix.DocLen(7) != 0 || ix.DocFreq("alpha") != 0 || ix.AvgDocLen() != 0 {
		t.Fatalf("after emptying: N=%d dl=%d df=%d", ix.Len(), ix.DocLen(7), ix.DocFreq("alpha"))
	}
	if hits := ix.Search("alpha", 0); len(hits) != 0 {
		t.Fatalf("emptied document still found: %v", hits)
	}
	ix.Set(Doc{ID: 8, Content: "gamma", Aliases: []string{"Alpha"}})
	if hits := ix.Search("alpha", 0); len(hits) != 1 || hits[0].ID != 8 {
		t.Fatalf("alias not indexed: %v", hits)
	}
}

func TestIndex_ConcurrentUse(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	var docs []Doc
	for id := uint64(1); id <= 200; id++ {
		docs = append(docs, randomDoc(rng, id, testWords))
	}
	ix := track(Build(docs), docs...)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 200 {
				switch w {
				case 0:
					ix.set(Doc{ID: uint64(i%50 + 1), Content: "alpha deploy new" + strings.Repeat("x", i%7+2)})
				case 1:
					ix.remove(uint64(i%60 + 100))
				case 2:
					ix.Expand("de", 5)
					ix.Explain("alpha deploy", uint64(i%50+1))
				default:
					for _, h := range ix.Search("alpha deploy gamma", 5) {
						if h.Score <= 0 {
							t.Errorf("non-positive score %v", h)
						}
					}
				}
			}
		})
	}
	wg.Wait()
}

// FuzzIndexOps replays a byte string as Set and Remove operations over a
// small vocabulary and checks the index against a fresh Build.
func FuzzIndexOps(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	f.Add([]byte{0, 0, 0, 255, 255, 17, 17, 17, 3})
	f.Add([]byte("set remove set replace deploy deploy"))
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 400 {
			ops = ops[:400]
		}
		ix := track(New())
		live := map[uint64]Doc{}
		for i := 0; i+1 < len(ops); i += 2 {
			id := uint64(ops[i] % 16)
			if ops[i+1]%5 == 0 {
				ix.remove(id)
				delete(live, id)
				continue
			}
			var words []string
			for b := ops[i+1]; b > 0; b >>= 2 {
				words = append(words, testWords[int(b+ops[i])%len(testWords)])
			}
			d := Doc{ID: id, Content: strings.Join(words, " ")}
			ix.set(d)
			live[id] = d
		}
		checkSameAsBuild(t, ix.Index, live, rand.New(rand.NewPCG(uint64(len(ops)), 1)))
	})
}

// TestBuild_SortedIDsNeedNoMap: a Build whose ids ascend (every file crmem
// or the reference writes) keeps no map entry per document: ids are found
// in the document array (docNum), the ones set later in byID, through
// replacements, removals and a renumbering; ids that do not ascend are
// all mapped.
func TestBuild_SortedIDsNeedNoMap(t *testing.T) {
	var docs []Doc
	for i := range 300 {
		d := Doc{ID: uint64(10 + 3*i), Content: fmt.Sprintf("note %d deploy w%d", i, i%7)}
		if i%50 == 0 {
			d.Content = "the" // no tokens: a number, not live
		}
		docs = append(docs, d)
	}
	ix := track(Build(docs), docs...)
	if len(ix.byID) != 0 || ix.sorted != uint32(len(docs)) {
		t.Fatalf("byID %d entries, sorted %d, want 0, %d", len(ix.byID), ix.sorted, len(docs))
	}
	checkInvariants(t, ix.Index)
	for _, d := range docs {
		if got, want := ix.DocLen(d.ID), (&d).Len(); got != want {
			t.Fatalf("DocLen(%d) = %d, want %d", d.ID, got, want)
		}
	}
	if ix.DocLen(11) != 0 || ix.DocLen(10_000) != 0 {
		t.Fatal("DocLen of an id never indexed")
	}
	live := map[uint64]Doc{}
	for _, d := range docs {
		live[d.ID] = d
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for k := range 900 { // enough replacements to renumber
		id := docs[rng.IntN(len(docs))].ID
		switch k % 3 {
		case 0:
			ix.remove(id)
			delete(live, id)
		default:
			d := Doc{ID: id, Content: fmt.Sprintf("replaced %d deploy", k)}
			ix.set(d)
			live[id] = d
		}
		if k%100 == 0 {
			checkInvariants(t, ix.Index)
		}
	}
	if len(ix.docs) >= len(docs)+600 || ix.sorted == uint32(len(docs)) {
		t.Fatalf("not renumbered: %d numbers, %d sorted", len(ix.docs), ix.sorted)
	}
	checkInvariants(t, ix.Index)
	checkSameAsBuild(t, ix.Index, live, rng)

	shuffled := slices.Clone(docs)
	shuffled[0], shuffled[1] = shuffled[1], shuffled[0]
	iy := Build(shuffled)
	if iy.sorted != 0 || len(iy.byID) != iy.n {
		t.Fatalf("ids out of order: sorted %d, byID %d entries for %d documents", iy.sorted, len(iy.byID), iy.n)
	}
	checkInvariants(t, iy)
}
