package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// dumpCommand is a placeholder until the subcommand is implemented.
func (a *app) dumpCommand() *cobra.Command {
	return &cobra.Command{
		Use:    "dump",
		Hidden: true,
		RunE: func(*cobra.Command, []string) error {
			return errors.New("dump: not implemented yet")
		},
	}
}
