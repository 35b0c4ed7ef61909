package tui

import "github.com/crmem/crmem/tui/part"

// lineInput is a prompt's line: a one-line editor with a cursor
// (part.Input).
type lineInput = part.Input
