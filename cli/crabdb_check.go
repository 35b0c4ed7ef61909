package cli

import (
	"bufio"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store/crabdb"
)

// storeCheckReport is what check finds in crabtalk's store; its JSON form
// is check --json's output for a store.
type storeCheckReport struct {
	Path         string         `json:"path"`
	Format       string         `json:"format"` // "crabdb"
	Valid        bool           `json:"valid"`
	Error        string         `json:"error,omitempty"`
	Bytes        int            `json:"bytes"`
	IndexAt      uint64         `json:"index_at"`
	IndexLen     uint64         `json:"index_len"`
	LiveKeys     int            `json:"live_keys"`
	Entries      int            `json:"entries"`
	Kinds        map[string]int `json:"kinds"`
	Aliases      int            `json:"aliases"`
	ContentBytes int            `json:"content_bytes"`
	Largest      *largest       `json:"largest,omitempty"`
	Index        *crabdb.Stats  `json:"index,omitempty"` // the memory index's stored stats
	Warnings     []string       `json:"warnings"`
	Anomalies    []anomaly      `json:"anomalies"`
	Sessions     *sessionReport `json:"sessions,omitempty"`
}

// checkStore validates a store and reports on it, without writing.
func (a *app) checkStore(cmd *cobra.Command, path string) error {
	js := jsonFlags(cmd)
	data, _, err := crabdb.ReadFile(path)
	if err != nil {
		return fileError{path, err}
	}
	r := &storeCheckReport{Path: path, Format: "crabdb", Bytes: len(data), Kinds: map[string]int{},
		Warnings: []string{}, Anomalies: []anomaly{}}
	if msg := misleadingName(path, crabdb.FormatStore); msg != "" {
		r.Anomalies = append(r.Anomalies, anomaly{Kind: "misleading_name", Detail: msg})
	}
	s, readErr := crabdb.Read(data)
	if readErr != nil {
		r.Error = readErr.Error()
	} else {
		fillStoreReport(r, s)
	}
	if js.enabled() {
		if err := a.output(func(w *bufio.Writer) error { return js.write(w, r) }); err != nil {
			return err
		}
	} else if readErr == nil {
		if err := a.output(func(w *bufio.Writer) error { return writeStoreCheck(w, r) }); err != nil {
			return err
		}
	}
	if readErr != nil {
		return fileError{path, fmt.Errorf("crabtalk store (crabdb): %w", readErr)}
	}
	return nil
}

// fillStoreReport counts what a readable store holds.
func fillStoreReport(r *storeCheckReport, s *crabdb.Store) {
	r.Valid = true
	h := s.Header()
	r.IndexAt, r.IndexLen, r.LiveKeys = h.IndexAt, h.IndexLen, s.Len()
	r.Warnings = append(r.Warnings, s.Warnings()...)
	entries, problems := s.Entries()
	for _, p := range problems {
		kind := "name_mismatch"
		if p.Skipped {
			kind = "unreadable_entry"
		}
		r.Anomalies = append(r.Anomalies, anomaly{Kind: kind, Detail: p.Reason})
	}
	r.Entries = len(entries)
	for _, k := range []string{"note", "archive"} {
		r.Kinds[k] = 0
	}
	known := map[string]bool{}
	for _, e := range entries {
		r.Kinds[e.Kind]++
		r.Aliases += len(e.Aliases)
		r.ContentBytes += len(e.Content)
		if r.Largest == nil || len(e.Content) > r.Largest.Bytes {
			r.Largest = &largest{Name: e.Name, Bytes: len(e.Content)}
		}
		known[e.Name] = true
		for _, al := range e.Aliases {
			known[al] = true
		}
	}
	if st, ok, err := s.Stats(); err != nil {
		r.Anomalies = append(r.Anomalies, anomaly{Kind: "unreadable_index", Detail: err.Error()})
	} else if ok {
		r.Index = &st
	}
	sr := &sessionReport{Dir: "(in the store)", Found: true, Missing: []missingMarker{}}
	for _, ss := range s.Sessions() {
		sr.Sessions++
		if ss.Archive == "" {
			continue
		}
		sr.Markers++
		if !known[ss.Archive] {
			// A store keeps one marker per session: the one it resumes from.
			sr.Missing = append(sr.Missing, missingMarker{Session: ss.Handle, Archive: ss.Archive, Resume: true})
		}
	}
	r.Sessions = sr
}

// writeStoreCheck prints the human report.
func writeStoreCheck(w *bufio.Writer, r *storeCheckReport) error {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("%s: valid crabtalk store (crabdb), %s; crmem opens it read-only\n", sanitizeLine(r.Path), humanize.Size(r.Bytes))
	if r.IndexLen > 0 {
		p("snapshot   at %d, %s bytes\n", r.IndexAt, humanize.Count(int(r.IndexLen)))
	} else {
		p("snapshot   none (the whole log is replayed)\n")
	}
	p("keys       %s live in all columns\n", humanize.Count(r.LiveKeys))
	p("entries    %s (notes %s, archives %s", humanize.Count(r.Entries), humanize.Count(r.Kinds["note"]), humanize.Count(r.Kinds["archive"]))
	for k, n := range r.Kinds {
		if k != "note" && k != "archive" && n > 0 {
			p(", %s %s", sanitizeLine(k), humanize.Count(n))
		}
	}
	p(")\naliases    %s\n", humanize.Count(r.Aliases))
	p("content    %s", humanize.Size(r.ContentBytes))
	if r.Largest != nil {
		p(", largest %s (%s)", humanize.Size(r.Largest.Bytes), sanitizeLine(r.Largest.Name))
	}
	p("\n")
	if r.Index != nil {
		p("index      %s documents, %s tokens (the store's stored stats)\n", humanize.Count(int(r.Index.Docs)), humanize.Count(int(r.Index.TotalLen)))
	} else {
		p("index      none (recall finds nothing)\n")
	}
	for _, wn := range r.Warnings {
		p("warning    %s\n", sanitizeLine(wn))
	}
	if len(r.Anomalies) == 0 {
		p("anomalies  none\n")
	} else {
		p("anomalies  %s\n", humanize.Count(len(r.Anomalies)))
		writeAnomalies(p, r.Anomalies)
	}
	if s := r.Sessions; s != nil {
		p("sessions   %s in the store, %s compact markers, %s naming missing archives\n", humanize.Count(s.Sessions), humanize.Count(s.Markers), humanize.Count(len(s.Missing)))
		for _, m := range s.Missing {
			p("  missing archive %q referenced by session %s (its resume point: it resumes with a placeholder)\n", sanitizeLine(m.Archive), sanitizeLine(m.Session))
		}
	}
	return nil
}
