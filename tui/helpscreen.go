package tui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/crmem/crmem/keymap"
)

// helpScreen is the `?` screen: the whole key map, generated, in place of
// the panes; a window of it scrolls when it does not fit.
type helpScreen struct {
	open bool
	sc   scroller
}

// show opens the help from its top.
func (p *helpScreen) show() { p.open, p.sc = true, scroller{} }

// key scrolls the help at h rows when it does not fit, and closes it on
// any other key; pass reports a key that closed it without being one of
// its own (esc, ?, quit: no key quits from an overlay), which the status
// line then says closed the help (it does nothing else).
func (p *helpScreen) key(c *common, groups [][]key.Binding, k tea.KeyPressMsg, h int) (pass bool) {
	keys := &c.keys
	if n := len(p.lines(c, groups, c.width)); overflows(n, h) && p.sc.key(keys, k, n, h) {
		return false
	}
	p.open = false
	return !key.Matches(k, keys.Cancel) && !key.Matches(k, keys.Help) && !key.Matches(k, keys.Quit)
}

// view is the help at w×h: a title with its keys, then groups, the key
// groups the parts of the screen list (Model.helpGroups).
func (p *helpScreen) view(c *common, groups [][]key.Binding, w, h int) string {
	lines := p.lines(c, groups, w)
	n := len(lines)
	lines = p.sc.window(lines, h)
	title := c.styles.paneTitle.Render("Keys") + c.styles.dim.Render(p.titleHint(c, n, h, w-lipgloss.Width("Keys")))
	return box(title+"\n"+strings.Join(lines, "\n"), w, h)
}

// titleHint follows the title "Keys": the keys that scroll the help (n
// lines at h rows), where it is, and the keys that close it, in room
// cells. On a narrow screen the scroll keys go first (the help line
// names them), then the close keys: at 40×12 the title was cut at
// "q/esc/?", its "close)" lost.
func (p *helpScreen) titleHint(c *common, n, h, room int) string {
	closeKeys := c.keys.CloseHelpLabel()
	if !overflows(n, h) {
		return fitFirst(room, "  ("+closeKeys+" close)", "  ("+keyName(c.keys.Cancel)+" close)")
	}
	pos := p.sc.position(n, h)
	return fitFirst(room,
		fmt.Sprintf("  (%s scroll · %s · %s close)", c.keys.ScrollLabel(), pos, closeKeys),
		fmt.Sprintf("  (%s · %s close)", pos, closeKeys),
		fmt.Sprintf("  (%s · %s close)", pos, keyName(c.keys.Cancel)),
		"  ("+pos+")")
}

// fitFirst is the first of texts that fits room cells as drawn, else the
// last.
func fitFirst(room int, texts ...string) string {
	for _, t := range texts {
		if drawnWidth(t) <= room {
			return t
		}
	}
	return texts[len(texts)-1]
}

// lines is the help's text below its title at width w, one string per
// line.
func (p *helpScreen) lines(c *common, groups [][]key.Binding, w int) []string {
	return strings.Split("\n"+helpBlocks(c.help, groups, w), "\n")
}

// helpBlocks lays the key groups side by side, starting a new block of rows
// whenever the next group would not fit the width, so a narrow terminal
// shows every key instead of cutting the last columns off.
func helpBlocks(h help.Model, groups [][]key.Binding, width int) string {
	h.SetWidth(0) // measure unclipped
	var blocks []string
	var row [][]key.Binding
	for _, g := range groups {
		next := append(slices.Clone(row), g)
		if len(row) > 0 && lipgloss.Width(h.FullHelpView(next)) > width {
			blocks = append(blocks, h.FullHelpView(row))
			next = [][]key.Binding{g}
		}
		row = next
	}
	if len(row) > 0 {
		blocks = append(blocks, h.FullHelpView(row))
	}
	return strings.Join(blocks, "\n\n")
}

// shortHelp is the help screen's line of keys (quit closes it).
func (p *helpScreen) shortHelp(k *keymap.KeyMap) []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Quit}
}
