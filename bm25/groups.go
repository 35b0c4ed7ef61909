package bm25

import (
	"math"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"
)

// Groups ranks queries whose terms are among a few (at most 64) known
// beforehand, as Search ranks them (the same hits, scores to the bit, in
// its order), for a caller that ranks thousands of such queries at a
// small limit: crmem recalls --report replays an agent's recalls, whose
// queries come back to the same few dozen words.
//
// Search adds up every posting of every query term, even when a handful
// of hits is asked. Groups sorts the documents by which of the terms they
// hold: on a memory where each note is about a few topics there are a few
// hundred such sets. A document's score is then the shares of the query
// terms of its group, added in term order, and a group's best possible
// score the sum of those terms' largest shares in it. The groups are
// visited from the highest such bound down and, inside one, the documents
// from the highest share of the query term whose largest share in the
// group is highest: once a bound (with a margin far above the rounding of
// a few additions) falls below the worst of the best limit hits so far,
// no document left can enter them, and the rest is skipped.
//
// A Groups is for one version of its index: once the index changes, its
// SearchTerms reports false and the caller ranks as before.
type Groups struct {
	ix      *Index
	version uint64
	bit     map[string]uint // term → its bit in a group's mask (terms in byte order)
	groups  []termGroup
	// byTerm lists, for each term's bit, the groups that hold it and
	// the term's largest share in each, so a query adds up its groups'
	// bounds from its own terms' lists, not from every group.
	byTerm [][]groupMax
	visits sync.Pool // *groupScratch, a query's scratch
}

// groupMax is a group holding a term, and the term's largest share in it.
type groupMax struct {
	group int
	max   float64
}

// groupScratch is a query's scratch: the bounds of the groups it meets,
// the terms of it each holds, the groups met, and their visits.
type groupScratch struct {
	bound []float64
	terms []uint64
	met   []int
	vs    visitHeap
}

// termGroup is the documents that hold the same set of the terms.
type termGroup struct {
	mask uint64   // the terms the documents hold, bit i for the i-th term
	ids  []uint64 // the documents' entry ids
	// share holds each document's share of each term of mask (columns in
	// bit order), row after row; max is each column's largest; byCol
	// lists each column's rows from its highest share down, the first
	// topRows of them at first and more as queries read past them
	// (rows).
	share []float64
	max   []float64
	byCol []atomic.Pointer[[]uint32]
}

// topRows is how many rows of a column rows orders first: a query asks a
// handful of hits and mostly stops within a group's first few rows, so a
// large group's column is not sorted whole, but its best rows picked out,
// eight times as many each time a query reads past them. Sorting every
// column a query read whole was two fifths of recalls --report's ranking
// on the 100k corpus.
const topRows = 32

// rows lists column c's rows from the highest share down: all of them,
// or at least the first topRows, or eight times as many as have (what
// rows gave before, read to its end), beginning with have. Every row left
// out shares at most the last one's.
func (tg *termGroup) rows(c int, have []uint32) []uint32 {
	if p := tg.byCol[c].Load(); p != nil && len(*p) > len(have) {
		return *p // the same rows as have first: each longer list extends the last
	}
	n := len(tg.ids)
	cols := len(tg.max)
	// The rows not in have: every row sharing less than have's last, and
	// those sharing as much that have does not hold (have holds every
	// row sharing more).
	last := math.Inf(1)
	var atLast []uint32
	if len(have) > 0 {
		last = tg.share[int(have[len(have)-1])*cols+c]
		for i := len(have) - 1; i >= 0 && tg.share[int(have[i])*cols+c] == last; i-- {
			atLast = append(atLast, have[i])
		}
	}
	var in []bool // have's rows, where many share the last one's
	if len(atLast) > 16 {
		in = make([]bool, n)
		for _, r := range have {
			in[r] = true
		}
	}
	rest := func(yield func(rowShare)) {
		for r := range n {
			s := tg.share[r*cols+c]
			if s > last || s == last && (in != nil && in[r] || in == nil && slices.Contains(atLast, uint32(r))) {
				continue
			}
			yield(rowShare{s, uint32(r)})
		}
	}
	want := max(topRows, 8*len(have))
	var more []rowShare
	if n <= 2*want { // not many more: all of them
		more = make([]rowShare, 0, n-len(have))
		rest(func(x rowShare) { more = append(more, x) })
	} else {
		more = highest(rest, want-len(have))
	}
	slices.SortFunc(more, func(a, b rowShare) int {
		switch {
		case a.share > b.share:
			return -1
		case a.share < b.share:
			return 1
		}
		return 0
	})
	rows := make([]uint32, 0, len(have)+len(more))
	rows = append(rows, have...)
	for _, rs := range more {
		rows = append(rows, rs.row)
	}
	tg.byCol[c].Store(&rows) // two queries may both make it: the same rows
	return rows
}

