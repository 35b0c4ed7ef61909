package bm25

// Vectors is the index turned around: every live document's distinct
// terms with their frequencies, and every term's document frequency. It is
// what a similarity measure over documents (tf-idf cosine) needs, built in
// one pass over the posting lists instead of tokenizing every document
// again. It is a copy: later changes to the index do not reach it.
type Vectors struct {
	// IDs is each document's entry id, in the index's internal order.
	IDs []uint64
	// Lens is each document's length in tokens, as Index.DocLen gives it.
	Lens []uint32
	// Start delimits documents: document d's terms are
	// Terms[Start[d]:Start[d+1]], ascending by term id.
	Start []int
	// Terms and TF are the documents' term ids and term frequencies.
	Terms []uint32
	TF    []uint32
	// DF is each term's document frequency (live documents), by term id.
	DF []uint32
	// Text is each term's text, by term id; shared with the index, read-only.
	Text []string
}

// Docs returns the number of documents.
func (v *Vectors) Docs() int { return len(v.IDs) }

// Vectors returns the live documents' term vectors (see Vectors), in time
// and memory proportional to the index's postings.
func (ix *Index) Vectors() *Vectors {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	number := make([]int32, len(ix.docs)) // internal number → dense document, -1 if not live
	v := &Vectors{IDs: make([]uint64, 0, ix.n), Lens: make([]uint32, 0, ix.n)}
	for doc, info := range ix.docs {
		number[doc] = -1
		if info.live {
			number[doc] = int32(len(v.IDs))
			v.IDs = append(v.IDs, info.id)
			v.Lens = append(v.Lens, info.len)
		}
	}
	v.Start = make([]int, len(v.IDs)+1)
	v.DF = make([]uint32, len(ix.postings))
	for t, list := range ix.postings {
		v.DF[t] = uint32(ix.df(uint32(t)))
		for _, p := range list {
			if d := number[p.doc]; p.tf > 0 && d >= 0 {
				v.Start[d+1]++
			}
		}
	}
	for d := range v.IDs {
		v.Start[d+1] += v.Start[d]
	}
	total := v.Start[len(v.IDs)]
	v.Terms, v.TF = make([]uint32, total), make([]uint32, total)
	fill := append([]int(nil), v.Start[:len(v.IDs)]...)
	for t, list := range ix.postings { // terms in id order: each document's come out ascending
		for _, p := range list {
			if d := number[p.doc]; p.tf > 0 && d >= 0 {
				v.Terms[fill[d]], v.TF[fill[d]] = uint32(t), p.tf
				fill[d]++
			}
		}
	}
	v.Text = ix.voc.terms[:len(ix.postings):len(ix.postings)]
	return v
}
