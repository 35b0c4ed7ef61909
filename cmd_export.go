package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// exportCommand is a placeholder until the subcommand is implemented.
func (a *app) exportCommand() *cobra.Command {
	return &cobra.Command{
		Use:    "export",
		Hidden: true,
		RunE: func(*cobra.Command, []string) error {
			return errors.New("export: not implemented yet")
		},
	}
}
