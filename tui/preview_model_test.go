package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store"
)

// testCommon is a common as the root builds it, sized w×h, without a
// model around it.
func testCommon(w, h int) *common {
	c := &common{width: w, height: h, sized: true, keys: keymap.DefaultKeyMap(), dark: true,
		now: func() time.Time { return time.Unix(1_800_000_000, 0) }, loc: time.UTC}
	c.styles = newStyles(true, false)
	return c
}

// TestPreview_OwnsItsState: the preview is a sub-model that needs no root:
// shown an entry it asks for a rendering off the loop and shows the plain
// text meanwhile (pending, "rendering…"), keeps the rendering that comes
// back (rendered) and shows it from its cache without asking again, scrolls
// on the navigation keys, draws itself at exactly w×h, and drops the entry
// for a message.
func TestPreview_OwnsItsState(t *testing.T) {
	c := testCommon(80, 10)
	p := newPreview()
	var body strings.Builder
	for i := range 40 {
		body.WriteString("line number " + string(rune('a'+i%26)) + "\n\n")
	}
	s := shownEntry{e: store.Entry{ID: 7, Name: "long", Kind: store.Note, Content: body.String(), CreatedAt: 1_700_000_000}, ids: true}
	const w, h = 60, 10
	cmd := p.show(c, s, w, h)
	if cmd == nil || !p.pending || p.lines() != "rendering…" {
		t.Fatalf("first show: command %v, pending %v, lines %q; want a rendering asked for", cmd != nil, p.pending, p.lines())
	}
	msg, ok := cmd().(renderedMsg)
	if !ok || !p.rendered(msg) {
		t.Fatalf("the rendering (%T) was not the one the preview waits for", cmd())
	}
	if again := p.show(c, s, w, h); again != nil || p.pending {
		t.Fatalf("shown again from the cache: command %v, pending %v", again != nil, p.pending)
	}
	if got := p.lines(); !strings.HasPrefix(got, "lines 1-10/") {
		t.Errorf("position %q", got)
	}
	if !p.keyPress(&c.keys, keyMsg("j"), h) || p.vp.YOffset() != 1 {
		t.Errorf("j: offset %d", p.vp.YOffset())
	}
	if !p.keyPress(&c.keys, keyMsg("G"), h) || !p.vp.AtBottom() {
		t.Errorf("G: not at the bottom (offset %d)", p.vp.YOffset())
	}
	if p.keyPress(&c.keys, keyMsg("x"), h) {
		t.Error("x is no key of the preview's")
	}
	v := p.view(w, h)
	lines := strings.Split(v, "\n")
	if len(lines) != h {
		t.Fatalf("view: %d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if ansi.StringWidth(l) != w {
			t.Fatalf("view line %d is %d cells, want %d", i, ansi.StringWidth(l), w)
		}
	}
	p.showText(c, "nothing here", w, h)
	if p.lines() != "" || !strings.Contains(ansi.Strip(p.view(w, h)), "nothing here") {
		t.Errorf("after showText: lines %q, view %q", p.lines(), ansi.Strip(p.view(w, h)))
	}
}
