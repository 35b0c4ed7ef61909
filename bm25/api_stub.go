package bm25

// This file is the agreed public API of package bm25, with placeholder
// bodies. The implementation replaces it; exported names and signatures are a
// contract the store, CLI and TUI rely on. Additions are fine.

// Parameters of the reference ranking.
const (
	K1 = 1.2
	B  = 0.75
)

// Tokenize returns the tokens of text (SPEC §4).
func Tokenize(text string) []string { panic("bm25: not implemented") }

// QueryTerms returns the sorted, deduplicated tokens of a query.
func QueryTerms(query string) []string { panic("bm25: not implemented") }

// Doc is one entry's indexable text: content then aliases.
type Doc struct {
	ID      uint64
	Content string
	Aliases []string
}

// Hit is one ranked result.
type Hit struct {
	ID    uint64
	Score float64
}

// Index is an inverted index with BM25 ranking identical to the reference.
// It is safe for concurrent use.
type Index struct{ _ int }

// New returns an empty index.
func New() *Index { panic("bm25: not implemented") }

// Build indexes many documents using every core.
func Build(docs []Doc) *Index { panic("bm25: not implemented") }

// Set inserts or replaces one document, in time proportional to its terms.
func (ix *Index) Set(d Doc) { panic("bm25: not implemented") }

// Remove drops one document, in time proportional to its terms.
func (ix *Index) Remove(id uint64) { panic("bm25: not implemented") }

// Len returns N, the number of indexed documents.
func (ix *Index) Len() int { panic("bm25: not implemented") }

// AvgDocLen returns total tokens / N.
func (ix *Index) AvgDocLen() float64 { panic("bm25: not implemented") }

// DocLen returns a document's token count (0 if not indexed).
func (ix *Index) DocLen(id uint64) int { panic("bm25: not implemented") }

// DocFreq returns how many documents contain term.
func (ix *Index) DocFreq(term string) int { panic("bm25: not implemented") }

// TermFreq returns how often term occurs in the document.
func (ix *Index) TermFreq(term string, id uint64) int { panic("bm25: not implemented") }

// Search ranks documents for query: score > 0, highest first, ties by higher
// id, at most limit (limit <= 0 means all).
func (ix *Index) Search(query string, limit int) []Hit { panic("bm25: not implemented") }

// SearchTerms ranks for already-tokenized terms (sorted and deduplicated by
// the callee), e.g. a query plus prefix expansions.
func (ix *Index) SearchTerms(terms []string, limit int) []Hit { panic("bm25: not implemented") }

// Expand returns up to max index terms that start with prefix, most frequent
// (highest df) first, ties in byte order.
func (ix *Index) Expand(prefix string, max int) []string { panic("bm25: not implemented") }

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

// Explain breaks a document's score for query into per-term parts.
func (ix *Index) Explain(query string, id uint64) Explanation { panic("bm25: not implemented") }
