package tui

import (
	"unicode/utf8"

	"charm.land/bubbles/v2/key"

	"github.com/crmem/crmem/tui/part"
)

// Every key a hint on screen names comes from the effective key map, never
// from a literal: a user who moved search to ctrl+f must not read "press /".

// keyName, keyHint, hints and paren are part's KeyName, KeyHint, Hints
// and Paren, under the names this package's parts use.
func keyName(b key.Binding) string              { return part.KeyName(b) }
func keyHint(b key.Binding, what string) string { return part.KeyHint(b, what) }
func hints(sep string, hs ...string) string     { return part.Hints(sep, hs...) }
func paren(text string) string                  { return part.Paren(text) }

// searchPlaceholder is the idle search line's hint: "search (press /)".
func (c *common) searchPlaceholder() string {
	if k := keyName(c.keys.Search); k != "" {
		return "search (press " + k + ")"
	}
	return "search"
}

// searchPrompt is the search line's prompt: the search key when it is
// one character ("/ " by default), else "› ", so the line never shows a
// key that does not search.
func (c *common) searchPrompt() string {
	if k := keyName(c.keys.Search); utf8.RuneCountInString(k) == 1 {
		return k + " "
	}
	return "› "
}

// backName names the keys that leave the explain view and clear a search
// ("esc" by default): the list's search_cancel, else the preview's back.
func (c *common) backName() string {
	return keyName(firstBound(c.keys.SearchCancel, c.keys.Back))
}

// firstBound is the first binding with keys (or the last one).
func firstBound(bs ...key.Binding) key.Binding {
	for _, b := range bs {
		if keyName(b) != "" {
			return b
		}
	}
	return bs[len(bs)-1]
}

// explainOff names the keys that turn the explain view off: "x or esc".
func (c *common) explainOff() string {
	return hints(" or ", keyName(c.keys.Explain), c.backName())
}

// explainHints are the keys the explain view names, as configured.
type explainHints struct {
	search string // the search keys ("/")
	off    string // the keys that turn it off ("x or esc")
}

// explainHints reads them from the key map.
func (c *common) explainHints() explainHints {
	return explainHints{search: keyName(c.keys.Search), off: c.explainOff()}
}

// noQuery is the explain view's text without a query.
func (h explainHints) noQuery() string {
	return "Type a query" + paren(h.search) + " to see why an entry ranks where it does."
}
