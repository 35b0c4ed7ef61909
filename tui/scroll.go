package tui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/keymap"
)

// scroller is the one window every panel (the help, the stats, the why
// panel) shows of its lines below a title that stays: a first line kept
// within the lines at the height drawn. The panels used to keep five
// hand-rolled offsets, each clamped its own way.
type scroller struct{ top int }

// maxTop is the farthest n lines below a title scroll in a body h rows
// high: their last line on the bottom row.
func maxTop(n, h int) int { return max(0, n-(h-1)) }

// by moves the window d lines, within n lines at height h.
func (s *scroller) by(d, n, h int) { s.top = min(max(s.top+d, 0), maxTop(n, h)) }

// key moves the window on a movement key of m's key map (first and last
// included) over n lines at height h, and reports whether k was one.
func (s *scroller) key(keys *keymap.KeyMap, k tea.KeyPressMsg, n, h int) bool {
	switch {
	case key.Matches(k, keys.Top):
		s.top = 0
	case key.Matches(k, keys.Bottom):
		s.top = maxTop(n, h)
	default:
		d, ok := navDelta(keys, k, h, n)
		if !ok {
			return false
		}
		s.by(d, n, h)
	}
	return true
}

// centre puts line at in the middle of the window over n lines at height
// h, as far as the lines allow (a cursor kept in sight: the findings, the
// reload log).
func (s *scroller) centre(at, n, h int) {
	s.top = min(max(at-(h-1)/2, 0), maxTop(n, h))
}

// window is the part of lines shown below the title in h rows; the
// window is pulled back within them first (the lines may have shrunk).
func (s *scroller) window(lines []string, h int) []string {
	s.top = min(s.top, maxTop(len(lines), h))
	return lines[s.top:min(len(lines), s.top+max(h-1, 0))]
}

// overflows reports whether n lines below a title do not fit h rows.
func overflows(n, h int) bool { return maxTop(n, h) > 0 }

// position is the window's place for a panel's title: "3–22/40", or
// "0 of 40 shown" when the body has room for the title alone (it said
// "1–0/40", a row that is not there).
func (s *scroller) position(n, h int) string {
	if h < 2 {
		return fmt.Sprintf("0 of %d shown", n)
	}
	return fmt.Sprintf("%d–%d/%d", s.top+1, s.top+h-1, n)
}
