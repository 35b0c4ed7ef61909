// Package statspanel is the picture of the memory (crmem stats) shown in
// place of the panes. It is a part (part.Part): it reads the root's
// part.Context and cannot import the root.
package statspanel

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/face/statsview"
	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/hygiene"
	"github.com/crmem/crmem/store/recalls"
	"github.com/crmem/crmem/store/stats"
	"github.com/crmem/crmem/tui/part"
)

// Panel is the stats panel. Its figures are computed off the update loop
// from a snapshot and the recall history the root holds (the one read
// for "recalled N×"; the sessions are not read again), and computed
// again whenever either is replaced (a reload, a write, a new read of
// the sessions) while the panel is open.
type Panel struct {
	open  bool
	sc    part.Scroller // the window shown of its lines
	shown Of            // what s is of; its Snap is nil until computed
	s     stats.Stats   // the figures of shown
	doing Of            // what is being computed; its Snap is nil when nothing
	// drawn is the figures' lines as last drawn (Lines): the screen draws
	// the panel at every update (and measures it at every key), and the
	// figures seldom change.
	drawn drawnLines
}

// drawnLines are the lines of the figures as drawn with styles at a width.
type drawnLines struct {
	valid  bool
	styles *part.Styles // never changed once made: a new palette is a new value
	width  int
	lines  []string
}

var _ part.Part = (*Panel)(nil)

// Of is what the panel's figures are computed from: a snapshot and the
// recall history (nil while it is read).
type Of struct {
	Snap    part.Snapshot
	History *recalls.Then
}

// DoneMsg carries the figures of a snapshot and history; the root hands
// it to Done.
type DoneMsg struct {
	of Of
	s  stats.Stats
}

// compute computes the figures of of (immutable) off the loop.
func compute(of Of, loc *time.Location, now time.Time) tea.Cmd {
	return func() tea.Msg {
		s := stats.Compute(of.Snap.Entries(), stats.Options{Loc: loc, Recalled: of.History, Now: now})
		maskNames(&s)
		return DoneMsg{of: of, s: s}
	}
}

// Open reports whether the panel is on screen.
func (p *Panel) Open() bool { return p.open }

// Top is the first line of the figures shown below the title.
func (p *Panel) Top() int { return p.sc.Top }

// Shown is what the figures on screen are of (its Snap nil until the
// first arrive), and Stats the figures.
func (p *Panel) Shown() Of          { return p.shown }
func (p *Panel) Stats() stats.Stats { return p.s }

// Show opens the panel from its top, computing the figures of now.
func (p *Panel) Show(c *part.Context, now Of) tea.Cmd {
	p.open, p.sc = true, part.Scroller{}
	return p.Refresh(c, now)
}

// Refresh starts computing the figures of now when the panel is open and
// shows others, unless that is under way.
func (p *Panel) Refresh(c *part.Context, now Of) tea.Cmd {
	if !p.open || p.shown == now || p.doing == now {
		return nil
	}
	p.doing = now
	return compute(now, c.Loc, c.Now())
}

// Done takes the figures of a snapshot and history; figures of ones
// replaced meanwhile (other than now) are dropped, and now's asked for.
func (p *Panel) Done(c *part.Context, msg DoneMsg, now Of) tea.Cmd {
	if p.doing == msg.of {
		p.doing = Of{}
	}
	if msg.of == now {
		p.shown, p.s, p.drawn = msg.of, msg.s, drawnLines{}
	}
	return p.Refresh(c, now)
}

// Key scrolls the panel at the body's height; cancel, quit (as
// configured) and the stats key close it (no key quits from an overlay).
func (p *Panel) Key(c *part.Context, k tea.KeyPressMsg) ([]part.Request, tea.Cmd) {
	keys := c.Keys
	if key.Matches(k, keys.Cancel) || key.Matches(k, keys.Quit) || key.Matches(k, keys.Stats) {
		p.open = false
		return nil, nil
	}
	p.sc.Key(keys, k, len(p.Lines(c.Styles, c.Width)), c.Body)
	return nil, nil
}

