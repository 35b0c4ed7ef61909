package cli

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// finishHelp makes help work the same way from every spelling once the
// command tree is built (and the completion command added):
//
//   - `crmem help TOPIC` is helpCommand: an unknown topic is a usage error
//     with the closest command suggested, not the root's help and exit 0;
//   - every command has its --help flag (and the root its --version) before
//     the command line is read, so `crmem --help ls` shows ls's help: cobra
//     adds them only once it has chosen the command, and until then it took
//     "ls" for the value of an unknown --help;
//   - boolean flags read `--demo`, not pflag's `--demo[=true|false]`
//     (plainBool).
func finishHelp(root *cobra.Command) {
	help := helpCommand()
	root.SetHelpCommand(help)
	root.InitDefaultVersionFlag()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.InitDefaultHelpFlag()
		plainBools(c.Flags())
		plainBools(c.PersistentFlags())
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	walk(help) // added to root's commands only when the command line runs
}

// helpCommand is `crmem help [COMMAND...]`.
func helpCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "help [COMMAND]",
		Short: "Help about any command",
		Long:  "Print the help of COMMAND (a subcommand's: crmem help completion bash), or crmem's.",
		ValidArgsFunction: func(c *cobra.Command, args []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
			cmd, _, err := c.Root().Find(args)
			if err != nil || cmd == nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var out []cobra.Completion
			for _, sub := range cmd.Commands() {
				if sub.IsAvailableCommand() && strings.HasPrefix(sub.Name(), prefix) {
					out = append(out, sub.Name())
				}
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			cmd, rest, err := c.Root().Find(args)
			if err != nil || cmd == nil || len(rest) > 0 {
				word := strings.Join(args, " ")
				if len(rest) > 0 {
					word = rest[0]
				}
				if s := closestCommand(c.Root(), word); s != "" && cmd == c.Root() {
					return usage(c, "no help topic %q, did you mean %q?", word, s)
				}
				return usage(c, "no help topic %q", strings.Join(args, " "))
			}
			return cmd.Help()
		},
	}
}

// plainBools shows fs's boolean flags as `--name`: pflag 1.1 writes every
// one as `--name[=true|false]`, which reads as if a value were wanted.
// The flag still takes one (--demo=false): its NoOptDefVal is "true".
func plainBools(fs *pflag.FlagSet) {
	fs.VisitAll(func(f *pflag.Flag) {
		if _, done := f.Value.(plainBool); !done && f.Value.Type() == "bool" && f.NoOptDefVal == "true" {
			f.Value = plainBool{f.Value}
		}
	})
}

// plainBool is a boolean flag's value without IsBoolFlag, the method pflag
// 1.1 adds "[=true|false]" to the usage line for.
type plainBool struct{ v pflag.Value }

func (b plainBool) String() string     { return b.v.String() }
func (b plainBool) Set(s string) error { return b.v.Set(s) }
func (b plainBool) Type() string       { return b.v.Type() }
