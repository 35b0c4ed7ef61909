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
//   - each ranking is bm25.Many's, which shares each term's scoring
//     between the queries that ask it;
//   - a query is ranked once per set of terms, not per wording and limit:
//     BM25 sees only the query's sorted, distinct terms, and its ranking
//     is one order (score, then id), so the best limit hits are the
//     first limit of any longer ranking. A query is ranked TieWindow past
//     its limit at once, so the recall that is ranked again past its
//     limit (Stream) costs nothing more.
//
// At most maxRanked rankings are kept; past that they are dropped and
// made again as queries ask.
func indexRanker(ex store.Expander, mem *store.Memory) Ranker {
	many := sync.OnceValue(func() *bm25.Many { return ex.Index().Many() })
	var (
		mu   sync.Mutex
		kept = map[string]wideRanking{}
	)
	return func(query string, limit int) (Ranked, error) {
		if limit <= 0 {
			return named(mem, nil), nil // as Rank: the agent's recall returns nothing
		}
		terms := bm25.QueryTerms(query)
		key := strings.Join(terms, "\x00")
		mu.Lock()
		w, ok := kept[key]
		mu.Unlock()
		if !ok || !w.covers(limit) {
			width := limit + TieWindow
			if width < limit {
				width = 0 // past the largest int: every hit
			}
			w = wideRanking{many().SearchTerms(terms, width), width}
			mu.Lock()
			if len(kept) >= maxRanked {
				clear(kept)
			}
			kept[key] = w
			mu.Unlock()
		}
		return named(mem, w.cut(limit)), nil
	}
}

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
