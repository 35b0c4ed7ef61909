// Package forgotten is the list of forgotten entries shown in place of
// the panes: the entries the store's log or the sessions know that
// memory does not hold now. It is a part (part.Part): it reads the
// history index the root lends it in its part.Context and cannot import
// the root; what it asks (a history opened, a restore, an undo) comes
// back as part requests.
package forgotten

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store/history"
	"github.com/crmem/crmem/tui/part"
)

// List lists the forgotten entries, most recently removed first. Enter
// opens one's history (the history view, above the list); restore asks
// to bring its last content back.
type List struct {
	open   bool
	reads  part.Reads // which index list is from, and which is being read
	list   []history.Forgotten
	cursor int
}

var (
	_ part.Part      = (*List)(nil)
	_ part.Overlayer = (*List)(nil)
	_ part.Updater   = (*List)(nil)
)

// ReadMsg carries the forgotten entries as the index of generation gen
// has them; the root hands it to Take.
type ReadMsg struct {
	gen  int
	list []history.Forgotten
}

// Open reports whether the list is on screen.
func (v *List) Open() bool { return v.open }

// Show opens the list from its first entry, read off the loop from the
// context's history index.
func (v *List) Show(c *part.Context) tea.Cmd {
	*v = List{open: true}
	return v.Follow(c.History)
}

// Follow reads a new index's forgotten entries off the loop while open
// (every entry's history is put together for it: 9 s on a store of a
// million log records).
func (v *List) Follow(h part.History) tea.Cmd {
	if !v.open {
		return nil
	}
	ix, gen, ok := v.reads.Ask(h)
	if !ok {
		return nil
	}
	return func() tea.Msg { return ReadMsg{gen: gen, list: ix.Forgotten()} }
}

// Update takes a read of the forgotten entries (ReadMsg).
func (v *List) Update(_ *part.Context, msg tea.Msg) (bool, []part.Request, tea.Cmd) {
	r, ok := msg.(ReadMsg)
	if ok {
		v.Take(r)
	}
	return ok, nil, nil
}

// Take lists a read, keeping the cursor on the entry it was on (by
// name), else at its place; one from an index replaced meanwhile is
// dropped.
func (v *List) Take(msg ReadMsg) {
	if !v.open {
		return
	}
	prev, had := v.Selected()
	if !v.reads.Take(msg.gen) {
		return
	}
	v.list = msg.list
	v.cursor = min(v.cursor, max(len(v.list)-1, 0))
	for i, fg := range v.list {
		if had && fg.Name == prev.Name {
			v.cursor = i
		}
	}
}

// Selected is the entry under the cursor.
func (v *List) Selected() (history.Forgotten, bool) {
	if !v.reads.Read() || v.cursor >= len(v.list) {
		return history.Forgotten{}, false
	}
	return v.list[v.cursor], true
}

// Entries are the entries listed, and Cursor the index of the selected one.
func (v *List) Entries() []history.Forgotten { return v.list }
func (v *List) Cursor() int                  { return v.cursor }

// Key drives the list at the body's height; enter asks for the selected
// entry's history.
func (v *List) Key(c *part.Context, k tea.KeyPressMsg) ([]part.Request, tea.Cmd) {
	keys := c.Keys
	n := len(v.list)
	switch {
	case key.Matches(k, keys.Cancel), key.Matches(k, keys.Quit), key.Matches(k, keys.Forgotten):
		v.open = false
	case key.Matches(k, keys.Accept):
		if fg, ok := v.Selected(); ok {
			return []part.Request{part.OpenHistory{Name: fg.Name}}, nil
		}
	case key.Matches(k, keys.Restore):
		if fg, ok := v.Selected(); ok { // what a restore needs of the history is its name
			return []part.Request{part.Restore{H: history.History{Name: fg.Name}, V: fg.Last}}, nil
		}
	case key.Matches(k, keys.Undo):
		return []part.Request{part.Undo{}}, nil
	default:
		if d, ok := part.NavDelta(keys, k, c.Body/2, n); ok { // two rows an entry
			v.cursor = min(max(v.cursor+d, 0), max(n-1, 0))
		}
	}
	return nil, nil
}

