package cli

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/crmem/crmem/export"
	"github.com/crmem/crmem/face/config"
	"github.com/crmem/crmem/store"
)

// styleNames are the values --style accepts: the configuration's list,
// which tui.CheckStyle reads too.
func styleNames() []string { return config.StyleNames() }

// importFormats are the values import's --from accepts: export's one list.
func importFormats() []string { return export.FormatNames() }

// kindNames are the kinds' names, as --kind takes them.
func kindNames() []string {
	out := make([]string, 0, len(store.Kinds))
	for _, k := range store.Kinds {
		out = append(out, k.String())
	}
	return out
}

// enumFlags maps the name of every flag that takes one of a fixed set of
// values to those values; any command with a flag of that name completes
// them.
func enumFlags() map[string][]string {
	return map[string][]string{
		"kind":  kindNames(),
		"style": styleNames(),
		"from":  importFormats(),
	}
}

// registerFlagCompletions makes shell completion offer the values of every
// enum-valued flag in the tree under root, and folders for --sessions. A
// flag that already has a completion function keeps it.
func registerFlagCompletions(root *cobra.Command) {
	enums := enumFlags()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for name, values := range enums {
			if c.Flags().Lookup(name) != nil {
				_ = c.RegisterFlagCompletionFunc(name, completeFixed(values)) // already registered: keep that one
			}
		}
		if c.Flags().Lookup("sessions") != nil {
			_ = c.MarkFlagDirname("sessions")
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// completeFixed completes one of values, those starting with what was typed.
func completeFixed(values []string) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
		var out []cobra.Completion
		for _, v := range values {
			if strings.HasPrefix(v, prefix) {
				out = append(out, v)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}
