// Package helpscreen is the `?` screen: the whole key map, generated
// from the key groups the parts of the screen list, in place of the
// panes; a window of it scrolls when it does not fit. It is a part
// (part.Part): it reads the root's part.Context and cannot import the
// root.
package helpscreen

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/tui/part"
)

// Screen is the help screen, closed until Show.
type Screen struct {
	// Groups are the key groups it lists, as the parts of the screen give
	// them (tui.Model.helpGroups); the root sets them before each use.
	Groups [][]key.Binding
	open   bool
	sc     part.Scroller
}

var _ part.Part = (*Screen)(nil)

// Open reports whether the help is on screen.
func (p *Screen) Open() bool { return p.open }

// Show opens the help from its top.
func (p *Screen) Show() { p.open, p.sc = true, part.Scroller{} }

// Close closes the help.
func (p *Screen) Close() { p.open = false }

// Top is the first line of the help shown below its title.
func (p *Screen) Top() int { return p.sc.Top }

// Key scrolls the help at the body's height when it does not fit, and
// closes it on any other key; a key that closed it without being one of
// its own (esc, ?, quit: no key quits from an overlay) is asked about as
// part.Closed, which the status line then says closed the help (it does
// nothing else).
func (p *Screen) Key(c *part.Context, k tea.KeyPressMsg) ([]part.Request, tea.Cmd) {
	keys, h := c.Keys, c.Body
	if n := len(p.Lines(c, c.Width)); part.Overflows(n, h) && p.sc.Key(keys, k, n, h) {
		return nil, nil
	}
	p.open = false
	if !key.Matches(k, keys.Cancel) && !key.Matches(k, keys.Help) && !key.Matches(k, keys.Quit) {
		return []part.Request{part.Closed{Key: k}}, nil
	}
	return nil, nil
}

// View is the help at w×h: a title with its keys, then the groups.
func (p *Screen) View(c *part.Context, w, h int) string {
	lines := p.Lines(c, w)
	n := len(lines)
	lines = p.sc.Window(lines, h)
	title := c.Styles.PaneTitle.Render("Keys") + c.Styles.Dim.Render(p.titleHint(c, n, h, w-lipgloss.Width("Keys")))
	return part.Box(title+"\n"+strings.Join(lines, "\n"), w, h)
}

// titleHint follows the title "Keys": the keys that scroll the help (n
// lines at h rows), where it is, and the keys that close it, in room
// cells. On a narrow screen the scroll keys go first (the help line
// names them), then the close keys: at 40×12 the title was cut at
// "q/esc/?", its "close)" lost.
func (p *Screen) titleHint(c *part.Context, n, h, room int) string {
	closeKeys := c.Keys.CloseHelpLabel()
	if !part.Overflows(n, h) {
		return part.FitFirst(room, "  ("+closeKeys+" close)", "  ("+part.KeyName(c.Keys.Cancel)+" close)")
	}
	pos := p.sc.Position(n, h)
	return part.FitFirst(room,
		fmt.Sprintf("  (%s scroll · %s · %s close)", c.Keys.ScrollLabel(), pos, closeKeys),
		fmt.Sprintf("  (%s · %s close)", pos, closeKeys),
		fmt.Sprintf("  (%s · %s close)", pos, part.KeyName(c.Keys.Cancel)),
		"  ("+pos+")")
}

// Lines is the help's text below its title at width w, one string per
// line.
func (p *Screen) Lines(c *part.Context, w int) []string {
	return strings.Split("\n"+Blocks(c.Help, p.Groups, w), "\n")
}

// Blocks lays the key groups side by side, starting a new block of rows
// whenever the next group would not fit the width, so a narrow terminal
// shows every key instead of cutting the last columns off.
func Blocks(h help.Model, groups [][]key.Binding, width int) string {
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

// SetKeys enables the help screen's keys: the movement keys scroll it,
// and help, quit and cancel close it (quit says so; no key quits from
// it but ctrl+c).
func (p *Screen) SetKeys(k *keymap.KeyMap) {
	k.Only(false, k.HelpScreenKeys()...)
	k.QuitClosesHelp()
}

// ShortHelp is the help screen's line of keys (quit closes it).
func (p *Screen) ShortHelp(k *keymap.KeyMap) []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Quit}
}
