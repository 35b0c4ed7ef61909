// Package tui is crmem's terminal user interface, built on Bubble Tea v2.
package tui

import "errors"

// Options configure the TUI.
type Options struct {
	Path        string // memory file
	SessionsDir string // crabtalk sessions folder; empty: sessions/ next to Path
	Style       string // glamour style override: "", "auto", "dark", "light", "notty"
	Demo        bool   // open a temp copy of the built-in sample memory
}

// Run starts the TUI and blocks until the user quits.
func Run(opts Options) error { return errors.New("tui: not implemented yet") }
