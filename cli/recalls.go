package cli

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/hygiene"
	"github.com/crmem/crmem/store/open"
	"github.com/crmem/crmem/store/recalls"
	"github.com/crmem/crmem/store/sessions"
)

// recallsOptions are recalls' flags.
type recallsOptions struct {
	since  string
	agent  string
	report bool
	crowd  float64
	limit  int
	js     jsonOutput
}

// recallsLong is recalls' help: the list, --report, and the filters.
const recallsLong = `List every recall the agent made, read from crabtalk's session history (the
sessions folder beside a memory file, --sessions to name another, or the
sessions crabtalk's store holds): when, in which session, by which agent, the
query and its limit, the names the recall returned then, and the names the same
query returns now on the memory as it is, with the differences marked (+
returned now only, - returned then only). A result equal to today's but for the
order of equal scores, or for which entry of a tie at the limit it got, is "the
same (ties)": the agent's recall leaves tie order open, so that is no change.
Times come from the call's tool_start event; a time marked ~ is the step file's
modification time or, in crabtalk's store, which keeps no time per message, the
session's last update. A tool result that cannot be read as names is shown as
such, never guessed. A call without a limit used the agent's recall_limit: the
store records it; for a sessions folder crabtalk's local/settings.toml beside
the memory file does ([agents.NAME.hooks.memory] recall_limit), else
--recall-limit (default 5).

--report tells what never surfaces: per entry how often a recall returned it
then and would now; the entries no recorded query returns, then or now (with
age and size: the cleanup candidates the agent never uses); the entries that
crowd the top (returned now by at least --crowd of the distinct queries); the
queries that now return nothing; and names returned then that are gone.

--since keeps recalls made within a span (30d, 12h, 6mo) or since a date
(2026-03-01, or RFC 3339); --agent keeps one agent's. Steps that are not
crabtalk's, calls with malformed arguments, sessions of unknown agents, a
session meta that is not JSON (skipped), unreadable results and a missing
sessions folder are counted on one line on stderr (and under "problems" in
JSON).`

// recallsCommand lists what the agent asked its memory and what the same
// queries return now; --report is what never surfaces.
func recallsCommand(o *opener, s streams) *cobra.Command {
	var opts recallsOptions
	c := &cobra.Command{
		Use:   "recalls [--since WHEN] [--agent NAME] [--report [--crowd SHARE]] [--recall-limit N] [--sessions DIR] [--json|--pretty]",
		Short: "What the agent recalled: each query then and now, and what never surfaces",
		Long:  recallsLong,
		Example: `  crmem recalls
  crmem recalls --since 7d --agent crab
  crmem recalls --report
  crmem --demo recalls --json`,
		Args: args(0, 0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			since, err := parseSince(opts.since, time.Now())
			if err != nil {
				return usage(cmd, "--since: %v", err)
			}
			if opts.crowd <= 0 || opts.crowd > 1 {
				return usage(cmd, "--crowd must be a share above 0 and at most 1 (0.5: half the queries)")
			}
			if opts.limit < 0 {
				return usage(cmd, "--recall-limit must be 0 or more")
			}
			return runRecalls(o, s, opts, recalls.Filter{Since: since, Agent: opts.agent})
		},
	}
	f := c.Flags()
	f.StringVar(&opts.since, "since", "", "only recalls within a span (30d) or since a date (2026-03-01)")
	f.StringVar(&opts.agent, "agent", "", "only this agent's recalls")
	f.BoolVar(&opts.report, "report", false, "what never surfaces: per-entry counts, never recalled, crowding the top, empty queries")
	f.Float64Var(&opts.crowd, "crowd", 0.5, "with --report: the share of distinct queries an entry must be returned by to crowd the top")
	f.IntVar(&opts.limit, "recall-limit", sessions.DefaultRecallLimit, "the limit of a call that gave none, when the sessions do not record the agent's recall_limit")
	f.String("sessions", "", "crabtalk sessions folder (default: sessions/ next to the memory file)") // read by the configuration loader (configFlags)
	opts.js.register(c, "print the recalls")
	return c
}

