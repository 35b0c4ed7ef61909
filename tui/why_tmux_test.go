package tui

import (
	"strings"
	"testing"
	"time"
)

// TestTmux_WhyPanel drives the real binary in a terminal: a search, the
// why key on an entry the recall does not return, picked by typing the
// start of its name and completing it, the panel at full and at narrow
// width, and esc back to the list.
func TestTmux_WhyPanel(t *testing.T) {
	e := newTmux(t)
	bin := buildBinary(t)
	path := copyFixture(t, "crmem/small.db")
	e.start("s", "NO_COLOR=1 "+bin+" '"+path+"'")
	e.waitFor("s", 30*time.Second, "first screen", contains("deploy-steps"))
	e.keys("s", "/")
	e.text("s", "postgres migration")
	e.keys("s", "Enter")
	// The whole query's hits with the list focused (the help line after
	// enter): "3 hits" alone also shows for "postgres" while it is typed,
	// and w could then catch that ranking's selection (seen once in a
	// full run).
	e.waitFor("s", 30*time.Second, "search", contains("/ postgres migration", "3 hits in", "open preview"))
	e.keys("s", "w")
	e.waitFor("s", 30*time.Second, "prompt with the selected entry", contains("why: db-migrations", "tab completes a name"))
	e.keys("s", "C-e", "C-u")
	e.text("s", "alice-p")
	e.keys("s", "Tab")
	e.waitFor("s", 30*time.Second, "completed name", contains("why: alice-preferences"))
	e.keys("s", "Enter")
	e.waitFor("s", 30*time.Second, "panel", contains("WHY alice-preferences",
		"none of the query's terms (migration, postgres) occur in it", "lacks migration, postgres", "the recall returns 3 of 3 scored"))
	// At 36 columns the reason wraps, whole, and the terms are sentences.
	e.tmux("resize-window", "-t", "s", "-x", "36", "-y", "30")
	e.waitFor("s", 30*time.Second, "narrow panel", func(s string) bool {
		return contains("WHY alice", "none of the query's terms (migration, postgres) occur in it", "lacks migration, postgres",
			"postgres: tf 0, df 3, idf 1.9661")(s) && !strings.Contains(s, "contrib")
	})
	e.keys("s", "Escape")
	e.waitFor("s", 30*time.Second, "back to the list", func(s string) bool {
		return !strings.Contains(s, "WHY ") && strings.Contains(s, "db-migrations")
	})
}
