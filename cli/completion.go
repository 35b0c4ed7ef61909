package cli

import (
	"strings"

	"github.com/spf13/cobra"
)

// initCompletionCommand adds cobra's `completion` command to root now
// (rather than when it runs) and makes an unknown shell a usage error:
// cobra's own command has no action of its own, so `crmem completion tcsh`
// printed the help and exited 0.
func initCompletionCommand(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		c.SilenceUsage = true
		c.Annotations = map[string]string{storeRoleKey: string(storeIgnores)} // reads no memory
		c.Args = cobra.ArbitraryArgs                                          // checked below, with the shells named
		c.RunE = func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmd.Help()
			}
			return usage(cmd, "unknown shell %q (want %s)", args[0], strings.Join(shellNames(cmd), ", "))
		}
	}
}

// shellNames are the shells `completion` writes a script for: its
// subcommands.
func shellNames(completion *cobra.Command) []string {
	var out []string
	for _, c := range completion.Commands() {
		if c.IsAvailableCommand() {
			out = append(out, c.Name())
		}
	}
	return out
}
