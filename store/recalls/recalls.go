// Package recalls replays the agent's recorded recalls on the memory as it
// is now: what each query returned then (read from the session history by
// store/sessions) against what it would return now, and the report of
// what never surfaces built from all of them.
//
// Sessions stream through one at a time; recalls are replayed in batches
// in parallel over an index built once, so neither the sessions nor the
// recalls are all held at once.
package recalls

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/sessions"
)

// Ranker ranks a query on the memory as it is now, as the agent's recall
// returns it.
type Ranker func(query string, limit int) (Ranked, error)

// Ranked is a query's ranking now: the names of at most limit hits, best
// first, their scores, and the names just past the limit whose score ties
// the last one's (the recall may return any of a tie at its cut: the
// reference leaves tie order unspecified).
type Ranked struct {
	Names    []string
	Scores   []float64
	TiedPast []string
	// ids are the hits' entry ids, where the ranker named them from
	// the memory's entries (named): nil, or one for each of Names.
	ids []uint64
}

// TieWindow is how many hits past the limit a recall that differs from
// today's is ranked again with, to see the ties at the cut: a tie longer
// than that past the limit is not all seen, and a recall that returned one
// of the rest is reported as changed.
const TieWindow = 32

// SourceRanker is the recall of src as the agent has it
// (Features.Recall): the names its hits are returned under, and their
// scores. A recall that is BM25 over the memory's index (store.Expander)
// is ranked by indexRanker, for the thousands of queries a report
// replays.
func SourceRanker(src store.Source) Ranker {
	r, mem := src.Features().Recall, src.Memory()
	if ex, ok := r.(store.Expander); ok {
		return indexRanker(ex, mem)
	}
	return func(query string, limit int) (Ranked, error) {
		hits, err := r.Rank(query, limit) // names only: no parts to explain
		if err != nil {
			return Ranked{}, fmt.Errorf("recall %q: %w", query, err)
		}
		return named(mem, hits), nil
	}
}

// MemoryRanker is SourceRanker for the recall of a CRMEM v1 file read
// once into mem: BM25 over mem's index, as the recall of a v1 file opened
// as a memory ranks (store.Expander), by indexRanker.
func MemoryRanker(mem *store.Memory) Ranker { return indexRanker(mem, mem) }

// named is hits with their entries' names.
func named(mem *store.Memory, hits []bm25.Hit) Ranked {
	out := Ranked{Names: make([]string, len(hits)), Scores: make([]float64, len(hits)), ids: make([]uint64, len(hits))}
	for i, h := range hits {
		out.Names[i], _ = mem.NameOf(h.ID)
		out.Scores[i], out.ids[i] = h.Score, h.ID
	}
	return out
}

// couldTieAtCut reports whether then could be now up to ties once the
// names tied with now's last just past the limit are known: as long, each
// name then that now holds in a place of its score, each other one in a
// place whose score is the last's. Only such a recall is ranked again.
func couldTieAtCut(then []string, now Ranked) bool {
	if len(then) != len(now.Names) || len(then) == 0 {
		return false
	}
	last := now.Scores[len(now.Scores)-1]
	for i, n := range then {
		if k := slices.Index(now.Names, n); k >= 0 {
			if now.Scores[k] != now.Scores[i] {
				return false
			}
		} else if now.Scores[i] != last {
			return false
		}
	}
	return true
}

// cutAt is r, a ranking at a limit past limit, cut to limit: the names
// past it tied with the last one inside are TiedPast.
func cutAt(r Ranked, limit int) Ranked {
	if limit <= 0 || len(r.Names) <= limit {
		return r
	}
	out := Ranked{Names: r.Names[:limit], Scores: r.Scores[:limit]}
	for i := limit; i < len(r.Names); i++ {
		if r.Scores[i] == r.Scores[limit-1] {
			out.TiedPast = append(out.TiedPast, r.Names[i])
		}
	}
	return out
}

