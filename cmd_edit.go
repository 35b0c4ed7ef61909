package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// editCommand is a placeholder until the subcommand is implemented.
func (a *app) editCommand() *cobra.Command {
	return &cobra.Command{
		Use:    "edit",
		Hidden: true,
		RunE: func(*cobra.Command, []string) error {
			return errors.New("edit: not implemented yet")
		},
	}
}
