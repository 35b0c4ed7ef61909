package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// renameCommand is a placeholder until the subcommand is implemented.
func (a *app) renameCommand() *cobra.Command {
	return &cobra.Command{
		Use:    "rename",
		Hidden: true,
		RunE: func(*cobra.Command, []string) error {
			return errors.New("rename: not implemented yet")
		},
	}
}
