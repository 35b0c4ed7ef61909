package bm25

import (
	"strings"
	"unicode/utf8"
)

// Drop says why the tokenizer drops a piece of text ("" when it keeps it).
type Drop string

// The reasons a piece is not a token.
const (
	Kept      Drop = ""
	TooShort  Drop = "too short"
	Stopword  Drop = "stopword"
	NoLetters Drop = "no letters or digits"
)

// Piece is one run of letters and digits in a text as the tokenizer cuts
// it: the text as written, its token (lowercased) and, when the tokenizer
// drops it, why.
type Piece struct {
	Text  string
	Token string
	Drop  Drop
}

// Pieces cuts text exactly as Tokenize does but keeps every piece, the
// dropped ones with their reason: the kept pieces' tokens are Tokenize's
// tokens, in order. It shows why a word of a query found nothing.
func Pieces(text string) []Piece {
	var out []Piece
	for len(text) > 0 {
		i := strings.IndexFunc(text, IsWordRune)
		if i < 0 {
			break
		}
		text = text[i:]
		j := strings.IndexFunc(text, func(r rune) bool { return !IsWordRune(r) })
		if j < 0 {
			j = len(text)
		}
		out = append(out, piece(text[:j]))
		text = text[j:]
	}
	return out
}

// piece classifies one run of alphanumerics as the tokenizer does: one
// character is too short, a stopword (compared once lowercased) dropped.
func piece(p string) Piece {
	tok := Lower(p)
	switch {
	case utf8.RuneCountInString(p) < 2:
		return Piece{Text: p, Token: tok, Drop: TooShort}
	case IsStopword(tok):
		return Piece{Text: p, Token: tok, Drop: Stopword}
	}
	return Piece{Text: p, Token: tok}
}

// Standing is where one document stands in the full ranking of a query:
// its 1-based rank among every document scoring above zero (0: it has
// none) and its score broken down by term (Explain).
type Standing struct {
	ID   uint64
	Rank int
	Explanation
}

// Cutoff is the ranking's edge at a limit: how many documents score
// above zero and the last hit inside the limit (the last hit of all when
// fewer score or limit <= 0; zero when none scores).
type Cutoff struct {
	Ranked int
	Limit  int
	Rank   int // Last's rank, 0 when none scores
	Last   Hit
	Top    []Hit // the hits inside the limit, in rank order
}

// Stand ranks every document for query as Search does (score > 0, highest
// first, ties by higher id) and returns the cutoff at limit and, for each
// of ids, its standing. Ranks are positions in Search(query, 0); scores
// are Search's, bit for bit.
func (ix *Index) Stand(query string, limit int, ids []uint64) (Cutoff, []Standing) {
	terms := QueryTerms(query)
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	top, total, all := ix.searchAll(terms, limit, true)
	cut := Cutoff{Ranked: total, Limit: limit, Top: top}
	if len(top) > 0 {
		cut.Rank, cut.Last = len(top), top[len(top)-1]
	}
	score := make(map[uint64]float64, len(ids))
	for _, h := range all {
		score[h.ID] = h.Score
	}
	out := make([]Standing, len(ids))
	for i, id := range ids {
		out[i] = Standing{ID: id, Explanation: ix.explain(terms, id)}
		s, ok := score[id]
		if !ok {
			continue
		}
		out[i].Score = s // the ranking's own sum (Explain's is the same)
		me := Hit{ID: id, Score: s}
		out[i].Rank = 1
		for _, h := range all {
			if compareHits(h, me) < 0 {
				out[i].Rank++
			}
		}
	}
	return cut, out
}
