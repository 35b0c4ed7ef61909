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
// dropped. ASCII is classified eight bytes at a time; a short pure-ASCII
// piece comes out lowercased and packed into a uint64, which is also its
// vocabulary key, so indexing allocates nothing per token.
//
// # Index
//
// Terms get dense ids; each term has a posting list of {doc, tf} over dense
// internal document numbers, and each document keeps its distinct terms,
// sorted, with the position of its posting in each list. Remove swaps the
// last posting of each list into the removed one's place and tells that
// posting's document its new position, so Set and Remove cost in proportion
// to the document's own terms, never to the vocabulary or to posting-list
// lengths. Build tokenizes ranges of documents on every core into private
// dictionaries, merges them, and fills posting lists of exact size (plus a
// little headroom for later Sets) in parallel.
//
// # Ranking
//
// Query terms are sorted and deduplicated; each term with df > 0 adds
// idf × (tf × (k1 + 1)) / (tf + k1 × (1 − b + b × dl / avgdl)) to every
// document containing it, in term order, in float64, without fused
// multiply-add. Scores accumulate in a pooled dense array; per-document
// length norms are cached per index version. Results have score > 0,
// highest first, ties by higher id first, selected with a bounded heap.
//
// # Concurrency
//
// An Index is safe for concurrent use: Search, SearchTerms, Expand and
// Explain share a read lock; Set and Remove take the write lock.
package bm25
