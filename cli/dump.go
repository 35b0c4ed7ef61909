package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/crmem/crmem/export"
	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store"
)

// dumpCommand writes the memory as an mdbook tree.
func dumpCommand(o *opener, s streams) *cobra.Command {
	return &cobra.Command{
		Use:   "dump DIR",
		Short: "Write the memory as a markdown tree (mdbook) in DIR",
		Long: `Write every entry as DIR/notes/NAME.md, DIR/archives/NAME.md or DIR/topics/NAME.md
(a metadata block with the creation time and aliases, then the content), with
DIR/SUMMARY.md listing them and DIR/book.toml (only when absent), so that
"mdbook serve DIR" shows the memory as a book. The output is byte for byte what
crabtalk's own dump writes.

Each kind's folder is replaced as a whole, so renamed and deleted entries leave
no stale files; anything else in DIR (a customised book.toml, a theme/) is left
alone. If any entry's name is not safe as a file name, nothing is written and
every such entry is named. Edit the tree and read it back with "crmem load".`,
		Example: `  crmem dump ~/memory-book && mdbook serve ~/memory-book
  crmem dump /tmp/brain && $EDITOR /tmp/brain/notes/deploy-steps.md && crmem load --merge /tmp/brain`,
		Args: args(1, 1),
		RunE: func(_ *cobra.Command, args []string) error {
			c, err := o.readContents()
			if err != nil {
				return err
			}
			for _, n := range c.Notices {
				fmt.Fprintf(s.stderr, "crmem: %s\n", sanitizeLine(n))
			}
			if err := export.Dump(args[0], c.File.Entries); err != nil {
				return err
			}
			_, err = fmt.Fprintf(s.stdout, "dumped %s to %s\n", exportCount(c.File.Entries), quotePath(args[0]))
			return err
		},
	}
}

// exportCount describes a set of entries: "28 entries (24 notes, 4 archives)".
func exportCount(entries []store.Entry) string {
	var n [len(store.Kinds)]int
	for _, e := range entries {
		if int(e.Kind) < len(n) {
			n[e.Kind]++
		}
	}
	var parts []string
	for i, k := range store.Kinds {
		if n[i] > 0 {
			parts = append(parts, humanize.Plural(n[i], k.String()))
		}
	}
	s := humanize.Plural(len(entries), "entry")
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	return s
}
