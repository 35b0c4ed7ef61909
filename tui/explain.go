package tui

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/part"
)

// explainQuery is the query whose score the explain view breaks down: the
// query's own terms for an exact recall hit; for a row found otherwise (a
// prefix match, or a name match that only the prefix expansions score)
// the terms plus the expansions of the word being typed, which is what
// scored it.
func explainQuery(r *searchResult, h row) (string, []string) {
	if r == nil {
		return "", nil
	}
	if h.Hit != hitExact && h.Via != hitExact && len(r.expansions) > 0 {
		return strings.Join(append(slices.Clone(r.terms), r.expansions...), " "), r.expansions
	}
	return r.Query, nil
}

// scoreParts breaks the scores of a search's rows down as the recall of
// the memory searched scores them. The search sets the one its recall
// gives (runSearch): the explain view is one path whatever the format;
// what differs is only what the data says (explained).
type scoreParts interface {
	// explain breaks row h's score (entry id, found by r) down; state
	// says why there is nothing to break down yet.
	explain(r *searchResult, h row, id uint64) (explained, explainState)
}

// explainState is whether a row's score can be broken down now.
type explainState int

const (
	explainReady    explainState = iota
	explainNoQuery               // no query, or none of its terms reach the recall
	explainIndexing              // the index the recall ranks by is being built
)

// explained is one row's score broken down in the recall's own shape
// (store.RecallHit, a store.Part per term), whatever the format.
type explained struct {
	title    string          // what the recall ran, and the score
	query    string          // the query's terms as the recall took them
	expanded []string        // the screen's own expansions of the word being typed; none where the recall expands it
	hit      store.RecallHit // score, length, weight, parts (a Query ending in * is a prefix's match)
	returned bool            // the recall returns the entry for the query
	stats    store.RecallStats
	// stored: lengths, stats and weights are as the recall's own index
	// stores them, and df counts posting rows (crabtalk's store,
	// Recaller.Stored); else BM25 over the entries as they are.
	stored bool
}

// explainView renders a row's score broken down (scoreParts): per part tf,
// df, idf and contribution; the document's length against the average;
// the recall's parameters; the total.
func explainView(st *styles, r *searchResult, h row, id uint64, width int, hk explainHints) string {
	if r == nil || r.parts == nil {
		return st.dim.Render(hk.noQuery())
	}
	x, state := r.parts.explain(r, h, id)
	switch state {
	case explainNoQuery:
		return st.dim.Render(hk.noQuery())
	case explainIndexing:
		return st.dim.Render("Still indexing…")
	}
	var b strings.Builder
	b.WriteString("EXPLAIN" + paren(hints(": ", hk.off, "back to the content")) + "\n")
	b.WriteString(x.title + "\n")
	b.WriteString(x.query + "\n")
	if len(x.expanded) > 0 {
		fmt.Fprintf(&b, "prefix expansions: %s\n", strings.Join(x.expanded, " "))
	}
	b.WriteString("\n")
	if !x.returned {
		b.WriteString("The recall does not return it")
		if h.Hit == hitName {
			b.WriteString(" (listed as a name/alias match)")
		}
		return explainLines(b.String(), width-explainIndent)
	}
	writeTerms(&b, x.hit.Parts, termColumn(width))
	out := explainLines(b.String(), width-explainIndent)
	var totals strings.Builder
	writeTotals(&totals, x)
	out += explainLines(totals.String(), width-explainIndent-1)
	if note := footnote(x.hit.Score, h, len(x.expanded) > 0); note != "" {
		out += "\n\n" + explainLines(note, width-explainIndent-1)
	}
	return out
}

// explainLines indents the explanation's lines and wraps each to limit
// cells, never cutting one: a query, a term or a figure cut short could
// read as another (depl… for deploy, deployed and deployment). The table
// fills the pane; the sentences under it keep a cell free.
func explainLines(s string, limit int) string {
	return indent(ansi.Wrap(s, max(limit, 10), " ,"), "  ")
}

// indexParts is scoreParts of a v1 file's recall, BM25 over its index
// (ix; nil while it is being built): a part per query term, scoring or
// not; the word being typed is expanded by the screen (prefixMatches).
type indexParts struct{ ix *bm25.Index }

