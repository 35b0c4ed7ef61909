package cli

import (
	"bufio"
	"os"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/crmem/crmem/internal/statsview"
	"github.com/crmem/crmem/store/crabdb"
	"github.com/crmem/crmem/store/stats"
)

// defaultStatsWidth is the width stats draws at when standard output is
// not a terminal (a pipe, a file).
const defaultStatsWidth = 80

// statsCommand prints a picture of the memory.
func (a *app) statsCommand() *cobra.Command {
	var js jsonOutput
	var top int
	c := &cobra.Command{
		Use:   "stats [--top N] [--json|--pretty]",
		Short: "Show a picture of the memory: sizes by kind, growth per month, biggest entries",
		Long: `Show a picture of the memory: entries, bytes and recall tokens by kind; how
many notes and archives were added each month, as a bar chart (entries whose
creation time is unknown are counted apart); and the biggest entries by bytes
and by tokens. The chart fits the terminal's width (80 columns when the
output is not a terminal). Months are calendar months in the local time zone.
--json prints the numbers: {"total","kinds","months","undated","largest",
"most_tokens"}; months that added nothing are left out of "months".`,
		Example: `  crmem stats
  crmem stats --top 3
  crmem stats --json | jq '.months[] | [.month, .added.note, .added.archive]'`,
		Args: args(0, 0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if top < 0 {
				return usage(cmd, "--top %d: want 0 or more", top)
			}
			_, src, err := a.openSource()
			if err != nil {
				return err
			}
			opt := stats.Options{Top: top, Loc: time.Local}
			if top == 0 {
				opt.Top = -1
			}
			s := stats.Compute(src.Memory().Entries(), opt)
			dropStoreIDs(s.Largest, s.MostTokens)
			return a.output(func(w *bufio.Writer) error {
				if js.enabled() {
					return js.write(w, s)
				}
				return writeLines(w, statsview.Lines(s, a.outputWidth(), statsview.Style{Name: nameText}))
			})
		},
	}
	c.Flags().IntVar(&top, "top", stats.DefaultTop, "list the N biggest entries by bytes and by tokens (0: none)")
	js.register(c, "print the numbers")
	return c
}

// dropStoreIDs clears the ids crmem gave a crabtalk store's entries, which
// have none of their own (JSON leaves id out, as ls --json does).
func dropStoreIDs(lists ...[]stats.Big) {
	for _, l := range lists {
		for i := range l {
			if l[i].ID >= crabdb.IDBase {
				l[i].ID = 0
			}
		}
	}
}

// outputWidth is the terminal's width when standard output is one, else
// defaultStatsWidth.
func (a *app) outputWidth() int {
	if f, ok := a.stdout.(*os.File); ok && isTerminal(f) {
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
