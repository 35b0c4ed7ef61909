package cli

import (
	"bufio"
	"cmp"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/hygiene"
	"github.com/crmem/crmem/store/sessions"
)

// lintOptions are lint's flags.
type lintOptions struct {
	kinds        []string
	minSim       float64
	olderThan    string
	notDuplicate bool
	diff         bool
	exhaustive   bool
	js           jsonOutput
}

// lintLong is lint's help, a format of the defaults' figures: the
// kinds of findings and how each is found.
const lintLong = `Examine the whole memory and report what needs cleaning, grouped by kind, each
finding with its entries and a one-line reason. Exit status: 0 when nothing was
found, 1 when something was (like a linter), 2 for a usage error.

  duplicate  the same content (ignoring case, spacing and Unicode form:
             NFC and NFD, full case folding), or near-duplicates by wording:
             the resemblance of two entries' runs of words (the mean Jaccard
             resemblance of their word pairs and word triples, after NFKC and
             case folding) at or above --min-similarity (default %.2f). A
             copy with a sentence replaced, paragraphs moved or 10%% of its
             words changed scores about 0.4-0.95, one with 30%% changed about
             0.1-0.45, two different notes on one topic about 0.1. Phrases
             held by 2%% of the entries do not count, and a near pair shares
             eight runs of three words (a short entry: half of its, at 0.36
             or more). Every
             entry of a group is near every other (no chains); a near pair
             whose entries are in different groups is listed on its own.
             Candidates come from shared runs of three words, so the work
             grows with the memory's words, not with its pairs
  secret     API keys, tokens, private keys, passwords in content, aliases or
             names, by gitleaks v8.30.1's rules and crmem's own (a Stripe key
             before punctuation, a password in a URL, a password in prose);
             keys marked EXAMPLE are not secrets; shown redacted (ghp_…x9Q2)
             with the line. No report prints a secret whole
  name       names equal after Unicode normalisation and case folding, names
             with look-alike letters from another script, invisible characters
  outsize    entries %.0f× the median size or token count (and 8 KiB or more),
             and entries with empty content
  archive    archives no session references (orphans), and with --older-than
             archives older than SPAN (30d, 6mo, 1y)

--kind keeps some kinds (repeat it or separate with commas); --diff shows the
changed lines of each near-duplicate group's closest pair. A pair that is not
a duplicate is remembered with --not-duplicate A B, in a file beside the
memory file (memory.db.not-duplicates.toml for memory.db), and never reported
again. --json prints the report as one JSON object; --pretty indents it.`

// lintCommand reports what needs cleaning in the memory.
func lintCommand(o *opener, s streams) *cobra.Command {
	var flags lintOptions
	c := &cobra.Command{
		Use:     "lint [--kind K]... [--min-similarity S] [--older-than SPAN] [--diff] [--json|--pretty] | lint --not-duplicate A B",
		Aliases: []string{"audit"},
		Short:   "Find duplicates, secrets, deceptive names, outsize entries and orphan archives",
		Long:    fmt.Sprintf(lintLong, hygiene.DefaultMinSimilarity, float64(hygiene.DefaultOutsizeTimes)),
		Example: `  crmem lint
  crmem lint --kind secret --json
  crmem lint --kind duplicate --min-similarity 0.8 --diff
  crmem lint --older-than 6mo
  crmem lint --not-duplicate deploy-steps release-checklist`,
		Args: args(0, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if flags.notDuplicate {
				return rememberNotDuplicate(o, s, cmd, args)
			}
			if len(args) > 0 {
				return usage(cmd, "names are only given with --not-duplicate A B")
			}
			opts, err := lintFlags(cmd, flags)
			if err != nil {
				return err
			}
			if flags.exhaustive {
				// On stderr: cobra prints a deprecated flag's note where the
				// report goes, before the JSON of lint --json.
				fmt.Fprintln(s.stderr, "crmem: note: flag --exhaustive has been deprecated: "+exhaustiveNote)
			}
			return lint(o, s, opts, flags.js, flags.diff)
		},
	}
	c.Flags().StringSliceVar(&flags.kinds, "kind", nil, "only these kinds: duplicate, secret, name, outsize, archive")
	_ = c.RegisterFlagCompletionFunc("kind", completeFixed(findingKinds())) // before the tree's --kind (entry kinds) would be
	c.Flags().Float64Var(&flags.minSim, "min-similarity", hygiene.DefaultMinSimilarity, "near-duplicate threshold, a resemblance of wording in (0, 1]")
	c.Flags().BoolVar(&flags.exhaustive, "exhaustive", false, "no longer needed: the search by wording has no work bound to lift; costs what lint costs without it")
	_ = c.Flags().MarkHidden("exhaustive")
	c.Flags().StringVar(&flags.olderThan, "older-than", "", "also list archives older than this span (30d, 6mo, 1y)")
	c.Flags().BoolVar(&flags.notDuplicate, "not-duplicate", false, "remember that the entries named A and B are not duplicates")
	c.Flags().BoolVar(&flags.diff, "diff", false, "show the changed lines of each near-duplicate group's closest pair")
	flags.js.register(c, "print the report")
	return c
}

