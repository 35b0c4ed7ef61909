package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// addCommand is a placeholder until the subcommand is implemented.
func (a *app) addCommand() *cobra.Command {
	return &cobra.Command{
		Use:    "add",
		Hidden: true,
		RunE: func(*cobra.Command, []string) error {
			return errors.New("add: not implemented yet")
		},
	}
}