// parseSince reads --since: "" (no bound), a span back from now, a date
// (local midnight) or an RFC 3339 time.
func parseSince(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	if d, err := humanize.ParseSpan(s); err == nil {
		return now.Add(-d), nil
	} else if tooLong := (*humanize.SpanTooLongError)(nil); errors.As(err, &tooLong) {
		return time.Time{}, err
	}
	if t, err := time.ParseInLocation("2006-01-02", s, time.Local); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("%q: write a span (30d, 12h, 6mo) or a date (2026-03-01)", s)
}

// recallsInput is what recalls reads: the memory's entries, the recall
// that ranks its queries now, the look-up of the names results give, and
// the sessions (Features.Sessions: the store's own, or the sessions
// folder) with settings, crabtalk's settings file beside the memory file,
// whose agents' recall_limit a sessions folder's calls use ("" for the
// store, which records its agents' own).
type recallsInput struct {
	entries  func() []store.Entry
	rank     recalls.Ranker
	known    recalls.Known
	names    *recalls.Names // the entries' names, when known looks up in them (nil otherwise)
	sessions store.SessionsReader
	settings string
}

// recallsSource opens the memory and its sessions (Features.Sessions: the
// store's own, or the sessions folder), its search index built as mode
// says: recalls ranks with it, stats (which replays nothing) needs none.
//
// settings is crabtalk's settings file beside the memory file, whose agents'
// recall_limit a sessions folder's calls use ("" for the store, which
// records its agents' own).
func recallsSource(o *opener, mode store.IndexMode) (src store.Source, r store.SessionsReader, settings string, err error) {
	path, src, err := o.openSourceIndexed(mode)
	if err != nil {
		return nil, nil, "", err
	}
	f := src.Features()
	if f.Caps.Sessions == store.SessionsFolder {
		settings = sessions.SettingsPath(path)
	}
	return src, f.Sessions, settings, nil
}

// readRecallsInput reads the memory file for recalls. A CRMEM v1 file is read
// as ls reads it (readContents: a large file mapped, not copied) and a
// memory built over its entries, sharing them, with its index (the
// ranking, to the bit, of the recall an opened v1 file has: BM25 over the
// same index of the same entries) and its names; opened as a memory (a
// copy of the file in fresh pages, its fingerprint, a copy of the
// entries, and a sessions reader that caches every session's recalls)
// it cost recalls --report about a tenth more CPU on the 100k corpus.
// crabtalk's store, whose recall and sessions are its own, is opened as a
// memory (recallsSource).
func readRecallsInput(o *opener) (recallsInput, error) {
	path, err := o.dbPath()
	if err != nil {
		return recallsInput{}, err
	}
	if !open.IsStore(path) { // a v1 file's header only: 32 bytes
		c, err := o.readContents()
		if err != nil {
			return recallsInput{}, err
		}
		if c.Features.Format == store.FormatV1 {
			return v1RecallsInput(c), nil
		}
	}
	src, r, settings, err := recallsSource(o, store.IndexBackground)
	if err != nil {
		return recallsInput{}, err
	}
	return recallsInput{entries: src.Memory().Entries, rank: recalls.SourceRanker(src),
		known: recalls.MemoryNames(src.Memory()), sessions: r, settings: settings}, nil
}

// v1RecallsInput is readRecallsInput's input for a CRMEM v1 file read once
// (c): a memory over its entries, indexed now, and its sessions folder.
//
// Where the ids ascend (every file crmem or crabtalk writes) the names
// results give are looked up in a map of the entries' names alone
// (recalls.Names: the last of a name, as the memory finds it), not in
// the memory's, which would make its alias map too: 1–2 % of recalls
// --report's CPU on the 100k corpus. The report reads the same names
// (Tally.ReportNamed).
func v1RecallsInput(c *store.Contents) recallsInput {
	entries := entriesByID(c.File.Entries) // as Memory.Entries gives them, before the memory owns them
	ascending := idsAscend(entries)
	mem := store.NewMemoryWith(c.File, store.IndexNow)
	known := recalls.MemoryNames(mem)
	var names *recalls.Names
	if ascending {
		names = recalls.NewNames(entries)
		known = names.Known
	}
	return recallsInput{entries: func() []store.Entry { return entries }, rank: recalls.MemoryRanker(mem),
		known: known, names: names, sessions: c.Features.Sessions, settings: sessions.SettingsPath(c.Path)}
}

