package bm25

// TermScore explains one query term for one document.
type TermScore struct {
	Term         string
	TF, DF       int
	IDF, Contrib float64
}

// Explanation is why a document scored what it did for a query.
type Explanation struct {
	Terms     []TermScore // every query term, in scoring order (df may be 0)
	DocLen    int
	AvgDocLen float64
	N         int
	Score     float64 // sum of Contrib, equal to Search's score
}

// Explain breaks a document's score for query into per-term parts, computed
// exactly as Search computes them.
func (ix *Index) Explain(query string, id uint64) Explanation {
	terms := QueryTerms(query)
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.explain(terms, id)
}

// explain is Explain for sorted, deduplicated terms; the caller holds the
// read lock.
func (ix *Index) explain(terms []string, id uint64) Explanation {
	ex := Explanation{N: ix.n, AvgDocLen: ix.avgdl()}
	if doc, ok := ix.docNum(id); ok {
		ex.DocLen = int(ix.docs[doc].len)
	}
	for _, term := range terms {
		ts := TermScore{Term: term, TF: int(ix.tf(term, id))}
		if t, ok := ix.voc.lookup(term); ok {
			ts.DF = ix.df(t)
		}
		if ts.DF > 0 {
			ts.IDF = idf(ix.n, ts.DF)
		}
		if ts.TF > 0 {
			ts.Contrib = termScore(ts.IDF, float64(ts.TF), docNorm(float64(ex.DocLen), ex.AvgDocLen))
			ex.Score += ts.Contrib
		}
		ex.Terms = append(ex.Terms, ts)
	}
	return ex
}
