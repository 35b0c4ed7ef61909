package cli

import (
	"bufio"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/crmem/crmem/face/config"
)

// configCommand prints the effective configuration with each value's
// source, the config file's path, or a complete default file.
func configCommand(o *opener, s streams) *cobra.Command {
	var path, def bool
	c := &cobra.Command{
		Use:   "config [--path] [--default]",
		Short: "Print the effective configuration, each value with where it came from",
		Long: `config prints every setting with its value and where it came from: the
default, the config file and line, an environment variable or a flag
("crmem config --default" prints a commented file describing each). The
file is $CRMEM_CONFIG, else $XDG_CONFIG_HOME/crmem/config.toml, else
~/.config/crmem/config.toml.`,
		Example: `  crmem config
  crmem config --path
  crmem config --default > ~/.config/crmem/config.toml`,
		Args: args(0, 0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return s.output(func(w *bufio.Writer) error {
				switch {
				case path:
					p := config.Path(o.getenv)
					if p == "" {
						return errors.New("no config file: " + config.NoHome + " (set $CRMEM_CONFIG or $XDG_CONFIG_HOME)")
					}
					_, err := fmt.Fprintln(w, sanitizeLine(p))
					return err
				case def:
					_, err := w.WriteString(config.DefaultFile())
					return err
				}
				return writeConfig(w, o.cfg)
			})
		},
	}
	c.Flags().BoolVar(&path, "path", false, "print the config file's path (whether or not it exists)")
	c.Flags().BoolVar(&def, "default", false, "print a complete, commented default config file")
	c.MarkFlagsMutuallyExclusive("path", "default")
	// The screen's own flags, so that `crmem config --style light` shows
	// what `crmem --style light` would run with, and says it came from the flag
	// (the configuration loader reads them: configFlags).
	c.Flags().String("sessions", "", "as for the TUI: show the value with --sessions as its source")
	c.Flags().String("style", "", "as for the TUI: show the value with --style as its source")
	c.Flags().Bool("no-mouse", false, "as for the TUI: show mouse = false with --no-mouse as its source")
	return c
}

// writeConfig prints one "name = value  # source" line per setting.
func writeConfig(w *bufio.Writer, c *config.Config) error {
	found := ""
	if !c.Found {
		found = " (not found: defaults)"
	}
	if c.File == "" {
		fmt.Fprintf(w, "# config file: none (%s: defaults)\n", config.NoHome)
	} else {
		fmt.Fprintf(w, "# config file: %s%s\n", sanitizeLine(c.File), found)
	}
	ss := c.Settings()
	width := 0
	for _, s := range ss {
		width = max(width, len(s.Name)+3+len(s.Value))
	}
	for _, s := range ss {
		line := s.Name + " = " + s.Value
		fmt.Fprintf(w, "%-*s  # %s\n", width, sanitizeLine(line), sanitizeLine(s.Source.String()))
	}
	return nil
}
