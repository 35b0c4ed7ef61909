package bm25

import (
	"cmp"
	"slices"
	"strings"
	"sync"
)

// mergeAt is how many new terms wait unsorted before they are merged into
// the sorted vocabulary.
const mergeAt = 1024

// prefixIndex keeps the vocabulary's term ids in byte order of their text
// for prefix expansion. It is built on first use; afterwards a new term is
// only appended to pending (scanned linearly by Expand), and Expand merges
// pending in once it holds mergeAt terms, so Set never pays for the
// vocabulary.
type prefixIndex struct {
	mu      sync.Mutex // serialises building and merging among readers
	built   bool
	sorted  []uint32
	pending []uint32
}

// add records a new term; the caller holds the index's write lock.
func (p *prefixIndex) add(t uint32) {
	if p.built {
		p.pending = append(p.pending, t)
	}
}

// merge folds pending into a new sorted slice (readers may still hold the
// old one).
func (p *prefixIndex) merge(terms []string) {
	byText := func(a, b uint32) int { return strings.Compare(terms[a], terms[b]) }
	slices.SortFunc(p.pending, byText)
	merged := make([]uint32, 0, len(p.sorted)+len(p.pending))
	i, j := 0, 0
	for i < len(p.sorted) && j < len(p.pending) {
		if byText(p.sorted[i], p.pending[j]) <= 0 {
			merged = append(merged, p.sorted[i])
			i++
		} else {
			merged = append(merged, p.pending[j])
			j++
		}
	}
	merged = append(merged, p.sorted[i:]...)
	p.sorted = append(merged, p.pending[j:]...)
	p.pending = p.pending[:0]
}

// snapshot returns the sorted vocabulary and the pending terms, building
// the one or merging the other first when due; the caller holds at least
// the index's read lock, so no writer changes them meanwhile.
func (p *prefixIndex) snapshot(terms []string) (sorted, pending []uint32) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case !p.built:
		p.sorted = make([]uint32, len(terms))
		for i := range p.sorted {
			p.sorted[i] = uint32(i)
		}
		slices.SortFunc(p.sorted, func(a, b uint32) int { return strings.Compare(terms[a], terms[b]) })
		p.built = true
	case len(p.pending) >= mergeAt:
		p.merge(terms)
	}
	return p.sorted, p.pending
}

// Expand returns up to max index terms that start with prefix, most frequent
// (highest df) first, ties in byte order. Terms no document contains any
// more are skipped. The prefix's range of the sorted vocabulary is found by
// binary search; the best max are kept in a bounded heap.
func (ix *Index) Expand(prefix string, max int) []string {
	if max <= 0 {
		return nil
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	sorted, pending := ix.prefixes.snapshot(ix.voc.terms)
	best := termHeap{ix: ix, max: max}
	for _, t := range ix.prefixRange(sorted, prefix) {
		best.offer(t)
	}
	for _, t := range pending {
		if strings.HasPrefix(ix.voc.terms[t], prefix) {
			best.offer(t)
		}
	}
	slices.SortFunc(best.h, ix.compareTermDF)
	out := make([]string, len(best.h))
	for i, c := range best.h {
		out[i] = ix.voc.terms[c.term]
	}
	return out
}

// prefixRange returns the ids in sorted whose text starts with prefix.
func (ix *Index) prefixRange(s []uint32, prefix string) []uint32 {
	lo, _ := slices.BinarySearchFunc(s, prefix, func(t uint32, p string) int {
		return strings.Compare(ix.voc.terms[t], p)
	})
	hi := lo
	for hi < len(s) && strings.HasPrefix(ix.voc.terms[s[hi]], prefix) {
		hi++
	}
	return s[lo:hi]
}

// termDF is an expansion candidate.
type termDF struct{ term, df uint32 }

// compareTermDF orders candidates: higher df first, then byte order.
func (ix *Index) compareTermDF(a, b termDF) int {
	if c := cmp.Compare(b.df, a.df); c != 0 {
		return c
	}
	return strings.Compare(ix.voc.terms[a.term], ix.voc.terms[b.term])
}

// termHeap keeps the best max expansion candidates; the root is the worst.
type termHeap struct {
	ix  *Index
	max int
	h   []termDF
}

// worse reports whether candidate i ranks after candidate j.
func (th *termHeap) worse(i, j int) bool { return th.ix.compareTermDF(th.h[i], th.h[j]) > 0 }

// offer considers term t.
func (th *termHeap) offer(t uint32) {
	c := termDF{term: t, df: uint32(th.ix.df(t))}
	if c.df == 0 {
		return
	}
	if len(th.h) < th.max {
		th.h = append(th.h, c)
		for i := len(th.h) - 1; i > 0 && th.worse(i, (i-1)/2); i = (i - 1) / 2 {
			th.h[i], th.h[(i-1)/2] = th.h[(i-1)/2], th.h[i]
		}
		return
	}
	if th.ix.compareTermDF(c, th.h[0]) >= 0 {
		return
	}
	th.h[0] = c
	for i := 0; ; {
		w := i
		for _, k := range [2]int{2*i + 1, 2*i + 2} {
			if k < len(th.h) && th.worse(k, w) {
				w = k
			}
		}
		if w == i {
			return
		}
		th.h[i], th.h[w] = th.h[w], th.h[i]
		i = w
	}
}
