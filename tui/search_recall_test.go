package tui

import (
	"slices"
	"strings"
	"testing"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/store"
)

// recallEntries are the entries the fake recalls below search.
func recallEntries() []store.Entry {
	return []store.Entry{
		{ID: 1, Name: "deploy-steps", Kind: store.Note, CreatedAt: 100, Content: "How we deploy: tag, build, ship."},
		{ID: 2, Name: "rollback", Kind: store.Note, CreatedAt: 200, Content: "Roll back a deployment with make rollback."},
		{ID: 3, Name: "deployer-notes", Kind: store.Note, CreatedAt: 300, Content: "The deployer runs as a service."},
		{ID: 4, Name: "lunch", Kind: store.Note, CreatedAt: 400, Content: "Nothing about shipping here."},
	}
}

// fakeRecall is a recall of neither format: it answers every query with
// the same hits (entries 2, 3, 1, best first), explains them with a
// prefix's parts, and notes the queries it was asked.
type fakeRecall struct{ asked *[]string }

func (f fakeRecall) hits() []bm25.Hit {
	return []bm25.Hit{{ID: 2, Score: 3}, {ID: 3, Score: 2}, {ID: 1, Score: 1}}
}

func (f fakeRecall) Rank(q string, limit int) ([]bm25.Hit, error) {
	*f.asked = append(*f.asked, q)
	return f.hits()[:min(limit, 3)], nil
}

func (f fakeRecall) Recall(q string, limit int) ([]bm25.Hit, []store.RecallHit, error) {
	h, _ := f.Hits(q, limit, true)
	return h.Top, h.Parts, nil
}

func (f fakeRecall) Hits(q string, limit int, explain bool) (store.Hits, error) {
	*f.asked = append(*f.asked, q)
	all := f.hits()
	h := store.Hits{Top: all[:min(limit, 2)], All: all} // the fake lists two
	if explain {
		for _, b := range h.Top {
			h.Parts = append(h.Parts, store.RecallHit{Score: b.Score, DocLen: 7, Weight: 1, Parts: []store.Part{
				{Query: "depl*", Term: "deployment", TF: 1, DF: 2, IDF: 0.5, Contrib: b.Score},
			}})
		}
	}
	return h, nil
}

func (fakeRecall) Terms(q string) []store.RecallTerm {
	var out []store.RecallTerm
	for _, w := range strings.Fields(q) {
		out = append(out, store.RecallTerm{Text: strings.TrimSuffix(w, "*"), Prefix: strings.HasSuffix(w, "*")})
	}
	return out
}

func (fakeRecall) Words(string) []store.QueryWord { return nil }

func (fakeRecall) Stand(string, int, []uint64) (store.Ranking, error) { return store.Ranking{}, nil }
func (fakeRecall) RecallStats() store.RecallStats                     { return store.RecallStats{Docs: 4, TotalLen: 28} }
func (fakeRecall) Stored() bool                                       { return false }

// TestSearch_AnyRecallIsOnePath: the screen's search takes its recall
// hits from the memory's Recaller whatever it is: a recall of neither
// format (Stored false, and no Expander) is asked the query with the word
// being typed as a prefix, lists its hits in its order, counts every hit
// it has, and explains them with its own parts; nothing ranks the
// entries behind its back, and the memory's index is not waited for (the
// search used to decide on Recaller.Stored, taking every other recall
// for a v1 file's and ranking its index instead).
func TestSearch_AnyRecallIsOnePath(t *testing.T) {
	var asked []string
	in := searchInput{query: "ops depl", snap: newSnapshot(recallEntries()), recall: fakeRecall{&asked}}
	r := runSearch(in)
	if !slices.Equal(asked, []string{"ops depl*"}) {
		t.Errorf("the recall was asked %q, want [\"ops depl*\"]", asked)
	}
	var ids []uint64
	for _, h := range r.Exact {
		ids = append(ids, h.ID)
	}
	if !slices.Equal(ids, []uint64{2, 3}) || r.ExactTotal != 3 {
		t.Errorf("recall section %v of %d, want [2 3] of 3", ids, r.ExactTotal)
	}
	if r.indexing || r.recallQuery != "ops depl*" || !slices.Equal(r.terms, []string{"ops"}) {
		t.Errorf("indexing %v, recall query %q, terms %q", r.indexing, r.recallQuery, r.terms)
	}
	if !slices.Equal(r.expansions, []string{"deployment"}) || len(r.Prefix) != 0 {
		t.Errorf("expansions %q, prefix section %v: want the recall's own, and none of the screen's", r.expansions, r.Prefix)
	}
	if r.NameTotal != 0 || r.distinct != 3 { // every hit of the recall, listed or not
		t.Errorf("%d name matches, %d hits in all; want 0 and 3", r.NameTotal, r.distinct)
	}
	x, state := r.parts.explain(r, row{Hit: hitExact, Via: hitExact}, 2)
	if state != explainReady || !x.returned || x.hit.Score != 3 || x.stats.Docs != 4 || !strings.Contains(x.query, "ops depl*") {
		t.Errorf("explain of entry 2: %v %+v", state, x)
	}
	if x, _ := r.parts.explain(r, row{Hit: hitName}, 4); x.returned {
		t.Error("entry 4, which the recall does not return, is explained as returned")
	}
}

// expanderRecall is a v1 file's recall that says it is stored (Stored
// true): the search goes by the capability (store.Expander), not by what
// Stored says.
type expanderRecall struct{ store.Recaller }

func (e expanderRecall) Index() *bm25.Index { return e.Recaller.(store.Expander).Index() }
func (expanderRecall) Stored() bool         { return true }

// TestSearch_PrefixSectionByCapability: a recall that matches whole
// words only (store.Expander) is asked the query as typed, and the
// screen expands the word being typed over the recall's index (the
// prefix section), whatever the recall's Stored says; while the index
// is being built the search gives name matches only.
func TestSearch_PrefixSectionByCapability(t *testing.T) {
	f := &store.File{Entries: recallEntries(), NextID: 5}
	rc := expanderRecall{store.V1Contents(t.TempDir()+"/memory.db", f, "").Features.Recall}
	in := searchInput{query: "depl", snap: newSnapshot(f.Entries), recall: rc, indexed: true}
	r := runSearch(in)
	if r.recallQuery != "" || r.ExactTotal != 0 || !slices.Equal(r.terms, []string{"depl"}) {
		t.Errorf("recall query %q, %d hits, terms %q: want the query as typed, which no entry holds", r.recallQuery, r.ExactTotal, r.terms)
	}
	var ids []uint64
	for _, h := range r.Prefix {
		ids = append(ids, h.ID)
	}
	slices.Sort(ids)
	if !slices.Contains(r.expansions, "deployer") || !slices.Equal(ids, []uint64{1, 2, 3}) || r.PrefixOnly != 3 {
		t.Errorf("expansions %q, prefix section %v (%d): want deploy, deployer, deployment's entries 1 2 3", r.expansions, ids, r.PrefixOnly)
	}
	if _, ok := r.parts.(indexParts); !ok {
		t.Errorf("the parts are %T, want the index's", r.parts)
	}
	in.indexed = false
	if r := runSearch(in); !r.indexing || r.ExactTotal != 0 || len(r.Prefix) != 0 || r.NameTotal != 2 {
		t.Errorf("while indexing: indexing %v, %d hits, %d prefix, %d names; want name matches only", r.indexing, r.ExactTotal, len(r.Prefix), r.NameTotal)
	}
}
