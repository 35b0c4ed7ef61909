package cli

import (
	"bufio"
	"os"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/crmem/crmem/face/statsview"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/recalls"
	"github.com/crmem/crmem/store/sessions"
	"github.com/crmem/crmem/store/stats"
)

// defaultStatsWidth is the width stats draws at when standard output is
// not a terminal (a pipe, a file).
const defaultStatsWidth = 80

// statsLong is stats' help: the picture's sections, and its JSON.
const statsLong = `Show a picture of the memory: entries, bytes and recall tokens by kind; how
many notes and archives were added each month, as a bar chart (entries whose
creation time is unknown are counted apart); and the biggest entries by bytes
and by tokens. The chart fits the terminal's width (80 columns when the
output is not a terminal). Months are calendar months in the local time zone.

With recall history (crabtalk's sessions: the sessions folder beside a memory
file, --sessions to name another, or the sessions crabtalk's store holds), a
last section gives how many recorded recalls were read in how many sessions,
the entries the agent's recalls returned most often THEN (as the sessions
recorded the results; "crmem recalls --report" also replays them on the
memory as it is now), and the entries no recorded recall returned, with the
oldest and biggest of them. Without history the section is one line saying
so. Sessions are read one at a time and no query is replayed, so this costs
only the reading. Steps that cannot be used are counted on one line on
stderr, as "crmem recalls" counts them.

--json prints the numbers: {"total","kinds","months","undated","largest",
"most_tokens","recalls"}; months that added nothing are left out of "months";
"recalls" ({"recalls","sessions","recalled","never","most","never_oldest",
"never_biggest","problems"}) is left out when there is no recall history.`

// statsCommand prints a picture of the memory.
func statsCommand(o *opener, s streams) *cobra.Command {
	var js jsonOutput
	var top int
	c := &cobra.Command{
		Use:   "stats [--top N] [--sessions DIR] [--json|--pretty]",
		Short: "Show a picture of the memory: sizes by kind, growth per month, biggest and most/never recalled entries",
		Long:  statsLong,
		Example: `  crmem stats
  crmem stats --top 3
  crmem stats --json | jq '.recalls.most[] | [.name, .then]'
  crmem stats --json | jq '.months[] | [.month, .added.note, .added.archive]'`,
		Args: args(0, 0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if top < 0 {
				return usage(cmd, "--top %d: want 0 or more", top)
			}
			// No search index: stats replays no query, and building one
			// in the background cost a 100k memory about 0.2 s of CPU.
			src, r, settings, err := recallsSource(o, store.IndexOnDemand)
			if err != nil {
				return err
			}
			then, err := recalls.ReadThen(r, sessions.RecallOptions{Settings: settings}, recalls.NameSet(src.Memory().Entries()))
			if err != nil {
				return err
			}
			if then.Problems.NoFolder == "" { // a memory without sessions is said in the section, not as a problem
				s.recallProblems(then.Problems)
			}
			opt := stats.Options{Top: top, Loc: time.Local, Recalled: then}
			if top == 0 {
				opt.Top = -1
			}
			st := stats.Compute(src.Memory().Entries(), opt)
			if !src.Features().ShowsIDs() {
				dropIDs(&st)
			}
			return s.reportOutput(js.enabled(), func(w *bufio.Writer) error {
				if js.enabled() {
					return js.write(w, st)
				}
				return writeLines(w, statsview.Lines(st, s.outputWidth(), statsview.Style{Name: nameText}))
			})
		},
	}
	c.Flags().IntVar(&top, "top", stats.DefaultTop, "list the N biggest entries by bytes and by tokens, and the N most recalled (0: none)")
	c.Flags().String("sessions", "", "crabtalk sessions folder (default: sessions/ next to the memory file)") // read by the configuration loader (configFlags)
	js.register(c, "print the numbers")
	return c
}

// dropIDs clears the ids of s's entries, for a format whose entries have
// none of their own (JSON leaves id out, as ls --json does).
func dropIDs(s *stats.Stats) {
	for _, l := range [][]stats.Big{s.Largest, s.MostTokens} {
		for i := range l {
			l[i].ID = 0
		}
	}
	if s.Recalls == nil {
		return
	}
	for _, l := range [][]stats.Recalled{s.Recalls.Most, s.Recalls.NeverOldest, s.Recalls.NeverBiggest} {
		for i := range l {
			l[i].ID = 0
		}
	}
}

// outputWidth is the terminal's width when standard output is one, else
// defaultStatsWidth.
func (s streams) outputWidth() int {
	if f, ok := s.stdout.(*os.File); ok && isTerminal(f) {
		if w, _, err := term.GetSize(f.Fd()); err == nil && w > 0 {
			return w
		}
	}
	return defaultStatsWidth
}

// writeLines writes each line and a newline.
func writeLines(w *bufio.Writer, lines []string) error {
	for _, l := range lines {
		if _, err := w.WriteString(l + "\n"); err != nil {
			return err
		}
	}
	return nil
}
