package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// searchCommand is a placeholder until the subcommand is implemented.
func (a *app) searchCommand() *cobra.Command {
	return &cobra.Command{
		Use:    "search",
		Hidden: true,
		RunE: func(*cobra.Command, []string) error {
			return errors.New("search: not implemented yet")
		},
	}
}
