package cli

import (
	"github.com/spf13/cobra"

	"github.com/crmem/crmem/store"
)

// renameCommand changes an entry's canonical name.
func renameCommand(o *opener, s streams) *cobra.Command {
	return &cobra.Command{
		Use:   "rename NAME NEW",
		Short: "Rename an entry (id, kind, creation time and aliases kept)",
		Long: `Change the name of the entry NAME (found by name, else by alias) to NEW. NEW
must be unused and safe as a file name.`,
		Example:           `  crmem rename deploy-steps release-checklist`,
		Args:              args(2, 2),
		ValidArgsFunction: o.completeNames(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name, newName := args[0], args[1]
			if err := validNewName(newName); err != nil {
				return err
			}
			describe := firstOf(notFound(name), nameTaken(newName))
			_, changes, err := o.apply(describe, store.Rename{Name: name, New: newName})
			if err != nil {
				return err
			}
			return report(s.stdout, o.hideIDs, "renamed to", changes, unchanged(name, "this name"))
		},
	}
}
