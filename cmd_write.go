package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// writeCommand is a placeholder until the subcommand is implemented.
func (a *app) writeCommand() *cobra.Command {
	return &cobra.Command{
		Use:    "write",
		Hidden: true,
		RunE: func(*cobra.Command, []string) error {
			return errors.New("write: not implemented yet")
		},
	}
}
