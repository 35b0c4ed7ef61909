package cli

import (
	"bufio"
	"time"

	"github.com/crmem/crmem/store/crabdb"
	"github.com/spf13/cobra"
)

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
