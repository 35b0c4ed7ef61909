package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// loadCommand is a placeholder until the subcommand is implemented.
func (a *app) loadCommand() *cobra.Command {
	return &cobra.Command{
		Use:    "load",
		Hidden: true,
		RunE: func(*cobra.Command, []string) error {
			return errors.New("load: not implemented yet")
		},
	}
}