// SameUpToTies reports whether then is what now returns but for the order
// of equal scores: as long, each name then where now has a name of the
// same score (in now's list, or tied with its last just past it), none
// twice. Equal scores in another order, or a tie at the cut resolved the
// other way, are the same recall.
func SameUpToTies(then []string, now Ranked) bool {
	if len(then) != len(now.Names) {
		return false
	}
	score := make(map[string]float64, len(now.Names)+len(now.TiedPast))
	for i, n := range now.Names {
		score[n] = now.Scores[i]
	}
	if k := len(now.Names); k > 0 {
		for _, n := range now.TiedPast {
			score[n] = now.Scores[k-1]
		}
	}
	seen := make(map[string]bool, len(then))
	for i, n := range then {
		s, ok := score[n]
		if !ok || seen[n] || s != now.Scores[i] {
			return false
		}
		seen[n] = true
	}
	return true
}

// Query is one query to replay.
type Query struct {
	Text  string
	Limit int
}

// Replay ranks every query with rank on up to workers goroutines (0: one
// per CPU) and returns each one's names, in the order of qs. The first
// error stops it.
func Replay(rank Ranker, qs []Query, workers int) ([]Ranked, error) {
	out := make([]Ranked, len(qs))
	err := parallel(len(qs), workers, func(i int) error {
		r, err := rank(qs[i].Text, qs[i].Limit)
		out[i] = r
		return err
	})
	return out, err
}

