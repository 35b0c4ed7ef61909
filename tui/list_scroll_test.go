package tui

import "testing"

// TestListScroll_ShowsTheFirstHeadersOnceThereIsRoom: a list first
// scrolled at a height of one row (laid out before the terminal's size
// arrived) shows its first headers again at the real height, the cursor
// still on the first entry (seen: the demo sometimes opened with "November
// 2026" and its day scrolled away). Past the first screen nothing moves.
func TestListScroll_ShowsTheFirstHeadersOnceThereIsRoom(t *testing.T) {
	rows := []row{{header: "November 2026"}, {header: "Sun 29 Nov"}, {idx: 0}, {idx: 1}, {header: "Sat 28 Nov"}, {idx: 2}, {idx: 3}, {idx: 4}}
	l := listView{rows: rows, cursor: 2}
	l.scroll(1)
	if l.offset != 2 {
		t.Fatalf("at one row the offset is %d, want 2 (the cursor's row)", l.offset)
	}
	l.scroll(20)
	if l.offset != 0 {
		t.Errorf("at 20 rows the offset is %d, want 0: the headers above the first entry shown", l.offset)
	}
	// Further down, an offset that hides entries stays as it is.
	l = listView{rows: rows, cursor: 6, offset: 3}
	l.scroll(4)
	if l.offset != 3 {
		t.Errorf("offset %d, want 3 kept", l.offset)
	}
}
