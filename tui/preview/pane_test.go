package preview

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/part"
)

// renderMarkdown renders content at key's width and style, falling back to
// the sanitized text when it cannot be rendered within bounds.
func renderMarkdown(rs *renderers, key RenderKey, content string) string {
	return renderEntry(rs, key, content, func() bool { return false }).out
}

// testContext is a part.Context as the root lends one, h rows of body,
// without a root around it.
func testContext(w, h int) *part.Context {
	keys := keymap.DefaultKeyMap()
	return &part.Context{
		Width: w, Height: h, Body: h, Keys: &keys,
		Styles: &part.Styles{ // as the root's without colour
			Highlight: "\x1b[7m",
			Card:      lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Padding(0, 1),
			CardFocus: lipgloss.NewStyle().Border(lipgloss.ThickBorder()).Padding(0, 1),
		},
		Now: func() time.Time { return time.Unix(1_800_000_000, 0) }, Loc: time.UTC,
		Markdown: "dark", Cells: ansi.WcWidth,
	}
}

// keyMsg is the key press of a printable key.
func keyMsg(s string) tea.KeyPressMsg { return tea.KeyPressMsg{Code: []rune(s)[0], Text: s} }

// longEntry is an entry longer than a pane ten rows high.
func longEntry(id uint64) Entry {
	var body strings.Builder
	for i := range 40 {
		body.WriteString("line number " + string(rune('a'+i%26)) + "\n\n")
	}
	return Entry{E: store.Entry{ID: id, Name: "long", Kind: store.Note, Content: body.String(), CreatedAt: 1_700_000_000}, IDs: true}
}

// TestPreview_OwnsItsState: the preview is a part that needs no root:
// shown an entry it asks for a rendering off the loop and shows the plain
// text meanwhile (pending, "rendering…"), keeps the rendering that comes
// back (Rendered) and shows it from its cache without asking again,
// scrolls on the navigation keys, draws itself at exactly w×h, and drops
// the entry for a message.
func TestPreview_OwnsItsState(t *testing.T) {
	const w, h = 60, 10
	c := testContext(80, h)
	p := New()
	s := longEntry(7)
	cmd := p.Show(c, s, w, h)
	if cmd == nil || !p.Pending() || p.Lines() != "rendering…" {
		t.Fatalf("first show: command %v, pending %v, lines %q; want a rendering asked for", cmd != nil, p.Pending(), p.Lines())
	}
	msg, ok := cmd().(RenderedMsg)
	if !ok || !p.Rendered(msg) {
		t.Fatalf("the rendering (%T) was not the one the preview waits for", cmd())
	}
	if again := p.Show(c, s, w, h); again != nil || p.Pending() {
		t.Fatalf("shown again from the cache: command %v, pending %v", again != nil, p.Pending())
	}
	if got := p.Lines(); !strings.HasPrefix(got, "lines 1-10/") {
		t.Errorf("position %q", got)
	}
	if !p.Key(c, keyMsg("j")) || p.Offset() != 1 {
		t.Errorf("j: offset %d", p.Offset())
	}
	if !p.Key(c, keyMsg("G")) || !p.AtBottom() {
		t.Errorf("G: not at the bottom (offset %d)", p.Offset())
	}
	if p.Key(c, keyMsg("x")) {
		t.Error("x is no key of the preview's")
	}
	v := p.View(c, w, h)
	lines := strings.Split(v, "\n")
	if len(lines) != h {
		t.Fatalf("view: %d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if ansi.StringWidth(l) != w {
			t.Fatalf("view line %d is %d cells, want %d", i, ansi.StringWidth(l), w)
		}
	}
	p.ShowText(c, "nothing here", w, h)
	if p.Lines() != "" || !strings.Contains(ansi.Strip(p.View(c, w, h)), "nothing here") {
		t.Errorf("after ShowText: lines %q, view %q", p.Lines(), ansi.Strip(p.View(c, w, h)))
	}
}

