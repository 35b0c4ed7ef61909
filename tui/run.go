// Package tui is crmem's terminal user interface, built on Bubble Tea v2.
package tui

import (
	"fmt"
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"

	crmemconfig "github.com/crmem/crmem/face/config"
	"github.com/crmem/crmem/keymap"
)

// Options configure the TUI.
type Options struct {
	Path        string // memory file
	SessionsDir string // crabtalk sessions folder; empty: sessions/ next to Path
	Style       string // glamour style override: "", "auto", "dark", "light", "notty"
	// DaemonSocket is where a running crabtalk daemon listens ("": none
	// known; config.DaemonSocket resolves it).
	DaemonSocket string
	NoMouse      bool   // start with mouse capture off (M turns it on)
	Sort         string // the list's order at start: newest (""), oldest, name, size

	// Keys is the key map (the configuration's [keys] applied to the
	// defaults); a zero KeyMap means the defaults.
	Keys keymap.KeyMap
	// MaxExpansions bounds the prefix expansions of the word being typed
	// (0: the default, 32).
	MaxExpansions int
	// NameMatches and RecallLimit are the name-match rows shown before
	// "… N more" and the recall view's limit (0: their defaults).
	NameMatches, RecallLimit int
	// Getenv reads the environment (NO_COLOR, PAGER, EDITOR and VISUAL,
	// HOME), as the command line's does; the TUI never reads the
	// process's itself. nil: nothing is set.
	Getenv func(string) string
}

// getenv is opts.Getenv, or an empty environment when there is none.
func (opts Options) getenv() func(string) string {
	if opts.Getenv == nil {
		return func(string) string { return "" }
	}
	return opts.Getenv
}

// frameRate is how often, at most, the screen is redrawn: Bubble Tea draws
// on a ticker, so a change waits up to one period to be seen. At 120 (its
// maximum; the default is 60) the list was on screen ~10 ms sooner at
// start (scripts/first-screen.sh, 3k, idle: 108–126 → 99–105 ms) and a
// keystroke's frame waits at most 8 ms; idle, the ticker costs nothing
// measurable either way (under 1 ms of CPU in 10 s).
const frameRate = 120

// Run starts the TUI and blocks until the user quits.
func Run(opts Options) error {
	if err := CheckStyle(opts.Style); err != nil {
		return err
	}
	cfg := configFrom(opts, opts.getenv())
	cfg.open = openAhead(cfg.path, cfg.sessions)
	m := newModel(cfg)
	_, err := tea.NewProgram(m, append(inputOptions(), tea.WithColorProfile(screenProfile()), tea.WithFPS(frameRate))...).Run()
	m.w.watcher.close()
	if err != nil {
		return fmt.Errorf("terminal: %w", err)
	}
	if m.quitNotice != "" {
		fmt.Fprintln(os.Stderr, "crmem: "+m.quitNotice)
	}
	return nil
}

// configFrom builds the model's configuration from Options and the
// environment (NO_COLOR, PAGER; the home folder, shown as ~).
func configFrom(opts Options, getenv func(string) string) config {
	cfg := config{path: opts.Path, sessions: opts.SessionsDir, style: opts.Style, noColor: getenv("NO_COLOR") != "", noMouse: opts.NoMouse, ed: newEditingPart(opts), why: newWhyView(),
		keys: opts.Keys, order: parseSort(opts.Sort), maxExpansions: opts.MaxExpansions, pager: getenv("PAGER"),
		nameMatches: opts.NameMatches, recallLimit: opts.RecallLimit}
	cfg.daemon = opts.DaemonSocket
	cfg.home = crmemconfig.Home(getenv) // paths on screen show it as ~
	return cfg
}

// CheckStyle rejects an unknown --style before the screen starts: a style
// is a name glamour knows or a glamour style file (.json) that
// crmemconfig.ReadStyleFile reads.
func CheckStyle(s string) error {
	if s == "" || crmemconfig.IsStyle(s) {
		return nil
	}
	if strings.HasSuffix(s, ".json") || strings.ContainsRune(s, '/') {
		_, err := crmemconfig.ReadStyleFile(s)
		return err
	}
	return fmt.Errorf("unknown style %q (want %s or a glamour style file)", s, strings.Join(crmemconfig.StyleNames(), ", "))
}

// parseSort reads the configured start order; anything else is newest.
func parseSort(s string) sortOrder {
	for o := sortNewest; o < sortRelevance; o++ {
		if o.String() == s {
			return o
		}
	}
	return sortNewest
}