// idsAscend reports whether entries' ids strictly ascend: no two entries
// share one, and their order is the file's.
func idsAscend(entries []store.Entry) bool {
	for i := 1; i < len(entries); i++ {
		if entries[i].ID <= entries[i-1].ID {
			return false
		}
	}
	return true
}

// recallsGCPercent is the collector's setting while recalls --report
// runs. Its live heap is the memory and its index, made at the open
// (which collects nothing); the replay allocates steps, rankings and
// tallies that live a batch or to the end, and at the default setting
// collections came through only to mark the index again. At 400 the
// report cost about 5 % less CPU on the 100k corpus and 10,000 recalls
// (medians of 5 interleaved runs) and no more peak RSS, which the open
// sets.
const recallsGCPercent = 400

// runRecalls lists the recalls, or with --report tallies them.
func runRecalls(o *opener, s streams, opts recallsOptions, f recalls.Filter) error {
	if opts.report {
		defer debug.SetGCPercent(debug.SetGCPercent(recallsGCPercent))
	}
	in, err := readRecallsInput(o)
	if err != nil {
		return err
	}
	rank, known, r := in.rank, in.known, in.sessions
	opt := sessions.RecallOptions{Limit: opts.limit, Settings: in.settings}
	if known != nil {
		opt.Entries = &sessions.EntryLookup{Content: known} // results read against the entries as they are read
	}
	if in.names != nil && in.names.Longest() > 0 {
		opt.MaxName = in.names.Longest() // known is in.names.Known
	}
	var p sessions.RecallProblems
	if opts.report {
		t := recalls.NewTally(in.names) // nil: by name
		p, err = t.Stream(r, opt, f, rank, known)
		if err != nil {
			return err
		}
		s.recallProblems(p)
		var rep recalls.Report
		if in.names != nil {
			rep = t.ReportNamed(in.names, opts.crowd)
		} else {
			rep = t.ReportOf(in.entries(), opts.crowd)
		}
		if opts.js.enabled() {
			return s.reportOutputSized(true, reportSize(rep, true), func(w *bufio.Writer) error {
				return opts.js.write(w, jsonRecallReport{Report: rep, Crowd: opts.crowd, Problems: p})
			})
		}
		return s.reportOutputSized(false, reportSize(rep, false), func(w *bufio.Writer) error {
			return writeRecallReport(w, rep, opts.crowd, time.Now())
		})
	}
	err = s.streamReportOutput(opts.js.enabled(), func(w *bufio.Writer) error {
		lw := newRecallWriter(w, opts.js)
		p, err = recalls.Stream(r, opt, f, rank, known, lw.item)
		if err != nil {
			return err
		}
		return lw.finish(p)
	})
	if err != nil {
		return err
	}
	s.recallProblems(p)
	return nil
}

// reportSize is about how many bytes --report prints for r, a little
// more than most reports (the output's buffer is made this size): a text
// row or a JSON object per entry listed, 69 and 120 bytes a row on
// average over the 100k corpus.
func reportSize(r recalls.Report, isJSON bool) int {
	rows := len(r.Entries) + len(r.Never) + len(r.Crowding) + len(r.EmptyNow) + len(r.Gone)
	if isJSON {
		return 4096 + 160*rows
	}
	return 4096 + 96*rows
}

// recallProblems prints, on one line on stderr, what the sessions held
// that could not be used: nothing when everything was read. Like an error
// line it is masked (the sessions folder's path may hold a secret).
func (s streams) recallProblems(p sessions.RecallProblems) {
	if line := problemsLine(p); line != "" {
		fmt.Fprintf(s.stderr, "crmem: recalls: %s\n", hygiene.Mask(line))
	}
}

