package cli

import (
	"github.com/spf13/cobra"

	"github.com/crmem/crmem/store"
)

// aliasCommand sets an entry's alias list.
func aliasCommand(o *opener, s streams) *cobra.Command {
	return &cobra.Command{
		Use:   "alias NAME [ALIAS]...",
		Short: "Set an entry's alias list (no ALIAS: clear it)",
		Long: `Set the alias list of the entry NAME (found by name, else by alias) to the
ALIAS arguments, in order; with none, clear it. This replaces the list, it does
not append (RFC 0150's Alias). Aliases are searched and resolve names.`,
		Example: `  crmem alias deploy-steps ship release rollout
  crmem alias deploy-steps          # clear`,
		Args:              args(1, -1),
		ValidArgsFunction: o.completeNames(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name, aliases := args[0], append([]string{}, args[1:]...)
			if err := validAliases(aliases); err != nil {
				return err
			}
			op := store.SetAliases{Name: name, Aliases: aliases}
			_, changes, err := o.apply(notFound(name), op)
			if err != nil {
				return err
			}
			return report(s.stdout, o.hideIDs, "aliased", changes, unchanged(name, "these aliases"))
		},
	}
}
