package forgotten

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store/history"
	"github.com/crmem/crmem/tui/part"
)

// index is a history index that has forgotten list.
type index struct{ list []history.Forgotten }

func (ix index) History(string) history.History { return history.History{} }
func (ix index) Forgotten() []history.Forgotten { return ix.list }
func (ix index) Summary(string) history.Summary { return history.Summary{} }

// TestList_AlonePartOfItsOwn: with no root model, the list says the
// history is read until its index is lent, reads the entries off the
// loop from it, and answers enter, restore and undo with requests.
func TestList_AlonePartOfItsOwn(t *testing.T) {
	keys := keymap.DefaultKeyMap()
	var l List
	l.SetKeys(&keys) // as the root sets them while the list is on top
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	c := &part.Context{Keys: &keys, Styles: &part.Styles{}, Body: 10, Now: func() time.Time { return now }}
	if cmd := l.Show(c); cmd != nil || !l.Open() {
		t.Fatalf("opened with no index: cmd %v, open %v", cmd != nil, l.Open())
	}
	if v := ansi.Strip(l.View(c, 60, 5)); !strings.Contains(v, "reading the history…") {
		t.Fatalf("before the index:\n%s", v)
	}
	last := history.Version{N: 1, Action: history.Write, Name: "old-runbook", Content: "Runbook v1"}
	c.History = part.History{Index: index{[]history.Forgotten{{Name: "old-runbook", Last: last, Versions: 2}}}, Gen: 1}
	cmd := l.Follow(c.History)
	if cmd == nil {
		t.Fatal("a new index was not read")
	}
	if ok, _, _ := l.Update(c, cmd()); !ok {
		t.Fatal("its own read was not taken")
	}
	if v := ansi.Strip(l.View(c, 60, 5)); !strings.Contains(v, "old-runbook · removal not recorded · 2 versions") || !strings.Contains(v, "Runbook v1") {
		t.Fatalf("the list:\n%s", v)
	}
	for _, tt := range []struct {
		k    tea.KeyPressMsg
		want part.Request
	}{
		{tea.KeyPressMsg{Code: tea.KeyEnter}, part.OpenHistory{Name: "old-runbook"}},
		{tea.KeyPressMsg{Code: 'u', Text: "u"}, part.Undo{}},
	} {
		if reqs, _ := l.Key(c, tt.k); len(reqs) != 1 || reqs[0] != tt.want {
			t.Errorf("%s asks %#v, want %#v", tt.k, reqs, tt.want)
		}
	}
	reqs, _ := l.Key(c, tea.KeyPressMsg{Code: 'r', Text: "r"})
	if r, ok := reqs[0].(part.Restore); len(reqs) != 1 || !ok || r.H.Name != "old-runbook" || r.V.N != 1 {
		t.Errorf("restore asks %#v", reqs)
	}
}