// highest returns the k rows rows gives with the highest shares (of
// equal ones, the first), in no order: a min-heap of the k best met so
// far, which most rows fall below at one comparison.
func highest(rows func(yield func(rowShare)), k int) []rowShare {
	h := make([]rowShare, 0, k)
	rows(func(x rowShare) {
		switch {
		case len(h) < k:
			h = append(h, x)
			for i := len(h) - 1; i > 0 && h[(i-1)/2].share > h[i].share; i = (i - 1) / 2 {
				h[i], h[(i-1)/2] = h[(i-1)/2], h[i]
			}
		case x.share > h[0].share:
			h[0] = x
			for i := 0; ; {
				w, l, r := i, 2*i+1, 2*i+2
				if l < len(h) && h[l].share < h[w].share {
					w = l
				}
				if r < len(h) && h[r].share < h[w].share {
					w = r
				}
				if w == i {
					break
				}
				h[i], h[w] = h[w], h[i]
				i = w
			}
		}
	})
	return h
}

// Bounds of a Groups: the terms fit a mask, and a query's visit of the
// groups stays cheap beside its postings.
const (
	maxGroupTerms = 64
	maxGroups     = 1 << 12
)

// scoreMargin widens every bound on a score: a bound and a score add the
// same shares in other orders, which may round apart by a few units in
// the last place, far below this.
const scoreMargin = 1 + 1e-9