// exhaustiveNote is what lint says of --exhaustive, which lifted the
// former cosine search's work bounds.
const exhaustiveNote = "the near-duplicate search by wording compares every candidate; the flag does nothing and costs nothing more"

// findingKinds are the kinds of finding, as lint's --kind takes them.
func findingKinds() []string {
	out := make([]string, len(hygiene.Kinds))
	for i, k := range hygiene.Kinds {
		out[i] = string(k)
	}
	return out
}

// lintFlags checks lint's flags and turns them into options.
func lintFlags(cmd *cobra.Command, o lintOptions) (hygiene.Options, error) {
	var opts hygiene.Options
	for _, s := range o.kinds {
		k, err := hygiene.ParseKind(strings.TrimSpace(s))
		if err != nil {
			return opts, usage(cmd, "--kind: %v", err)
		}
		opts.Kinds = append(opts.Kinds, k)
	}
	if !(o.minSim > 0 && o.minSim <= 1) {
		return opts, usage(cmd, "--min-similarity must be above 0 and at most 1")
	}
	if cmd.Flags().Changed("min-similarity") {
		opts.MinSimilarity = o.minSim // searched as asked, as the default is
	}
	if o.olderThan != "" {
		d, err := humanize.ParseSpan(o.olderThan)
		if err != nil {
			return opts, usage(cmd, "--older-than: %v", err)
		}
		opts.OlderThan = d
	}
	return opts, nil
}

// lintFound is lint's result when it found something: exit status 1, and
// the summary as the error line.
type lintFound struct{ n int }

func (e lintFound) Error() string { return fmt.Sprintf("lint: %s", humanize.Plural(e.n, "finding")) }

// lintGCPercent is the collector's setting while lint runs. lint reads
// the memory once (mapped: the heap holds its entries, not its bytes),
// keeps it to the end, and allocates its working sets (the candidate
// keys and their sort) once: at the default setting collections came
// through each run only to mark them. The heap may grow to five times
// what is live: on the 300k corpus two collections (at 27 MB and at
// 137 MB of heap), whose freed space the later allocations reuse. Off
// altogether (-1), or at 1000, lint cost 7 % and 18 % more CPU there
// (medians of 5 interleaved runs; each page it takes fresh is one the
// system clears) and 20 MB more peak RSS.
const lintGCPercent = 400

