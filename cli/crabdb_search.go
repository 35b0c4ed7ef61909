package cli

import (
	"bufio"
	"fmt"
	"math"

	"github.com/crmem/crmem/store/crabdb"
	"github.com/spf13/cobra"
)

// storeHit is a store search result's JSON shape.
type storeHit struct {
	storeJSONEntry
	Score   float64           `json:"score"`
	Explain *storeExplainJSON `json:"explain,omitempty"`
}

// storeExplainJSON is why a store entry scored what it did: the stored
// df, tf, dl, weight and stats (SPEC §10).
type storeExplainJSON struct {
	Terms     []storeTermJSON `json:"terms"`
	DocLen    uint32          `json:"doc_len"`
	Weight    float64         `json:"weight"`
	Docs      uint64          `json:"docs"`
	TotalLen  uint64          `json:"total_len"`
	AvgDocLen float64         `json:"avg_doc_len"`
}

// storeTermJSON is one posting row's part in a score.
type storeTermJSON struct {
	Query   string  `json:"query"` // the query term, "depl*" for a prefix
	Term    string  `json:"term"`  // the index term the row belongs to
	TF      uint32  `json:"tf"`
	DF      int     `json:"df"`
	IDF     float64 `json:"idf"`
	Contrib float64 `json:"contrib"`
}

// searchStore ranks with the store's own recall.
func (a *app) searchStore(cmd *cobra.Command, v *storeView, query string) error {
	limit, _ := cmd.Flags().GetInt("limit")
	explain, _ := cmd.Flags().GetBool("explain")
	js := jsonFlags(cmd)
	if limit < 0 {
		return usage(cmd, "--limit must be 0 (all) or more")
	}
	kindName, _ := cmd.Flags().GetString("kind")
	k, err := kindFlag(cmd, kindName)
	if err != nil {
		return err
	}
	searchLimit := limit
	if limit == 0 || k != nil {
		searchLimit = math.MaxInt // 0 is "all" on the command line; filter, then cut
	}
	hits, err := v.s.RecallExplained(query, searchLimit)
	if err != nil {
		return fileError{v.path, err}
	}
	st, _, _ := v.s.Stats()
	out := []storeHit{}
	for _, h := range hits {
		e, ok := v.byKey(h.Key)
		if !ok {
			// Indexed but not readable as an entry: list it by name.
			e = crabdb.Entry{Key: h.Key, Name: h.Name, Kind: "?"}
		}
		if k != nil && e.Kind != k.String() {
			continue
		}
		sh := storeHit{storeJSONEntry: storeJSON(e), Score: h.Score}
		if explain {
			sh.Explain = storeExplain(h, st)
		}
		out = append(out, sh)
		if limit > 0 && len(out) == limit {
			break
		}
	}
	if js.enabled() {
		return a.output(func(w *bufio.Writer) error { return writeArray(w, js, out) })
	}
	if len(out) == 0 {
		_, err := fmt.Fprintln(a.stdout, "no matches")
		return err
	}
	return a.output(func(w *bufio.Writer) error { return writeStoreSearch(w, out) })
}

// storeExplain builds the explanation of one hit.
func storeExplain(h crabdb.Hit, st crabdb.Stats) *storeExplainJSON {
	ex := &storeExplainJSON{Terms: []storeTermJSON{}, Docs: st.Docs, TotalLen: st.TotalLen}
	if st.Docs > 0 {
		ex.AvgDocLen = float64(st.TotalLen) / float64(st.Docs)
	}
	for _, p := range h.Parts {
		ex.DocLen, ex.Weight = p.DocLen, p.Weight
		ex.Terms = append(ex.Terms, storeTermJSON{Query: p.Query.String(), Term: p.Term, TF: p.TF, DF: p.DF, IDF: p.IDF, Contrib: p.Contrib})
	}
	return ex
}

// writeStoreSearch prints the results, with explanations under their rows.
func writeStoreSearch(w *bufio.Writer, hits []storeHit) error {
	t := &table{right: map[int]bool{0: true, 1: true}}
	t.add("#", "SCORE", "KIND", "NAME", "CONTENT")
	for i, h := range hits {
		t.add(fmt.Sprint(i+1), fmt.Sprintf("%.4f", h.Score), sanitizeLine(h.Kind), sanitizeLine(h.Name), snippet(h.Content, 60))
	}
	lines := t.lines()
	w.WriteString(lines[0] + "\n")
	for i, h := range hits {
		w.WriteString(lines[i+1] + "\n")
		ex := h.Explain
		if ex == nil {
			continue
		}
		for _, p := range ex.Terms {
			term := sanitizeLine(p.Query)
			if p.Query != p.Term {
				term += " → " + sanitizeLine(p.Term)
			}
			fmt.Fprintf(w, "     %s: tf %d, df %d of %d, idf %.4f → %.4f\n", term, p.TF, p.DF, ex.Docs, p.IDF, p.Contrib)
		}
		fmt.Fprintf(w, "     length %d tokens (average %.1f: stored stats %d docs, %d tokens), weight %g\n",
			ex.DocLen, ex.AvgDocLen, ex.Docs, ex.TotalLen, ex.Weight)
	}
	return nil
}
