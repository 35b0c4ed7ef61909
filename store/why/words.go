package why

import (
	"fmt"
	"slices"
	"strings"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/crabdb"
)

// indexWords are the query's words BM25 does not take whole: it
// tokenizes the query as one text, so each word gives the tokens
// `crmem tokens WORD` prints.
func indexWords(query string) []Word {
	out := []Word{}
	for _, raw := range strings.Fields(query) {
		w := Word{Word: raw, Terms: []string{}, Dropped: []Dropped{}}
		ps := bm25.Pieces(raw)
		for _, p := range ps {
			if p.Drop == bm25.Kept {
				w.Terms = append(w.Terms, p.Token)
			} else {
				w.Dropped = append(w.Dropped, Dropped{p.Text, string(p.Drop)})
			}
		}
		if len(ps) == 0 {
			w.Dropped = append(w.Dropped, Dropped{raw, string(bm25.NoLetters)})
		}
		if len(w.Dropped) > 0 || len(w.Terms) > 1 {
			out = append(out, w)
		}
	}
	return out
}

// recallWords are the query's words crabtalk's store does not take whole:
// its recall splits the query on whitespace and keeps of each word its
// first token, or, for a word ending in `*`, its letters and digits as a
// prefix.
func recallWords(query string) []Word {
	out := []Word{}
	for _, raw := range strings.Fields(query) {
		w := Word{Word: raw, Terms: []string{}, Dropped: []Dropped{}}
		for _, t := range crabdb.QueryTerms(raw) {
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
				w.Dropped = append(w.Dropped, Dropped{p.Text, string(p.Drop)})
			case kept > 0:
				w.Dropped = append(w.Dropped, Dropped{p.Text, KeepsFirst})
				kept++
			default:
				kept++
			}
		}
		if len(w.Terms) == 0 && len(w.Dropped) == 0 {
			w.Dropped = append(w.Dropped, Dropped{raw, string(bm25.NoLetters)})
		}
		if len(w.Dropped) > 0 || len(ps) > 1 {
			out = append(out, w)
		}
	}
	return out
}

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

// String shows what the tokenizer makes of the word, as `crmem tokens
// WORD` would: "the" → nothing (dropped: "the" stopword). It is not made
// safe for a terminal: callers sanitize it as they print.
func (w Word) String() string {
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

// queryTerms are the query's terms as the recall ranks them: BM25 takes
// the query as one text (bm25.QueryTerms); crabtalk's store, whose recall
// ranks by its own stored index, a term per word, "depl*" for a prefix.
func queryTerms(query string, stored bool) []string {
	if !stored {
		if t := bm25.QueryTerms(query); t != nil {
			return t
		}
		return []string{}
	}
	out := []string{}
	for _, t := range crabdb.QueryTerms(query) {
		out = append(out, t.String())
	}
	return out
}

// queryWords are the query's words the recall does not take whole
// (indexWords, or recallWords for a recall over a stored index).
func queryWords(query string, stored bool) []Word {
	if stored {
		return recallWords(query)
	}
	return indexWords(query)
}
