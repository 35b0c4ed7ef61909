package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// rmCommand is a placeholder until the subcommand is implemented.
func (a *app) rmCommand() *cobra.Command {
	return &cobra.Command{
		Use:    "rm",
		Hidden: true,
		RunE: func(*cobra.Command, []string) error {
			return errors.New("rm: not implemented yet")
		},
	}
}
