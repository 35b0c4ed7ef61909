package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// updateCommand is a placeholder until the subcommand is implemented.
func (a *app) updateCommand() *cobra.Command {
	return &cobra.Command{
		Use:    "update",
		Hidden: true,
		RunE: func(*cobra.Command, []string) error {
			return errors.New("update: not implemented yet")
		},
	}
}
