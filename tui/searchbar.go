package tui

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/keymap"
)

// searchBar is the search line: the query as typed and whether the line
// has the keyboard. It edits the query and draws itself; what a key asks
// of the list (clear, keep, recall, move) comes back from update as a
// searchAsk for the root to carry out. Model embeds it, so m.input and
// m.typing read as before.
type searchBar struct {
	input  lineInput
	typing bool
}

// searchAsk is what a key typed in the search line asks of the root.
type searchAsk int

const (
	barNothing searchAsk = iota // the key did nothing
	barEdited                   // the query changed: search it
	barCleared                  // the line was emptied: end the search
	barKept                     // the query kept, the line left: settle the selection
	barRecall                   // toggle the recall view
	barMove                     // move the list's cursor by the delta returned
	barListKey                  // the key moves the list as it does there
)

// start gives the line the keyboard.
func (b *searchBar) start() {
	b.typing = true
	b.input.Focus()
}

// stop takes the keyboard from the line, keeping the query.
func (b *searchBar) stop() {
	b.typing = false
	b.input.Blur()
}

// clear empties the line and takes the keyboard from it.
func (b *searchBar) clear() {
	b.input.Reset()
	b.stop()
}

// update takes a key typed while the line has the keyboard: esc clears
// it, enter keeps it, ↑↓, ctrl+p/n, ctrl+k/j and pgup/pgdn move the list,
// any other key edits the query. by is the move of barMove.
func (b *searchBar) update(keys *keymap.KeyMap, k tea.KeyPressMsg) (ask searchAsk, by int) {
	switch {
	case key.Matches(k, keys.SearchCancel):
		b.clear()
		return barCleared, 0
	case key.Matches(k, keys.SearchAccept):
		b.stop()
		return barKept, 0
	case key.Matches(k, keys.Recall):
		return barRecall, 0
	case key.Matches(k, keys.SearchUp):
		return barMove, -1
	case key.Matches(k, keys.SearchDown):
		return barMove, 1
	case key.Matches(k, keys.Up), key.Matches(k, keys.Down), key.Matches(k, keys.PageUp), key.Matches(k, keys.PageDown):
		return barListKey, 0
	}
	if !b.input.Key(k) {
		return barNothing, 0
	}
	return barEdited, 0
}

// paste inserts pasted text while the line has the keyboard and reports
// whether it did.
func (b *searchBar) paste(text string) bool {
	if !b.typing {
		return false
	}
	b.input.Insert(text)
	return true
}

// barPart is a figure shown right of the query; keep is the order the
// parts give way in when the query needs the room: lowest first.
type barPart struct {
	text string
	keep int
}

// view draws the line at width w: prompt and query on the left (the
// placeholder when idle), parts on the right in st.dim. The query being
// typed wins: when it does not fit beside them, the parts give way, the
// least telling first (below ~50 columns the query was cut to "/ l…"
// while they stayed).
func (b *searchBar) view(st *styles, w int, prompt, placeholder string, parts []barPart) string {
	rightOf := func(ps []barPart) string {
		texts := make([]string, len(ps))
		for i, p := range ps {
			texts[i] = p.text
		}
		return st.dim.Render(strings.Join(texts, " · "))
	}
	b.input.Prompt, b.input.Placeholder = prompt, placeholder
	if b.typing || b.input.Value() != "" {
		// prompt, query and cursor, within the screen
		need := min(lipgloss.Width(b.input.Prompt)+ansi.StringWidth(b.input.Value())+1, w)
		for len(parts) > 0 && w-lipgloss.Width(rightOf(parts))-1 < need {
			least := 0
			for i, p := range parts {
				if p.keep < parts[least].keep {
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
	in := b.input
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

// shortHelp is the search line's keys while a query is typed.
func (b *searchBar) shortHelp(k *keymap.KeyMap) []key.Binding {
	return []key.Binding{k.SearchAccept, k.SearchCancel, k.Up, k.Down, k.Recall, k.QuitHint()}
}

// fullHelp is the search line's keys for the `?` help.
func (b *searchBar) fullHelp(k *keymap.KeyMap) []key.Binding { return k.SearchKeys() }
