package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// showCommand is a placeholder until the subcommand is implemented.
func (a *app) showCommand() *cobra.Command {
	return &cobra.Command{
		Use:    "show",
		Hidden: true,
		RunE: func(*cobra.Command, []string) error {
			return errors.New("show: not implemented yet")
		},
	}
}
