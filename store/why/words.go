package why

import (
	"slices"
	"strings"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/store"
)

// entryTokens are every piece of e's content and aliases, lowercased, the
// dropped ones included.
func entryTokens(e store.Entry) map[string]bool {
	toks := map[string]bool{}
	for _, text := range append([]string{e.Content}, e.Aliases...) {
		for _, p := range bm25.Pieces(text) {
			toks[p.Token] = true
		}
	}
	return toks
}

// droppedIn lists the dropped query pieces e's text holds (lowercased,
// each once).
func droppedIn(words []Word, e store.Entry) []string {
	out := []string{}
	var toks map[string]bool
	for _, w := range words {
		for _, d := range w.Dropped {
			if toks == nil {
				toks = entryTokens(e)
			}
			if t := bm25.Lower(d.Piece); toks[t] && !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

// heldTerms lists the query terms (a prefix term "x*" matching any token
// it begins) that e's tokens hold; only a source's own recall, which ranks
// by an index of its own, can leave such an entry unscored.
func heldTerms(terms []string, e store.Entry, ownRecall bool) []string {
	if !ownRecall || len(terms) == 0 {
		return nil
	}
	var toks []string
	for _, text := range append([]string{e.Content}, e.Aliases...) {
		toks = bm25.AppendTokens(toks, text)
	}
	var out []string
	for _, q := range terms {
		p, prefix := strings.CutSuffix(q, "*")
		if slices.ContainsFunc(toks, func(t string) bool { return t == q || prefix && strings.HasPrefix(t, p) }) {
			out = append(out, q)
		}
	}
	return out
}
