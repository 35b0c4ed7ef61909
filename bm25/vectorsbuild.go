package bm25

import (
	"runtime"
	"slices"

	"github.com/crmem/crmem/internal/workgroup"
)

// BuildVectorsFunc returns the term vectors of n documents that doc returns
// by position, equal to BuildFunc(n, doc).Vectors() but without the index:
// the documents are tokenized as Build tokenizes them (on every core, into
// the same term ids), and each document's terms go straight into the
// vectors, with no posting lists, document table or id map built and then
// turned around. For a caller that needs the vectors alone (a similarity
// measure over documents), at about half the index's memory. doc is called
// as BuildFunc calls it.
//
// Documents whose ids do not ascend may repeat one, which the index
// resolves (a later document replaces an earlier one): those take the
// index's way.
func BuildVectorsFunc(n int, doc func(i int) Doc) *Vectors {
	return buildVectors(source{n, doc}, runtime.GOMAXPROCS(0), termEscape)
}

// buildVectors is BuildVectorsFunc with at most n parallel parts and local
// term ids from packLimit on escaped (termEscape but in tests).
func buildVectors(src source, n int, packLimit uint32) *Vectors {
	parts := tokenizeParts(src, n, packLimit)
	if !partsAscend(parts) {
		return buildPacked(src, n, packLimit).Vectors()
	}
	voc := New()
	remaps := voc.mergeVocab(parts)
	nt := len(voc.voc.terms)
	v := &Vectors{DF: make([]uint32, nt), Text: voc.voc.terms[:nt:nt]}
	for w, p := range parts {
		for local, c := range p.df[sink+1:] {
			v.DF[remaps[w][sink+1+local]] += c
		}
	}
	// Each part's first live document and first term slot in the vectors.
	firstDoc, firstSlot := make([]int, len(parts)+1), make([]int, len(parts)+1)
	for w, p := range parts {
		live := 0
		for _, dl := range p.dls {
			if dl > 0 {
				live++
			}
		}
		firstDoc[w+1], firstSlot[w+1] = firstDoc[w]+live, firstSlot[w]+len(p.dts)
	}
	docs, slots := firstDoc[len(parts)], firstSlot[len(parts)]
	v.IDs, v.Lens, v.Start = make([]uint64, docs), make([]uint32, docs), make([]int, docs+1)
	v.Terms, v.TF = make([]uint32, slots), make([]uint32, slots)
	v.Start[docs] = slots
	var g workgroup.Group
	for w, p := range parts {
		g.Go(func() { p.fillVectors(v, remaps[w], firstDoc[w], firstSlot[w]) })
	}
	g.Wait()
	return v
}

// partsAscend reports whether the parts' document ids strictly ascend, so
// that none repeats.
func partsAscend(parts []*buildPart) bool {
	first, prev := true, uint64(0)
	for _, p := range parts {
		for _, id := range p.ids {
			if !first && id <= prev {
				return false
			}
			first, prev = false, id
		}
	}
	return true
}

// fillVectors writes the part's live documents into v from document d and
// term slot s on: their ids, lengths and terms, the local term ids mapped
// to global ones by remap and each document's terms sorted ascending, as
// Index.Vectors gives them.
func (p *buildPart) fillVectors(v *Vectors, remap []uint32, d, s int) {
	var pack []uint64 // a document's (term, tf), term in the high bits, to sort as integers
	start := 0
	for k, end := range p.ends {
		if p.dls[k] == 0 {
			start = int(end)
			continue // no tokens: not a document of the vectors, as not live in the index
		}
		pack = pack[:0]
		for slot := start; slot < int(end); slot++ {
			t, tf := p.unpack(slot)
			pack = append(pack, uint64(remap[t])<<32|uint64(tf))
		}
		sortSmall(pack)
		v.IDs[d], v.Lens[d], v.Start[d] = p.ids[k], p.dls[k], s
		for _, x := range pack {
			v.Terms[s], v.TF[s] = uint32(x>>32), uint32(x)
			s++
		}
		d++
		start = int(end)
	}
}

// sortSmall sorts x ascending: by insertion for a document's usual few
// dozen terms (fewer moves than pdqsort's partitions there), else by
// slices.Sort.
func sortSmall(x []uint64) {
	if len(x) > 48 {
		slices.Sort(x)
		return
	}
	for i := 1; i < len(x); i++ {
		v, j := x[i], i
		for ; j > 0 && x[j-1] > v; j-- {
			x[j] = x[j-1]
		}
		x[j] = v
	}
}
