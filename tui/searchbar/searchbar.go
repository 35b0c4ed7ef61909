// Package searchbar is the search line: the query as typed and whether
// the line has the keyboard. It edits the query and draws itself; what a
// key asks of the list (clear, keep, recall, move) comes back from Key
// as an Ask for the root to carry out. It cannot reach the root.
package searchbar

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/tui/part"
)

// Bar is the search line.
type Bar struct {
	Input  part.Input // the query
	typing bool
}

// New is an idle search line.
func New() Bar {
	return Bar{Input: part.Input{Prompt: "/ ", Placeholder: "search (press /)", Limit: 256}}
}

// Ask is what a key typed in the search line asks of the root.
type Ask int

// What a key asks.
const (
	Nothing Ask = iota // the key did nothing
	Edited             // the query changed: search it
	Cleared            // the line was emptied: end the search
	Kept               // the query kept, the line left: settle the selection
	Recall             // toggle the recall view
	Move               // move the list's cursor by the delta returned
	ListKey            // the key moves the list as it does there
)

// Typing reports whether the line has the keyboard.
func (b *Bar) Typing() bool { return b.typing }

// Start gives the line the keyboard.
func (b *Bar) Start() {
	b.typing = true
	b.Input.Focus()
}

// Stop takes the keyboard from the line, keeping the query.
func (b *Bar) Stop() {
	b.typing = false
	b.Input.Blur()
}

// Clear empties the line and takes the keyboard from it.
func (b *Bar) Clear() {
	b.Input.Reset()
	b.Stop()
}

// Key takes a key typed while the line has the keyboard: esc clears it,
// enter keeps it, ↑↓, ctrl+p/n, ctrl+k/j and pgup/pgdn move the list,
// any other key edits the query. by is the move of Move.
func (b *Bar) Key(keys *keymap.KeyMap, k tea.KeyPressMsg) (ask Ask, by int) {
	switch {
	case key.Matches(k, keys.SearchCancel):
		b.Clear()
		return Cleared, 0
	case key.Matches(k, keys.SearchAccept):
		b.Stop()
		return Kept, 0
	case key.Matches(k, keys.Recall):
		return Recall, 0
	case key.Matches(k, keys.SearchUp):
		return Move, -1
	case key.Matches(k, keys.SearchDown):
		return Move, 1
	case key.Matches(k, keys.Up), key.Matches(k, keys.Down), key.Matches(k, keys.PageUp), key.Matches(k, keys.PageDown):
		return ListKey, 0
	}
	if !b.Input.Key(k) {
		return Nothing, 0
	}
	return Edited, 0
}

// Paste inserts pasted text while the line has the keyboard and reports
// whether it did.
func (b *Bar) Paste(text string) bool {
	if !b.typing {
		return false
	}
	b.Input.Insert(text)
	return true
}

// Part is a figure shown right of the query; Keep is the order the parts
// give way in when the query needs the room: lowest first.
type Part struct {
	Text string
	Keep int
}

// View draws the line at width w: prompt and query on the left (the
// placeholder when idle), parts on the right in st.Dim. The query being
// typed wins: when it does not fit beside them, the parts give way, the
// least telling first (below ~50 columns the query was cut to "/ l…"
// while they stayed).
func (b *Bar) View(st *part.Styles, w int, prompt, placeholder string, parts []Part) string {
	rightOf := func(ps []Part) string {
		texts := make([]string, len(ps))
		for i, p := range ps {
			texts[i] = p.Text
		}
		return st.Dim.Render(strings.Join(texts, " · "))
	}
	b.Input.Prompt, b.Input.Placeholder = prompt, placeholder
	if b.typing || b.Input.Value() != "" {
		// prompt, query and cursor, within the screen
		need := min(lipgloss.Width(b.Input.Prompt)+ansi.StringWidth(b.Input.Value())+1, w)
		for len(parts) > 0 && w-lipgloss.Width(rightOf(parts))-1 < need {
			least := 0
			for i, p := range parts {
				if p.Keep < parts[least].Keep {
					least = i
				}
			}
			parts = slices.Delete(parts, least, least+1)
		}
	}
	right := ""
	if len(parts) > 0 {
		right = rightOf(parts)
	}
	room := w - lipgloss.Width(right) - 1
	if right == "" {
		room = w
	}
	in := b.Input
	if b.typing { // all the room the line has, scrolled to keep the cursor in sight
		in.SetWidth(max(room, 1))
	}
	left := in.View()
	if lipgloss.Width(left) > room {
		left = ansi.Truncate(left, max(room, 0), "…")
	}
	gap := max(w-lipgloss.Width(left)-lipgloss.Width(right), 1)
	if right == "" {
		gap = max(w-lipgloss.Width(left), 0)
	}
	return ansi.Truncate(left+strings.Repeat(" ", gap)+right, w, "")
}

// SetKeys enables the search line's keys while a query is typed and no
// other (keymap.KeyMap.Pane): every other key, and the printable keys of
// those, are letters of the query.
func (b *Bar) SetKeys(k *keymap.KeyMap) { k.Pane(true, k.SearchLineKeys()...) }

// ShortHelp is the search line's keys while a query is typed.
func (b *Bar) ShortHelp(k *keymap.KeyMap) []key.Binding {
	return []key.Binding{k.SearchAccept, k.SearchCancel, k.Up, k.Down, k.Recall, k.QuitHint()}
}

// FullHelp is the search line's keys for the `?` help.
func (b *Bar) FullHelp(k *keymap.KeyMap) []key.Binding { return k.SearchKeys() }