// Groups returns the index's documents grouped by which of terms they
// hold, or nil when there are more than 64 terms (once sorted and
// deduplicated) or the documents fall into more than a few thousand
// groups (a query would then visit more groups than postings).
func (ix *Index) Groups(terms []string) *Groups {
	terms = normalizeTerms(slices.Clone(terms))
	if len(terms) > maxGroupTerms {
		return nil
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	g := &Groups{ix: ix, version: ix.version, bit: make(map[string]uint, len(terms))}
	type termPostings struct {
		list []posting
		idf  float64
	}
	lists := make([]termPostings, len(terms))
	mask := make([]uint64, len(ix.docs))
	for b, t := range terms {
		g.bit[t] = uint(b)
		id, ok := ix.voc.lookup(t)
		if !ok || ix.df(id) == 0 {
			continue
		}
		lists[b] = termPostings{ix.postings[id], idf(ix.n, ix.df(id))}
		for _, p := range ix.postings[id] {
			if p.tf > 0 {
				mask[p.doc] |= 1 << b
			}
		}
	}
	// Each document with a term gets its group and its row in it.
	group := map[uint64]int32{}
	of := make([]int32, len(ix.docs)) // document → its group
	row := make([]uint32, len(ix.docs))
	for d, m := range mask {
		if m == 0 {
			continue
		}
		k, ok := group[m]
		if !ok {
			if len(g.groups) == maxGroups {
				return nil
			}
			k = int32(len(g.groups))
			group[m] = k
			g.groups = append(g.groups, termGroup{mask: m})
		}
		of[d], row[d] = k, uint32(len(g.groups[k].ids))
		g.groups[k].ids = append(g.groups[k].ids, ix.docs[d].id)
	}
	for k := range g.groups {
		tg := &g.groups[k]
		cols := bits.OnesCount64(tg.mask)
		tg.share = make([]float64, len(tg.ids)*cols)
		tg.max = make([]float64, cols)
		tg.byCol = make([]atomic.Pointer[[]uint32], cols)
	}
	g.byTerm = make([][]groupMax, len(terms))
	for k := range g.groups {
		tg := &g.groups[k]
		for rest := tg.mask; rest != 0; rest &= rest - 1 {
			b := bits.TrailingZeros64(rest)
			g.byTerm[b] = append(g.byTerm[b], groupMax{group: k})
		}
	}
	norms := ix.docNorms()
	for b, tl := range lists {
		for _, p := range tl.list {
			if p.tf == 0 {
				continue
			}
			tg := &g.groups[of[p.doc]]
			col := bits.OnesCount64(tg.mask & (1<<b - 1))
			s := termScore(tl.idf, float64(p.tf), norms[p.doc]) // as Search computes it
			tg.share[int(row[p.doc])*len(tg.max)+col] = s
			tg.max[col] = max(tg.max[col], s)
		}
	}
	for b, gm := range g.byTerm {
		for i := range gm {
			tg := &g.groups[gm[i].group]
			gm[i].max = tg.max[bits.OnesCount64(tg.mask&(1<<b-1))]
		}
	}
	return g
}

// rowShare is a row and its share of one column, to sort.
type rowShare struct {
	share float64
	row   uint32
}

// Covers reports whether the groups can rank terms: each is one of the
// groups' terms, or in no document.
func (g *Groups) Covers(terms []string) bool {
	ix := g.ix
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	_, ok := g.query(terms)
	return ok && g.version == ix.version
}

// query is the mask of terms; ok is false when a term in some document is
// not one of the groups'. The caller holds the index's read lock.
func (g *Groups) query(terms []string) (q uint64, ok bool) {
	for _, t := range terms {
		if b, in := g.bit[t]; in {
			q |= 1 << b
			continue
		}
		if id, found := g.ix.voc.lookup(t); found && g.ix.df(id) > 0 {
			return 0, false
		}
	}
	return q, true
}

// SearchTerms is Index.SearchTerms(terms, limit) for limit 1..64, when
// the groups can rank terms (Covers) and the index has not changed since
// they were made; ok is false otherwise, and the caller ranks by Search.
func (g *Groups) SearchTerms(terms []string, limit int) (hits []Hit, ok bool) {
	if limit <= 0 || limit > heapLimit {
		return nil, false
	}
	terms = normalizeTerms(slices.Clone(terms))
	ix := g.ix
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if g.version != ix.version {
		return nil, false
	}
	q, ok := g.query(terms)
	if !ok {
		return nil, false
	}
	if q == 0 || ix.n == 0 {
		return nil, true
	}
	return g.top(q, limit), true
}

// visit is a group a query visits: the query's terms it holds and the
// bound on its documents' scores.
type visit struct {
	group int
	terms uint64
	bound float64
}

// visitHeap is a max-heap of visits by bound: a query takes the groups
// from the highest bound down and mostly stops after a few, so they are
// not all sorted.
type visitHeap []visit

// init makes vs a heap.
func (vs visitHeap) init() {
	for i := len(vs)/2 - 1; i >= 0; i-- {
		vs.down(i)
	}
}

// pop removes and returns the visit of the highest bound.
func (vs *visitHeap) pop() visit {
	h := *vs
	top := h[0]
	h[0] = h[len(h)-1]
	*vs = h[:len(h)-1]
	vs.down(0)
	return top
}

func (vs visitHeap) down(i int) {
	for {
		w, l, r := i, 2*i+1, 2*i+2
		if l < len(vs) && vs[l].bound > vs[w].bound {
			w = l
		}
		if r < len(vs) && vs[r].bound > vs[w].bound {
			w = r
		}
		if w == i {
			return
		}
		vs[i], vs[w] = vs[w], vs[i]
		i = w
	}
}

// top ranks the documents of the groups that hold a term of q.
func (g *Groups) top(q uint64, limit int) []Hit {
	sc, _ := g.visits.Get().(*groupScratch)
	if sc == nil {
		sc = &groupScratch{bound: make([]float64, len(g.groups)), terms: make([]uint64, len(g.groups))}
	}
	defer g.visits.Put(sc)
	// Each group's bound: the largest shares of the query's terms it
	// holds, added in term order.
	met := sc.met[:0]
	for rest := q; rest != 0; rest &= rest - 1 {
		b := bits.TrailingZeros64(rest)
		for _, gm := range g.byTerm[b] {
			if sc.terms[gm.group] == 0 {
				met = append(met, gm.group)
			}
			sc.terms[gm.group] |= 1 << b
			sc.bound[gm.group] += gm.max
		}
	}
	vs := sc.vs[:0]
	for _, k := range met {
		vs = append(vs, visit{group: k, terms: sc.terms[k], bound: sc.bound[k]})
		sc.terms[k], sc.bound[k] = 0, 0
	}
	sc.met = met[:0]
	defer func() { sc.vs = vs[:0] }()
	vs.init()
	h := make(hitHeap, 0, limit)
	cut := -1.0 // the root's score once the heap is full
	var cols []int
	for len(vs) > 0 {
		v := vs.pop() // the highest bound left
		if len(h) == limit && v.bound*scoreMargin < cut {
			break // every group left scores below the cut
		}
		tg := &g.groups[v.group]
		// The query's columns in term order; the rows are read by the
		// share of the column with the largest one, the others adding at
		// most theirs.
		cols = cols[:0]
		pivot := -1
		for rest := v.terms; rest != 0; rest &= rest - 1 {
			c := bits.OnesCount64(tg.mask & (1<<bits.TrailingZeros64(rest) - 1))
			cols = append(cols, c)
			if pivot < 0 || tg.max[c] > tg.max[pivot] {
				pivot = c
			}
		}
		others := 0.0
		for _, c := range cols {
			if c != pivot {
				others += tg.max[c]
			}
		}
		width := len(tg.max)
		order := tg.rows(pivot, nil)
		for i := 0; i < len(order); i++ {
			if i+1 == len(order) && len(order) < len(tg.ids) {
				order = tg.rows(pivot, order) // more rows, these first
			}
			r := order[i]
			row := tg.share[int(r)*width : int(r+1)*width]
			if len(h) == limit && (row[pivot]+others)*scoreMargin < cut {
				break // every row left scores below the cut
			}
			score := 0.0
			for _, c := range cols {
				score += row[c] // in term order, as Search adds them
			}
			if len(h) < limit || score >= cut {
				h.offer(Hit{ID: tg.ids[r], Score: score}, limit)
				if len(h) == limit {
					cut = h[0].Score
				}
			}
		}
	}
	slices.SortFunc(h, compareHits)
	return h
}
