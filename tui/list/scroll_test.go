package list

import "testing"

// TestListScroll_ShowsTheFirstHeadersOnceThereIsRoom: a list first
// scrolled at a height of one row (laid out before the terminal's size
// arrived) shows its first headers again at the real height, the cursor
// still on the first entry (seen: the demo sometimes opened with "November
// 2026" and its day scrolled away). Past the first screen nothing moves.
func TestListScroll_ShowsTheFirstHeadersOnceThereIsRoom(t *testing.T) {
	rows := []Row{{Header: "November 2026"}, {Header: "Sun 29 Nov"}, {Idx: 0}, {Idx: 1}, {Header: "Sat 28 Nov"}, {Idx: 2}, {Idx: 3}, {Idx: 4}}
	l := List{rows: rows, cursor: 2}
	l.Scroll(1)
	if l.offset != 2 {
		t.Fatalf("at one row the offset is %d, want 2 (the cursor's row)", l.offset)
	}
	l.Scroll(20)
	if l.offset != 0 {
		t.Errorf("at 20 rows the offset is %d, want 0: the headers above the first entry shown", l.offset)
	}
	// Further down, an offset that hides entries stays as it is.
	l = List{rows: rows, cursor: 6, offset: 3}
	l.Scroll(4)
	if l.offset != 3 {
		t.Errorf("offset %d, want 3 kept", l.offset)
	}
}
