package part

import (
	"strings"
	"testing"
)

// TestScroller_StaysWithinItsLines: the window never starts before the
// first line nor leaves rows empty below the last once it overflows, and
// a window pulled back after the lines shrank shows their end.
func TestScroller_StaysWithinItsLines(t *testing.T) {
	lines := strings.Split(strings.Repeat("x\n", 49)+"x", "\n") // 50
	var s Scroller
	s.By(-5, len(lines), 11)
	if s.Top != 0 {
		t.Fatalf("up from the top: %d", s.Top)
	}
	s.By(1000, len(lines), 11)
	if s.Top != 40 || len(s.Window(lines, 11)) != 10 {
		t.Fatalf("to the end: top %d, %d shown; want 40, 10", s.Top, len(s.Window(lines, 11)))
	}
	if got := s.Window(lines[:20], 11); s.Top != 10 || len(got) != 10 {
		t.Fatalf("after the lines shrank to 20: top %d, %d shown; want 10, 10", s.Top, len(got))
	}
	if got := s.Window(lines[:5], 11); s.Top != 0 || len(got) != 5 {
		t.Fatalf("lines that fit: top %d, %d shown", s.Top, len(got))
	}
	if p := (&Scroller{Top: 2}).Position(50, 11); p != "3–12/50" {
		t.Fatalf("position %q", p)
	}
	if p := (&Scroller{}).Position(105, 1); p != "0 of 105 shown" { // the title alone: no row to number (it said "1–0/105")
		t.Fatalf("position with no row %q", p)
	}
}
