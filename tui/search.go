package tui

import (
	"cmp"
	"slices"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/bm25"
	crmemconfig "github.com/crmem/crmem/face/config"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/sessions"
	"github.com/crmem/crmem/tui/list"
)

// Limits of live search (SPEC §4): the most frequent expansions of the word
// being typed, and how many hits of each kind the list shows.
const (
	maxExpansions = crmemconfig.DefaultMaxExpansions
	maxHits       = 1000
	minPrefix     = 2 // runes of the last word before it is expanded
)

// searchResult is the outcome of one query against one snapshot. Each list
// is cut to maxHits; the totals are the true numbers.
type searchResult struct {
	// Search is what the list lays out: the query, its sections (names,
	// exact recall, prefix matches, each cut to maxHits) with their true
	// totals, and every hit however many the sections leave out (issue
	// 17: the sorted views and `*` stopped at the first maxHits).
	list.Search
	terms      []string // the query's own terms (exact recall)
	expansions []string // prefix expansions of the last word
	distinct   int      // entries in names, exact and prefix together: len(All)
	took       time.Duration
	indexing   bool // the index was not ready: name matches only

	// On crabtalk's store: the query its recall ran (the word being typed
	// with `*`) and why it failed.
	recallQuery string
	recallErr   string
	// parts breaks the rows' scores down as the recall scores them (the
	// explain view).
	parts scoreParts

	maxExpansions int // the configured bound (0: maxExpansions)
}

// searchInput is everything a search needs; it is never mutated.
type searchInput struct {
	seq     int
	rerun   bool // a reload re-ran the query: keep the selection
	query   string
	snap    *snapshot
	indexed bool           // the memory's bm25 index is built
	expand  int            // prefix expansions of the last word (0: maxExpansions)
	recall  store.Recaller // the memory's recall; nil before it is open

	// latest is the seq of the search the model started last: a pass
	// over the entries before the index is built stops once it moves on.
	latest *atomic.Int64
	// holdIndex holds the memory's index build (store.Memory.HoldIndex)
	// while a search before the index is built runs; nil: none to hold.
	holdIndex func() (release func())
}

// searchDoneMsg carries a search's result, tagged with its sequence number.
type searchDoneMsg struct {
	seq    int
	rerun  bool
	result *searchResult
}

// searchCmd runs a search off the update loop.
func searchCmd(in searchInput) tea.Cmd {
	return func() tea.Msg {
		start := time.Now()
		r := runSearch(in)
		r.took = time.Since(start)
		return searchDoneMsg{seq: in.seq, rerun: in.rerun, result: r}
	}
}

// runSearch computes recall, prefix matches and name matches, with the
// true count of each, by the memory's recall whatever its format. The
// word being typed is a prefix: a recall that matches whole words only
// (store.Expander) ranks the query as typed and the screen expands that
// word over the recall's index (the prefix section); any other recall
// takes the word with a trailing `*` itself (storeQuery) and explains
// its own hits.
func runSearch(in searchInput) *searchResult {
	r := &searchResult{Search: list.Search{Query: in.query}, maxExpansions: in.expand}
	rc := in.recall
	x, expands := rc.(store.Expander)
	// A recall over the memory's bm25 index (an Expander) answers once the
	// index is built; before a memory is open there is none either.
	r.indexing = !in.indexed && (expands || rc == nil)
	scores := map[uint64]hit{}
	var exact, prefix []bm25.Hit // every hit of recall, of the expanded query
	var exactAt []int32          // each exact hit's index in the snapshot, when known
	if in.stale() {
		return r
	}
	switch {
	case rc == nil: // no memory open: no recall
	case expands:
		r.terms, r.parts = wholeWords(rc.Terms(in.query)), indexParts{}
		if !r.indexing {
			ix := x.Index()
			r.parts = indexParts{ix}
			exact = r.recall(rc, in.query, false, scores)
			prefix = r.expandLastWord(ix, scores)
		} else { // recall by a pass over the entries; prefixes wait for the index
			if in.holdIndex != nil {
				// The build waits until this search ends: its pass and
				// name matches have the cores, and an index that is
				// built meanwhile answers this query no sooner.
				defer in.holdIndex()()
			}
			exact, exactAt = r.rankBeforeIndex(in, scores)
		}
	default:
		r.recallQuery = storeQuery(in.query)
		r.terms = wholeWords(rc.Terms(r.recallQuery))
		exact = r.recall(rc, r.recallQuery, true, scores)
	}
	if in.stale() {
		return r
	}
	r.addNameMatches(in.snap, in.query, scores, exact, exactAt, prefix)
	return r
}

// stale reports whether a search started after this one: the model drops
// this one's result (searchDone), so a search that sees it skips its work
// and returns what it has.
func (in *searchInput) stale() bool {
	return in.latest != nil && in.latest.Load() > int64(in.seq)
}

