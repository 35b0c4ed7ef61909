package hygiene

import (
	"fmt"
	"slices"

	"golang.org/x/text/cases"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store"
)

// wording is the entries' words, in order, as 32-bit hashes
// (appendWords): document d's are words[start[d]:start[d+1]], and entry[d]
// is its entry.
type wording struct {
	start []int
	words []uint32
	entry []int32
}

// newWording reads the words of every entry's content but those skip
// marks; an entry without words is no document.
func newWording(entries []store.Entry, skip []bool) *wording {
	w := &wording{start: []int{0}}
	fold := cases.Fold()
	for i := range entries {
		if skip[i] {
			continue
		}
		n := len(w.words)
		w.words = appendWords(w.words, entries[i].Content, MaxWordsPerEntry, &fold)
		if len(w.words) == n {
			continue
		}
		w.start = append(w.start, len(w.words))
		w.entry = append(w.entry, int32(i))
	}
	return w
}

// docs is how many documents w holds.
func (w *wording) docs() int { return len(w.entry) }

// of returns document d's words.
func (w *wording) of(d int) []uint32 { return w.words[w.start[d]:w.start[d+1]] }

// keyed is a candidate key (a sampled word-triple hash) held by a document.
type keyed struct {
	key uint64
	doc int32
}

// candidateKeys appends document d's candidate keys to dst: its word
// triples whose hash is 0 modulo SampleEvery (the same triples in every
// document, so two copies sharing a third of their triples share about a
// third of their sampled ones: Broder's "mod m" sketch), and its
// BottomKeys smallest triple hashes, so a short entry with no sampled
// triple still has keys.
func candidateKeys(dst []keyed, triples []uint64, d int32) []keyed {
	for _, x := range triples[:min(BottomKeys, len(triples))] {
		dst = append(dst, keyed{x, d})
	}
	for _, x := range triples[min(BottomKeys, len(triples)):] {
		if x%SampleEvery == 0 {
			dst = append(dst, keyed{x, d})
		}
	}
	return dst
}

// nearCandidates returns the pairs of documents (a < b, packed a<<32 | b)
// that share at least one candidate key held by at most a cut of
// documents, each with how many they share, ascending. The cut starts at
// MaxKeyDF and is lowered until the pairs the keys' lists form fit in
// CandidateWorkPerEntry × documents (a key shared by thousands of
// entries is a phrase, not a copy); a cut below MaxKeyDF is reported.
func (w *wording) nearCandidates(r *Report) (pairs []uint64, shared []uint16, keys []int) {
	n := w.docs()
	keys = make([]int, n)
	var all []keyed
	var tri []uint64
	for d := range n {
		tri = appendShingles(tri[:0], w.of(d), 3)
		k := len(all)
		all = candidateKeys(all, tri, int32(d))
		keys[d] = len(all) - k
	}
	slices.SortFunc(all, func(a, b keyed) int {
		if a.key != b.key {
			if a.key < b.key {
				return -1
			}
			return 1
		}
		return int(a.doc - b.doc)
	})
	// Each run of one key is its documents, ascending.
	type run struct{ lo, hi int }
	var runs []run
	for i := 0; i < len(all); {
		j := i + 1
		for j < len(all) && all[j].key == all[i].key {
			j++
		}
		if j-i >= 2 {
			runs = append(runs, run{i, j})
		}
		i = j
	}
	cut, budget := MaxKeyDF, max(MinCandidateWork, CandidateWorkPerEntry*n)
	for {
		work := 0
		for _, ru := range runs {
			if df := ru.hi - ru.lo; df <= cut {
				work += df * (df - 1) / 2
			}
		}
		if work <= budget || cut <= 2 {
			break
		}
		cut = cut * 3 / 4
	}
	if cut < MaxKeyDF {
		r.bound(fmt.Sprintf("near-duplicates: word triples shared by more than %s entries proposed no pair (the default is %s; the entries share many phrases)",
			humanize.Count(cut), humanize.Count(MaxKeyDF)))
	}
	for _, ru := range runs {
		if ru.hi-ru.lo > cut {
			continue
		}
		for i := ru.lo; i < ru.hi; i++ {
			for j := i + 1; j < ru.hi; j++ {
				pairs = append(pairs, uint64(all[i].doc)<<32|uint64(all[j].doc))
			}
		}
	}
	slices.Sort(pairs)
	out := pairs[:0]
	for i := 0; i < len(pairs); {
		j := i + 1
		for j < len(pairs) && pairs[j] == pairs[i] {
			j++
		}
		out = append(out, pairs[i])
		shared = append(shared, uint16(min(j-i, 1<<16-1)))
		i = j
	}
	return out, shared, keys
}

// worthScoring reports whether a candidate pair sharing shared of their
// ka and kb candidate keys could be near: an edited copy keeps a share of
// its original's triples, and so of its sampled ones, where two entries
// that share one phrase share one key of dozens.
func worthScoring(shared uint16, ka, kb int) bool {
	return int(shared)*MinKeyShare >= min(ka, kb)
}

// shingled is one document's word-pair and word-triple sets.
type shingled struct {
	pairs, triples []uint64
}

// set fills s with document d's sets.
func (w *wording) set(d int, s *shingled) {
	s.pairs = appendShingles(s.pairs[:0], w.of(d), 2)
	s.triples = appendShingles(s.triples[:0], w.of(d), 3)
}

// resemblance is how alike two documents' wording is: the mean of the
// Jaccard resemblances of their sets of word pairs and of word triples.
// An edited copy keeps most of its original's runs of words; two notes on
// one topic share words but few runs of them. Pairs reach copies with a
// third of their words changed, whose triples are mostly broken; triples
// keep two notes written from one template apart.
func resemblance(a, b *shingled) float64 {
	return (jaccard(a.pairs, b.pairs) + jaccard(a.triples, b.triples)) / 2
}

// nearPairs emits every pair of documents whose resemblance reaches
// threshold among the candidates (nearCandidates), each once, a < b.
func (w *wording) nearPairs(threshold float64, r *Report, emit func(a, b int32, sim float64)) {
	pairs, shared, keys := w.nearCandidates(r)
	var sa, sb shingled
	last := int32(-1)
	for i, p := range pairs {
		a, b := int32(p>>32), int32(uint32(p))
		if !worthScoring(shared[i], keys[a], keys[b]) {
			continue
		}
		if a != last {
			w.set(int(a), &sa)
			last = a
		}
		w.set(int(b), &sb)
		if sim := resemblance(&sa, &sb); sim >= threshold {
			emit(a, b, sim)
		}
	}
}
