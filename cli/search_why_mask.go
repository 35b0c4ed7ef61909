package cli

import (
	"slices"
	"strings"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/store/hygiene"
	"github.com/crmem/crmem/store/why"
)

// maskWhy leaves no secret whole in a --why report. The report's terms
// are the query's words lowercased and split (an AWS key id becomes
// "akia…" no rule knows), so the secrets are looked for in what the user
// typed, the query and the names (by the rules and by their shape:
// hygiene.MaskStrict's two nets), and each of them, and each token the
// tokenizer makes of it, is masked wherever the report repeats it, in any
// case. Names and hits are masked as names are.
func maskWhy(rep *why.Report, query string, names []string) {
	frags := secretFragments(append([]string{query}, names...))
	scrub := func(s string) string { return hygiene.MaskStrict(replaceFolded(s, frags)) }
	each := func(ss []string) {
		for i := range ss {
			ss[i] = scrub(ss[i])
		}
	}
	rep.Query = scrub(rep.Query)
	each(rep.Terms)
	for i := range rep.Words {
		w := &rep.Words[i]
		w.Word = scrub(w.Word)
		each(w.Terms)
		for k := range w.Dropped {
			w.Dropped[k].Piece = scrub(w.Dropped[k].Piece)
		}
	}
	for i := range rep.Hits {
		rep.Hits[i].Name = scrub(rep.Hits[i].Name)
	}
	if rep.Cutoff != nil {
		c := *rep.Cutoff
		c.Name = scrub(c.Name)
		rep.Cutoff = &c
	}
	for i := range rep.Entries {
		e := &rep.Entries[i]
		e.Name, e.Entry, e.Detail = scrub(e.Name), scrub(e.Entry), scrub(e.Detail)
		for k := range e.Terms {
			e.Terms[k].Query, e.Terms[k].Term = scrub(e.Terms[k].Query), scrub(e.Terms[k].Term)
		}
		each(e.Missing)
		each(e.DroppedWords)
		each(e.Suggest)
	}
}

// minFragment is the shortest piece of a secret maskWhy masks on its own:
// a shorter token is a word anyone might type.
const minFragment = 4

// secretFragments returns the secrets in texts (by rule or by shape) and
// the recall's tokens of each, lowercased, longest first.
func secretFragments(texts []string) []string {
	var out []string
	for _, t := range texts {
		spans := append(hygiene.Secrets(t), hygiene.ShapeSpans(t)...)
		for _, sp := range spans {
			s := t[sp.Start:sp.End]
			out = append(out, strings.ToLower(s))
			for _, tok := range bm25.Tokenize(s) {
				if len(tok) >= minFragment {
					out = append(out, tok)
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b string) int { return len(b) - len(a) })
	return slices.Compact(out)
}

// replaceFolded replaces each of frags (lowercase, longest first) in s,
// in any case, with its redacted form.
func replaceFolded(s string, frags []string) string {
	if len(frags) == 0 || s == "" {
		return s
	}
	lower := strings.ToLower(s)
	if len(lower) != len(s) {
		return s // a case change altered the length: left to MaskStrict
	}
	for _, f := range frags {
		for {
			i := strings.Index(lower, f)
			if i < 0 {
				break
			}
			r := hygiene.Redact(s[i : i+len(f)])
			s = s[:i] + r + s[i+len(f):]
			lower = lower[:i] + strings.ToLower(r) + lower[i+len(f):]
		}
	}
	return s
}
