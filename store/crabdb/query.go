package crabdb

import (
	"slices"
	"strings"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/store"
)

// Term is one term of a store query: its text and whether it was written
// with a trailing `*` (then it matches every index term it prefixes). The
// type lives in store, where a Source's recall speaks of it.
type Term = store.RecallTerm

// QueryTerms splits a query the store's way: on whitespace; a piece ending
// in `*` is a prefix term (trailing stars removed, alphanumeric characters
// kept, each lowercased on its own); any other piece is the first token the
// tokenizer gives for it. Empty terms and repeated (text, prefix) pairs are
// dropped; order is kept.
func QueryTerms(query string) []Term {
	var out []Term
	for _, raw := range strings.Fields(query) {
		prefix := strings.HasSuffix(raw, "*")
		var text string
		if prefix {
			text = normalize(strings.TrimRight(raw, "*"))
		} else if toks := bm25.Tokenize(raw); len(toks) > 0 {
			text = toks[0]
		}
		if text == "" {
			continue
		}
		t := Term{Text: text, Prefix: prefix}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// normalize keeps a prefix's alphanumeric characters, each lowercased on
// its own (Rust's char::to_lowercase: no final-sigma rule).
func normalize(word string) string {
	var b strings.Builder
	for _, r := range word {
		if bm25.IsWordRune(r) {
			b.WriteString(bm25.Lower(string(r)))
		}
	}
	return b.String()
}
