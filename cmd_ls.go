package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// lsCommand is a placeholder until the subcommand is implemented.
func (a *app) lsCommand() *cobra.Command {
	return &cobra.Command{
		Use:    "ls",
		Hidden: true,
		RunE: func(*cobra.Command, []string) error {
			return errors.New("ls: not implemented yet")
		},
	}
}
