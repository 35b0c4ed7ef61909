package cli

import (
	"bufio"
	"fmt"

	"github.com/crmem/crmem/store"
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

// storeExplain builds the explanation of one hit.
func storeExplain(h store.RecallHit, st store.RecallStats) *storeExplainJSON {
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

// writeStoreExplain prints a recall hit's posting rows and its length.
func writeStoreExplain(w *bufio.Writer, ex *storeExplainJSON) {
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
