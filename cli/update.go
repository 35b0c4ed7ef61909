package cli

import (
	"github.com/spf13/cobra"

	"github.com/crmem/crmem/store"
)

// updateCommand replaces an entry's content and its whole alias list.
func updateCommand(o *opener, s streams) *cobra.Command {
	var aliases []string
	c := &cobra.Command{
		Use:   "update NAME [CONTENT|-] [--alias A]...",
		Short: "Replace an entry's content and its whole alias list",
		Long: `Replace the content of the entry NAME (found by name, else by alias) and its
whole alias list: the --alias values given, none if there are none. Content
comes from CONTENT, or standard input when it is "-" or absent. To change the
content only, use write; the aliases only, alias.`,
		Example: `  crmem update deploy-steps "1. tag 2. push" --alias ship
  crmem update deploy-steps - --alias ship --alias release < steps.md`,
		Args:              args(1, 2),
		ValidArgsFunction: o.completeNames(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := args[0]
			if err := validAliases(aliases); err != nil {
				return err
			}
			content, err := s.content(args, 1)
			if err != nil {
				return err
			}
			if aliases == nil {
				aliases = []string{}
			}
			op := store.Update{Name: name, Content: content, Aliases: aliases}
			_, changes, err := o.apply(notFound(name), op)
			if err != nil {
				return err
			}
			return report(s.stdout, o.hideIDs, "updated", changes, unchanged(name, "this content and these aliases"))
		},
	}
	c.Flags().StringArrayVar(&aliases, "alias", nil, "an alias (repeat for several; none clears them)")
	return c
}