// recall runs q by rc: its first maxHits hits are the recall section
// (scores has each); it returns every hit. explain keeps the parts rc
// gives the listed hits, for the explain view, and the index terms its
// own prefixes matched as the expansions.
func (r *searchResult) recall(rc store.Recaller, q string, explain bool, scores map[uint64]hit) []bm25.Hit {
	h, err := rc.Hits(q, maxHits, explain)
	if err != nil {
		r.recallErr = err.Error()
	}
	r.ExactTotal = len(h.All)
	for _, b := range h.Top {
		x := hit{ID: b.ID, Kind: hitExact, Score: b.Score, Via: hitExact}
		r.Exact = append(r.Exact, x)
		scores[b.ID] = x
	}
	if explain {
		p := recallParts{hits: make(map[uint64]store.RecallHit, len(h.Parts)), stats: rc.RecallStats(), stored: rc.Stored(), terms: rc.Terms(q)}
		for i, x := range h.Parts {
			p.hits[h.Top[i].ID] = x
			for _, part := range x.Parts {
				if strings.HasSuffix(part.Query, "*") && !slices.Contains(r.expansions, part.Term) && len(r.expansions) < maxExpansions {
					r.expansions = append(r.expansions, part.Term)
				}
			}
		}
		r.parts = p
	}
	return h.All
}

// rankBeforeIndex fills the recall section while the index is being built,
// so a query typed at once shows its ranked hits without waiting for the
// build: one pass over the snapshot's entries (bm25.Rank, the scorer of
// the command line's plain search), whose hits, scores and order are the
// index's. It returns every hit. A snapshot with shadowed duplicate ids
// waits for the index, which alone knows which of them it ranks. A pass
// whose search is no longer the latest reads the rest of the entries as
// empty, so keys typed in a burst leave one pass running, not one each.
// at is each hit's index in the snapshot (the pass's position).
func (r *searchResult) rankBeforeIndex(in searchInput, scores map[uint64]hit) (all []bm25.Hit, at []int32) {
	s := in.snap
	if s == nil || len(s.dups) > 0 {
		return nil, nil
	}
	ranked := bm25.Rank(len(s.entries), func(i int) bm25.Doc {
		e := &s.entries[i]
		if in.stale() {
			return bm25.Doc{ID: e.ID} // the result is dropped: keep the ids alone
		}
		return bm25.Doc{ID: e.ID, Content: e.Content, Aliases: e.Aliases}
	}, in.query, 0)
	if in.stale() {
		return nil, nil
	}
	all, at = make([]bm25.Hit, len(ranked)), make([]int32, len(ranked))
	for i, h := range ranked {
		all[i], at[i] = h.Hit, int32(h.Pos)
	}
	r.ExactTotal = len(all)
	for _, b := range all[:min(len(all), maxHits)] {
		x := hit{ID: b.ID, Kind: hitExact, Score: b.Score, Via: hitExact}
		r.Exact = append(r.Exact, x)
		scores[b.ID] = x
	}
	return all, at
}

// expandLastWord fills the prefix section: the hits only the expansions
// of the word being typed find, ranked over ix with the query's own
// terms; it returns every hit of the expanded query.
func (r *searchResult) expandLastWord(ix *bm25.Index, scores map[uint64]hit) []bm25.Hit {
	prefix, all := prefixMatches(ix, r.Query, r)
	if len(r.expansions) > 0 {
		r.PrefixOnly = len(all) - r.ExactTotal // the expanded terms include the query's own
	}
	capped := r.ExactTotal > len(r.Exact)
	if capped && len(r.expansions) > 0 {
		// The expanded query's best may all be recall hits beyond the
		// cap: rank the expansions alone (an entry none of the query's
		// own terms are in scores the same), far enough that the
		// recall hits among them cannot crowd out the entries only
		// the expansions find.
		prefix = ix.SearchTerms(r.expansions, maxHits+r.ExactTotal-len(r.Exact))
	}
	for _, h := range prefix {
		if len(r.Prefix) == maxHits {
			break
		}
		if _, ok := scores[h.ID]; !ok && !(capped && isRecallHit(ix, r.terms, h.ID)) { // a recall hit beyond the cap is no prefix match
			x := hit{ID: h.ID, Kind: hitPrefix, Score: h.Score, Via: hitPrefix}
			r.Prefix = append(r.Prefix, x)
			scores[h.ID] = x
		}
	}
	return all
}

// wholeWords are the texts of terms that are no prefix: the query's own
// terms, which recall matches as they are.
func wholeWords(terms []store.RecallTerm) []string {
	var out []string
	for _, t := range terms {
		if !t.Prefix {
			out = append(out, t.Text)
		}
	}
	return out
}

// addNameMatches fills the name-match section, and every hit (r.All) from
// every name match and every hit of recall (exact; exactAt, when not nil,
// holds their indexes in s) and of the expanded query (prefix).
func (r *searchResult) addNameMatches(s *snapshot, query string, scores map[uint64]hit, exact []bm25.Hit, exactAt []int32, prefix []bm25.Hit) {
	var names []int
	r.Names, r.NameTotal, names = nameMatches(s, query, scores)
	r.All, r.AllAt = everyHit(s, exact, exactAt, prefix, names, r.Prefix)
	r.AllSnap, r.distinct = s, len(r.All)
}