// problemsLine says what reading the sessions skipped, or "".
func problemsLine(p sessions.RecallProblems) string { return p.Line(quotePath) }

// jsonRecall is one recall in JSON.
type jsonRecall struct {
	Time     *time.Time `json:"time"` // null when unknown
	TimeFrom string     `json:"time_from,omitempty"`
	Session  string     `json:"session"`
	Agent    string     `json:"agent"` // "" when unknown
	Query    string     `json:"query"`
	Limit    int        `json:"limit"`
	LimitSet bool       `json:"limit_given"`
	Result   string     `json:"result"` // names, none, unparsable, missing
	Then     []string   `json:"then"`
	Now      []string   `json:"now"`
	Added    []string   `json:"added"`
	Removed  []string   `json:"removed"`
	Same     bool       `json:"same"`
	// Ties: the same up to the order of equal scores (same is true too).
	Ties bool `json:"ties"`
}

func toJSONRecall(it recalls.Item) jsonRecall {
	j := jsonRecall{TimeFrom: it.TimeFrom, Session: it.Session, Agent: it.Agent, Query: it.Query, Limit: it.Limit,
		LimitSet: it.LimitSet, Result: it.Result, Then: orEmpty(it.Names), Now: orEmpty(it.Now),
		Added: orEmpty(it.Added), Removed: orEmpty(it.Removed), Same: it.Same(), Ties: it.Ties}
	if !it.Time.IsZero() {
		t := it.Time
		j.Time = &t
	}
	return j
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// jsonRecallReport is --report's JSON.
type jsonRecallReport struct {
	recalls.Report
	Crowd    float64                 `json:"crowd"`
	Problems sessions.RecallProblems `json:"problems"`
}

// recallWriter prints recalls as they stream: text blocks, or one JSON
// object {"recalls": [...], "problems": {...}} written element by element.
type recallWriter struct {
	w        *bufio.Writer
	js       jsonOutput
	n, same  int
	sessions map[string]bool
}

func newRecallWriter(w *bufio.Writer, js jsonOutput) *recallWriter {
	return &recallWriter{w: w, js: js, sessions: map[string]bool{}}
}

// item prints one recall.
func (rw *recallWriter) item(it recalls.Item) error {
	rw.n++
	rw.sessions[it.Session] = true
	if it.Same() {
		rw.same++
	}
	if rw.js.enabled() {
		return rw.jsonItem(it)
	}
	writeRecall(rw.w, it)
	return nil
}

func (rw *recallWriter) jsonItem(it recalls.Item) error {
	lead := ","
	switch {
	case rw.n == 1 && rw.js.pretty:
		lead = "{\n  \"recalls\": [\n    "
	case rw.n == 1:
		lead = `{"recalls":[`
	case rw.js.pretty:
		lead = ",\n    "
	}
	b, err := marshal(toJSONRecall(it))
	if err != nil {
		return err
	}
	if _, err := io.WriteString(rw.w, lead); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return rw.js.writeRaw(rw.w, b, "    ")
}

// finish closes the JSON object with the problems, or prints the summary.
func (rw *recallWriter) finish(p sessions.RecallProblems) error {
	if !rw.js.enabled() {
		switch {
		case p.NoFolder != "":
		case rw.n == 0:
			fmt.Fprintf(rw.w, "no recalls in %s\n", humanize.Plural(p.Sessions, "session"))
		default:
			fmt.Fprintf(rw.w, "%s in %s: %s the same now, %s differ or could not be read\n",
				humanize.Plural(rw.n, "recall"), humanize.Plural(len(rw.sessions), "session"), humanize.Count(rw.same), humanize.Count(rw.n-rw.same))
		}
		return nil
	}
	b, err := marshal(p)
	if err != nil {
		return err
	}
	switch {
	case rw.n == 0 && rw.js.pretty:
		io.WriteString(rw.w, "{\n  \"recalls\": [],\n  \"problems\": ")
	case rw.n == 0:
		io.WriteString(rw.w, `{"recalls":[],"problems":`)
	case rw.js.pretty:
		io.WriteString(rw.w, "\n  ],\n  \"problems\": ")
	default:
		io.WriteString(rw.w, `],"problems":`)
	}
	if err := rw.js.writeRaw(rw.w, b, "  "); err != nil {
		return err
	}
	if rw.js.pretty {
		io.WriteString(rw.w, "\n}\n")
	} else {
		io.WriteString(rw.w, "}\n")
	}
	return nil
}

// writeRecall prints one recall: a heading line, then the names then, now
// and the difference.
func writeRecall(w *bufio.Writer, it recalls.Item) {
	agent := it.Agent
	if agent == "" {
		agent = "(unknown agent)"
	}
	limit := fmt.Sprintf("limit %d", it.Limit)
	if !it.LimitSet {
		limit += " (default)"
	}
	fmt.Fprintf(w, "%s  %s  %s  %s  %s\n", recallTime(it.Recall), nameText(it.Session), nameText(agent), limit, quoteQuery(it.Query))
	fmt.Fprintf(w, "    then  %s\n", thenText(it))
	switch {
	case it.Same() && it.Ties:
		fmt.Fprintf(w, "    now   = the same (ties: %s)\n", namesText(it.Now, "(nothing)"))
	case it.Same():
		fmt.Fprintf(w, "    now   = the same\n")
	default:
		fmt.Fprintf(w, "    now   %s\n", namesText(it.Now, "(nothing)"))
		if d := diffText(it); d != "" {
			fmt.Fprintf(w, "    diff  %s\n", d)
		}
	}
}

// recallTime shows when a recall was made: local time, ~ when it is a
// file's or a session's time rather than the call's own.
func recallTime(r sessions.Recall) string {
	if r.Time.IsZero() {
		return "(time unknown)     "
	}
	mark := " "
	if r.TimeFrom != sessions.TimeEvent {
		mark = "~"
	}
	return mark + r.Time.Local().Format("2006-01-02 15:04:05")
}

// quoteQuery shows a query Go-quoted, so its spaces and any odd
// characters are plain.
func quoteQuery(q string) string { return quoteName(q) }

// thenText is what the recall returned then.
func thenText(it recalls.Item) string {
	switch it.Result {
	case sessions.ResultNone:
		return "(no memories found)"
	case sessions.ResultUnparsable:
		return "(unparsable: the result cannot be read as names)"
	case sessions.ResultMissing:
		return "(no result recorded)"
	}
	return namesText(it.Names, "(nothing)")
}

// namesText lists names, terminal-safe.
func namesText(names []string, empty string) string {
	if len(names) == 0 {
		return empty
	}
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = nameText(n)
	}
	return strings.Join(out, " · ")
}

