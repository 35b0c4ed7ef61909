package cli

import (
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"
)

// manCommand writes man pages generated from the command tree.
func manCommand(s streams, getenv func(string) string) *cobra.Command {
	return &cobra.Command{
		Use:   "man DIR",
		Short: "Write man pages (crmem.1 and crmem-SUBCOMMAND.1) into DIR",
		Long: `Write a man page for crmem and one for each subcommand, made from the same
text as --help, into DIR (created if missing; existing pages are replaced).
The date in the pages is today's, or $SOURCE_DATE_EPOCH for reproducible
builds. DIR "-" is refused: the pages are files, not one stream for
standard output (a folder named - is ./-).`,
		Example: `  crmem man "$(dirname "$(command -v crmem)")/../share/man/man1" && man crmem
  sudo crmem man /usr/local/share/man/man1`,
		Hidden: true, // a packaging step, not something to use daily
		Args:   args(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := args[0]
			if dir == "-" {
				// Elsewhere "-" is standard input or output; here it made
				// a folder named "-".
				return usage(cmd, `DIR "-": the pages are files, one per command, not one stream for standard output; name a folder (./- for one named -)`)
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return fileError{dir, err}
			}
			date, err := manDate(getenv, time.Now())
			if err != nil {
				return usageError{err}
			}
			root := cmd.Root()
			root.InitDefaultCompletionCmd() // so `crmem completion` gets its page too
			pages, err := writeManPages(root, dir, date)
			if err != nil {
				return fmt.Errorf("%s: write man pages: %w", quotePath(dir), err)
			}
			_, err = fmt.Fprintf(s.stdout, "wrote %d man pages to %s\n", len(pages), sanitizeLine(dir))
			return err
		},
	}
}
