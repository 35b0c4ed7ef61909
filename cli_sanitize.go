package main

import safe "github.com/crmem/crmem/tui/sanitize"

// Names and content come from an agent and may carry terminal control
// sequences (title changes, OSC 52 clipboard writes, OSC 8 links, cursor
// jumps, hidden text). Everything printed for a human goes through sanitize
// or sanitizeLine first — the same filter the TUI uses; JSON output is
// escaped by encoding/json instead.

// sanitize drops escape sequences and control characters, keeping newlines
// and tabs.
func sanitize(s string) string { return safe.Text(s) }

// sanitizeLine is sanitize for one-line fields (names, aliases, table
// cells): newlines and tabs become spaces.
func sanitizeLine(s string) string { return safe.Line(s) }
