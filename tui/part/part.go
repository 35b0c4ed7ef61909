// Package part is what a part of the screen (a panel, a prompt, a view
// in place of the panes) receives from the root tui.Model and what it
// answers with, so that a part can live in a package of its own that
// cannot import the root (arch_test.go keeps it so):
//
//   - Context, read-only: the size, the styles, the key map, the help
//     drawer, the clock and the snapshot shown;
//   - Part, what a part must give: whether it is open, its key handling,
//     its view at w×h and its line of keys;
//   - Request, what a part asks of the root as a value (a status message,
//     a recall explained), which the root carries out in one place;
//   - the drawing every panel shares: Box, Scroller, the key hints.
package part

import (
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store"
)

// Context is what the root lends a part for one call: read it, never keep
// it (the root builds a new one as the screen changes).
type Context struct {
	Width, Height int // the terminal's size
	// Body is the rows a part shown in place of the panes has: the screen
	// less the search line and the help line.
	Body   int
	Styles *Styles
	Keys   *keymap.KeyMap
	Help   help.Model       // draws key bindings (the help line, the ? help)
	Now    func() time.Time // the clock (tests fix it)
	Loc    *time.Location
	Snap   Snapshot // the entries shown, as last read or written
	// Memory is the open memory (nil until it opens): its Features say
	// what it can do.
	Memory store.Source
}

// Snapshot is the memory as shown: its entries, never changed once
// handed out (a new read or write is a new snapshot), so a part can keep
// one and compare it with the one shown now.
type Snapshot interface {
	Entries() []store.Entry
}

// Styles are the styles a part draws with, built by the root for the
// terminal's background (or without colour when NO_COLOR is set). The
// root keeps one per background: a part may compare the pointer to know
// the styles changed.
type Styles struct {
	PaneTitle   lipgloss.Style
	GroupHeader lipgloss.Style
	Dim         lipgloss.Style
	Kinds       [3]lipgloss.Style // notes, archives, topics
	// A dialog's: its question (Warning), its answers and title
	// (Message), the line typed (Status).
	Message, Warning, Status lipgloss.Style
}

// Part is what a part of the screen shown in place of the panes must
// give the root: whether it is open, which keys are live while it has
// the screen, its answer to a key press then, its view at w×h and its
// line of keys (the help line while it is on top; the `?` help lists
// every part's).
type Part interface {
	// Open reports whether the part has something on screen.
	Open() bool
	// SetKeys enables the bindings live while the part is on top, and
	// no other (keymap.KeyMap.Only): the part decides its keys, as
	// bubbles' components do in updateKeybindings.
	SetKeys(k *keymap.KeyMap)
	// Key handles a key press while the part is on top; what it asks of
	// the root comes back as requests, work off the loop as a command.
	Key(c *Context, k tea.KeyPressMsg) ([]Request, tea.Cmd)
	// View draws the part at exactly w×h cells.
	View(c *Context, w, h int) string
	// ShortHelp is the part's line of keys.
	ShortHelp(k *keymap.KeyMap) []key.Binding
}

// Request is what a part asks the root for, as a value: the root carries
// it out in one switch (tui.Model.do). Only this package declares them,
// so that switch sees every kind.
type Request interface{ isRequest() }

// The requests of the parts.
type (
	// Message shows Text on the status line.
	Message struct{ Text string }
	// Closed says a part closed on a key that is not one of its own
	// (the help screen on any key): the root tells the user the key did
	// nothing else.
	Closed struct{ Key tea.KeyPressMsg }
	// Failed says what (a part's name) failed with Err: the root names
	// the error as it names every other (the memory's path shortened).
	Failed struct {
		What string
		Err  error
	}
)

func (Message) isRequest() {}
func (Closed) isRequest()  {}
func (Failed) isRequest()  {}