// diffText marks the names returned now only (+) and then only (-); for
// a result that could not be read there is nothing to compare.
func diffText(it recalls.Item) string {
	if it.Result != sessions.ResultNames && it.Result != sessions.ResultNone {
		return ""
	}
	var parts []string
	for _, n := range it.Added {
		parts = append(parts, "+"+nameText(n))
	}
	for _, n := range it.Removed {
		parts = append(parts, "-"+nameText(n))
	}
	if len(parts) == 0 {
		return "same names, another order"
	}
	return strings.Join(parts, "  ")
}

// writeRecallReport prints --report.
func writeRecallReport(w *bufio.Writer, r recalls.Report, crowd float64, now time.Time) error {
	fmt.Fprintf(w, "%s, %s\n", humanize.Plural(r.Recalls, "recall"), humanize.Plural(r.Queries, "distinct query"))

	fmt.Fprintf(w, "\nrecalled: %s a recall returned then or would return now\n", humanize.Plural(len(r.Entries), "entry"))
	t := newReportTable(len(r.Entries), "NAME", "THEN", "NOW", "SHARE")
	for _, u := range r.Entries {
		t.add(nameText(u.Name), countText(u.Then), countText(u.Now), percent(u.Share))
	}
	t.write(w)

	fmt.Fprintf(w, "\nnever recalled: %s no recorded recall returned (oldest first; NOW: how many recorded queries would return it now)\n", humanize.Plural(len(r.Never), "entry"))
	t = newReportTable(len(r.Never), "NAME", "KIND", "AGE", "SIZE", "NOW")
	t.right = []bool{false, false, true, true, true}
	for _, u := range r.Never {
		t.add(nameText(u.Name), u.Kind, humanize.Age(now, u.CreatedAt), humanize.Size(u.Size), countText(u.Now))
	}
	t.write(w)

	fmt.Fprintf(w, "\ncrowding the top: %s returned now by at least %s of the distinct queries\n", humanize.Plural(len(r.Crowding), "entry"), percent(crowd))
	for _, u := range r.Crowding {
		fmt.Fprintf(w, "  %s  %s\n", percent(u.Share), nameText(u.Name))
	}

	fmt.Fprintf(w, "\nnow return nothing: %s\n", humanize.Plural(len(r.EmptyNow), "distinct query"))
	for _, q := range r.EmptyNow {
		fmt.Fprintf(w, "  %s×  limit %d  %s\n", humanize.Count(q.Count), q.Limit, quoteQuery(q.Query))
	}
	if len(r.Gone) > 0 {
		fmt.Fprintf(w, "\ngone: %s returned then that the memory no longer holds\n", humanize.Plural(len(r.Gone), "name"))
		for _, u := range r.Gone {
			fmt.Fprintf(w, "  %s×  %s\n", humanize.Count(u.Then), nameText(u.Name))
		}
	}
	return nil
}

