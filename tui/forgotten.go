package tui

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
)

// forgottenView lists, in place of the panes, the entries the store's log
// or the sessions know that memory does not hold now, most recently
// removed first. Enter opens one's history (the history view, above the
// list); restore asks to bring its last content back.
type forgottenView struct {
	open   bool
	of     int // the generation of the index list is from; 0 until read
	asked  int // the generation the list is being read from; 0 when none
	list   []history.Forgotten
	cursor int
}

// forgottenReadMsg carries the forgotten entries as the index of
// generation gen has them.
type forgottenReadMsg struct {
	gen  int
	list []history.Forgotten
}

// show opens the list from its first entry, read off the loop from ix,
// of generation gen.
func (v *forgottenView) show(ix historyIndex, gen int) tea.Cmd {
	*v = forgottenView{open: true}
	return v.follow(ix, gen)
}

// follow reads a new index's forgotten entries off the loop while open
// (every entry's history is put together for it: 9 s on a store of a
// million log records).
func (v *forgottenView) follow(ix historyIndex, gen int) tea.Cmd {
	if !v.open || ix == nil || gen == v.of || gen == v.asked {
		return nil
	}
	v.asked = gen
	return func() tea.Msg { return forgottenReadMsg{gen: gen, list: ix.Forgotten()} }
}

// take lists a read, keeping the cursor on the entry it was on (by
// name), else at its place; one from an index replaced meanwhile is
// dropped.
func (v *forgottenView) take(msg forgottenReadMsg) {
	if !v.open || msg.gen != v.asked {
		return
	}
	prev, had := v.selected()
	v.asked = 0
	v.of, v.list = msg.gen, msg.list
	v.cursor = min(v.cursor, max(len(v.list)-1, 0))
	for i, fg := range v.list {
		if had && fg.Name == prev.Name {
			v.cursor = i
		}
	}
}

// selected is the entry under the cursor.
func (v *forgottenView) selected() (history.Forgotten, bool) {
	if v.of == 0 || v.cursor >= len(v.list) {
		return history.Forgotten{}, false
	}
	return v.list[v.cursor], true
}

// key drives the list at h rows; enter opens the selected entry's history
// in hv.
func (v *forgottenView) key(c *common, k tea.KeyPressMsg, h int) historyAsk {
	keys := &c.keys
	n := len(v.list)
	switch {
	case key.Matches(k, keys.Cancel), key.Matches(k, keys.Quit), key.Matches(k, keys.Forgotten):
		v.open = false
	case key.Matches(k, keys.Accept):
		if fg, ok := v.selected(); ok {
			return askOpenHistory{fg.Name}
		}
	case key.Matches(k, keys.Restore):
		if fg, ok := v.selected(); ok { // what a restore needs of the history is its name
			return askRestore{h: history.History{Name: fg.Name}, v: fg.Last}
		}
	case key.Matches(k, keys.Undo):
		return askHistoryUndo{}
	default:
		if d, ok := navDelta(keys, k, h/2, n); ok { // two rows an entry
			v.cursor = min(max(v.cursor+d, 0), max(n-1, 0))
		}
	}
	return nil
}

// hints are the list's keys for the help line.
func (v *forgottenView) hints(k *keymap.KeyMap, readOnly bool) string {
	back := hints("/", keyName(k.Cancel), keyName(k.Quit), keyName(k.Forgotten)) + " close"
	if readOnly {
		return hints(" · ", keyHint(k.Accept, "history"), back) + " · read-only"
	}
	return hints(" · ", keyHint(k.Accept, "history"), keyHint(k.Restore, "restore"), keyHint(k.Undo, "undo"), back)
}

// view draws the list at w×h: two lines an entry, the cursor's kept in
// sight.
func (v *forgottenView) view(c *common, s *historyState, w, h int) string {
	st := c.styles
	title := st.paneTitle.Render("Forgotten entries")
	var lines []string
	switch {
	case v.of == 0:
		lines = s.waiting(st, w) // the index, then the list from it
	case len(v.list) == 0:
		lines = wrapDim(st, "nothing forgotten: every entry the store's log and the sessions know is in memory", w)
	default:
		title += st.dim.Render("  (" + humanize.Plural(len(v.list), "entry") + ", most recently removed first)")
		lines = v.rows(c, w, h)
	}
	if (s.building || v.asked != 0) && v.of != 0 {
		title += st.dim.Render(" updating…")
	}
	if len(lines) > max(h-1, 0) {
		lines = lines[:max(h-1, 0)]
	}
	return box(ansi.Truncate(title, w, "…")+"\n"+strings.Join(lines, "\n"), w, h)
}

// rows are the list's lines in the window below the title at w×h, two an
// entry, the cursor's kept in sight: only those entries are drawn (a
// store of a million log records forgot 6,673).
func (v *forgottenView) rows(c *common, w, h int) []string {
	st := c.styles
	n := 2 * len(v.list)
	var sc scroller
	sc.centre(2*v.cursor, n, h)
	var lines []string
	for i := sc.top; i < min(sc.top+max(h-1, 0), n); i++ {
		head, sub := forgottenRow(c, v.list[i/2], w)
		switch {
		case i%2 == 1:
			lines = append(lines, st.dim.Render(sub))
		case i/2 == v.cursor:
			lines = append(lines, st.selectedRow(true).Render(head+strings.Repeat(" ", max(w-ansi.StringWidth(head), 0))))
		default:
			lines = append(lines, head)
		}
	}
	return lines
}

// forgottenRow is an entry's two lines at width w: its name, when and by
// which session it was removed; then its last content's first line.
func forgottenRow(c *common, fg history.Forgotten, w int) (string, string) {
	removed := "removal not recorded"
	if r := fg.Removed; r != nil {
		removed = "removed"
		switch call := r.Call; {
		case call == nil:
			removed += " · unknown source"
		default:
			if !call.Time.IsZero() {
				removed += " " + humanize.Ago(c.now(), uint64(max(call.Time.Unix(), 0)))
			}
			removed += " by session " + sessionName(call)
		}
	}
	name := sanitize.Name(fg.Name)
	note := fmt.Sprintf(" · %s · %s", removed, humanize.Plural(fg.Versions, "version"))
	head := ansi.Truncate(name, max(w-min(ansi.StringWidth(note), w/2), 1), "…") + note
	first, _, _ := strings.Cut(strings.TrimLeft(fg.Last.Content, "\n"), "\n")
	return ansi.Truncate(head, w, "…"), ansi.Truncate("  "+sanitize.Line(first), w, "…")
}