// explain breaks h's score down by the index.
func (p indexParts) explain(r *searchResult, h row, id uint64) (explained, explainState) {
	if len(r.terms)+len(r.expansions) == 0 {
		return explained{}, explainNoQuery
	}
	if p.ix == nil {
		return explained{}, explainIndexing
	}
	query, expanded := explainQuery(r, h)
	ex := p.ix.Explain(query, id)
	x := explained{
		title:    fmt.Sprintf("Why this entry scores %.4f for %q", ex.Score, sanitize.Line(r.Query)),
		query:    "query tokens: " + strings.Join(r.terms, " "),
		expanded: expanded,
		hit:      store.RecallHit{Score: ex.Score, DocLen: uint32(ex.DocLen), Weight: 1, Parts: make([]store.Part, len(ex.Terms))},
		returned: true,
		stats:    store.RecallStats{Docs: uint64(ex.N), TotalLen: uint64(math.Round(ex.AvgDocLen * float64(ex.N)))},
	}
	for i, t := range ex.Terms {
		q := t.Term
		if slices.Contains(expanded, t.Term) {
			q += "*"
		}
		x.hit.Parts[i] = store.Part{Query: q, Term: t.Term, TF: t.TF, DF: t.DF, IDF: t.IDF, Contrib: t.Contrib}
	}
	return x, explainReady
}

// recallParts is scoreParts of a recall that explains its own hits
// (crabtalk's store): the parts it gave for each hit (by id) when the
// search ran, as stored; it expands the word being typed itself.
type recallParts struct {
	hits   map[uint64]store.RecallHit
	stats  store.RecallStats
	stored bool               // Recaller.Stored
	terms  []store.RecallTerm // the query's terms as the recall took them
}

// explain gives h's parts as the recall gave them.
func (p recallParts) explain(r *searchResult, h row, id uint64) (explained, explainState) {
	if r.recallQuery == "" {
		return explained{}, explainNoQuery
	}
	hit, ok := p.hits[id]
	var qs []string
	for _, t := range p.terms {
		qs = append(qs, t.String())
	}
	return explained{
		title:    fmt.Sprintf("store recall %q: score %.4f", r.recallQuery, hit.Score),
		query:    "query terms: " + strings.Join(qs, " ") + "  (term* = prefix match)",
		hit:      hit,
		returned: ok,
		stats:    p.stats,
		stored:   p.stored,
	}, explainReady
}

// footnote says how the row got listed when that is not plain recall.
func footnote(score float64, h row, expanded bool) string {
	var notes []string
	if expanded {
		notes = append(notes, "* = a prefix expansion of the word being typed; recall itself matches whole words only.")
	}
	if h.Hit == hitName {
		if score == 0 {
			notes = append(notes, "Listed as a name/alias match: recall does not return it for this query.")
		} else {
			notes = append(notes, "Listed first as a name/alias match.")
		}
	}
	return strings.Join(notes, " ")
}

// indent prefixes every line of s, matching the rendered content's margin.
func indent(s, prefix string) string { return part.Indent(s, prefix) }

// The term table is part's, shared with the why panel (tui/whypanel).
const (
	numbersWidth  = part.NumbersWidth
	explainIndent = part.ExplainIndent
)

func termHeader(termW int) string { return part.TermHeader(termW) }
func termColumn(width int) int    { return part.TermColumn(width) }
func termLine(name string, termW, tf, df int, idf, contrib float64) string {
	return part.TermLine(name, termW, tf, df, idf, contrib)
}

// writeTerms writes one row per part: tf, df, idf, contribution; a
// prefix's match is starred. The term column is measured in terminal
// cells, so wide characters line up; a term wider than it is never cut:
// it takes a line of its own and its figures the next.
func writeTerms(b *strings.Builder, parts []store.Part, termW int) {
	b.WriteString(termHeader(termW))
	for _, p := range parts {
		name := p.Term
		if strings.HasSuffix(p.Query, "*") {
			name += "*"
		}
		if ansi.StringWidth(name) > termW {
			b.WriteString(name + "\n")
			name = ""
		}
		b.WriteString(termLine(name, termW, p.TF, p.DF, p.IDF, p.Contrib))
	}
}

// writeTotals writes the document's length against the average, the
// recall's parameters and the total; a stored index's numbers are said to
// be stored, with the document's weight.
func writeTotals(b *strings.Builder, x explained) {
	avg := 0.0
	if x.stats.Docs > 0 {
		avg = float64(x.stats.TotalLen) / float64(x.stats.Docs)
	}
	params := fmt.Sprintf("k1 = %.1f, b = %.2f", bm25.K1, bm25.B)
	if x.stored {
		fmt.Fprintf(b, "\nstored doc length %s tokens, weight %g\n", humanize.Count(int(x.hit.DocLen)), x.hit.Weight)
		fmt.Fprintf(b, "stored stats: %s documents, %s tokens (average %.2f)\n",
			humanize.Count(int(x.stats.Docs)), humanize.Count(int(x.stats.TotalLen)), avg)
		params += "; df = posting rows"
	} else {
		fmt.Fprintf(b, "\ndoc length %s tokens (content and aliases), average %.2f, N = %s indexed entries\n",
			humanize.Count(int(x.hit.DocLen)), avg, humanize.Count(int(x.stats.Docs)))
	}
	fmt.Fprintf(b, "%s\ntotal = %.4f", params, x.hit.Score)
}
