package dialog

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/part"
)

// rename is an opener's request: what enter asks for, with the name typed.
type rename struct{ from, to string }

func (r rename) WithValue(v string) Request { r.to = v; return r }

func context(t *testing.T, keys *keymap.KeyMap, mem store.Source) *part.Context {
	t.Helper()
	st := lipgloss.NewStyle()
	return &part.Context{Width: 80, Height: 20, Keys: keys, Memory: mem,
		Styles: &part.Styles{PaneTitle: st, GroupHeader: st, Dim: st, Message: st, Warning: st, Status: st}}
}

func press(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// TestPrompt_NameCheckedAgainstTheMemoryAtEnter: a prompt for a name holds
// no function of the root: FreeName is data, checked against the memory
// the context lends when enter is pressed, so a name taken after the
// prompt opened is refused, and the entry's own name is always accepted.
// The answer is the opener's request, completed with the line typed.
func TestPrompt_NameCheckedAgainstTheMemoryAtEnter(t *testing.T) {
	db, err := store.OpenWith(filepath.Join(t.TempDir(), "memory.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Apply(store.Add{Name: "alpha", Content: "a"}); err != nil {
		t.Fatal(err)
	}
	keys := keymap.DefaultKeyMap()
	c := context(t, &keys, db)
	p := NewPrompt("rename alpha to", "", FreeName{Same: "alpha"}, rename{from: "alpha"})
	p.SetKeys(&keys)
	for _, r := range "beta" {
		p.Key(c, press(string(r)))
	}
	if _, err := db.Apply(store.Add{Name: "beta", Content: "b"}); err != nil { // taken while the prompt is open
		t.Fatal(err)
	}
	if req, done, _ := p.Key(c, press("enter")); req != nil || done {
		t.Fatalf("enter on a name taken meanwhile: %#v, done %v", req, done)
	}
	if v := p.View(c); !strings.Contains(v, `"beta" is taken`) {
		t.Errorf("the prompt does not say the name is taken: %q", v)
	}
	for range "beta" {
		p.Key(c, press("backspace"))
	}
	for _, r := range "alpha" {
		p.Key(c, press(string(r)))
	}
	req, done, note := p.Key(c, press("enter"))
	if !done || note != "" || req != Request(rename{from: "alpha", to: "alpha"}) {
		t.Fatalf("enter on the entry's own name: %#v, done %v, note %q", req, done, note)
	}
	p = NewPrompt("new note name", "", FreeName{}, rename{})
	p.Key(c, press("enter"))
	if v := p.View(c); !strings.Contains(v, "⚠") {
		t.Errorf("an empty name was not refused: %q", v)
	}
}

// TestDialogs_DecideTheirKeys: each dialog enables its own keys and no
// other (suspend and cancel work everywhere): a prompt's printable keys
// are text, a question's keys answer it, and a choice has only the keys
// of its own answers live.
func TestDialogs_DecideTheirKeys(t *testing.T) {
	keys := keymap.DefaultKeyMap()
	keys.Pane(false, keys.ListKeys(true, false)...) // the list's keys, before a dialog
	enabled := func() []string {
		var out []string
		for _, g := range keys.FullHelp() {
			for _, b := range g {
				if b.Enabled() && b.Help().Key != keymap.InterruptKey { // ctrl+c always quits
					out = append(out, b.Help().Desc)
				}
			}
		}
		return out
	}
	choice := &Choice{Text: "cannot undo", Options: []Option{
		{Key: &keys.KeepUndo, Label: "keep", Pick: "keep"},
		{Key: &keys.DropUndo, Label: "drop", Pick: "drop"},
	}, Cancel: "keep"}
	for _, tt := range []struct {
		d    Dialog
		want []string
	}{
		{NewPrompt("age", "", nil, rename{}), []string{keys.Accept.Help().Desc, keys.Cancel.Help().Desc, keys.Complete.Help().Desc, keys.Suspend.Help().Desc}},
		{&Confirm{Text: "delete?", Yes: "yes"}, []string{keys.Cancel.Help().Desc, keys.Yes.Help().Desc, keys.No.Help().Desc, keys.Suspend.Help().Desc}},
		{choice, []string{keys.Cancel.Help().Desc, keys.KeepUndo.Help().Desc, keys.DropUndo.Help().Desc, keys.Suspend.Help().Desc}},
	} {
		tt.d.SetKeys(&keys)
		got := enabled()
		if strings.Join(sorted(got), "|") != strings.Join(sorted(tt.want), "|") {
			t.Errorf("%T: live %q, want %q", tt.d, got, tt.want)
		}
	}
	if keys.Accept.Enabled() || key.Matches(press("x"), keys.DropUndo) != true {
		t.Errorf("the choice's own answer x is not live, or accept is")
	}
	c := context(t, &keys, nil)
	if req, done, _ := choice.Key(c, press("x")); !done || req != Request("drop") {
		t.Errorf("x picked %#v (done %v), want drop", req, done)
	}
	if req, done, _ := choice.Key(c, press("esc")); !done || req != Request("keep") {
		t.Errorf("esc picked %#v (done %v), want the safe answer", req, done)
	}
}

func sorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}