// TestRender_StaleRenderingDroppedButCached: a rendering of an entry the
// selection left lands in the cache without replacing what is shown, and
// one not yet made when the selection moved is not made at all.
func TestRender_StaleRenderingDroppedButCached(t *testing.T) {
	const w, h = 60, 10
	c := testContext(80, h)
	p := New()
	a, b := longEntry(1), longEntry(2)
	b.E.Content = "another entry"
	p.Show(c, a, w, h) // A's rendering in flight
	keyA := p.RenderKey()
	p.Show(c, b, w, h) // the selection moves on to B before A's rendering lands
	if p.RenderKey() == keyA {
		t.Fatal("the selection did not move")
	}
	shown := p.Content()
	// A's rendering finished just before the selection moved, and lands late
	late := renderEntry(&renderers{}, keyA, a.E.Content, func() bool { return false })
	if p.Rendered(RenderedMsg{key: keyA, rendering: late}) || p.Content() != shown {
		t.Error("a late rendering of the previous entry replaced the preview")
	}
	if !p.Cached(keyA) {
		t.Error("the late rendering was not cached")
	}
	// A's rendering not yet made when the selection moved is not made at all
	p.ForgetRenderings()
	msg := renderCmd(p.rs, keyA, a.E.Content)().(RenderedMsg)
	if !msg.Dropped() {
		t.Error("a rendering for an entry no longer shown was made")
	}
	p.Rendered(msg)
	if p.Cached(keyA) {
		t.Error("a dropped rendering was cached")
	}
}

// TestPreview_JumpMatch: ] and [ go from highlighted line to highlighted
// line and say where they went, as a message request; with no search
// shown nothing is highlighted.
func TestPreview_JumpMatch(t *testing.T) {
	const w, h = 60, 4
	c := testContext(80, h)
	p := New()
	s := Entry{E: store.Entry{ID: 1, Name: "n", Content: strings.Repeat("plain\n\n", 10) + "a pool\n\n" + strings.Repeat("plain\n\n", 10) + "pool b"}, Terms: []string{"pool"}}
	p.ForgetRenderings()
	if cmd := p.Show(c, s, w, h); cmd != nil {
		p.Rendered(cmd().(RenderedMsg))
		p.Show(c, s, w, h)
	}
	msg := func(rs []part.Request) string { return rs[0].(part.Message).Text }
	if got := msg(p.JumpMatch(c, 1, true)); got != "match line 1 of 2" || p.Offset() == 0 {
		t.Errorf("]: %q at %d", got, p.Offset())
	}
	first := p.Offset()
	if got := msg(p.JumpMatch(c, 1, true)); got != "match line 2 of 2" || p.Offset() <= first {
		t.Errorf("] again: %q at %d", got, p.Offset())
	}
	if got := msg(p.JumpMatch(c, 1, false)); got != "no highlighted matches in this entry" {
		t.Errorf("no search: %q", got)
	}
}

// squeeze drops every space, so wrapped text compares as a whole.
func squeeze(s string) string { return strings.Join(strings.Fields(s), "") }

// TestPreview_ShownAgainAsAFreshPaneScrolledThere: the pane hands the
// viewport its content only when it changed (the root shows the selection
// again at most messages); whatever is shown again, a resize, a message in
// between, another entry, the pane draws what a new pane shown the same
// and scrolled to where the pane was (clamped) draws.
func TestPreview_ShownAgainAsAFreshPaneScrolledThere(t *testing.T) {
	const w = 60
	for _, id := range []uint64{7, 0} { // 0: the message's own id
		c := testContext(80, 10)
		p := New()
		s, h := longEntry(id), 10
		if cmd := p.Show(c, s, w, h); cmd != nil {
			p.Rendered(cmd().(RenderedMsg))
		}
		for _, step := range []struct {
			name string
			do   func()
		}{
			{"shown again", func() {}},
			{"scrolled to the bottom, shown again", func() { p.Key(c, keyMsg("G")) }},
			{"taller", func() { h = 30 }},
			{"shorter", func() { p.Key(c, keyMsg("G")); h = 6 }},
			{"a message in between", func() { p.ShowText(c, "nothing here", w, h) }},
			{"its content longer", func() { p.Key(c, keyMsg("G")); s.E.Content += "\n\nthe end" }},
			{"another entry", func() { s.E.ID, s.E.Name = 8, "longer" }},
		} {
			step.do()
			y, same := p.Offset(), p.id == s.E.ID // the same entry keeps its place
			p.Show(c, s, w, h)
			fresh := New()
			fresh.cache = p.cache // the same rendering, not the placeholder
			fresh.Show(c, s, w, h)
			if same {
				fresh.vp.SetYOffset(y)
			}
			if got, want := p.View(c, w, h), fresh.View(c, w, h); got != want || p.Offset() != fresh.Offset() {
				t.Errorf("id %d, %s: offset %d, the pane draws\n%s\na new pane scrolled to %d\n%s", id, step.name, p.Offset(), got, fresh.Offset(), want)
			}
		}
	}
}