// lint runs the report over the memory and prints it. The memory is read
// once as a one-shot command reads it (readContents, as ls does: a large
// file mapped, not copied), its entries taken in ascending id order
// (entriesByID), with no memory built over them. Opened as a memory (a
// copy of the file in fresh pages, its fingerprint, the maps by id, a
// copy of the entries) it cost a quarter of lint's CPU on the 300k corpus
// (3.36 s against 2.54 s, medians of 4 runs) and 60 MB of peak RSS.
func lint(o *opener, s streams, opts hygiene.Options, js jsonOutput, diff bool) error {
	defer debug.SetGCPercent(debug.SetGCPercent(lintGCPercent))
	c, err := o.readContents()
	if err != nil {
		return err
	}
	entries := entriesByID(c.File.Entries)
	if err := lintInputs(o, s, c.Path, c.Features, entries, &opts); err != nil {
		return err
	}
	r := hygiene.Run(entries, opts)
	if err := s.reportOutput(js.enabled(), func(w *bufio.Writer) error {
		if js.enabled() {
			return js.write(w, lintJSON(&r, c.Features.ShowsIDs()))
		}
		var content func(uint64) string
		if diff {
			content = func(id uint64) string { return contentOf(entries, id) }
		}
		return writeLint(w, &r, c.Features.ShowsIDs(), content)
	}); err != nil {
		return err
	}
	if len(r.Findings) > 0 {
		return lintFound{len(r.Findings)}
	}
	return nil
}

// entriesByID returns a file's entries (in file order) in ascending id
// order, an id's entries in file order, the last the one its id names: as
// store.Memory.Entries gives them, without a memory. A file's ids are
// almost always ascending already: then they are returned as they are.
func entriesByID(entries []store.Entry) []store.Entry {
	byID := func(a, b store.Entry) int { return cmp.Compare(a.ID, b.ID) }
	if slices.IsSortedFunc(entries, byID) {
		return entries
	}
	out := slices.Clone(entries)
	slices.SortStableFunc(out, byID)
	return out
}

// contentOf is the content of the entry with the given id among entries
// (entriesByID's order): of two with one id, the later in file order, as
// store.Memory.Get gives it.
func contentOf(entries []store.Entry, id uint64) string {
	i, _ := slices.BinarySearchFunc(entries, id+1, func(e store.Entry, id uint64) int { return cmp.Compare(e.ID, id) })
	if i == 0 || entries[i-1].ID != id {
		return ""
	}
	return entries[i-1].Content
}

// lintInputs gives opts the sessions' references (when archives are asked
// for) and the pairs remembered as not duplicates. No term vectors: the
// duplicate check reads words of its own and the outsize check counts the
// tokens it needs (building them cost a third of lint).
func lintInputs(o *opener, s streams, path string, features store.Features, entries []store.Entry, opts *hygiene.Options) error {
	opts.Now = time.Now()
	nd, err := hygiene.NotDuplicatesOf(path)
	if err != nil {
		return err
	}
	opts.NotDuplicates = nd
	if !wants(opts.Kinds, hygiene.Archive) || !hasArchive(entries) {
		return nil // no archive to call an orphan: the sessions are not read
	}
	ss, err := features.Sessions.Read()
	if err != nil {
		return fmt.Errorf("read sessions: %w", err)
	}
	if len(ss) == 0 { // no sessions at all: every archive would be an orphan
		fmt.Fprintf(s.stderr, "crmem: note: no sessions found (%s); orphan archives not checked\n", quotePath(o.sessionsDir(path)))
		return nil
	}
	refs := sessions.Index(ss)
	opts.Refs = &refs
	return nil
}

// hasArchive reports whether entries hold an archive.
func hasArchive(entries []store.Entry) bool {
	for i := range entries {
		if entries[i].Kind == store.Archive {
			return true
		}
	}
	return false
}

// wants reports whether kinds (empty: all) holds k.
func wants(kinds []hygiene.Kind, k hygiene.Kind) bool {
	if len(kinds) == 0 {
		return true
	}
	for _, x := range kinds {
		if x == k {
			return true
		}
	}
	return false
}

