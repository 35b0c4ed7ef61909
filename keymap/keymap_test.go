package keymap_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"

	"github.com/crmem/crmem/keymap"
)

// TestDefaultKeyMap_DeclaresSpecKeys checks every default key of SPEC §7.
func TestDefaultKeyMap_DeclaresSpecKeys(t *testing.T) {
	k := keymap.DefaultKeyMap()
	tests := []struct {
		b    key.Binding
		keys []string
	}{
		{k.Search, []string{"/"}}, {k.SearchAccept, []string{"enter"}}, {k.SearchCancel, []string{"esc"}},
		{k.Up, []string{"up", "k"}}, {k.Down, []string{"down", "j"}},
		{k.PageUp, []string{"pgup"}}, {k.PageDown, []string{"pgdown"}},
		{k.HalfUp, []string{"ctrl+u"}}, {k.HalfDown, []string{"ctrl+d"}},
		{k.Top, []string{"g", "home"}}, {k.Bottom, []string{"G", "end"}},
		{k.Focus, []string{"tab"}},
		{k.FilterAll, []string{"1"}}, {k.FilterNotes, []string{"2"}}, {k.FilterArchives, []string{"3"}}, {k.FilterTopics, []string{"4"}},
		{k.Sort, []string{"s"}}, {k.Edit, []string{"e"}}, {k.New, []string{"n"}}, {k.Rename, []string{"r"}},
		{k.Aliases, []string{"a"}}, {k.Delete, []string{"d"}}, {k.Mark, []string{"space"}},
		{k.DeleteMarked, []string{"D"}}, {k.Undo, []string{"u"}}, {k.Reload, []string{"R"}},
		{k.Help, []string{"?"}}, {k.Quit, []string{"q", "ctrl+c"}},
		// issue 10: one-pane mode, moving while typing, suspend, recall view
		{k.Open, []string{"enter", "l", "right"}}, {k.Back, []string{"esc", "h", "left", "backspace"}},
		{k.SearchUp, []string{"ctrl+p", "ctrl+k"}}, {k.SearchDown, []string{"ctrl+n", "ctrl+j"}},
		{k.Suspend, []string{"ctrl+z"}}, {k.Recall, []string{"ctrl+r"}},
	}
	for _, tt := range tests {
		for _, want := range tt.keys {
			if !slices.Contains(tt.b.Keys(), want) {
				t.Errorf("binding %q (%s) lacks key %q", tt.b.Help().Key, tt.b.Help().Desc, want)
			}
		}
		if tt.b.Help().Desc == "" {
			t.Errorf("binding %v has no help text", tt.b.Keys())
		}
	}
}

func TestDefaultKeyMap_EditingKeysStartDisabled(t *testing.T) {
	k := keymap.DefaultKeyMap()
	for _, b := range k.EditingKeys() {
		if b.Enabled() {
			t.Errorf("editing key %v enabled before the editing feature", b.Keys())
		}
	}
}

// TestPane: each pane enables its own keys (Pane with its set), as the
// parts above the panes do with Only.
func TestPane(t *testing.T) {
	tests := []struct {
		name          string
		set           func(k *keymap.KeyMap)
		on, off       []func(keymap.KeyMap) key.Binding
		downHasJ      bool
		quitHasLetter bool
	}{
		{"list", func(k *keymap.KeyMap) { k.Pane(false, k.ListKeys(true, false)...) },
			[]func(keymap.KeyMap) key.Binding{edit, search, sort}, []func(keymap.KeyMap) key.Binding{cancel, accept}, true, true},
		{"list with query", func(k *keymap.KeyMap) { k.Pane(false, k.ListKeys(false, true)...) },
			[]func(keymap.KeyMap) key.Binding{cancel, search}, []func(keymap.KeyMap) key.Binding{edit, accept}, true, true},
		{"preview", func(k *keymap.KeyMap) { k.Pane(false, k.PreviewKeys(true)...) },
			[]func(keymap.KeyMap) key.Binding{edit, search, back, pageDown}, []func(keymap.KeyMap) key.Binding{cancel, accept, open, mark}, true, true},
		{"typing", func(k *keymap.KeyMap) { k.Pane(true, k.SearchLineKeys()...) },
			[]func(keymap.KeyMap) key.Binding{accept, cancel}, []func(keymap.KeyMap) key.Binding{edit, search, sort, help}, false, false},
		{"help", func(k *keymap.KeyMap) { k.Only(false, k.HelpScreenKeys()...) },
			[]func(keymap.KeyMap) key.Binding{help}, []func(keymap.KeyMap) key.Binding{edit, search, sort}, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := keymap.DefaultKeyMap()
			k.Pane(true, k.SearchLineKeys()...) // from another pane first
			tt.set(&k)
			for _, f := range tt.on {
				if !f(k).Enabled() {
					t.Errorf("%q disabled", f(k).Help().Desc)
				}
			}
			for _, f := range tt.off {
				if f(k).Enabled() {
					t.Errorf("%q enabled", f(k).Help().Desc)
				}
			}
			if got := slices.Contains(k.Down.Keys(), "j"); got != tt.downHasJ {
				t.Errorf("j moves down: %v, want %v", got, tt.downHasJ)
			}
			if got := slices.Contains(k.Quit.Keys(), "q"); got != tt.quitHasLetter {
				t.Errorf("q quits: %v, want %v", got, tt.quitHasLetter)
			}
		})
	}
}

