package hygiene

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/crmem/crmem/store"
)

// Span is one secret found in a text: where it is, which rule found it,
// and its redacted form.
type Span struct {
	Start, End int
	Rule       string
	Redacted   string
}

// Secrets returns the secrets gitleaks' rules find in s, ascending and not
// overlapping (of two that overlap, the earlier and then the longer one is
// kept). A text longer than MaxScanBytes is scanned in pieces of that size,
// so every part of it is looked at.
func Secrets(s string) []Span {
	rs, err := ruleSet()
	if err != nil {
		return nil
	}
	sc := newScanner(rs)
	var spans []Span
	var scratch Report
	for off := 0; off < len(s); {
		end := min(len(s), off+MaxScanBytes)
		if end < len(s) { // cut at a line end, so no secret on one line is split
			if nl := strings.LastIndexByte(s[off:end], '\n'); nl > 0 {
				end = off + nl + 1
			}
		}
		for _, d := range sc.text(s[off:end], "text", nil, &scratch) {
			spans = append(spans, Span{Start: off + d.Start, End: off + d.End, Rule: d.Rule, Redacted: d.Redacted})
		}
		off = end
	}
	return disjoint(spans)
}

// disjoint sorts spans by start (longer first at the same start) and drops
// those overlapping a kept one.
func disjoint(spans []Span) []Span {
	if len(spans) < 2 {
		return spans
	}
	sortSpans(spans)
	out := spans[:1]
	for _, sp := range spans[1:] {
		last := &out[len(out)-1]
		if sp.Start < last.End {
			if sp.End > last.End && sp.Start == last.Start {
				*last = sp
			}
			continue
		}
		out = append(out, sp)
	}
	return out
}

func sortSpans(spans []Span) {
	slices.SortStableFunc(spans, func(a, b Span) int {
		if c := cmp.Compare(a.Start, b.Start); c != 0 {
			return c
		}
		return cmp.Compare(b.End, a.End)
	})
}

// Mask returns s with every secret Secrets finds replaced by its redacted
// form (ghp_…x9Q2): what a report, an error or a --redact output prints
// instead of a text that may hold one. A text without secrets is returned
// as it is.
func Mask(s string) string { return replaceSpans(s, Secrets(s)) }

// replaceSpans replaces each span of s (ascending, disjoint) with its
// redacted form.
func replaceSpans(s string, spans []Span) string {
	if len(spans) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	at := 0
	for _, sp := range spans {
		b.WriteString(s[at:sp.Start])
		b.WriteString(sp.Redacted)
		at = sp.End
	}
	b.WriteString(s[at:])
	return b.String()
}

// maskAllStrict masks each of texts (MaskStrict), returning texts itself
// when none holds a secret.
func maskAllStrict(texts []string) []string { return maskEach(texts, MaskStrict) }

// maskEach applies mask to each of texts, returning texts itself when
// mask changed none of them (no copy for the common case).
func maskEach(texts []string, mask func(string) string) []string {
	var out []string
	for i, t := range texts {
		if m := mask(t); m != t && out == nil {
			out = append(make([]string, 0, len(texts)), texts[:i]...)
			out = append(out, m)
		} else if out != nil {
			out = append(out, m)
		}
	}
	if out == nil {
		return texts
	}
	return out
}

// masker masks texts with one scanner, reused.
type masker struct {
	sc      *scanner
	scratch Report
}

func newMasker() *masker {
	rs, err := ruleSet()
	if err != nil {
		return &masker{}
	}
	return &masker{sc: newScanner(rs)}
}

// mask is Mask for a text of at most MaxScanBytes (names, reasons, terms),
// with the masker's scanner; a longer text goes through Mask.
func (m *masker) mask(s string) string { return replaceSpans(s, m.spans(s)) }

// spans is Secrets with the masker's scanner.
func (m *masker) spans(s string) []Span {
	if m.sc == nil || s == "" {
		return nil
	}
	if len(s) > MaxScanBytes {
		return Secrets(s)
	}
	ds := m.sc.text(s, "text", nil, &m.scratch)
	spans := make([]Span, len(ds))
	for i, d := range ds {
		spans[i] = Span{Start: d.Start, End: d.End, Rule: d.Rule, Redacted: d.Redacted}
	}
	return disjoint(spans)
}

// maskReport leaves no secret whole in anything the report prints: the
// entries' names (a name can hold a secret: it is found as one, field
// "name"), the reasons that quote them, a name finding's key and the
// notes. Shared terms are kept from secrets where they are chosen
// (grouping.shared).
func (r *Report) maskReport() {
	m := newMasker()
	for i := range r.Findings {
		f := &r.Findings[i]
		for j := range f.Entries {
			ref := &f.Entries[j]
			if masked := m.mask(ref.Name); masked != ref.Name {
				f.Reason = strings.ReplaceAll(f.Reason, strconv.Quote(ref.Name), strconv.Quote(masked))
				ref.Name = masked
			}
		}
		f.Reason = m.mask(f.Reason)
		if f.Name != nil {
			f.Name.Key = m.mask(f.Name.Key)
		}
	}
	for i, b := range r.Bounded {
		r.Bounded[i] = m.mask(b)
	}
}