// writeLint prints the report grouped by kind: a heading per kind found,
// then each finding's check, entries (with their ids when the format shows
// them) and reason; with content (--diff), under each near-duplicate group
// the changed lines of its closest pair.
func writeLint(w *bufio.Writer, r *hygiene.Report, ids bool, content func(id uint64) string) error {
	if len(r.Findings) == 0 {
		fmt.Fprintf(w, "no findings in %s\n", humanize.Plural(r.Entries, "entry"))
	}
	var last hygiene.Kind
	for i := range r.Findings {
		f := &r.Findings[i]
		if f.Kind != last {
			if last != "" {
				fmt.Fprintln(w)
			}
			fmt.Fprintf(w, "%s (%s)\n", f.Kind, humanize.Count(r.Count(f.Kind)))
			last = f.Kind
		}
		fmt.Fprintf(w, "  %-10s %s\n", sanitizeLine(f.Check), lintEntries(f.Entries, ids))
		fmt.Fprintf(w, "  %-10s %s\n", "", sanitizeLine(f.Reason))
		if content != nil && f.Duplicate != nil && len(f.Duplicate.Pairs) > 0 {
			p := f.Duplicate.Pairs[0]
			writeLintDiff(w, content(p.A), content(p.B))
		}
	}
	for _, b := range r.Bounded {
		fmt.Fprintf(w, "note: %s\n", sanitizeLine(b))
	}
	return nil
}

// lintDiffShown is how many changed lines --diff prints per group.
const lintDiffShown = 12

// writeLintDiff prints the changed lines from a to b, made safe, at most
// lintDiffShown of them.
func writeLintDiff(w *bufio.Writer, a, b string) {
	lines, ok := hygiene.Diff(a, b)
	if !ok {
		fmt.Fprintf(w, "  %-10s (too long to diff: over %s lines)\n", "", humanize.Count(hygiene.MaxDiffLines))
		return
	}
	shown, changed := 0, 0
	for _, l := range lines {
		if l.Op == ' ' {
			continue
		}
		if changed++; shown < lintDiffShown {
			fmt.Fprintf(w, "  %-10s %c %s\n", "", l.Op, sanitizeLine(l.Text))
			shown++
		}
	}
	if changed > shown {
		fmt.Fprintf(w, "  %-10s … %s more changed\n", "", humanize.Plural(changed-shown, "line"))
	}
}

// lintShown is how many of a finding's entries the text report names (a
// group of thousands of exact duplicates is one line, not a screenful);
// --json lists them all.
const lintShown = 10

// lintEntries lists a finding's entries as "#id name", names made safe;
// without ids (a crabtalk store's, which are crmem's own: Features.ShowsIDs)
// by name only, as ls lists them.
func lintEntries(refs []hygiene.Ref, ids bool) string {
	parts := make([]string, 0, min(len(refs), lintShown)+1)
	for _, r := range refs[:min(len(refs), lintShown)] {
		if !ids {
			parts = append(parts, nameText(r.Name))
			continue
		}
		parts = append(parts, fmt.Sprintf("#%d %s", r.ID, nameText(r.Name)))
	}
	if len(refs) > lintShown {
		parts = append(parts, fmt.Sprintf("and %s more", humanize.Count(len(refs)-lintShown)))
	}
	return strings.Join(parts, ", ")
}

// rememberNotDuplicate records that the entries named by args are not
// duplicates, in the file beside the memory.
func rememberNotDuplicate(o *opener, s streams, cmd *cobra.Command, args []string) error {
	if len(args) != 2 {
		return usage(cmd, "--not-duplicate takes two entry names")
	}
	path, src, err := o.openSourceIndexed(store.IndexOnDemand) // it only looks names up
	if err != nil {
		return err
	}
	for _, name := range args {
		if _, ok := src.Memory().Lookup(name); !ok {
			return fileError{path, fmt.Errorf("no such entry %q", name)}
		}
	}
	nd, err := hygiene.NotDuplicatesOf(path)
	if err != nil {
		return err
	}
	if !nd.Add(args[0], args[1]) {
		_, err := fmt.Fprintf(s.stdout, "already remembered: %s and %s are not duplicates\n", nameText(args[0]), nameText(args[1]))
		return err
	}
	if err := nd.Save(); err != nil {
		return err
	}
	_, err = fmt.Fprintf(s.stdout, "remembered: %s and %s are not duplicates (%s)\n", nameText(args[0]), nameText(args[1]), quotePath(nd.Path()))
	return err
}
