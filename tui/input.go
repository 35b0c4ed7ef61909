package tui

import (
	"strings"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/crmem/crmem/internal/sanitize"
)

// lineInput is the search line: a one-line editor with a cursor. (bubbles'
// textinput pulls in a clipboard library crmem does not need.)
type lineInput struct {
	prompt      string
	placeholder string
	limit       int
	value       []rune
	pos         int
	focused     bool
	suggested   bool // the value is a suggestion: text typed replaces it, an editing key takes it up
	// marked: the value may hold invisible and control characters (a
	// name held exactly), drawn as the markers the rest of the screen
	// shows them as; text typed or pasted still drops them.
	marked      bool
	width       int
	promptStyle lipgloss.Style
	textStyle   lipgloss.Style
	dimStyle    lipgloss.Style
}

func newSearchInput() lineInput {
	return lineInput{prompt: "/ ", placeholder: "search (press /)", limit: 256}
}

// Value returns the text.
func (in *lineInput) Value() string { return string(in.value) }

// Reset empties the line.
func (in *lineInput) Reset() { in.value, in.pos = nil, 0 }

// Focus shows the cursor.
func (in *lineInput) Focus() { in.focused = true }

// Blur hides the cursor.
func (in *lineInput) Blur() { in.focused = false }

// insert adds text at the cursor (control and invisible characters dropped).
func (in *lineInput) insert(s string) {
	r := []rune(sanitize.Input(s))
	if room := in.limit - len(in.value); len(r) > room {
		r = r[:max(room, 0)]
	}
	in.value = append(in.value[:in.pos], append(r, in.value[in.pos:]...)...)
	in.pos += len(r)
}

// key edits the line; it reports whether the key was an editing key. On a
// suggested value, text replaces it, backspace and delete clear it, and
// any other key keeps it to edit.
func (in *lineInput) key(k tea.KeyPressMsg) bool {
	if in.suggested && k.Text == "" {
		in.suggested = false
		switch k.String() {
		case "backspace", "ctrl+h", "delete", "ctrl+d":
			in.Reset()
			return true
		}
	}
	switch k.String() {
	case "backspace", "ctrl+h":
		if in.pos > 0 {
			in.value = append(in.value[:in.pos-1], in.value[in.pos:]...)
			in.pos--
		}
	case "delete", "ctrl+d":
		if in.pos < len(in.value) {
			in.value = append(in.value[:in.pos], in.value[in.pos+1:]...)
		}
	case "left", "ctrl+b":
		in.pos = max(in.pos-1, 0)
	case "right", "ctrl+f":
		in.pos = min(in.pos+1, len(in.value))
	case "home", "ctrl+a":
		in.pos = 0
	case "end", "ctrl+e":
		in.pos = len(in.value)
	case "ctrl+w", "alt+backspace":
		in.deleteWord()
	case "ctrl+u":
		in.value, in.pos = in.value[in.pos:], 0
	case "ctrl+k":
		in.value = in.value[:in.pos]
	default:
		if k.Text == "" {
			return false
		}
		in.dropSuggestion()
		in.insert(k.Text)
	}
	return true
}

// dropSuggestion empties a suggested value, for the text that replaces it.
func (in *lineInput) dropSuggestion() {
	if in.suggested {
		in.Reset()
		in.suggested = false
	}
}

// deleteWord removes the word before the cursor.
func (in *lineInput) deleteWord() {
	i := in.pos
	for i > 0 && unicode.IsSpace(in.value[i-1]) {
		i--
	}
	for i > 0 && !unicode.IsSpace(in.value[i-1]) {
		i--
	}
	in.value = append(in.value[:i], in.value[in.pos:]...)
	in.pos = i
}

// setExact holds s exactly, invisible and control characters included
// (drawn as markers), with the cursor at its end.
func (in *lineInput) setExact(s string) {
	in.marked = true
	in.value = []rune(s)
	in.pos = len(in.value)
}

// shown is each rune of the value as drawn: itself, or in a marked input
// the marker of an invisible character.
func (in *lineInput) shown() []string {
	if in.marked {
		return sanitize.NameRunes(in.value)
	}
	out := make([]string, len(in.value))
	for i, r := range in.value {
		out[i] = string(r)
	}
	return out
}

// View renders prompt, text and cursor within width cells, as drawn
// (drawnWidth).
func (in *lineInput) View() string {
	p := in.promptStyle.Render(in.prompt)
	if len(in.value) == 0 && !in.focused {
		return p + in.dimStyle.Render(in.placeholder)
	}
	shown := in.shown()
	before, after := strings.Join(shown[:in.pos], ""), shown[in.pos:]
	cur := " "
	if in.focused && len(after) > 0 {
		cur, after = after[0], after[1:]
	}
	if !in.focused {
		cur = ""
	}
	room := max(in.width-drawnWidth(p)-drawnWidth(cur), 1)
	before = drawnTruncateLeft(before, room, "…")
	if in.focused {
		cur = lipgloss.NewStyle().Reverse(true).Render(cur)
	}
	text := in.textStyle
	if in.suggested {
		text = in.dimStyle
	}
	rest := drawnTruncate(strings.Join(after, ""), max(room-drawnWidth(before), 0), "…")
	return p + text.Render(before) + cur + text.Render(rest)
}

// setWidth sets the room the line may take.
func (in *lineInput) setWidth(w int) { in.width = w }