// MaskEntry is e with the secrets in its name, aliases and content masked
// (MaskStrict: by the rules and by their shape, what --redact promises),
// and whether it held any; e itself is not changed.
func MaskEntry(e store.Entry) (store.Entry, bool) {
	name, aliases, content := MaskStrict(e.Name), maskAllStrict(e.Aliases), MaskStrict(e.Content)
	changed := name != e.Name || content != e.Content || len(aliases) > 0 && &aliases[0] != &e.Aliases[0]
	e.Name, e.Aliases, e.Content = name, aliases, content
	return e, changed
}

// MaskJSON is Mask for JSON text (one document or JSON lines): each secret
// is masked inside its string without breaking it. A secret is cut at a
// quote that would end its string, a span that begins inside an escape
// sequence takes the backslash with it, one that would end just after an
// escape's backslash leaves it, and the redacted form keeps no quote or
// backslash, so valid JSON stays valid (FuzzMaskJSON).
func MaskJSON(s string) string {
	spans := Secrets(s)
	if len(spans) == 0 {
		return s
	}
	out := spans[:0]
	for _, sp := range spans {
		if q := strings.IndexByte(s[sp.Start:sp.End], '"'); q >= 0 {
			sp.End = sp.Start + q
		}
		tail := 0
		for i := sp.End - 1; i >= sp.Start && s[i] == '\\'; i-- {
			tail++
		}
		if tail%2 == 1 {
			sp.End-- // the span would end inside an escape: leave its backslash
		}
		n := 0
		for i := sp.Start - 1; i >= 0 && s[i] == '\\'; i-- {
			n++
		}
		if n%2 == 1 {
			sp.Start--
		}
		if sp.End <= sp.Start {
			continue
		}
		sp.Redacted = strings.Map(func(r rune) rune {
			if r == '\\' || r == '"' {
				return -1
			}
			return r
		}, Redact(s[sp.Start:sp.End]))
		out = append(out, sp)
	}
	return replaceSpans(s, out)
}

// MaskStrict is Mask with a second net: besides what the secret rules
// find, every token that looks like a credential by its shape alone
// (ShapeSpans) is masked too. It is what --redact, lint --diff and search
// --why print, where a secret the rules miss must not show whole; ordinary
// words, commit ids and UUIDs stay readable.
func MaskStrict(s string) string {
	spans := Secrets(s)
	found := len(spans)
	for _, sh := range ShapeSpans(s) {
		// What a rule found is masked as the rule says (ghp_…x9Q2, its
		// key's name readable); the shape masks only what no rule found.
		if !slices.ContainsFunc(spans[:found], func(sp Span) bool { return sp.Start < sh.End && sh.Start < sp.End }) {
			spans = append(spans, sh)
		}
	}
	return replaceSpans(s, disjoint(spans))
}

// Shape thresholds (ShapeSpans): a token of at least MinShapeLen
// characters of base64 or URL-safe base64 (without its padding), with upper and lower case
// letters and digits, whose characters carry at least MinShapeEntropy
// bits each (Shannon), as gitleaks' generic rule and detect-secrets'
// entropy checks judge a random string.
const (
	MinShapeLen     = 20
	MinShapeEntropy = 3.5
)

// ShapeSpans returns the tokens of s (runs of letters, digits and + / _ -;
// "=" ends one, as in KEY=value) that look random enough to be a credential: at least MinShapeLen
// long, holding an upper-case letter, a lower-case letter and a digit, of
// at least MinShapeEntropy bits a character. A run of hex digits (a commit
// id, a hash), a UUID, and a word or a name joined by hyphens (no mix of
// cases and digits) is not one.
func ShapeSpans(s string) []Span {
	var out []Span
	for i := 0; i < len(s); {
		if !shapeByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && shapeByte(s[j]) {
			j++
		}
		lo, hi := i, j
		for lo < hi && strings.IndexByte("_-/+", s[lo]) >= 0 {
			lo++
		}
		for hi > lo && strings.IndexByte("_-/+", s[hi-1]) >= 0 {
			hi--
		}
		if tok := s[lo:hi]; looksRandom(tok) {
			out = append(out, Span{Start: lo, End: hi, Rule: "shape", Redacted: Redact(tok)})
		}
		i = j
	}
	return out
}

// shapeByte reports whether c can be part of a token ShapeSpans weighs.
func shapeByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '+' || c == '/' || c == '_' || c == '-'
}

// looksRandom is ShapeSpans' judgement of one token.
func looksRandom(tok string) bool {
	if len(tok) < MinShapeLen || isUUID(tok) {
		return false
	}
	var upper, lower, digit bool
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		upper = upper || 'A' <= c && c <= 'Z'
		lower = lower || 'a' <= c && c <= 'z'
		digit = digit || '0' <= c && c <= '9'
	}
	if !upper || !lower || !digit {
		return false // words, hex ids in one case, numbers
	}
	return entropy(tok) >= MinShapeEntropy
}
