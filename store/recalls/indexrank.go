package recalls

import (
	"strings"
	"sync"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/store"
)

// indexRanker is SourceRanker for a recall that is BM25 over the memory's
// index (store.Expander: Rank(query, limit) is the index's Search of
// query, at most limit hits). It gives what that Rank gives, cheaper for
// many queries:
//
//   - a query is ranked once per set of terms, not per wording and limit:
//     BM25 sees only the query's sorted, distinct terms, and its ranking
//     is one order (score, then id), so the best limit hits are the
//     first limit of any longer ranking;
//   - once the queries' terms are few (an agent comes back to the same
//     words) the index's documents are grouped by which of them they
//     hold (bm25.Groups), and a query of those terms reads only the
//     groups and rows that can reach its best hits; the groups are made
//     again, with the new terms, once the queries ranked without them
//     would have read, adding up their postings, as many postings as
//     making them reads;
//   - a query the groups do not rank, of at most six terms (an agent's
//     recalls ask a few words), is ranked by bm25.Subsets, which splits
//     the documents by which of its terms they hold and reads only the
//     sets, and the blocks of them, that can reach its best hits,
//     however many distinct words the queries ask;
//   - any other query is ranked by bm25.Many, which shares each term's
//     scoring between the queries that ask it.
//
// At most maxRanked rankings are kept; past that they are dropped and
// made again as queries ask.
func indexRanker(ex store.Expander, mem *store.Memory) Ranker {
	return newIndexRanking(ex, mem).rank
}

// indexRanking is indexRanker's state.
type indexRanking struct {
	ex      store.Expander
	mem     *store.Memory
	subsets func() *bm25.Subsets
	many    func() *bm25.Many
	mu      sync.Mutex
	kept    map[string]wideRanking
	gr      groupRanker
}

func newIndexRanking(ex store.Expander, mem *store.Memory) *indexRanking {
	return &indexRanking{ex: ex, mem: mem, kept: map[string]wideRanking{},
		subsets: sync.OnceValue(func() *bm25.Subsets { return ex.Index().Subsets() }),
		many:    sync.OnceValue(func() *bm25.Many { return ex.Index().Many() })}
}

// rank is the Ranker.
func (x *indexRanking) rank(query string, limit int) (Ranked, error) {
	if limit <= 0 {
		return named(x.mem, nil), nil // as Rank: the agent's recall returns nothing
	}
	terms := bm25.QueryTerms(query)
	key := strings.Join(terms, "\x00")
	x.mu.Lock()
	w, ok := x.kept[key]
	x.mu.Unlock()
	if !ok || !w.covers(limit) {
		hits, ok := x.gr.search(terms, limit)
		if !ok {
			if hits, ok = x.subsets().SearchTerms(terms, limit); !ok {
				hits = x.many().SearchTerms(terms, limit)
			}
			x.gr.missed(x.ex.Index(), terms)
		}
		w = wideRanking{hits, limit}
		x.mu.Lock()
		if len(x.kept) >= maxRanked {
			clear(x.kept)
		}
		x.kept[key] = w
		x.mu.Unlock()
	}
	return named(x.mem, w.cut(limit)), nil
}

// groupRanker ranks queries by bm25.Groups of the terms queries asked,
// made once the queries ranked without them have read as many postings
// as making them reads. Safe for concurrent use.
type groupRanker struct {
	mu       sync.Mutex
	groups   *bm25.Groups
	asked    map[string]bool // the terms of every query ranked without the groups
	owed     int             // postings those queries read since the groups were made
	building chan struct{}   // closed once the groups being made are in
	off      bool            // more terms than groups take, or too many groups: never again
}

// search ranks terms by the groups, waiting for those being made (a
// query costs more than making them); ok is false when there are none
// yet or they cannot rank terms.
func (r *groupRanker) search(terms []string, limit int) ([]bm25.Hit, bool) {
	r.mu.Lock()
	g, building := r.groups, r.building
	r.mu.Unlock()
	if building != nil {
		<-building
		r.mu.Lock()
		g = r.groups
		r.mu.Unlock()
	}
	if g == nil {
		return nil, false
	}
	return g.SearchTerms(terms, limit)
}

// missed notes a query ranked without the groups, and makes them again,
// with its terms, once such queries have read as many postings as that
// reads.
func (r *groupRanker) missed(ix *bm25.Index, terms []string) {
	read := 0
	for _, t := range terms {
		read += ix.DocFreq(t)
	}
	r.mu.Lock()
	if r.off {
		r.mu.Unlock()
		return
	}
	if r.asked == nil {
		r.asked = map[string]bool{}
	}
	for _, t := range terms {
		r.asked[t] = true
	}
	r.owed += read
	if r.building != nil || len(r.asked) > maxGroupTerms {
		r.off = r.off || len(r.asked) > maxGroupTerms
		r.mu.Unlock()
		return
	}
	all := make([]string, 0, len(r.asked))
	cost := ix.Len()
	for t := range r.asked {
		all = append(all, t)
		cost += ix.DocFreq(t)
	}
	if r.owed < cost {
		r.mu.Unlock()
		return
	}
	done := make(chan struct{})
	r.building = done
	r.mu.Unlock()
	g := ix.Groups(all)
	r.mu.Lock()
	r.building, r.owed = nil, 0
	if g == nil {
		r.off = true
	} else {
		r.groups = g
	}
	r.mu.Unlock()
	close(done)
}

// maxGroupTerms is the most terms bm25.Groups takes.
const maxGroupTerms = 64

// wideRanking is a query's ranking at a limit, width (0: every hit); its
// hits are named only as far as a limit asks.
type wideRanking struct {
	hits  []bm25.Hit
	width int
}

// covers reports whether the ranking holds the best limit hits: limit is
// within its width, or it holds every hit there is.
func (w wideRanking) covers(limit int) bool {
	return w.width <= 0 || limit <= w.width || len(w.hits) < w.width
}

// cut is the ranking's hits at limit, which it covers.
func (w wideRanking) cut(limit int) []bm25.Hit {
	return w.hits[:min(limit, len(w.hits))]
}
