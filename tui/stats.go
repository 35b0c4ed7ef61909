package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/internal/statsview"
	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/hygiene"
	"github.com/crmem/crmem/store/recalls"
	"github.com/crmem/crmem/store/stats"
)

// statsPanel is the picture of the memory (crmem stats) shown in place of
// the panes. Its figures are computed off the update loop from a snapshot
// and the recall history the model holds (the one read for "recalled N×";
// the sessions are not read again), and computed again whenever either is
// replaced (a reload, a write, a new read of the sessions) while the panel
// is open.
type statsPanel struct {
	open  bool
	sc    scroller    // the window shown of its lines
	shown statsOf     // what s is of; its snap is nil until computed
	s     stats.Stats // the figures of shown
	doing statsOf     // what is being computed; its snap is nil when nothing
}

// statsOf is what the panel's figures are computed from: a snapshot and
// the recall history (nil while it is read).
type statsOf struct {
	snap    *snapshot
	history *recalls.Then
}

// statsDoneMsg carries the figures of a snapshot and history.
type statsDoneMsg struct {
	of statsOf
	s  stats.Stats
}

// statsCmd computes the figures of of (immutable) off the loop.
func statsCmd(of statsOf, loc *time.Location, now time.Time) tea.Cmd {
	return func() tea.Msg {
		s := stats.Compute(of.snap.entries, stats.Options{Loc: loc, Recalled: of.history, Now: now})
		maskNames(&s)
		return statsDoneMsg{of: of, s: s}
	}
}

// statsOfNow is what the panel should show: the current snapshot and the
// recall history the editing part holds.
func (m *Model) statsOfNow() statsOf {
	return statsOf{snap: m.c.snap, history: m.recallHistory()}
}

// show opens the panel from its top, computing the figures of now.
func (p *statsPanel) show(c *common, now statsOf) tea.Cmd {
	p.open, p.sc = true, scroller{}
	return p.refresh(c, now)
}

// refresh starts computing the figures of now when the panel is open and
// shows others, unless that is under way.
func (p *statsPanel) refresh(c *common, now statsOf) tea.Cmd {
	if !p.open || p.shown == now || p.doing == now {
		return nil
	}
	p.doing = now
	return statsCmd(now, c.loc, c.now())
}

// done takes the figures of a snapshot and history; figures of ones
// replaced meanwhile (other than now) are dropped, and now's asked for.
func (p *statsPanel) done(c *common, msg statsDoneMsg, now statsOf) tea.Cmd {
	if p.doing == msg.of {
		p.doing = statsOf{}
	}
	if msg.of == now {
		p.shown, p.s = msg.of, msg.s
	}
	return p.refresh(c, now)
}

// key scrolls the panel at h rows; cancel, quit (as configured) and the
// stats key close it (no key quits from an overlay).
func (p *statsPanel) key(c *common, k tea.KeyPressMsg, h int) {
	keys := &c.keys
	if key.Matches(k, keys.Cancel) || key.Matches(k, keys.Quit) || key.Matches(k, keys.Stats) {
		p.open = false
		return
	}
	p.sc.key(keys, k, len(p.lines(c.styles, c.width)), h)
}

// lines is the panel's text below its title at width w.
func (p *statsPanel) lines(st *styles, w int) []string {
	if p.shown.snap == nil {
		return []string{st.dim.Render("counting…")}
	}
	return statsview.Lines(p.s, w, statsview.Style{
		Title: func(s string) string { return st.groupHeader.Render(s) },
		Dim:   func(s string) string { return st.dim.Render(s) },
		Kind: func(k store.Kind, s string) string {
			if int(k) < len(st.kinds) {
				return st.kinds[k].Render(s)
			}
			return s
		},
	})
}

// view renders the panel at w×h in place of the panes: a title with the
// keys, then a window of the figures the movement keys scroll.
func (p *statsPanel) view(c *common, w, h int) string {
	st := c.styles
	keys := &c.keys
	lines := p.lines(st, w)
	closeKeys := hints("/", keyName(keys.Cancel), keyName(keys.Quit), keyName(keys.Stats))
	room := w - drawnWidth("Memory stats")
	hint := fitFirst(room, "  ("+closeKeys+" close)", "  ("+keyName(keys.Cancel)+" close)")
	n := len(lines)
	lines = p.sc.window(lines, h)
	if overflows(n, h) { // narrow, the scroll keys go first, then the close keys (as the help's title)
		pos := p.sc.position(n, h)
		hint = fitFirst(room,
			fmt.Sprintf("  (%s scroll · %s · %s close)", keys.ScrollLabel(), pos, closeKeys),
			fmt.Sprintf("  (%s · %s close)", pos, closeKeys),
			fmt.Sprintf("  (%s · %s close)", pos, keyName(keys.Cancel)),
			"  ("+pos+")")
	}
	if p.doing.snap != nil && p.shown.snap != nil {
		hint += st.dim.Render(" updating…")
	}
	title := st.paneTitle.Render("Memory stats") + st.dim.Render(hint)
	return box(title+"\n"+strings.Join(lines, "\n"), w, h)
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

// shortHelp is the stats panel's line of keys.
func (p *statsPanel) shortHelp(k *keymap.KeyMap) []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PageDown, k.Cancel}
}
