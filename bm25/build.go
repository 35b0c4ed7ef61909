package bm25

// Build indexes many documents.
func Build(docs []Doc) *Index {
	ix := New()
	for _, d := range docs {
		ix.Set(d)
	}
	return ix
}
