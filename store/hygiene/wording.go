package hygiene

import (
	"fmt"
	"slices"
	"unsafe"

	"golang.org/x/text/cases"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store"
)

// wording reads the entries' words (appendWords) as the near-duplicate
// search needs them: document d is entry[d], an entry with words, and
// words(d) reads its words again each time they are needed. No copy of
// every word is kept: the search reads each document's words once to
// take its candidate keys (nearCandidates), then again only for the few
// documents that are candidates or in commonShingles' sample (on the 100k
// corpus a copy was 44 MB, a fifth of lint's peak, and a second pass over
// it).
type wording struct {
	entries []store.Entry
	entry   []int32
	// common are the word pairs and triples held by many entries
	// (commonShingles): phrases of the memory, not of one text.
	common map[uint64]struct{}
	// left is how many entries with words were left out past MaxNearDocs.
	left int
	// sampleDF is how many entries of commonShingles' sample hold each
	// word.
	sampleDF map[uint32]int32
	fold     cases.Caser
	buf      []uint32 // words' buffer
}

// wordDF is how many entries of commonShingles' sample hold the word w
// (an ASCII word's hash as appendWords makes it; 0 for others).
func (w *wording) wordDF(word string) int {
	if !isASCII(word) {
		return 0
	}
	return int(w.sampleDF[hashWord(word, 0x20)])
}

// newWording takes as documents the entries with words but those skip
// marks.
func newWording(entries []store.Entry, skip []bool) *wording {
	w := &wording{entries: entries, entry: make([]int32, 0, len(entries)), fold: cases.Fold()}
	for i := range entries {
		if skip[i] {
			continue
		}
		if len(w.entry) == MaxNearDocs {
			w.left++
			continue
		}
		// One word says it is a document: most entries begin with one.
		if w.buf = appendWords(w.buf[:0], entries[i].Content, 1, &w.fold); len(w.buf) > 0 {
			w.entry = append(w.entry, int32(i))
		}
	}
	w.common = w.commonShingles()
	return w
}

// words returns document d's words (appendWords, at most
// MaxWordsPerEntry), in a buffer the next call reuses.
func (w *wording) words(d int) []uint32 {
	w.buf = appendWords(w.buf[:0], w.entries[w.entry[d]].Content, MaxWordsPerEntry, &w.fold)
	return w.buf
}

// commonShingles finds the word pairs and triples held by at least
// CommonShare of the entries (and by CommonMinEntries of a sample), from
// CommonSample entries spread evenly over the memory: a template's header
// ("| step | owner | status |"), a phrase every note on a topic begins
// with, "in the". They say that two entries were written alike, not that
// one is a copy of the other, and do not count in the resemblance. A
// phrase that common is found in any even sample; a sample keeps the cost
// fixed whatever the memory's size.
func (w *wording) commonShingles() map[uint64]struct{} {
	n := w.docs()
	step := max(1, n/CommonSample)
	// Each sampled entry's sets and distinct words, appended, then sorted
	// and counted by runs (maps counting them cost as much and took twice
	// the memory), in slices made about long enough at once: a word in
	// about five bytes, a pair and a triple each.
	text := 0
	for d := 0; d < n; d += step {
		text += len(w.entries[w.entry[d]].Content)
	}
	sets, words := make([]uint64, 0, text/5*2), make([]uint32, 0, text/5)
	sampled := 0
	for d := 0; d < n; d += step {
		sampled++
		of := w.words(d)
		sets = appendShingles(sets, of, 2)
		sets = appendShingles(sets, of, 3)
		from := len(words)
		words = append(words, of...)
		slices.Sort(words[from:])
		words = words[:from+len(slices.Compact(words[from:]))]
	}
	radixSort(words)
	w.sampleDF = map[uint32]int32{}
	for i := 0; i < len(words); {
		j := i + 1
		for j < len(words) && words[j] == words[i] {
			j++
		}
		w.sampleDF[words[i]] = int32(j - i)
		i = j
	}
	radixSort(sets)
	least := max(CommonMinEntries, int(float64(sampled)*CommonShare+0.5))
	out := map[uint64]struct{}{}
	for i := 0; i < len(sets); {
		j := i + 1
		for j < len(sets) && sets[j] == sets[i] {
			j++
		}
		if j-i >= least {
			out[sets[i]] = struct{}{}
		}
		i = j
	}
	return out
}

