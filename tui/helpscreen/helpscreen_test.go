package helpscreen

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/tui/part"
)

// TestScreen_ScrollsAndCloses: with no root model, the help scrolls when
// its groups do not fit, closes on its own keys asking nothing of the
// root, and on any other key asks the root to say it closed (part.Closed).
func TestScreen_ScrollsAndCloses(t *testing.T) {
	keys := keymap.DefaultKeyMap()
	keys.SetReferenceMode(true)
	st := lipgloss.NewStyle()
	c := &part.Context{Width: 60, Height: 12, Body: 8, Keys: &keys, Help: help.New(),
		Styles: &part.Styles{PaneTitle: st, GroupHeader: st, Dim: st}}
	p := Screen{Groups: [][]key.Binding{keys.NavigationKeys(), keys.AppKeys()}}
	p.Show()
	if v := p.View(c, 60, 8); len(strings.Split(v, "\n")) != 8 || !strings.HasPrefix(v, "Keys") {
		t.Fatalf("view:\n%s", v)
	}
	if !part.Overflows(len(p.Lines(c, 60)), c.Body) {
		t.Fatal("the groups fit 8 rows: the test scrolls nothing")
	}
	if reqs, _ := p.Key(c, tea.KeyPressMsg{Code: 'j', Text: "j"}); reqs != nil || !p.Open() || p.Top() != 1 {
		t.Fatalf("j: %v, open %v, top %d", reqs, p.Open(), p.Top())
	}
	if reqs, _ := p.Key(c, tea.KeyPressMsg{Code: tea.KeyEscape}); reqs != nil || p.Open() {
		t.Fatalf("esc: %v, open %v", reqs, p.Open())
	}
	p.Show()
	x := tea.KeyPressMsg{Code: 'x', Text: "x"}
	if reqs, _ := p.Key(c, x); len(reqs) != 1 || reqs[0] != part.Request(part.Closed{Key: x}) || p.Open() {
		t.Fatalf("x: %v, open %v", reqs, p.Open())
	}
}