func TestHelpGroupsCoverEveryBinding(t *testing.T) {
	k := keymap.DefaultKeyMap()
	var n int
	for _, g := range k.FullHelp() {
		n += len(g)
	}
	if n < 30 {
		t.Errorf("full help has %d bindings", n)
	}
}

func edit(k keymap.KeyMap) key.Binding   { return k.Edit }
func search(k keymap.KeyMap) key.Binding { return k.Search }
func sort(k keymap.KeyMap) key.Binding   { return k.Sort }
func cancel(k keymap.KeyMap) key.Binding { return k.SearchCancel }
func accept(k keymap.KeyMap) key.Binding { return k.SearchAccept }
func help(k keymap.KeyMap) key.Binding   { return k.Help }
func back(k keymap.KeyMap) key.Binding   { return k.Back }
func open(k keymap.KeyMap) key.Binding   { return k.Open }
func mark(k keymap.KeyMap) key.Binding   { return k.Mark }

func pageDown(k keymap.KeyMap) key.Binding { return k.PreviewPageDown }

// TestReadmeListsEveryKey keeps the documentation's "## Keys" table (in
// README.md or a page under docs/) in step with the key map: every key of
// every binding appears there in backquotes.
func TestReadmeListsEveryKey(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join("..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	var section string
	found := 0
	for _, p := range append([]string{filepath.Join("..", "README.md")}, pages...) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, s, ok := strings.Cut("\n"+string(data), "\n## Keys\n"); ok {
			section, _, _ = strings.Cut(s, "\n## ")
			found++
		}
	}
	if found != 1 {
		t.Fatalf("%d pages of README.md and docs/ have a ## Keys section, want 1", found)
	}
	shown := map[string]string{"up": "↑", "down": "↓", "pgdown": "pgdn"}
	for _, group := range keymap.DefaultKeyMap().FullHelp() {
		for _, b := range group {
			for _, k := range b.Keys() {
				if s, ok := shown[k]; ok {
					k = s
				}
				if !strings.Contains(section, "`"+k+"`") {
					t.Errorf("## Keys lacks `%s` (%s)", k, b.Help().Desc)
				}
			}
		}
	}
}

// TestOnly_History: in the history view and the forgotten list the
// movement keys, restore, undo, accept and the keys that close them act,
// and no other writing key (r restores there, it does not rename); in the
// list restore is off and history and forgotten are editing keys.
func TestOnly_History(t *testing.T) {
	k := keymap.DefaultKeyMap()
	k.Only(false, k.HistoryKeys()...)
	for _, b := range []key.Binding{k.Up, k.Down, k.PageDown, k.Top, k.Restore, k.Undo, k.Accept, k.Cancel, k.Quit, k.History, k.Forgotten} {
		if !b.Enabled() {
			t.Errorf("history view: %q disabled", b.Help().Desc)
		}
	}
	for _, b := range []key.Binding{k.Rename, k.Edit, k.Delete, k.Mark, k.Search, k.Findings} {
		if b.Enabled() {
			t.Errorf("history view: %q enabled", b.Help().Desc)
		}
	}
	k.Pane(false, k.ListKeys(true, false)...)
	if k.Restore.Enabled() || !k.History.Enabled() || !k.Forgotten.Enabled() || !k.Rename.Enabled() {
		t.Errorf("list: restore %v, history %v, forgotten %v, rename %v", k.Restore.Enabled(), k.History.Enabled(), k.Forgotten.Enabled(), k.Rename.Enabled())
	}
	k.Pane(false, k.ListKeys(false, false)...)
	if k.History.Enabled() || k.Forgotten.Enabled() {
		t.Error("history and forgotten enabled without the editing part")
	}
}

// TestConflicts_History: a key bound to two actions of the history view
// is reported, as in every other pane.
func TestConflicts_History(t *testing.T) {
	k := keymap.DefaultKeyMap()
	if err := k.Remap("restore", []string{"u"}); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range k.Conflicts() {
		if c.Pane == "history" && c.Key == "u" {
			found = true
		}
	}
	if !found {
		t.Errorf("restore and undo both on u in the history view: not reported (%+v)", k.Conflicts())
	}
}
