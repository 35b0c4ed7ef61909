package cli

import (
	"bufio"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/textdiff"
	"github.com/crmem/crmem/store/history"
)

// diffCommand prints the difference between two versions of an entry.
func diffCommand(o *opener, s streams) *cobra.Command {
	var js jsonOutput
	var color string
	var redact bool
	var context int
	c := &cobra.Command{
		Use:   "diff NAME [A [B]] [--color auto|always|never] [-U N] [--redact] [--json|--pretty]",
		Short: "Show what changed between two versions of an entry (see crmem history)",
		Long: `Show the line diff between versions A and B of the entry NAME, numbered as
crmem history NAME numbers them: with no A, the last two versions; with A
only, A against the last. Lines are compared as diff -u compares them; within
a pair of changed lines the words that changed are highlighted (on a terminal,
in colour; --color always keeps the colours in a pipe, and NO_COLOR or
--color never leaves a plain unified diff). A deletion compares as empty.
Changes of name, kind and aliases are listed above the diff.

--json prints {"name", "a", "b" (the two versions without their content),
"changes", "bounded", "hunks": [{"header", "a_start", "a_lines", "b_start",
"b_lines", "lines": [{"op", "text", "a", "b", "no_eol", "changed": [[start,
end], …]}]}]}; changed are byte ranges of text.`,
		Example: `  crmem diff deploy-steps
  crmem diff deploy-steps 1 3
  crmem diff deploy-steps 2 --json | jq '.hunks[].lines[] | select(.op=="+") | .text'`,
		Args:              args(1, 3),
		ValidArgsFunction: o.completeNames(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			nums, err := versionNumbers(cmd, args[1:])
			if err != nil {
				return err
			}
			switch color {
			case "auto", "always", "never":
			default:
				return usage(cmd, "--color must be auto, always or never, not %q", color)
			}
			h, err := readHistory(o, s, args[0])
			if err != nil {
				return err
			}
			va, vb, err := pickVersions(h, nums)
			if err != nil {
				return err
			}
			if redact {
				va, vb = redactVersion(va), redactVersion(vb)
			}
			d := versionDiff(va, vb, context)
			if js.enabled() {
				return s.output(func(w *bufio.Writer) error { return js.write(w, d) })
			}
			colored := color == "always" || color == "auto" && isTerminal(s.stdout) && o.getenv("NO_COLOR") == ""
			return s.output(func(w *bufio.Writer) error { return writeDiff(w, h.Name, va, vb, d, colored, time.Now()) })
		},
	}
	js.register(c, "print the diff")
	c.Flags().StringVar(&color, "color", "auto", "highlight removed, added and changed words: auto (a terminal without NO_COLOR), always, never")
	c.Flags().IntVarP(&context, "unified", "U", 3, "lines of context around each change")
	registerRedact(c, &redact)
	return c
}

// versionNumbers reads the versions A and B named (1, 2, …; "#2" too).
func versionNumbers(cmd *cobra.Command, args []string) ([]int, error) {
	var nums []int
	for _, arg := range args {
		n, err := strconv.Atoi(strings.TrimPrefix(arg, "#"))
		if err != nil || n < 1 {
			return nil, usage(cmd, "A and B must be versions' numbers (1, 2, …), not %q", arg)
		}
		nums = append(nums, n)
	}
	return nums, nil
}

// pickVersions chooses the two versions to compare.
func pickVersions(h history.History, nums []int) (a, b history.Version, err error) {
	n := len(h.Versions)
	ia, ib := n-1, n
	switch len(nums) {
	case 1:
		ia, ib = nums[0], n
	case 2:
		ia, ib = nums[0], nums[1]
	}
	if n == 1 && len(nums) == 0 {
		ia = 0 // one version: against nothing
	}
	for _, i := range []int{ia, ib} {
		if i > n {
			return a, b, fmt.Errorf("%s has %s: no version #%d", nameText(h.Name), humanize.Plural(n, "version"), i)
		}
	}
	if ia > 0 {
		a = h.Versions[ia-1]
	}
	return a, h.Versions[ib-1], nil
}

// versionDiffJSON is crmem diff's --json.
type versionDiffJSON struct {
	Name    string         `json:"name"`
	A       *versionHead   `json:"a"`
	B       versionHead    `json:"b"`
	Changes versionChanges `json:"changes"`
	Bounded bool           `json:"bounded"`
	Hunks   []hunkJSON     `json:"hunks"`
	lines   textdiff.Result
	context int
}

// versionHead is a version without its content.
type versionHead struct {
	N         int             `json:"n"`
	Action    history.Action  `json:"action"`
	Name      string          `json:"name"`
	Kind      string          `json:"kind,omitempty"`
	Aliases   []string        `json:"aliases"`
	CreatedAt string          `json:"created_at,omitempty"`
	Origin    history.Origin  `json:"origin"`
	Log       *history.LogPos `json:"log,omitempty"`
	Call      *history.Call   `json:"call,omitempty"`
	Current   bool            `json:"current"`
}

// versionChanges are the changes besides the content.
type versionChanges struct {
	Name           []string `json:"name,omitempty"` // [from, to]
	Kind           []string `json:"kind,omitempty"`
	AliasesRemoved []string `json:"aliases_removed"`
	AliasesAdded   []string `json:"aliases_added"`
}

type hunkJSON struct {
	Header string     `json:"header"`
	AStart int        `json:"a_start"`
	ALines int        `json:"a_lines"`
	BStart int        `json:"b_start"`
	BLines int        `json:"b_lines"`
	Lines  []lineJSON `json:"lines"`
}

