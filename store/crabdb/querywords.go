package crabdb

import (
	"strings"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/store"
)

// KeepsFirst is why crabtalk's store drops a word's later tokens: its
// recall takes the first token of each whitespace-separated word only.
const KeepsFirst = "not the word's first token, and the store's recall keeps one per word"

// recallWords are the query's words crabtalk's store does not take whole:
// its recall splits the query on whitespace and keeps of each word its
// first token, or, for a word ending in `*`, its letters and digits as a
// prefix.
func recallWords(query string) []store.QueryWord {
	out := []store.QueryWord{}
	for _, raw := range strings.Fields(query) {
		w := store.QueryWord{Word: raw, Terms: []string{}, Dropped: []store.DroppedPiece{}}
		for _, t := range QueryTerms(raw) {
			w.Terms = append(w.Terms, t.String())
		}
		body := strings.TrimRight(raw, "*")
		ps := bm25.Pieces(body)
		prefix := body != raw
		kept := 0
		for _, p := range ps {
			switch {
			case prefix:
			case p.Drop != bm25.Kept:
				w.Dropped = append(w.Dropped, store.DroppedPiece{Piece: p.Text, Reason: string(p.Drop)})
			case kept > 0:
				w.Dropped = append(w.Dropped, store.DroppedPiece{Piece: p.Text, Reason: KeepsFirst})
				kept++
			default:
				kept++
			}
		}
		if len(w.Terms) == 0 && len(w.Dropped) == 0 {
			w.Dropped = append(w.Dropped, store.DroppedPiece{Piece: raw, Reason: string(bm25.NoLetters)})
		}
		if len(w.Dropped) > 0 || len(ps) > 1 {
			out = append(out, w)
		}
	}
	return out
}