// Wheel scrolls the panel three lines up or down (the mouse wheel).
func (p *Panel) Wheel(c *part.Context, up bool) {
	d := 3
	if up {
		d = -3
	}
	p.sc.By(d, len(p.Lines(c.Styles, c.Width)), c.Body)
}

// Lines is the panel's text below its title at width w, drawn again only
// when the figures, the width or the palette changed
// (TestPanel_LinesKeptWhileTheirSourcesStay). The caller does not change
// them.
func (p *Panel) Lines(st *part.Styles, w int) []string {
	if p.shown.Snap == nil {
		return []string{st.Dim.Render("counting…")}
	}
	if d := p.drawn; d.valid && d.styles == st && d.width == w {
		return d.lines
	}
	lines := statsview.Lines(p.s, w, statsview.Style{
		Title: func(s string) string { return st.GroupHeader.Render(s) },
		Dim:   func(s string) string { return st.Dim.Render(s) },
		Kind: func(k store.Kind, s string) string {
			if int(k) < len(st.Kinds) {
				return st.Kinds[k].Render(s)
			}
			return s
		},
	})
	p.drawn = drawnLines{valid: true, styles: st, width: w, lines: slices.Clip(lines)}
	return p.drawn.lines
}

// View renders the panel at w×h in place of the panes: a title with the
// keys, then a window of the figures the movement keys scroll.
func (p *Panel) View(c *part.Context, w, h int) string {
	st, keys := c.Styles, c.Keys
	lines := p.Lines(st, w)
	closeKeys := part.Hints("/", part.KeyName(keys.Cancel), part.KeyName(keys.Quit), part.KeyName(keys.Stats))
	room := w - part.DrawnWidth("Memory stats")
	hint := part.FitFirst(room, "  ("+closeKeys+" close)", "  ("+part.KeyName(keys.Cancel)+" close)")
	n := len(lines)
	lines = p.sc.Window(lines, h)
	if part.Overflows(n, h) { // narrow, the scroll keys go first, then the close keys (as the help's title)
		pos := p.sc.Position(n, h)
		hint = part.FitFirst(room,
			fmt.Sprintf("  (%s scroll · %s · %s close)", keys.ScrollLabel(), pos, closeKeys),
			fmt.Sprintf("  (%s · %s close)", pos, closeKeys),
			fmt.Sprintf("  (%s · %s close)", pos, part.KeyName(keys.Cancel)),
			"  ("+pos+")")
	}
	if p.doing.Snap != nil && p.shown.Snap != nil {
		hint += st.Dim.Render(" updating…")
	}
	title := st.PaneTitle.Render("Memory stats") + st.Dim.Render(hint)
	return part.Box(title+"\n"+strings.Join(lines, "\n"), w, h)
}

// maskNames redacts every secret in the names the figures list (a report
// never prints one whole, as crmem stats does not), with the figures, off
// the update loop.
func maskNames(s *stats.Stats) {
	for _, l := range [][]stats.Big{s.Largest, s.MostTokens} {
		for i := range l {
			l[i].Name = hygiene.Mask(l[i].Name)
		}
	}
	if s.Recalls == nil {
		return
	}
	for _, l := range [][]stats.Recalled{s.Recalls.Most, s.Recalls.NeverOldest, s.Recalls.NeverBiggest} {
		for i := range l {
			l[i].Name = hygiene.Mask(l[i].Name)
		}
	}
}

// SetKeys enables the stats panel's keys: the movement keys scroll it,
// and its key, quit and cancel close it.
func (p *Panel) SetKeys(k *keymap.KeyMap) {
	k.Only(false, append(k.ScrollKeys(), &k.Quit, &k.Stats)...)
}

// ShortHelp is the stats panel's line of keys.
func (p *Panel) ShortHelp(k *keymap.KeyMap) []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PageDown, k.Cancel}
}
