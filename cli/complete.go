package cli

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/crmem/crmem/face/config"
)

// completeNames completes entry names for the first n positional arguments
// (n < 0: every argument) from the memory file, for shell completion.
func (o *opener) completeNames(n int) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if n >= 0 && len(args) >= n {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		// The hidden __complete command parses none of the flags it
		// completes, so the configuration loaded before it ran lacks --db:
		// resolve it again from the completed command's flags.
		cfg, err := config.Load(config.Options{Getenv: o.getenv, Flags: configFlags(cmd)})
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		o.cfg = cfg
		// --demo too is parsed only now: complete from the sample's copy
		// (removed when the completion ends, as after any command).
		if o.demoPath == "" {
			if err := o.openDemo(cmd); err != nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
		}
		names, err := o.entryNames()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []cobra.Completion
		for _, name := range names {
			if strings.HasPrefix(name, prefix) {
				out = append(out, sanitizeLine(name))
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}
