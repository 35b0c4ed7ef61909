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
// for prefix expansion. It is built on first use; afterwards new terms wait
// in pending (scanned linearly) and are merged in batches, so adding a term
// costs O(1) amortised over mergeAt terms.
type prefixIndex struct {
	mu      sync.Mutex // serialises the lazy build among readers
	built   bool
	sorted  []uint32
	pending []uint32
}

// add records a new term; the caller holds the index's write lock.
func (p *prefixIndex) add(t uint32, terms []string) {
	if !p.built {
		return
	}
	p.pending = append(p.pending, t)
	if len(p.pending) >= mergeAt {
		p.merge(terms)
	}
}

// merge folds pending into sorted.
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

// ensure builds the sorted vocabulary if needed; the caller holds at least
// the index's read lock.
func (p *prefixIndex) ensure(terms []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.built {
		return
	}
	p.sorted = make([]uint32, len(terms))
	for i := range p.sorted {
		p.sorted[i] = uint32(i)
	}
	slices.SortFunc(p.sorted, func(a, b uint32) int { return strings.Compare(terms[a], terms[b]) })
	p.built = true
}

// Expand returns up to max index terms that start with prefix, most frequent
// (highest df) first, ties in byte order. Terms no document contains any
// more are skipped.
func (ix *Index) Expand(prefix string, max int) []string {
	if max <= 0 {
		return nil
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	ix.prefixes.ensure(ix.voc.terms)
	var cands []termDF
	for _, t := range ix.prefixRange(prefix) {
		cands = ix.offerTerm(cands, t, max)
	}
	for _, t := range ix.prefixes.pending {
		if strings.HasPrefix(ix.voc.terms[t], prefix) {
			cands = ix.offerTerm(cands, t, max)
		}
	}
	slices.SortFunc(cands, ix.compareTermDF)
	out := make([]string, len(cands))
	for i, c := range cands {
		out[i] = ix.voc.terms[c.term]
	}
	return out
}

// prefixRange returns the sorted term ids whose text starts with prefix.
func (ix *Index) prefixRange(prefix string) []uint32 {
	s := ix.prefixes.sorted
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

// offerTerm keeps the best max candidates in cands (unordered, worst
// replaced when full).
func (ix *Index) offerTerm(cands []termDF, t uint32, max int) []termDF {
	c := termDF{term: t, df: uint32(len(ix.postings[t]))}
	if c.df == 0 {
		return cands
	}
	if len(cands) < max {
		return append(cands, c)
	}
	worst := 0
	for i := range cands {
		if ix.compareTermDF(cands[i], cands[worst]) > 0 {
			worst = i
		}
	}
	if ix.compareTermDF(c, cands[worst]) < 0 {
		cands[worst] = c
	}
	return cands
}
