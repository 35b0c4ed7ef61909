package cli

import (
	"github.com/spf13/cobra"

	"github.com/crmem/crmem/store"
)

// writeCommand replaces an entry's content only.
func writeCommand(o *opener, s streams) *cobra.Command {
	return &cobra.Command{
		Use:   "write NAME [CONTENT|-]",
		Short: "Replace an entry's content, keeping its aliases",
		Long: `Replace the content of the entry NAME (found by name, else by alias); its
aliases, kind, id and creation time are kept. Content comes from CONTENT, or
standard input when it is "-" or absent.`,
		Example: `  crmem write deploy-steps "1. tag 2. push 3. watch the canary"
  $EDITOR notes.md && crmem write deploy-steps < notes.md`,
		Args:              args(1, 2),
		ValidArgsFunction: o.completeNames(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := args[0]
			content, err := s.content(args, 1)
			if err != nil {
				return err
			}
			op := store.Write{Name: name, Content: content}
			_, changes, err := o.apply(notFound(name), op)
			if err != nil {
				return err
			}
			return report(s.stdout, o.hideIDs, "wrote", changes, unchanged(name, "this content"))
		},
	}
}