// everyHit is the union of exact, prefix (the expanded query's hits, the
// exact ones among them) and the name matches (snapshot indexes), each
// entry once, with its index in s: a name match keeps the score recall or
// a prefix gives it; a hit ranked in listed (the prefix section) keeps the
// score shown there. exactAt, when not nil, is each exact hit's index in
// s, so that the entry is not looked up by its id.
func everyHit(s *snapshot, exact []bm25.Hit, exactAt []int32, prefix []bm25.Hit, names []int, listed []hit) (all []hit, at []int32) {
	pos := make([]int32, s.len()) // 1 + the entry's place in all; 0: not a hit
	n := max(len(exact), len(prefix)) + len(names)
	all, at = make([]hit, 0, n), make([]int32, 0, n)
	add := func(i int, x hit) {
		if pos[i] == 0 {
			all, at = append(all, x), append(at, int32(i))
			pos[i] = int32(len(all))
		}
	}
	for k, h := range exact {
		i, ok := 0, exactAt != nil
		if ok {
			i = int(exactAt[k])
		} else {
			i, ok = s.index(h.ID)
		}
		if ok {
			add(i, hit{ID: h.ID, Kind: hitExact, Score: h.Score, Via: hitExact})
		}
	}
	for _, h := range prefix {
		if i, ok := s.index(h.ID); ok {
			add(i, hit{ID: h.ID, Kind: hitPrefix, Score: h.Score, Via: hitPrefix})
		}
	}
	for _, h := range listed {
		if i, ok := s.index(h.ID); ok && pos[i] > 0 && all[pos[i]-1].Kind == hitPrefix {
			all[pos[i]-1].Score = h.Score
		}
	}
	for _, i := range names {
		if p := pos[i]; p > 0 {
			all[p-1].Kind = hitName
		} else {
			add(i, hit{ID: s.entries[i].ID, Kind: hitName})
		}
	}
	return all, at
}

// nameMatches returns entries whose name or an alias contains the query
// (case-insensitive), best first: a name or alias equal to it, then names
// starting with it, then aliases starting with it, then the others; each
// group by recall score (exact, else through a prefix expansion), then
// newest. total counts every match, however many the list leaves out;
// every is each matching entry's index, in no order.
func nameMatches(s *snapshot, query string, scores map[uint64]hit) (_ []hit, total int, every []int) {
	q := strings.ToLower(strings.TrimSpace(query))
	if q == "" {
		return nil, 0, nil
	}
	found, classes, total, every := s.nameIndex().find(q, maxHits)
	hits := make([]hit, len(found))
	for i, idx := range found {
		id := s.entries[idx].ID
		sc := scores[id]
		hits[i] = hit{ID: id, Kind: hitName, Score: sc.Score, Via: sc.Via}
	}
	order := make([]int, len(hits))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(classes[a], classes[b]), cmp.Compare(hits[b].Score, hits[a].Score))
	})
	out := make([]hit, len(hits))
	for i, j := range order {
		out[i] = hits[j]
	}
	return out, total, every
}

// isRecallHit reports whether document id holds one of the query's own
// terms, so recall finds it whatever its rank.
func isRecallHit(ix *bm25.Index, terms []string, id uint64) bool {
	for _, t := range terms {
		if ix.TermFreq(t, id) > 0 {
			return true
		}
	}
	return false
}

// prefixMatches expands the word being typed (the query does not end in a
// space) and ranks the query with those expansions; r.expansions is set.
// all is every document the expanded query finds.
func prefixMatches(ix *bm25.Index, query string, r *searchResult) (top, all []bm25.Hit) {
	last := list.LastWord(query)
	if utf8.RuneCountInString(last) < minPrefix {
		return nil, nil
	}
	for _, t := range ix.Expand(bm25.Lower(last), cmp.Or(r.maxExpansions, maxExpansions)) {
		if !slices.Contains(r.terms, t) {
			r.expansions = append(r.expansions, t)
		}
	}
	if len(r.expansions) == 0 {
		return nil, nil
	}
	terms := append(slices.Clone(r.terms), r.expansions...)
	return ix.SearchTermsAll(terms, maxHits)
}

// highlightTerms returns the terms to mark in the preview.
func (r *searchResult) highlightTerms() []string {
	if r == nil {
		return nil
	}
	return append(slices.Clone(r.terms), r.expansions...)
}

// cmpDesc orders by created_at then id, newest first.
func cmpDesc(ca, cb, ia, ib uint64) int {
	switch {
	case ca != cb && ca > cb:
		return -1
	case ca != cb:
		return 1
	case ia > ib:
		return -1
	case ia < ib:
		return 1
	}
	return 0
}

// limits are the search settings SPEC §9 makes configurable.
type limits struct {
	nameRows    int // name-match rows listed before "… N more name matches"
	recallLimit int // the recall view's limit (the agent's default is 5)
}

// defaultLimits are SPEC §9's defaults.
func defaultLimits() limits {
	return limits{nameRows: crmemconfig.DefaultNameMatches, recallLimit: sessions.DefaultRecallLimit}
}
