package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// checkCommand is a placeholder until the subcommand is implemented.
func (a *app) checkCommand() *cobra.Command {
	return &cobra.Command{
		Use:    "check",
		Hidden: true,
		RunE: func(*cobra.Command, []string) error {
			return errors.New("check: not implemented yet")
		},
	}
}
