package part

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/keymap"
)

// Scroller is the one window every panel (the help, the stats, the why
// panel, the history view, the reload log) shows of its lines below a
// title that stays: a first line kept within the lines at the height
// drawn.
type Scroller struct{ Top int }

// MaxTop is the farthest n lines below a title scroll in a body h rows
// high: their last line on the bottom row.
func MaxTop(n, h int) int { return max(0, n-(h-1)) }

// By moves the window d lines, within n lines at height h.
func (s *Scroller) By(d, n, h int) { s.Top = min(max(s.Top+d, 0), MaxTop(n, h)) }

// Key moves the window on a movement key of the key map (first and last
// included) over n lines at height h, and reports whether k was one.
func (s *Scroller) Key(keys *keymap.KeyMap, k tea.KeyPressMsg, n, h int) bool {
	switch {
	case key.Matches(k, keys.Top):
		s.Top = 0
	case key.Matches(k, keys.Bottom):
		s.Top = MaxTop(n, h)
	default:
		d, ok := NavDelta(keys, k, h, n)
		if !ok {
			return false
		}
		s.By(d, n, h)
	}
	return true
}

// Centre puts line at in the middle of the window over n lines at height
// h, as far as the lines allow (a cursor kept in sight).
func (s *Scroller) Centre(at, n, h int) {
	s.Top = min(max(at-(h-1)/2, 0), MaxTop(n, h))
}

// Window is the part of lines shown below the title in h rows; the
// window is pulled back within them first (the lines may have shrunk).
func (s *Scroller) Window(lines []string, h int) []string {
	s.Top = min(s.Top, MaxTop(len(lines), h))
	return lines[s.Top:min(len(lines), s.Top+max(h-1, 0))]
}

// Overflows reports whether n lines below a title do not fit h rows.
func Overflows(n, h int) bool { return MaxTop(n, h) > 0 }

// Position is the window's place for a panel's title: "3–22/40", or
// "0 of 40 shown" when the body has room for the title alone (it said
// "1–0/40", a row that is not there).
func (s *Scroller) Position(n, h int) string {
	if h < 2 {
		return fmt.Sprintf("0 of %d shown", n)
	}
	return fmt.Sprintf("%d–%d/%d", s.Top+1, s.Top+h-1, n)
}

// NavDelta is how far a movement key moves a cursor or a window over a
// view h rows high whose last line is last (top and bottom go that far).
func NavDelta(keys *keymap.KeyMap, k tea.KeyPressMsg, height, last int) (int, bool) {
	page := max(height-1, 1)
	switch {
	case key.Matches(k, keys.Up):
		return -1, true
	case key.Matches(k, keys.Down):
		return 1, true
	case key.Matches(k, keys.PageUp), key.Matches(k, keys.PreviewPageUp):
		return -page, true
	case key.Matches(k, keys.PageDown), key.Matches(k, keys.PreviewPageDown):
		return page, true
	case key.Matches(k, keys.HalfUp):
		return -page / 2, true
	case key.Matches(k, keys.HalfDown):
		return page / 2, true
	case key.Matches(k, keys.Top):
		return -last, true
	case key.Matches(k, keys.Bottom):
		return last, true
	}
	return 0, false
}
