package tui

import (
	"testing"
)

// Issue 17 item 7: in the preview, space and b page down and up (as in
// less and glow); they neither mark nor move the selection. In the list,
// space still marks and moves down.
func TestPreview_SpaceAndBPage(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	drive(h.m, resizeCmd(80, 12))
	e := h.sel("long-note")
	press(h.m, "tab")
	if h.m.focus != focusPreview {
		t.Fatal("tab did not focus the preview")
	}
	if h.m.pv.TotalLines() <= h.m.pv.Height() {
		t.Fatalf("long-note fits the preview (%d lines): the test needs one that scrolls", h.m.pv.TotalLines())
	}
	press(h.m, "space")
	down := h.m.pv.Offset()
	if down == 0 {
		t.Error("space did not page the preview down")
	}
	if h.m.marks.Has(e.ID) || len(h.m.marks.IDs()) != 0 {
		t.Error("space in the preview marked an entry")
	}
	if got := selectedName(h.m); got != "long-note" {
		t.Errorf("space in the preview moved the selection to %q", got)
	}
	press(h.m, "b")
	if h.m.pv.Offset() >= down {
		t.Errorf("b did not page up: offset %d, was %d", h.m.pv.Offset(), down)
	}
	press(h.m, "tab", "space")
	if !h.m.marks.Has(e.ID) || selectedName(h.m) == "long-note" {
		t.Errorf("space in the list: marked %v, selected %q", h.m.marks.Has(e.ID), selectedName(h.m))
	}
}