// reportTable is a table of --report, laid out as table lays one out
// (its first column indented two spaces, the others right-aligned unless
// right says otherwise), but its cells held in one slice and its columns'
// widths kept as rows are added: the never-recalled table has a row per
// entry, a hundred thousand of them, and a slice per row was a tenth of
// the report's allocations.
type reportTable struct {
	cols   int
	cells  []string
	cellW  []int // each cell's width, measured once (add)
	widths []int
	right  []bool
}

// newReportTable is a table of rows rows under header, every column but
// the first right-aligned.
func newReportTable(rows int, header ...string) *reportTable {
	t := &reportTable{cols: len(header), cells: make([]string, 0, (rows+1)*len(header)),
		cellW: make([]int, 0, (rows+1)*len(header)), widths: make([]int, len(header)), right: make([]bool, len(header))}
	for i := 1; i < len(header); i++ {
		t.right[i] = true
	}
	t.add(header...)
	return t
}

// add appends a row of cols cells.
func (t *reportTable) add(cells ...string) {
	for i, c := range cells {
		w := cellWidth(c)
		t.widths[i] = max(t.widths[i], w)
		t.cellW = append(t.cellW, w)
	}
	t.cells = append(t.cells, cells...)
}

// write prints the table as table.write does: "  " before each row, the
// cells padded to their column's width two spaces apart, the line's
// trailing spaces trimmed.
func (t *reportTable) write(w *bufio.Writer) error {
	var line []byte
	for row := 0; row < len(t.cells); row += t.cols {
		line = append(line[:0], "  "...)
		for i, c := range t.cells[row : row+t.cols] {
			if i > 0 {
				line = append(line, "  "...)
			}
			pad := t.widths[i] - t.cellW[row+i]
			switch {
			case t.right[i]:
				line = appendSpaces(line, pad)
				line = append(line, c...)
			case i == t.cols-1:
				line = append(line, c...)
			default:
				line = append(line, c...)
				line = appendSpaces(line, pad)
			}
		}
		line = append(bytes.TrimRight(line, " "), '\n')
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
	return nil
}

// countText is humanize.Count(n), without its builder for the counts
// below a thousand most cells hold (strconv keeps those below 100).
func countText(n int) string {
	if 0 <= n && n < 1000 {
		return strconv.Itoa(n)
	}
	return humanize.Count(n)
}

// percent shows a share as a whole percentage.
//
// strconv, not fmt (the same digits: fmt's %.0f is strconv's 'f' at
// precision 0): a report has a share for each entry a recall returned.
func percent(share float64) string { return strconv.FormatFloat(share*100, 'f', 0, 64) + "%" }
