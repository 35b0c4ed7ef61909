package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// aliasCommand is a placeholder until the subcommand is implemented.
func (a *app) aliasCommand() *cobra.Command {
	return &cobra.Command{
		Use:    "alias",
		Hidden: true,
		RunE: func(*cobra.Command, []string) error {
			return errors.New("alias: not implemented yet")
		},
	}
}