type lineJSON struct {
	Op      string   `json:"op"`
	Text    string   `json:"text"`
	A       int      `json:"a"`
	B       int      `json:"b"`
	NoEOL   bool     `json:"no_eol"`
	Changed [][2]int `json:"changed"`
}

func headOf(v history.Version) versionHead {
	al := v.Aliases
	if al == nil {
		al = []string{}
	}
	return versionHead{N: v.N, Action: v.Action, Name: v.Name, Kind: v.Kind, Aliases: al, CreatedAt: v.CreatedAt,
		Origin: v.Origin, Log: v.Log, Call: v.Call, Current: v.Current}
}

// versionDiff compares a (zero: nothing) with b.
func versionDiff(a, b history.Version, context int) versionDiffJSON {
	d := versionDiffJSON{Name: b.Name, B: headOf(b), context: context}
	if a.N > 0 {
		h := headOf(a)
		d.A = &h
		if a.Name != b.Name {
			d.Changes.Name = []string{a.Name, b.Name}
		}
		if a.Kind != b.Kind && a.Kind != "" && b.Kind != "" {
			d.Changes.Kind = []string{a.Kind, b.Kind}
		}
	}
	d.Changes.AliasesRemoved = minus(a.Aliases, b.Aliases)
	d.Changes.AliasesAdded = minus(b.Aliases, a.Aliases)
	d.lines = textdiff.Diff(a.Content, b.Content)
	d.Bounded = d.lines.Bounded
	d.Hunks = []hunkJSON{}
	for _, h := range textdiff.Hunks(d.lines.Lines, context) {
		hj := hunkJSON{Header: h.Header(), AStart: h.AStart, ALines: h.ALines, BStart: h.BStart, BLines: h.BLines}
		for _, l := range h.Lines {
			lj := lineJSON{Op: string(l.Op), Text: l.Text, A: l.A, B: l.B, NoEOL: l.NoEOL, Changed: [][2]int{}}
			for _, s := range l.Changed {
				lj.Changed = append(lj.Changed, [2]int{s.Start, s.End})
			}
			hj.Lines = append(hj.Lines, lj)
		}
		d.Hunks = append(d.Hunks, hj)
	}
	return d
}

// minus is the strings of a not in b, in a's order.
func minus(a, b []string) []string {
	out := []string{}
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}

// ANSI styles of a coloured diff.
const (
	sgrReset   = "\x1b[0m"
	sgrRemoved = "\x1b[31m"
	sgrAdded   = "\x1b[32m"
	sgrHunk    = "\x1b[36m"
	sgrBold    = "\x1b[1m"
	sgrWord    = "\x1b[7m" // reverse video: the words changed
)

// writeDiff prints a unified diff of two versions' contents, its head
// naming both.
func writeDiff(w *bufio.Writer, name string, a, b history.Version, d versionDiffJSON, colored bool, now time.Time) error {
	paint := func(sgr, s string) string {
		if !colored || s == "" {
			return s
		}
		return sgr + s + sgrReset
	}
	label := func(v history.Version) string {
		if v.N == 0 {
			return "(nothing before)"
		}
		return fmt.Sprintf("#%d %s · %s", v.N, actionText(v), sourceText(v, v.Log != nil || v.Origin == history.FromLog, now))
	}
	fmt.Fprintln(w, paint(sgrBold, "--- "+label(a)))
	fmt.Fprintln(w, paint(sgrBold, "+++ "+label(b)))
	if c := d.Changes.Name; c != nil {
		fmt.Fprintf(w, "name: %s → %s\n", nameText(c[0]), nameText(c[1]))
	}
	if c := d.Changes.Kind; c != nil {
		fmt.Fprintf(w, "kind: %s → %s\n", c[0], c[1])
	}
	if len(d.Changes.AliasesRemoved)+len(d.Changes.AliasesAdded) > 0 {
		var parts []string
		for _, s := range d.Changes.AliasesRemoved {
			parts = append(parts, paint(sgrRemoved, "-"+nameText(s)))
		}
		for _, s := range d.Changes.AliasesAdded {
			parts = append(parts, paint(sgrAdded, "+"+nameText(s)))
		}
		fmt.Fprintf(w, "aliases: %s\n", strings.Join(parts, " "))
	}
	if d.Bounded {
		fmt.Fprintln(w, "(the texts are too large or too different to compare line by line everywhere: part is shown removed and added whole)")
	}
	hunks := textdiff.Hunks(d.lines.Lines, d.context)
	if len(hunks) == 0 {
		if a.N > 0 && a.Content == b.Content {
			fmt.Fprintln(w, "(content unchanged)")
		}
		return nil
	}
	for _, h := range hunks {
		fmt.Fprintln(w, paint(sgrHunk, h.Header()))
		for _, l := range h.Lines {
			writeDiffLine(w, l, colored)
		}
	}
	return nil
}

// writeDiffLine prints one line: its sign, its text sanitized (each
// segment on its own, so a changed word's bounds stay where they are) and
// the changed words in reverse video when coloured.
func writeDiffLine(w *bufio.Writer, l textdiff.Line, colored bool) {
	sgr := ""
	switch l.Op {
	case '-':
		sgr = sgrRemoved
	case '+':
		sgr = sgrAdded
	}
	var b strings.Builder
	if colored && sgr != "" {
		b.WriteString(sgr)
	}
	b.WriteByte(l.Op)
	for _, s := range l.Segments() {
		text := sanitizeLine(s.Text)
		if colored && s.Changed {
			b.WriteString(sgrWord + text + sgrReset + sgr)
			continue
		}
		b.WriteString(text)
	}
	if colored && sgr != "" {
		b.WriteString(sgrReset)
	}
	fmt.Fprintln(w, b.String())
	if l.NoEOL {
		fmt.Fprintln(w, `\ No newline at end of file`)
	}
}
