package store

import (
	"fmt"
	"strings"

	"github.com/crmem/crmem/bm25"
)

// QueryWord is a word of a query that a recall does not take whole, and
// what it makes of it (Recaller.Words): the terms it keeps and the pieces
// it drops, each with the reason.
type QueryWord struct {
	Word string `json:"word"`
	// Terms are the recall's terms from the word (`crmem tokens WORD`
	// for a CRMEM v1 file); empty when it drops the whole word.
	Terms   []string       `json:"terms"`
	Dropped []DroppedPiece `json:"dropped"`
}

// DroppedPiece is a piece of a query word the recall drops, and why.
type DroppedPiece struct {
	Piece  string `json:"piece"`
	Reason string `json:"reason"` // "stopword", "too short", …
}

// String shows what the tokenizer makes of the word, as `crmem tokens
// WORD` would: "the" → nothing (dropped: "the" stopword). It is not made
// safe for a terminal: callers sanitize it as they print.
func (w QueryWord) String() string {
	got := "nothing"
	if len(w.Terms) > 0 {
		got = strings.Join(w.Terms, " ")
	}
	s := fmt.Sprintf("%q → %s", w.Word, got)
	if len(w.Dropped) > 0 {
		drops := make([]string, len(w.Dropped))
		for i, d := range w.Dropped {
			drops[i] = fmt.Sprintf("%q %s", d.Piece, d.Reason)
		}
		s += " (dropped: " + strings.Join(drops, "; ") + ")"
	}
	return s
}

// indexWords are the query's words BM25 does not take whole: it
// tokenizes the query as one text, so each word gives the tokens
// `crmem tokens WORD` prints.
func indexWords(query string) []QueryWord {
	out := []QueryWord{}
	for _, raw := range strings.Fields(query) {
		w := QueryWord{Word: raw, Terms: []string{}, Dropped: []DroppedPiece{}}
		ps := bm25.Pieces(raw)
		for _, p := range ps {
			if p.Drop == bm25.Kept {
				w.Terms = append(w.Terms, p.Token)
			} else {
				w.Dropped = append(w.Dropped, DroppedPiece{p.Text, string(p.Drop)})
			}
		}
		if len(ps) == 0 {
			w.Dropped = append(w.Dropped, DroppedPiece{raw, string(bm25.NoLetters)})
		}
		if len(w.Dropped) > 0 || len(w.Terms) > 1 {
			out = append(out, w)
		}
	}
	return out
}