// parallel runs fn(0..n-1) on up to workers goroutines (0: GOMAXPROCS)
// and returns the first error.
func parallel(n, workers int, fn func(i int) error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
		next  int
	)
	take := func() (int, bool) {
		mu.Lock()
		defer mu.Unlock()
		if next >= n || first != nil {
			return 0, false
		}
		next++
		return next - 1, true
	}
	for range min(workers, n) {
		wg.Go(func() {
			for i, ok := take(); ok; i, ok = take() {
				if err := fn(i); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	return first
}

// Item is one recorded recall replayed: what it returned then and what it
// would return now.
type Item struct {
	sessions.Recall
	Now     []string // the names the query returns now
	Added   []string // in Now, not returned then
	Removed []string // returned then, not in Now
	// Ties says the recall returns now what it returned then but for
	// the order of equal scores (SameUpToTies), not in the same order.
	Ties bool
	// nowIDs are Now's entry ids where the ranker gave them (Ranked.ids).
	nowIDs []uint64
}

// Same reports whether the recall returns now what it returned then: in
// the same order, or in another order of equal scores (Ties). Never for a
// result that could not be read.
func (it Item) Same() bool {
	return (it.Result == sessions.ResultNames || it.Result == sessions.ResultNone) && (it.Ties || slices.Equal(it.Names, it.Now))
}

// Diff returns the names in now and not in then (added) and those in then
// and not in now (removed), each in its list's order.
func Diff(then, now []string) (added, removed []string) {
	for _, n := range now {
		if !slices.Contains(then, n) {
			added = append(added, n)
		}
	}
	for _, n := range then {
		if !slices.Contains(now, n) {
			removed = append(removed, n)
		}
	}
	return added, removed
}

// Filter keeps the recalls to list: made at or after Since (when set) by
// Agent (when set).
type Filter struct {
	Since time.Time
	Agent string
}

// keep reports whether r passes the filter. A recall whose time is
// unknown is kept only without Since.
func (f Filter) keep(r sessions.Recall) bool {
	if f.Agent != "" && r.Agent != f.Agent {
		return false
	}
	return f.Since.IsZero() || !r.Time.IsZero() && !r.Time.Before(f.Since)
}

// batch is how many recalls are replayed together, in parallel.
const batch = 1024

// maxRanked bounds the queries whose ranking Stream keeps for the recalls
// that ask them again (each at most its limit of names, shared with the
// memory's entries).
const maxRanked = 1 << 16

// Stream reads the recalls of every session through r, keeps those f
// passes, replays them with rank and calls fn with each, in session and
// call order. At most a batch of recalls and one session are held at
// once, and the ranking of up to maxRanked distinct queries: a query
// asked again (with the same limit) is ranked once, its names shared by
// the items that ask it. It returns what reading the sessions could not
// use.
//
// known gives the memory's entries, to read each result against
// (sessions.Recall.Resolve; NameSet makes one); nil reads results by their
// shape alone.
func Stream(r store.SessionsReader, opt sessions.RecallOptions, f Filter, rank Ranker, known Known, fn func(Item) error) (sessions.RecallProblems, error) {
	return stream(r, opt, f, rank, known, true, fn)
}

// stream is Stream; compare false leaves each item's Added, Removed and
// Ties unset (for a Tally, which reads none of them: telling ties
// apart ranks a query again past its limit).
func stream(r store.SessionsReader, opt sessions.RecallOptions, f Filter, rank Ranker, known Known, compare bool, fn func(Item) error) (sessions.RecallProblems, error) {
	var pending []Item
	// A query asked again is ranked once (an agent repeats its queries);
	// each pending item holds its query's ranking (looked up once).
	ranked := map[Query]*Ranked{}
	var rankings []*Ranked
	flush := func() error {
		if len(ranked) >= maxRanked {
			clear(ranked) // bounded: later batches rank their queries again
		}
		var todo []Query
		var todoRanked []*Ranked
		rankings = rankings[:0]
		for _, it := range pending {
			q := Query{it.Query, it.Limit}
			r, ok := ranked[q]
			if !ok {
				r = new(Ranked)
				ranked[q] = r
				todo, todoRanked = append(todo, q), append(todoRanked, r)
			}
			rankings = append(rankings, r)
		}
		now, err := Replay(rank, todo, 0)
		if err != nil {
			return err
		}
		for i, r := range todoRanked {
			*r = now[i]
		}
		// A recall that differs from today's only where scores tie is
		// the same: the ties inside the limit are in today's scores; for
		// one the limit cuts, its query is ranked again past the limit.
		wide := map[Query]Ranked{}
		for k, it := range pending {
			q := Query{it.Query, it.Limit}
			now := *rankings[k]
			it.Now, it.nowIDs = now.Names, now.ids
			if !compare {
				if err := fn(it); err != nil {
					return err
				}
				continue
			}
			it.Added, it.Removed = Diff(it.Names, it.Now)
			if it.Result == sessions.ResultNames && !slices.Equal(it.Names, it.Now) {
				it.Ties = SameUpToTies(it.Names, now)
				if !it.Ties && it.Limit > 0 && len(now.Names) == it.Limit && couldTieAtCut(it.Names, now) {
					w, ok := wide[q]
					if !ok {
						r, err := rank(q.Text, q.Limit+TieWindow)
						if err != nil {
							return err
						}
						w = cutAt(r, q.Limit)
						wide[q] = w
					}
					it.Ties = SameUpToTies(it.Names, w)
				}
			}
			if err := fn(it); err != nil {
				return err
			}
		}
		pending = pending[:0]
		return nil
	}
	resolved := 0 // results that reading them against the entries made unparsable, or parsable
	p, err := r.Recalls(opt, func(s sessions.SessionRecalls) error {
		for _, rc := range s.Recalls {
			resolved += resolve(&rc, known)
			if f.keep(rc) {
				pending = append(pending, Item{Recall: rc})
			}
		}
		if len(pending) >= batch {
			return flush()
		}
		return nil
	})
	p.UnparsableResults += resolved
	if err != nil {
		return p, err
	}
	return p, flush()
}

// resolve reads rc's result against the entries (Recall.Resolve) and
// returns how that changes the count of unparsable results (-1, 0 or 1),
// so the problems line counts what the listing shows.
func resolve(rc *sessions.Recall, known Known) int {
	was := rc.Result == sessions.ResultUnparsable
	rc.Resolve(known)
	switch now := rc.Result == sessions.ResultUnparsable; {
	case now && !was:
		return 1
	case was && !now:
		return -1
	}
	return 0
}
