package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// tokensCommand is a placeholder until the subcommand is implemented.
func (a *app) tokensCommand() *cobra.Command {
	return &cobra.Command{
		Use:    "tokens",
		Hidden: true,
		RunE: func(*cobra.Command, []string) error {
			return errors.New("tokens: not implemented yet")
		},
	}
}
