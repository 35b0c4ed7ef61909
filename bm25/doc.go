// Package bm25 is crmem's full-text index: the reference tokenizer, an
// inverted index that can be updated one document at a time, and BM25
// ranking that reproduces the agent's recall (SPEC §4) to the last bit or two.
//
// # Tokens
//
// Text is split on every character that is not alphanumeric (Unicode
// Alphabetic or Numeric, like Rust's char::is_alphanumeric), pieces of a
// single character are dropped, the rest are lowercased with full Unicode
// case mapping (İ becomes i̇, a word-final Σ becomes ς) and stopwords are
// dropped. Pure-ASCII pieces take a byte-loop fast path.
//
// # Index
//
// Terms get dense ids; each term has a posting list of {doc, tf} over dense
// internal document numbers, and each document remembers, for each of its
// distinct terms, where its posting sits, so Set and Remove cost in
// proportion to the document's own terms (swap-remove), never to the
// vocabulary or to posting-list lengths. Build tokenizes in parallel.
//
// # Ranking
//
// Query terms are sorted and deduplicated; each term with df > 0 adds
// idf × (tf × (k1 + 1)) / (tf + k1 × (1 − b + b × dl / avgdl)) to every
// document containing it, in term order, in float64. Results have score > 0,
// highest first, ties by higher id first. An Index is safe for concurrent
// use: searches share a read lock, updates take the write lock.
package bm25
