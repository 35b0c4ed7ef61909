// Package tui is crmem's terminal user interface, built on Bubble Tea v2.
package tui

import (
	"fmt"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/tui/demo"
)

// Options configure the TUI.
type Options struct {
	Path        string // memory file
	SessionsDir string // crabtalk sessions folder; empty: sessions/ next to Path
	Style       string // glamour style override: "", "auto", "dark", "light", "notty"
	Demo        bool   // open a temp copy of the built-in sample memory
	NoMouse     bool   // start with mouse capture off (M turns it on)
}

// Run starts the TUI and blocks until the user quits.
func Run(opts Options) error {
	if opts.Demo {
		path, cleanup, err := demo.Write(time.Now())
		if err != nil {
			return err
		}
		defer cleanup()
		opts.Path = path
	}
	if err := CheckStyle(opts.Style); err != nil {
		return err
	}
	m := newModel(configFrom(opts, os.Getenv))
	_, err := tea.NewProgram(m).Run()
	m.w.watcher.close()
	if err != nil {
		return fmt.Errorf("terminal: %w", err)
	}
	return nil
}

// configFrom builds the model's configuration from Options and the
// environment (NO_COLOR, HOME for the daemon socket).
func configFrom(opts Options, getenv func(string) string) config {
	cfg := config{path: opts.Path, style: opts.Style, noColor: getenv("NO_COLOR") != "", noMouse: opts.NoMouse, features: defaultFeatures(opts)}
	if home, err := os.UserHomeDir(); err == nil {
		cfg.daemon = daemonSocket(home)
		cfg.home = home
	}
	return cfg
}

// CheckStyle rejects an unknown --style before the screen starts.
func CheckStyle(s string) error {
	switch s {
	case "", "auto", "dark", "light", "notty", "ascii", "dracula", "pink", "tokyo-night":
		return nil
	}
	return fmt.Errorf("unknown style %q (want auto, dark, light, notty, ascii, dracula, pink or tokyo-night)", s)
}
