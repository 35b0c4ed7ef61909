package tui

import "github.com/crmem/crmem/tui/part"

// scroller is the window the parts still in this package (the history
// view, the findings, the reload log) show of their lines below a title
// that stays: part.Scroller, which the parts in packages of their own use
// directly, kept here under its old name and methods until those parts
// move.
type scroller struct{ top int }

// maxTop is part.MaxTop.
func maxTop(n, h int) int { return part.MaxTop(n, h) }

// with runs f on the window as a part.Scroller and keeps where it left it.
func (s *scroller) with(f func(*part.Scroller)) {
	ps := part.Scroller{Top: s.top}
	f(&ps)
	s.top = ps.Top
}

// by moves the window d lines, within n lines at height h.
func (s *scroller) by(d, n, h int) { s.with(func(p *part.Scroller) { p.By(d, n, h) }) }

// centre puts line at in the middle of the window over n lines at height
// h, as far as the lines allow (a cursor kept in sight: the findings, the
// reload log).
func (s *scroller) centre(at, n, h int) { s.with(func(p *part.Scroller) { p.Centre(at, n, h) }) }

// window is the part of lines shown below the title in h rows; the
// window is pulled back within them first (the lines may have shrunk).
func (s *scroller) window(lines []string, h int) (out []string) {
	s.with(func(p *part.Scroller) { out = p.Window(lines, h) })
	return out
}

// overflows reports whether n lines below a title do not fit h rows.
func overflows(n, h int) bool { return part.Overflows(n, h) }

// position is the window's place for a panel's title (part.Scroller's).
func (s *scroller) position(n, h int) string {
	return (&part.Scroller{Top: s.top}).Position(n, h)
}
