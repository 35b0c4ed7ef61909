// Package part is what a part of the screen (a panel, a prompt, a view
// in place of the panes) receives from the root tui.Model and what it
// answers with, so that a part can live in a package of its own that
// cannot import the root (arch_test.go keeps it so):
//
//   - Context, read-only: the size, the styles, the key map, the help
//     drawer, the clock, the snapshot shown and the history index;
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
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/history"
	"github.com/crmem/crmem/store/hygiene"
	"github.com/crmem/crmem/store/sessions"
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
	// ReadOnly says the memory cannot be written now (its format, or
	// crabtalk's daemon holds it): a part offers no key that writes.
	ReadOnly bool
	// History is the memory's history index as the root last built it.
	History History
	// Path is the memory file's path (what lives beside it, such as the
	// pairs remembered as not duplicates, is found from it).
	Path string
	// Refs are the sessions' references to archives, nil when no session
	// was read (then every archive would look orphaned).
	Refs *sessions.Refs
	// Fit fits a line to w cells as the terminal will draw it (the
	// root's measure: per code point until the terminal says it draws
	// by grapheme cluster), for a part that lays columns side by side.
	Fit func(line string, w int) string
	// Cells is how the terminal measures what it draws (per code point
	// until it says it draws by grapheme cluster), and Markdown the
	// glamour style content is rendered with: the preview's rendering
	// is made for both.
	Cells    ansi.Method
	Markdown string
}

// Snapshot is the memory as shown: its entries, never changed once
// handed out (a new read or write is a new snapshot), so a part can keep
// one and compare it with the one shown now.
type Snapshot interface {
	Entries() []store.Entry
	// Get is the entry with id, if the snapshot holds it.
	Get(id uint64) (store.Entry, bool)
}

// Styles are the styles a part draws with, built by the root for the
// terminal's background (or without colour when NO_COLOR is set). The
// root keeps one per background: a part may compare the pointer to know
// the styles changed.
type Styles struct {
	PaneTitle   lipgloss.Style
	GroupHeader lipgloss.Style
	Dim         lipgloss.Style
	Warning     lipgloss.Style
	Mark        lipgloss.Style // a mark in a gutter
	CardTitle   lipgloss.Style // an entry's name over its card
	Label       lipgloss.Style // a card's labels
	Border      lipgloss.Style // a line between columns
	Selected    lipgloss.Style // the row under the cursor of the part on top
	// SelectedAway is the row under the cursor of a pane without the
	// focus (the list while the preview has it).
	SelectedAway lipgloss.Style
	Kinds        [3]lipgloss.Style // notes, archives, topics
	// A dialog's answers and title (Message) and the line typed
	// (Status); its question is a Warning.
	Message, Status lipgloss.Style
	// A diff's removed and added lines, and within them the words that
	// changed.
	DiffDel, DiffAdd, DiffDelWord, DiffAddWord lipgloss.Style
	// An entry's card over the preview, thick while the preview has the
	// focus; Highlight is the SGR that starts a search term's highlight.
	Card, CardFocus lipgloss.Style
	Highlight       string
}

// KindMarker is the one-letter kind column of the list and the card.
func (s *Styles) KindMarker(k store.Kind) string {
	letter := map[store.Kind]string{store.Note: "N", store.Archive: "A", store.Topic: "T"}[k]
	if letter == "" {
		return "?"
	}
	return s.Kinds[k].Render(letter)
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

// Overlayer is a part that names its keys in the help line's place (the
// history view's keys, which depend on the memory being writable): the
// root draws Overlay there while the part is on top, and the part's
// ShortHelp is nil. The context's Body is 0: the help line is laid out
// before the body.
type Overlayer interface {
	Overlay(c *Context) string
}

// Updater is a part that works off the loop: Update takes a message its
// commands brought back and reports whether it was one of its own (the
// root offers every message it does not handle itself to the parts,
// with a context whose Body is 0).
type Updater interface {
	Update(c *Context, msg tea.Msg) (bool, []Request, tea.Cmd)
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
	// Restore asks, before writing anything, to bring version V of the
	// entry H is the story of back (a version's number and content are
	// what it needs of H and V; H may hold the name alone).
	Restore struct {
		H history.History
		V history.Version
	}
	// Undo undoes the session's last write.
	Undo struct{}
	// OpenHistory opens the history view on the entry called Name.
	OpenHistory struct{ Name string }
	// EditFinding opens the one entry Finding is about in the editor
	// (for a secret, to redact it).
	EditFinding struct{ Finding hygiene.Finding }
	// DeleteFinding asks before deleting the one entry Finding is about.
	DeleteFinding struct{ Finding hygiene.Finding }
	// Merge asks before merging Drop into Keep (Drop's name and aliases
	// become Keep's aliases, Drop is deleted), both as shown.
	Merge struct{ Keep, Drop store.Entry }
	// NotDuplicates remembers, beside the memory, that the entries named
	// A and B are not duplicates.
	NotDuplicates struct{ A, B string }
	// Jump closes the part and selects the entry ID in the list.
	Jump struct{ ID uint64 }
)

func (Message) isRequest()       {}
func (Closed) isRequest()        {}
func (Failed) isRequest()        {}
func (Restore) isRequest()       {}
func (Undo) isRequest()          {}
func (OpenHistory) isRequest()   {}
func (EditFinding) isRequest()   {}
func (DeleteFinding) isRequest() {}
func (Merge) isRequest()         {}
func (NotDuplicates) isRequest() {}
func (Jump) isRequest()          {}

// Features are what the open memory can do (zero before it opens).
func (c *Context) Features() store.Features {
	if c.Memory == nil {
		return store.Features{}
	}
	return c.Memory.Features()
}
