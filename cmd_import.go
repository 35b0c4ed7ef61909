package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// importCommand is a placeholder until the subcommand is implemented.
func (a *app) importCommand() *cobra.Command {
	return &cobra.Command{
		Use:    "import",
		Hidden: true,
		RunE: func(*cobra.Command, []string) error {
			return errors.New("import: not implemented yet")
		},
	}
}
