package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/crmem/crmem/tui"
)

// app carries what every subcommand needs: streams, environment and the
// global flags. There is no package-level state.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string

	db       string // --db
	sessions string // --sessions
	style    string // --style
	demo     bool   // --demo
}

// usageError marks an error as a usage error (exit status 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// run executes the command line and returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr, getenv: getenv}
	root := a.rootCommand()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	if err == nil {
		return 0
	}
	fmt.Fprintf(stderr, "crmem: %v\n", err)
	var ue usageError
	if errors.As(err, &ue) {
		return 2
	}
	return 1
}

// rootCommand builds the command tree.
func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:           "crmem [PATH]",
		Short:         "Browse, search and edit an AI agent's memory file",
		Args:          cobra.MaximumNArgs(1),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			path := ""
			if len(args) == 1 {
				path = args[0]
			}
			return a.runTUI(path)
		},
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	pf := root.PersistentFlags()
	pf.StringVar(&a.db, "db", "", "memory file (default $CRMEM_DB, else ~/.crabtalk/memory.db)")
	root.Flags().StringVar(&a.sessions, "sessions", "", "crabtalk sessions folder (default: sessions/ next to the memory file)")
	root.Flags().StringVar(&a.style, "style", "", "glamour style: auto, dark, light, notty")
	root.Flags().BoolVar(&a.demo, "demo", false, "open a copy of a built-in sample memory")
	for _, c := range []*cobra.Command{
		a.lsCommand(), a.showCommand(), a.searchCommand(), a.tokensCommand(),
		a.addCommand(), a.updateCommand(), a.writeCommand(), a.aliasCommand(),
		a.renameCommand(), a.rmCommand(), a.editCommand(), a.dumpCommand(),
		a.loadCommand(), a.exportCommand(), a.importCommand(), a.checkCommand(),
		a.benchCommand(), a.versionCommand(),
	} {
		c.SilenceUsage = true
		root.AddCommand(c)
	}
	return root
}

// dbPath resolves the memory file: --db, then $CRMEM_DB, then
// ~/.crabtalk/memory.db.
func (a *app) dbPath() (string, error) {
	if a.db != "" {
		return a.db, nil
	}
	if p := a.getenv("CRMEM_DB"); p != "" {
		return p, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("find home directory: %w", err)
	}
	return filepath.Join(home, ".crabtalk", "memory.db"), nil
}

// runTUI opens the terminal UI on path (or the resolved --db path).
func (a *app) runTUI(path string) error {
	if path == "" && !a.demo {
		p, err := a.dbPath()
		if err != nil {
			return err
		}
		path = p
	}
	return tui.Run(tui.Options{Path: path, SessionsDir: a.sessions, Style: a.style, Demo: a.demo})
}