// radixSort sorts xs by radix, 16 bits a pass, an even number of passes
// (on the 100k corpus commonShingles, which sorts its sample's 440,000
// pairs and triples and their words with it, took 0.05 s of CPU, with
// slices.Sort 0.06-0.07 s).
func radixSort[T uint32 | uint64](xs []T) {
	if len(xs) < 1<<12 {
		slices.Sort(xs)
		return
	}
	src, dst := xs, make([]T, len(xs))
	var count [1 << 16]int
	for shift := 0; shift < 8*int(unsafe.Sizeof(T(0))); shift += 16 {
		clear(count[:])
		for _, x := range src {
			count[x>>shift&0xffff]++
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, x := range src {
			d := x >> shift & 0xffff
			dst[count[d]] = x
			count[d]++
		}
		src, dst = dst, src
	}
}

// docs is how many documents w holds.
func (w *wording) docs() int { return len(w.entry) }

// keyed is a candidate key (a sampled word-triple hash) held by a
// document, packed into one integer so that sorting them is sorting
// integers: the hash's top keyBits bits, then the document (docBits bits).
// Two triples whose hashes agree in those bits are one key: at most a
// pair scored in vain.
type keyed uint64

const (
	docBits = 24
	keyBits = 64 - docBits
	// MaxNearDocs is the most entries the near-duplicate check compares
	// (a document number fits in docBits); the rest are said to be left.
	MaxNearDocs = 1 << docBits
)

func pack(x uint64, d int32) keyed { return keyed(x>>docBits<<docBits | uint64(d)) }
func (k keyed) key() uint64        { return uint64(k) >> docBits }
func (k keyed) doc() int32         { return int32(uint64(k) & (1<<docBits - 1)) }

// candidateKeys appends document d's candidate keys to dst (a triple the
// text repeats, repeated: nearCandidates counts each once):
// its word triples whose hash is 0 modulo SampleEvery (the same triples in
// every document, so two copies sharing a third of their triples share
// about a third of their sampled ones: Broder's "mod m" sketch), and its
// BottomKeys smallest triple hashes, so a short entry with no sampled
// triple still has keys. No sort of all its triples: one pass.
//
// Each triple's key is written and kept or not by its hash: a branch on
// it, taken one time in four at random, was missed about as often.
func candidateKeys(dst []keyed, words []uint32, d int32) []keyed {
	var bottom [BottomKeys]uint64
	nb := 0
	k := min(3, len(words))
	dst = slices.Grow(dst, len(words)+BottomKeys)
	n, out := len(dst), dst[:cap(dst)]
	for i := 0; i+k <= len(words) && k > 0; i++ {
		x := shingleHash(words[i : i+k])
		out[n] = pack(x, d)
		if x%SampleEvery == 0 {
			n++
		}
		// Keep the BottomKeys smallest, ascending.
		if nb < BottomKeys {
			bottom[nb] = x
			nb++
		} else if x < bottom[nb-1] {
			bottom[nb-1] = x
		} else {
			continue
		}
		for j := nb - 1; j > 0 && bottom[j] < bottom[j-1]; j-- {
			bottom[j], bottom[j-1] = bottom[j-1], bottom[j]
		}
	}
	dst = out[:n]
	for _, x := range bottom[:nb] {
		if x%SampleEvery != 0 { // else already a key
			dst = append(dst, pack(x, d))
		}
	}
	return dst
}

// sortKeyed sorts keys, appended document by document (ascending), by
// key, then document: one pass puts them in 1<<bucketBits buckets by their
// top bits, through a second copy, then each bucket, a few thousand keys
// that stay in cache, is sorted by the rest of its key's bits by radix
// (three passes of a byte or more, between the two copies), stably, so
// each key's documents stay ascending. (Four passes of 16 bits over all
// the keys, each scattering them over 65,536 places in 20 MB, cost half as
// much again on the 100k corpus; moving each key into its bucket in place,
// by swaps that wait on each other, twice as much.) A few keys are
// sorted as they are.
func sortKeyed(keys []keyed) { sortKeyedBelow(keys, 0, nil) }

// sortKeyedBelow is sortKeyed for keys whose top top bits are all the
// same (a part of nearCandidates' keys), its second copy in buf if buf is
// long enough.
func sortKeyedBelow(keys []keyed, top uint, buf []keyed) {
	if len(keys) < 1<<14 {
		slices.Sort(keys)
		return
	}
	if len(buf) < len(keys) {
		buf = make([]keyed, len(keys))
	}
	buf = buf[:len(keys)]
	var start [1<<bucketBits + 1]int
	bucket := func(k keyed) keyed { return k << top >> (64 - bucketBits) }
	for _, k := range keys {
		start[bucket(k)+1]++
	}
	for b := range 1 << bucketBits {
		start[b+1] += start[b]
	}
	next := start
	for _, k := range keys {
		b := bucket(k)
		buf[next[b]] = k
		next[b]++
	}
	// The key's bits below the bucket's, in three passes (an odd number,
	// so that the last writes keys) of at most 10 bits.
	bits := (keyBits - top - bucketBits + 2) / 3
	var count [1 << 10]int
	for b := range 1 << bucketBits {
		src, dst := buf[start[b]:start[b+1]], keys[start[b]:start[b+1]]
		if len(src) < 2 {
			copy(dst, src)
			continue
		}
		shift := uint(docBits)
		for range 3 {
			clear(count[:])
			for _, k := range src {
				count[k>>shift&(1<<bits-1)]++
			}
			sum := 0
			for i, c := range count[:1<<bits] {
				count[i] = sum
				sum += c
			}
			for _, k := range src {
				d := k >> shift & (1<<bits - 1)
				dst[count[d]] = k
				count[d]++
			}
			src, dst = dst, src
			shift += bits
		}
	}
}

// bucketBits is sortKeyed's: the three passes take the key's bits but the
// bucket's, keyBits-bucketBits.
const bucketBits = 10

// maxPartBits and partKeys are nearCandidates': its keys are sorted in up
// to 1<<maxPartBits parts by their top bits, parts of at least partKeys
// keys, each through a second copy of its size, not one as big as all of
// them (at a million entries, 200 MB written for the first time: a sixth
// of lint's time went to the system, clearing its pages). A part's 1024
// buckets then hold a few thousand keys each, as one part's do at 100k
// entries; smaller ones cost more in counts cleared than they save.
const (
	maxPartBits = 3
	partKeys    = 1 << 21
)

// keyParts sorts keys, appended document by document (ascending) as
// candidateKeys appends them, as sortKeyed does: they are appended to
// parts of one slice's room by their top bits as they come, each part
// sorted in turn through one buffer, then moved down to follow the one
// before. A part that overflows its room is moved elsewhere by append:
// the parts are then joined in a new slice.
type keyParts struct {
	all  []keyed
	bits uint // 1<<bits parts
	part [1 << maxPartBits][]keyed
	room [1 << maxPartBits]int
	one  []keyed // a document's keys
}

// newKeyParts returns keyParts with room for about sampled keys spread
// evenly and bottom keys that are a document's least: most in the first
// part, the rest in the next ones; parts of at least least keys. Room
// never written is never touched.
func newKeyParts(sampled, bottom, least int) *keyParts {
	kp := &keyParts{}
	for kp.bits < maxPartBits && (sampled+bottom)>>(kp.bits+1) >= least {
		kp.bits++
	}
	at := 0
	for p := range 1 << kp.bits {
		kp.room[p] = sampled>>kp.bits + bottom>>p
		at += kp.room[p]
	}
	kp.all = make([]keyed, 0, at)
	at = 0
	for p, room := range kp.room[:1<<kp.bits] {
		kp.part[p] = kp.all[at : at : at+room]
		at += room
	}
	return kp
}

// add appends document d's candidate keys (candidateKeys), after those of
// the documents before: straight into the room if it is one part.
func (kp *keyParts) add(words []uint32, d int32) {
	if kp.bits == 0 {
		kp.part[0] = candidateKeys(kp.part[0], words, d)
		return
	}
	kp.one = candidateKeys(kp.one[:0], words, d)
	kp.addKeys(kp.one)
}

// addKeys appends keys, of a document after those of the documents before.
func (kp *keyParts) addKeys(keys []keyed) {
	for _, k := range keys {
		p := k >> (64 - kp.bits)
		kp.part[p] = append(kp.part[p], k)
	}
}

// sorted returns the keys added, sorted.
func (kp *keyParts) sorted() []keyed {
	longest, total, moved := 0, 0, false
	parts := kp.part[:1<<kp.bits]
	for p, part := range parts {
		longest, total = max(longest, len(part)), total+len(part)
		moved = moved || cap(part) != kp.room[p] // append grows a part past its room
	}
	buf := make([]keyed, longest)
	for _, part := range parts {
		sortKeyedBelow(part, kp.bits, buf)
	}
	out := kp.all[:0]
	if moved {
		out = make([]keyed, 0, total)
	}
	for _, part := range parts {
		out = append(out, part...) // moved down: never over a part still to move
	}
	return out
}

// nearCandidates returns the pairs of documents (a < b, packed a<<32 | b)
// that share candidate keys held by at most a cut of documents, enough of
// them to be worth scoring (worthScoring), ascending. The cut starts at
// MaxKeyDF and is lowered until the pairs the keys' lists form fit in
// CandidateWorkPerEntry × documents (a key shared by thousands of
// entries is a phrase, not a copy); a cut below MaxKeyDF is reported.
func (w *wording) nearCandidates(r *Report) (pairs []uint64) {
	n := w.docs()
	keys := make([]int, n)
	text := 0
	for _, i := range w.entry {
		text += len(w.entries[i].Content)
	}
	// About a word in five bytes, a key in SampleEvery triples: pages
	// never written are never touched.
	kp := newKeyParts(text/5/SampleEvery, BottomKeys*n, partKeys)
	for d := range n {
		kp.add(w.words(d), int32(d))
	}
	all := kp.sorted()
	// The sorted keys, read twice: first each document's keys counted once
	// (a triple the text repeats is one key) and the keys held by two
	// documents or more, then each of those kept as a run of its
	// documents, ascending, written over the keys already read (docs: an
	// element written for each read, at most). The keys held by one
	// document, most of them, are dropped.
	nruns := 0
	for i := 0; i < len(all); {
		keys[all[i].doc()]++
		j, held := i+1, 1
		for ; j < len(all) && all[j].key() == all[i].key(); j++ {
			if all[j] != all[j-1] {
				keys[all[j].doc()]++
				held++
			}
		}
		if held >= 2 {
			nruns++
		}
		i = j
	}
	type run struct{ lo, hi int32 }
	runs := make([]run, 0, nruns)
	docs := all[:0]
	for i := 0; i < len(all); {
		first, lo := all[i], len(docs)
		prev := first
		docs = append(docs, keyed(first.doc()))
		j := i + 1
		for ; j < len(all); j++ {
			k := all[j] // read before docs may reach it
			if k.key() != first.key() {
				break
			}
			if k != prev {
				docs = append(docs, keyed(k.doc()))
			}
			prev = k
		}
		if len(docs)-lo >= 2 {
			runs = append(runs, run{int32(lo), int32(len(docs))})
		} else {
			docs = docs[:lo]
		}
		i = j
	}
	cut, budget := MaxKeyDF, max(MinCandidateWork, CandidateWorkPerEntry*n)
	for {
		work := 0
		for _, ru := range runs {
			if df := int(ru.hi - ru.lo); df <= cut {
				work += df * (df - 1) / 2
			}
		}
		if work <= budget || cut <= 2 {
			break
		}
		cut = cut * 3 / 4
	}
	over := 0
	for _, ru := range runs {
		if int(ru.hi-ru.lo) > cut {
			over++
		}
	}
	switch {
	case cut < MaxKeyDF:
		r.bound(fmt.Sprintf("near-duplicates: word triples shared by more than %s entries proposed no pair (the default is %s; the entries share many phrases)",
			humanize.Count(cut), humanize.Count(MaxKeyDF)))
	case over > 0:
		// Said, as a family of more copies than the cut, each a little
		// edited, is found only through its edits.
		r.bound(fmt.Sprintf("near-duplicates: %s shared by more than %s entries proposed no pair (phrases of the memory, or more than %s copies of one text)",
			humanize.Counted(over, "sampled run of three words", "sampled runs of three words"), humanize.Count(cut), humanize.Count(cut)))
	}
	// Each document's runs (those within the cut), as positions in all:
	// at[k] for k in first[d]:first[d+1] is document d's place in a run
	// whose end is end[k]. Documents are visited in order, and each adds
	// one to every later document of each of its runs: a count of the
	// keys they share, without a list of every pair.
	first := make([]int, n+1)
	for _, ru := range runs {
		if int(ru.hi-ru.lo) <= cut {
			for _, d := range docs[ru.lo:ru.hi] {
				first[d+1]++
			}
		}
	}
	for d := range n {
		first[d+1] += first[d]
	}
	// The runs within the cut, their documents copied together (in): the
	// loop below reads each run once for each of its documents, the runs
	// in no order, and docs, with the runs past the cut, in keys of twice
	// the size, was most of its time waiting on memory.
	in := make([]int32, 0, first[n])
	at, end := make([]int32, first[n]), make([]int32, first[n])
	fill := slices.Clone(first[:n])
	for _, ru := range runs {
		if int(ru.hi-ru.lo) <= cut {
			lo := int32(len(in))
			for _, d := range docs[ru.lo:ru.hi] {
				in = append(in, int32(d))
			}
			for i, d := range in[lo:] {
				at[fill[d]], end[fill[d]] = lo+int32(i), int32(len(in))
				fill[d]++
			}
		}
	}
	count := make([]uint16, n)
	var touched []int32
	for d := range n {
		touched = touched[:0]
		for k := first[d]; k < first[d+1]; k++ {
			for _, e := range in[at[k]+1 : end[k]] {
				if count[e] == 0 {
					touched = append(touched, e)
				}
				count[e] = min(count[e]+1, 1<<16-1)
			}
		}
		for _, e := range touched { // in the order first touched: the same on every run
			if worthScoring(count[e], keys[d], keys[e]) {
				pairs = append(pairs, uint64(d)<<32|uint64(e))
			}
			count[e] = 0
		}
	}
	return pairs
}

// worthScoring reports whether a candidate pair sharing shared of their
// ka and kb candidate keys could be near: at least MinSharedKeys, and
// a resemblance of their sampled triples (shared over all their keys, an
// estimate of the Jaccard resemblance of their triples: the mod-m sketch)
// of at least MinKeyResemblance. An edited copy keeps a share of its
// original's triples, and so of its sampled ones; two entries that share
// a phrase share one key of dozens.
func worthScoring(shared uint16, ka, kb int) bool {
	s := int(shared)
	return s >= MinSharedKeys && float64(s) >= MinKeyResemblance*float64(ka+kb-s)
}

// enough reports whether a pair of ta and tb uncommon triples, sharing
// shared of them at resemblance sim, has shared enough wording to be
// called near: MinSharedTriples, or, for a short entry with fewer than
// twice that, half of the shorter one's at a resemblance of at least
// MinShortSimilarity (the threshold, if higher). Two notes
// from one template that happen to hold a line or two alike share a few
// triples at a low resemblance; a one-line note and its copy with a word
// changed share most of theirs at a high one.
func enough(shared, ta, tb int, sim, threshold float64) bool {
	if shared >= MinSharedTriples {
		return true
	}
	half := (min(ta, tb) + 1) / 2
	return shared >= max(1, half) && half < MinSharedTriples && sim >= max(threshold, MinShortSimilarity)
}

// shingled is one document's word-pair and word-triple sets.
type shingled struct {
	pairs, triples []uint64
}

// set fills s with document d's sets, without the common ones.
func (w *wording) set(d int, s *shingled) {
	words := w.words(d)
	s.pairs = w.rare(appendShingles(s.pairs[:0], words, 2))
	s.triples = w.rare(appendShingles(s.triples[:0], words, 3))
}

// rare drops the common shingles from set, in place.
func (w *wording) rare(set []uint64) []uint64 {
	if len(w.common) == 0 {
		return set
	}
	return slices.DeleteFunc(set, func(x uint64) bool { _, ok := w.common[x]; return ok })
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
// threshold among the candidates (nearCandidates), each once, a < b, when
// they share enough runs of three words that are not common (enough).
func (w *wording) nearPairs(threshold float64, r *Report, emit func(a, b int32, sim float64)) {
	pairs := w.nearCandidates(r)
	var sa, sb shingled
	last := int32(-1)
	for _, p := range pairs {
		a, b := int32(p>>32), int32(uint32(p))
		if a != last {
			w.set(int(a), &sa)
			last = a
		}
		w.set(int(b), &sb)
		if sim := resemblance(&sa, &sb); sim >= threshold && enough(overlap(sa.triples, sb.triples), len(sa.triples), len(sb.triples), sim, threshold) {
			emit(a, b, sim)
		}
	}
}
