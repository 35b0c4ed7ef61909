package cli

import (
	"bufio"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/safefile"
	"github.com/crmem/crmem/store"
)

// defaultQueries are the 12 queries of testdata/reference/bench-queries.txt.
//
//go:embed benchqueries.txt
var defaultQueries string

// benchLimit is the result limit of each timed search (recall's default).
const benchLimit = 10

// benchResult is bench --json's output (SPEC §6).
type benchResult struct {
	Entries      int     `json:"entries"`
	OpenMS       float64 `json:"open_ms"`
	IndexMS      float64 `json:"index_ms"`
	SearchMeanUS float64 `json:"search_mean_us"`
	SearchP50US  float64 `json:"search_p50_us"`
	SearchP99US  float64 `json:"search_p99_us"`
	Hits         int     `json:"hits"`
	PeakRSSMB    float64 `json:"peak_rss_mb"`
}

// benchCommand times open, index and search on the memory file.
func benchCommand(o *opener, s streams) *cobra.Command {
	var queriesFile string
	var iterations int
	var js jsonOutput
	c := &cobra.Command{
		Use:   "bench [--queries FILE] [--iterations N] [--json|--pretty]",
		Short: "Time open, indexing and search on the memory file; report peak memory",
		Long: `Time what a user waits for: open (read, decode, build the in-memory state and
its BM25 index, as search does) and, within it, the index build (which runs
beside building the rest of the state); on crabtalk's store, which recalls
with its own stored index, the index time is its first recall's. Then run
every query (one per line of --queries FILE, blank lines skipped; default the
12 built-in bench queries) --iterations times at limit 10 and report the mean,
median and 99th percentile search time, the hits of one pass over the
queries, and the peak resident memory of the process (VmHWM). The file is
never written.`,
		Example: `  crmem bench --db /tmp/crmem-bench/big.db
  crmem bench --queries my-queries.txt --iterations 50 --json`,
		Args: args(0, 0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if iterations < 1 {
				return usage(cmd, "--iterations must be at least 1")
			}
			queries, err := loadQueries(queriesFile)
			if err != nil {
				return err
			}
			r, err := bench(o, queries, iterations)
			if err != nil {
				return err
			}
			if js.enabled() {
				return s.output(func(w *bufio.Writer) error { return js.write(w, r) })
			}
			return s.output(func(w *bufio.Writer) error { return writeBench(w, r, len(queries), iterations) })
		},
	}
	c.Flags().StringVar(&queriesFile, "queries", "", "file of queries, one per line (default: the 12 built-in bench queries)")
	c.Flags().IntVar(&iterations, "iterations", 100, "times each query is run")
	js.register(c, "print the results")
	return c
}

// queriesMax caps --queries: a query a line, a million of them fit.
const queriesMax = 64 << 20

// loadQueries reads the query file, or the built-in queries when path is "".
func loadQueries(path string) ([]string, error) {
	text := defaultQueries
	if path != "" {
		b, err := safefile.ReadFile(path, safefile.Options{Limit: queriesMax, What: "queries file"})
		if err != nil {
			return nil, fileError{path, err}
		}
		text = string(b)
	}
	var qs []string
	for line := range strings.SplitSeq(text, "\n") {
		if q := strings.TrimRight(line, "\r"); strings.TrimSpace(q) != "" {
			qs = append(qs, q)
		}
	}
	if len(qs) == 0 {
		return nil, fileError{path, errors.New("no queries")}
	}
	return qs, nil
}

// bench opens the memory file as search does and times the searches:
// v1 BM25 over the memory's index, or the format's own recall.
func bench(o *opener, queries []string, iterations int) (*benchResult, error) {
	start := time.Now()
	c, err := o.readContents()
	if err != nil {
		return nil, err
	}
	r := &benchResult{Entries: len(c.File.Entries)}
	search, indexTook, err := benchSearch(c, queries[0])
	if err != nil {
		return nil, err
	}
	r.OpenMS, r.IndexMS = ms(time.Since(start)), ms(indexTook)
	samples := make([]time.Duration, 0, iterations*len(queries))
	for i := range iterations {
		for _, q := range queries {
			t := time.Now()
			n, err := search(q)
			samples = append(samples, time.Since(t))
			if err != nil {
				return nil, fileError{c.Path, err}
			}
			if i == 0 {
				r.Hits += n
			}
		}
	}
	r.SearchMeanUS, r.SearchP50US, r.SearchP99US = latency(samples)
	r.PeakRSSMB = peakRSSMB()
	return r, nil
}

// benchSearch readies c's recall as a user's session does and returns one
// search at bench's limit (the number of hits it found) and how long the
// readying took: the recall's stats are read (a v1 file's bm25 index is
// built, on every core) and a first query runs (crabtalk's store sorts
// its stored index's keys), timed as the index and not as a search.
func benchSearch(c *store.Contents, first string) (search func(q string) (int, error), index time.Duration, err error) {
	rc := c.Features.Recall
	t := time.Now()
	rc.RecallStats()
	if _, err := rc.Rank(first, benchLimit); err != nil {
		return nil, 0, fileError{c.Path, err}
	}
	return func(q string) (int, error) {
		hits, err := rc.Rank(q, benchLimit)
		return len(hits), err
	}, time.Since(t), nil
}

// latency returns the mean, median and 99th percentile (nearest rank) in µs.
func latency(samples []time.Duration) (mean, p50, p99 float64) {
	if len(samples) == 0 {
		return 0, 0, 0
	}
	slices.Sort(samples)
	var sum time.Duration
	for _, s := range samples {
		sum += s
	}
	mean = round3(float64(sum) / float64(time.Microsecond) / float64(len(samples)))
	return mean, us(percentile(samples, 50)), us(percentile(samples, 99))
}

// percentile is the nearest-rank percentile of sorted samples.
func percentile(sorted []time.Duration, p int) time.Duration {
	rank := (p*len(sorted) + 99) / 100 // ceil(p/100 * n)
	return sorted[max(rank, 1)-1]
}

func ms(d time.Duration) float64 { return round3(float64(d) / float64(time.Millisecond)) }
func us(d time.Duration) float64 { return round3(float64(d) / float64(time.Microsecond)) }

// round3 rounds to three decimals, enough for any timing.
func round3(x float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 3, 64), 64)
	return v
}

// peakRSSMB is the process's peak resident set in MiB: VmHWM from
// /proc/self/status, else (no procfs) the memory obtained from the OS by the
// Go runtime, an upper bound of the heap's share.
func peakRSSMB() float64 {
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		for line := range strings.SplitSeq(string(b), "\n") {
			if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
				if err == nil {
					return round3(kb / 1024)
				}
			}
		}
	}
	var st runtime.MemStats
	runtime.ReadMemStats(&st)
	return round3(float64(st.Sys) / (1 << 20))
}

// writeBench prints the human report.
func writeBench(w *bufio.Writer, r *benchResult, queries, iterations int) error {
	_, err := fmt.Fprintf(w, `entries        %s
open           %.1f ms (index %.1f ms)
search mean    %.1f µs   p50 %.1f µs   p99 %.1f µs   (%d queries × %d)
hits           %s
peak RSS       %.1f MB
`, humanize.Count(r.Entries), r.OpenMS, r.IndexMS, r.SearchMeanUS, r.SearchP50US, r.SearchP99US, queries, iterations, humanize.Count(r.Hits), r.PeakRSSMB)
	return err
}
