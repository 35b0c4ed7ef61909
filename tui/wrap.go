package tui

import "github.com/crmem/crmem/tui/part"

// wrapWords wraps plain text to width cells, breaking only at spaces
// (part.WrapWords).
func wrapWords(s string, width int) []string { return part.WrapWords(s, width) }