// SetKeys enables the forgotten list's keys, the history view's
// (keymap.KeyMap.HistoryKeys).
func (v *List) SetKeys(k *keymap.KeyMap) { k.Only(false, k.HistoryKeys()...) }

// ShortHelp is nil: the list names its keys in the help line's place
// (Overlay).
func (v *List) ShortHelp(*keymap.KeyMap) []key.Binding { return nil }

// Overlay is the list's keys for the help line: without restore and
// undo on a read-only memory.
func (v *List) Overlay(c *part.Context) string {
	k := c.Keys
	back := part.Hints("/", part.KeyName(k.Cancel), part.KeyName(k.Quit), part.KeyName(k.Forgotten)) + " close"
	if c.ReadOnly {
		return part.Hints(" · ", part.KeyHint(k.Accept, "history"), back) + " · read-only"
	}
	return part.Hints(" · ", part.KeyHint(k.Accept, "history"), part.KeyHint(k.Restore, "restore"), part.KeyHint(k.Undo, "undo"), back)
}

// View draws the list at w×h: two lines an entry, the cursor's kept in
// sight.
func (v *List) View(c *part.Context, w, h int) string {
	st := c.Styles
	title := st.PaneTitle.Render("Forgotten entries")
	var lines []string
	switch {
	case !v.reads.Read():
		lines = c.History.Waiting(st, w) // the index, then the list from it
	case len(v.list) == 0:
		lines = part.WrapStyled(st.Dim, "nothing forgotten: every entry the store's log and the sessions know is in memory", w)
	default:
		title += st.Dim.Render("  (" + humanize.Plural(len(v.list), "entry") + ", most recently removed first)")
		lines = v.rows(c, w, h)
	}
	if v.reads.Updating(c.History.Building) {
		title += st.Dim.Render(" updating…")
	}
	if len(lines) > max(h-1, 0) {
		lines = lines[:max(h-1, 0)]
	}
	return part.Box(ansi.Truncate(title, w, "…")+"\n"+strings.Join(lines, "\n"), w, h)
}

// rows are the list's lines in the window below the title at w×h, two an
// entry, the cursor's kept in sight: only those entries are drawn (a
// store of a million log records forgot 6,673).
func (v *List) rows(c *part.Context, w, h int) []string {
	st := c.Styles
	n := 2 * len(v.list)
	var sc part.Scroller
	sc.Centre(2*v.cursor, n, h)
	var lines []string
	for i := sc.Top; i < min(sc.Top+max(h-1, 0), n); i++ {
		head, sub := row(c, v.list[i/2], w)
		switch {
		case i%2 == 1:
			lines = append(lines, st.Dim.Render(sub))
		case i/2 == v.cursor:
			lines = append(lines, st.Selected.Render(head+strings.Repeat(" ", max(w-ansi.StringWidth(head), 0))))
		default:
			lines = append(lines, head)
		}
	}
	return lines
}

// row is an entry's two lines at width w: its name, when and by which
// session it was removed; then its last content's first line.
func row(c *part.Context, fg history.Forgotten, w int) (string, string) {
	removed := "removal not recorded"
	if r := fg.Removed; r != nil {
		removed = "removed"
		switch call := r.Call; {
		case call == nil:
			removed += " · unknown source"
		default:
			if !call.Time.IsZero() {
				removed += " " + humanize.Ago(c.Now(), uint64(max(call.Time.Unix(), 0)))
			}
			removed += " by session " + part.SessionName(call)
		}
	}
	name := sanitize.Name(fg.Name)
	note := fmt.Sprintf(" · %s · %s", removed, humanize.Plural(fg.Versions, "version"))
	head := ansi.Truncate(name, max(w-min(ansi.StringWidth(note), w/2), 1), "…") + note
	first, _, _ := strings.Cut(strings.TrimLeft(fg.Last.Content, "\n"), "\n")
	return ansi.Truncate(head, w, "…"), ansi.Truncate("  "+sanitize.Line(first), w, "…")
}
