package tui

import "github.com/crmem/crmem/tui/part"

// lineInput is the search line, a prompt's line: a one-line editor with a
// cursor (part.Input).
type lineInput = part.Input

func newSearchInput() lineInput {
	return lineInput{Prompt: "/ ", Placeholder: "search (press /)", Limit: 256}
}
