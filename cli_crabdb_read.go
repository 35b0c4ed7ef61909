package main

import (
	"bufio"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/export"
	"github.com/crmem/crmem/store/crabdb"
	"github.com/crmem/crmem/tui/humanize"
)

// storeJSONEntry is a store entry's JSON shape: SPEC §6's without "id"
// (store entries have none), created_at the stored RFC 3339 string with its
// sub-second part (left out when the store has none).
type storeJSONEntry struct {
	Name      string   `json:"name"`
	Kind      string   `json:"kind"`
	CreatedAt string   `json:"created_at,omitempty"`
	Aliases   []string `json:"aliases"`
	Content   string   `json:"content"`
}

// storeJSON converts a store entry to its JSON shape.
func storeJSON(e crabdb.Entry) storeJSONEntry {
	aliases := e.Aliases
	if aliases == nil {
		aliases = []string{}
	}
	return storeJSONEntry{Name: e.Name, Kind: e.Kind, CreatedAt: e.CreatedAt, Aliases: aliases, Content: e.Content}
}

// storeKindFilter keeps the entries of the --kind flag's kind.
func storeKindFilter(cmd *cobra.Command, entries []crabdb.Entry) ([]crabdb.Entry, error) {
	s, _ := cmd.Flags().GetString("kind")
	k, err := kindFlag(cmd, s)
	if err != nil || k == nil {
		return entries, err
	}
	var out []crabdb.Entry
	for _, e := range entries {
		if e.Kind == k.String() {
			out = append(out, e)
		}
	}
	return out, nil
}

// lsStore lists a store's entries in key order.
func (a *app) lsStore(cmd *cobra.Command, v *storeView) error {
	entries, err := storeKindFilter(cmd, v.entries)
	if err != nil {
		return err
	}
	if js := jsonFlags(cmd); js.enabled() {
		out := make([]storeJSONEntry, len(entries))
		for i, e := range entries {
			out[i] = storeJSON(e)
		}
		return a.output(func(w *bufio.Writer) error { return writeArray(w, js, out) })
	}
	if len(entries) == 0 {
		_, err := fmt.Fprintln(a.stdout, "no entries")
		return err
	}
	now := time.Now()
	t := &table{right: map[int]bool{4: true}}
	t.add("KIND", "NAME", "CREATED", "AGE", "SIZE", "ALIASES")
	for _, e := range entries {
		created, age := storeDate(e, now)
		t.add(sanitizeLine(e.Kind), sanitizeLine(e.Name), created, age, humanize.Size(len(e.Content)), aliasList(e.Aliases, 60))
	}
	return a.output(func(w *bufio.Writer) error { return t.write(w) })
}

// storeDate shows a store entry's creation as a local date and an age.
func storeDate(e crabdb.Entry, now time.Time) (date, age string) {
	t, ok := storeCreated(e)
	if !ok {
		if e.CreatedAt == "" {
			return "-", "-"
		}
		return sanitizeLine(e.CreatedAt), "?"
	}
	s := unixSeconds(t)
	return formatDate(s), humanize.Age(now, s)
}

// showStore prints one store entry.
func (a *app) showStore(cmd *cobra.Command, v *storeView, name string) error {
	e, ok := v.lookup(name)
	if !ok {
		return fileError{v.path, fmt.Errorf("no such entry %q", name)}
	}
	if js := jsonFlags(cmd); js.enabled() {
		return a.output(func(w *bufio.Writer) error { return js.write(w, storeJSON(e)) })
	}
	return a.output(func(w *bufio.Writer) error {
		t := &table{}
		t.add("name", sanitizeLine(e.Name))
		t.add("kind", sanitizeLine(e.Kind))
		date, _ := storeDate(e, time.Now())
		if tm, ok := storeCreated(e); ok {
			date = fmt.Sprintf("%s (%s) %s", date, humanize.Ago(time.Now(), unixSeconds(tm)), sanitizeLine(e.CreatedAt))
		}
		t.add("created", date)
		if len(e.Aliases) > 0 {
			t.add("aliases", aliasList(e.Aliases, 1<<20))
		}
		t.add("size", fmt.Sprintf("%d bytes, %d tokens", len(e.Content), len(bm25.Tokenize(e.Content))))
		t.add("key", sanitizeLine(e.Key))
		if err := t.write(w); err != nil {
			return err
		}
		body := sanitize(e.Content)
		if body != "" && !strings.HasSuffix(body, "\n") {
			body += "\n"
		}
		_, err := fmt.Fprintf(w, "%s\n%s", strings.Repeat("─", 40), body)
		return err
	})
}

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

// exportStore prints a store's entries as JSON lines, in key order.
func (a *app) exportStore(v *storeView) error {
	return a.output(func(w *bufio.Writer) error {
		for _, e := range v.entries {
			b, err := marshal(storeJSON(e))
			if err != nil {
				return err
			}
			w.Write(b)
			w.WriteByte('\n')
		}
		return nil
	})
}

// dumpStore writes a store's memory as the mdbook tree of SPEC §5.
func (a *app) dumpStore(v *storeView, dir string) error {
	entries, notices := toV1Entries(v.entries, time.Now())
	for _, n := range notices {
		fmt.Fprintf(a.stderr, "crmem: %s\n", sanitizeLine(n))
	}
	if err := export.Dump(dir, entries); err != nil {
		return err
	}
	_, err := fmt.Fprintf(a.stdout, "dumped %s to %s\n", exportCount(entries), dir)
	return err
}

// benchStore times opening a store and its own recall.
func (a *app) benchStore(cmd *cobra.Command, path string) error {
	iterations, _ := cmd.Flags().GetInt("iterations")
	queriesFile, _ := cmd.Flags().GetString("queries")
	js := jsonFlags(cmd)
	if iterations < 1 {
		return usage(cmd, "--iterations must be at least 1")
	}
	queries, err := loadQueries(queriesFile)
	if err != nil {
		return err
	}
	start := time.Now()
	s, err := readStore(path)
	if err != nil {
		return err
	}
	read := time.Now()
	entries, _ := s.Entries()
	s.Keys(crabdb.ColText, "") // the sorted key order recall scans
	opened := time.Now()
	r := &benchResult{Entries: len(entries), OpenMS: ms(opened.Sub(start)), IndexMS: ms(opened.Sub(read))}
	samples := make([]time.Duration, 0, iterations*len(queries))
	for i := range iterations {
		for _, q := range queries {
			t := time.Now()
			hits, err := s.Recall(q, benchLimit)
			samples = append(samples, time.Since(t))
			if err != nil {
				return fileError{path, err}
			}
			if i == 0 {
				r.Hits += len(hits)
			}
		}
	}
	r.SearchMeanUS, r.SearchP50US, r.SearchP99US = latency(samples)
	r.PeakRSSMB = peakRSSMB()
	if js.enabled() {
		return a.output(func(w *bufio.Writer) error { return js.write(w, r) })
	}
	return a.output(func(w *bufio.Writer) error { return writeBench(w, r, len(queries), iterations) })
}

// jsonFlags reads a subcommand's --json and --pretty flags (its own
// variables belong to its v1 code path).
func jsonFlags(cmd *cobra.Command) jsonOutput {
	var o jsonOutput
	o.json, _ = cmd.Flags().GetBool("json")
	o.pretty, _ = cmd.Flags().GetBool("pretty")
	return o
}
