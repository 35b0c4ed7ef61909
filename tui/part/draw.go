package part

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
)

// Box forces s to exactly w×h cells.
func Box(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	for i, l := range lines {
		lw := ansi.StringWidth(l)
		switch {
		case lw > w:
			lines[i] = ansi.Truncate(l, w, "")
		case lw < w:
			lines[i] = l + strings.Repeat(" ", w-lw)
		}
	}
	return strings.Join(lines, "\n")
}

// FitLines truncates every line to width, with an ellipsis.
func FitLines(s string, width int) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if ansi.StringWidth(l) > width {
			lines[i] = ansi.Truncate(l, width, "…")
		}
	}
	return strings.Join(lines, "\n")
}

// DrawnWidth is the cells s takes however the terminal measures it: the
// wider of its width by grapheme clusters and per code point (wcwidth);
// escape sequences take none.
func DrawnWidth(s string) int {
	w := 0
	for l := range strings.SplitSeq(s, "\n") {
		w = max(w, ansi.StringWidth(l), ansi.WcWidth.StringWidth(l))
	}
	return w
}

// Every key a hint on screen names comes from the effective key map, never
// from a literal: a user who moved search to ctrl+f must not read "press /".

// KeyName is how hints name a binding's keys ("/", "ctrl+f", "y"); "" when
// the binding has no keys (configured false).
func KeyName(b key.Binding) string { return b.Help().Key }

// KeyHint is "KEY what" for a binding, or "" when it has no keys.
func KeyHint(b key.Binding, what string) string {
	if k := KeyName(b); k != "" {
		return k + " " + what
	}
	return ""
}

// Hints joins the non-empty hints with sep.
func Hints(sep string, hs ...string) string {
	var out []string
	for _, h := range hs {
		if h != "" {
			out = append(out, h)
		}
	}
	return strings.Join(out, sep)
}

// Paren is " (text)", or "" when text is empty.
func Paren(text string) string {
	if text == "" {
		return ""
	}
	return " (" + text + ")"
}

// FitFirst is the first of texts that fits room cells as drawn, else the
// last: a title's hint from its fullest form to its shortest.
func FitFirst(room int, texts ...string) string {
	for _, t := range texts {
		if DrawnWidth(t) <= room {
			return t
		}
	}
	return texts[len(texts)-1]
}
