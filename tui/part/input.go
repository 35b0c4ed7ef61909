package part

import (
	"strings"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/crmem/crmem/internal/sanitize"
)

// Input is a one-line editor with a cursor: the search line, a prompt's
// line. (bubbles' textinput pulls in a clipboard library crmem does not
// need.)
type Input struct {
	Prompt      string
	Placeholder string
	Limit       int  // the most runes it holds
	Suggested   bool // the value is a suggestion: text typed replaces it, an editing key takes it up
	PromptStyle lipgloss.Style
	TextStyle   lipgloss.Style
	DimStyle    lipgloss.Style

	value   []rune
	pos     int
	focused bool
	// marked: the value may hold invisible and control characters (a
	// name held exactly), drawn as the markers the rest of the screen
	// shows them as; text typed or pasted still drops them.
	marked bool
	width  int
}

// Value returns the text.
func (in *Input) Value() string { return string(in.value) }

// Reset empties the line.
func (in *Input) Reset() { in.value, in.pos = nil, 0 }

// Focus shows the cursor.
func (in *Input) Focus() { in.focused = true }

// Blur hides the cursor.
func (in *Input) Blur() { in.focused = false }

// Insert adds text at the cursor (control and invisible characters dropped).
func (in *Input) Insert(s string) {
	r := []rune(sanitize.Input(s))
	if room := in.Limit - len(in.value); len(r) > room {
		r = r[:max(room, 0)]
	}
	in.value = append(in.value[:in.pos], append(r, in.value[in.pos:]...)...)
	in.pos += len(r)
}

// Key edits the line; it reports whether the key was an editing key. On a
// Suggested value, text replaces it, backspace and delete clear it, and
// any other key keeps it to edit.
func (in *Input) Key(k tea.KeyPressMsg) bool {
	if in.Suggested && k.Text == "" {
		in.Suggested = false
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
		in.DropSuggestion()
		in.Insert(k.Text)
	}
	return true
}

// DropSuggestion empties a suggested value, for the text that replaces it.
func (in *Input) DropSuggestion() {
	if in.Suggested {
		in.Reset()
		in.Suggested = false
	}
}

// deleteWord removes the word before the cursor.
func (in *Input) deleteWord() {
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

// SetExact holds s exactly, invisible and control characters included
// (drawn as markers), with the cursor at its end.
func (in *Input) SetExact(s string) {
	in.marked = true
	in.value = []rune(s)
	in.pos = len(in.value)
}

// shown is each rune of the value as drawn: itself, or in a marked input
// the marker of an invisible character.
func (in *Input) shown() []string {
	if in.marked {
		return sanitize.NameRunes(in.value)
	}
	out := make([]string, len(in.value))
	for i, r := range in.value {
		out[i] = string(r)
	}
	return out
}

// View renders the prompt, text and cursor within width cells, as drawn
// (DrawnWidth).
func (in *Input) View() string {
	p := in.PromptStyle.Render(in.Prompt)
	if len(in.value) == 0 && !in.focused {
		return p + in.DimStyle.Render(in.Placeholder)
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
	room := max(in.width-DrawnWidth(p)-DrawnWidth(cur), 1)
	before = TruncateLeft(before, room, "…")
	if in.focused {
		cur = lipgloss.NewStyle().Reverse(true).Render(cur)
	}
	text := in.TextStyle
	if in.Suggested {
		text = in.DimStyle
	}
	rest := Truncate(strings.Join(after, ""), max(room-DrawnWidth(before), 0), "…")
	return p + text.Render(before) + cur + text.Render(rest)
}

// SetWidth sets the room the line may take.
func (in *Input) SetWidth(w int) { in.width = w }
