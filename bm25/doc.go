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
// Terms get dense ids; each term has a posting list of {doc, tf} over
// internal document numbers, sorted by number. Numbers are never reused: a
// new or replaced document takes the next one, so its postings are appended
// and lists stay sorted. The index keeps no per-document term lists: Remove
// and Replace take the old document, re-tokenize it, find its posting in
// each of its terms' lists by interpolation search and turn it into a
// tombstone (tf 0), so they cost in proportion to the document's own terms,
// never to the vocabulary or to posting-list lengths. A list is compacted once its
// tombstones outnumber its live postings, and the document numbers are
// renumbered densely once the removed ones outnumber the live ones (both
// amortised over the removals that caused them). Build tokenizes ranges of
// documents on every core into private dictionaries, merges them, and fills
// posting lists of exact size (plus a little headroom for later Sets) in
// parallel.
//
// Build has its own tokenizer (scanner, pinned to the plain one by tests and
// a differential fuzz target): pure-ASCII text is classified 64 bytes at a
// time into one bit per byte, piece bounds come from a shift and an xor and
// are written without a branch per piece, a piece of up to eight bytes is
// packed with one load, and the packed key is looked up in an
// open-addressing table that also maps stopwords and one-character pieces
// to a sink term; text near a multi-byte rune goes through the general
// tokenizer. A document's terms are counted in two passes with no
// per-token branch on whether a term was seen before.
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
// Explain share a read lock; Set, Replace and Remove take the write lock.
package bm25
