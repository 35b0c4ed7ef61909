package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// benchCommand is a placeholder until the subcommand is implemented.
func (a *app) benchCommand() *cobra.Command {
	return &cobra.Command{
		Use:    "bench",
		Hidden: true,
		RunE: func(*cobra.Command, []string) error {
			return errors.New("bench: not implemented yet")
		},
	}
}
