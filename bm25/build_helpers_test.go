package bm25

import "runtime"

// Build and sliceSource serve the tests only: the command line builds over
// its entries in place (BuildFunc).

// Build indexes many documents using every core; it equals calling Set for
// each document in order, or Replace for a later duplicate id.
//
// Each core tokenizes a contiguous range of documents into its own term
// dictionary and per-document (term, tf) lists; the dictionaries are then
// merged, every posting list gets its exact size in one shared array, and
// the cores fill it in parallel, so posting lists come out in document order
// with no reallocation. The per-document lists are dropped afterwards: the
// index keeps only the postings.
func Build(docs []Doc) *Index {
	return buildParts(sliceSource(docs), runtime.GOMAXPROCS(0))
}

// sliceSource returns the source of a slice of documents.
func sliceSource(docs []Doc) source {
	return source{len(docs), func(i int) Doc { return docs[i] }}
}
