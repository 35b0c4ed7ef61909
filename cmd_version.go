package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// versionCommand is a placeholder until the subcommand is implemented.
func (a *app) versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:    "version",
		Hidden: true,
		RunE: func(*cobra.Command, []string) error {
			return errors.New("version: not implemented yet")
		},
	}
}
