package keymap_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/crmem/crmem/keymap"
)

// TestDefaultKeyMap_NoConflicts: no key does two things in one pane.
func TestDefaultKeyMap_NoConflicts(t *testing.T) {
	for _, c := range keymap.DefaultKeyMap().Conflicts() {
		t.Errorf("%q bound to %s and %s in the %s", c.Key, c.Names[0], c.Names[1], c.Pane)
	}
}

// TestNames: every binding has a snake_case name that Lookup finds.
func TestNames(t *testing.T) {
	names := keymap.Names()
	for _, want := range []string{"up", "search_cancel", "delete_marked", "copy_content", "latest_change", "quit"} {
		if !slices.Contains(names, want) {
			t.Errorf("no binding named %q in %v", want, names)
		}
	}
	k := keymap.DefaultKeyMap()
	for _, n := range names {
		if _, ok := k.Lookup(n); !ok {
			t.Errorf("Lookup(%q) failed", n)
		}
	}
}

// TestRemap: keys and labels follow; false disables; the copy made before
// is untouched; typing narrows a remapped binding to its non-printable keys.
func TestRemap(t *testing.T) {
	k := keymap.DefaultKeyMap()
	before := k
	if err := k.Remap("quit", []string{"x", "ctrl+q"}); err != nil {
		t.Fatal(err)
	}
	if err := k.Remap("mouse", nil); err != nil {
		t.Fatal(err)
	}
	if err := k.Remap("nope", []string{"x"}); err == nil {
		t.Error("unknown binding accepted")
	}
	if err := k.Remap("up", []string{"ctrl+up+"}); err == nil {
		t.Error("bad key accepted")
	}
	if !slices.Equal(k.Quit.Keys(), []string{"x", "ctrl+q"}) || k.Quit.Help().Key != "x/ctrl+q" {
		t.Errorf("quit %v %q", k.Quit.Keys(), k.Quit.Help().Key)
	}
	if k.Mouse.Enabled() {
		t.Error("mouse still enabled")
	}
	k.Pane(true, k.SearchLineKeys()...)
	if !slices.Equal(k.Quit.Keys(), []string{"ctrl+q"}) || k.Quit.Help().Key != "ctrl+q" {
		t.Errorf("typing: quit %v %q", k.Quit.Keys(), k.Quit.Help().Key)
	}
	k.Pane(false, k.ListKeys(true, true)...)
	if !slices.Equal(k.Quit.Keys(), []string{"x", "ctrl+q"}) {
		t.Errorf("back in the list: quit %v", k.Quit.Keys())
	}
	before.Pane(false, before.ListKeys(true, true)...)
	if !slices.Equal(before.Quit.Keys(), []string{"q", "ctrl+c"}) {
		t.Errorf("the copy made before the remap changed: %v", before.Quit.Keys())
	}
}

// TestCheckKey: Bubble Tea's key names.
func TestCheckKey(t *testing.T) {
	for _, ok := range []string{"q", "Q", "?", "ctrl+c", "alt+enter", "ctrl+alt+x", "pgdown", "space", "f5", "é", "f35", "shift+tab", "ctrl+shift+z", "ctrl+alt+shift+meta+hyper+super+x", "ctrl++"} {
		if err := keymap.CheckKey(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "ctrl+", "qq", "pagedown", "f0", "f64", " ", "ctrl+ctrl"} {
		if keymap.CheckKey(bad) == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	// issue 29 item 8: names no press ever has
	for bad, why := range map[string]string{
		"shift+z":     `key "shift+z" is never pressed as written: shift with a character is the character it types ("Z")`,
		"ctrl+ctrl+s": `key "ctrl+ctrl+s" names ctrl twice`,
		"alt+ctrl+x":  `key "alt+ctrl+x" is never pressed as written: write its modifiers in the order ctrl, alt, shift, meta, hyper, super ("ctrl+alt+x")`,
		"f63":         `unknown key "f63"`,
		"f36":         `unknown key "f36"`,
	} {
		if err := keymap.CheckKey(bad); err == nil || !strings.HasPrefix(err.Error(), why) {
			t.Errorf("%q: %v, want %s", bad, err, why)
		}
	}
}

// TestRemap_PrintableKeysAreTextWhileTyping: a printable key bound to any
// action active in the search line is left to the query.
func TestRemap_PrintableKeysAreTextWhileTyping(t *testing.T) {
	k := keymap.DefaultKeyMap()
	for name, keys := range map[string][]string{"suspend": {"z", "ctrl+z"}, "recall": {"R"}, "search_accept": {"enter", "!"}} {
		if err := k.Remap(name, keys); err != nil {
			t.Fatal(err)
		}
	}
	k.Pane(true, k.SearchLineKeys()...)
	for _, b := range []struct {
		name string
		keys []string
	}{{"suspend", []string{"ctrl+z"}}, {"recall", nil}, {"search_accept", []string{"enter"}}} {
		got, _ := k.Lookup(b.name)
		if !slices.Equal(got.Keys(), b.keys) {
			t.Errorf("%s while typing: %v, want %v", b.name, got.Keys(), b.keys)
		}
	}
	k.Pane(false, k.ListKeys(true, true)...)
	if !slices.Equal(k.Suspend.Keys(), []string{"z", "ctrl+z"}) {
		t.Errorf("suspend in the list: %v", k.Suspend.Keys())
	}
}

// TestRemap_CtrlCOnlyQuits: ctrl+c always quits; it cannot be given to
// another action (a config could otherwise lock the user in), and quit may
// list it or not.
func TestRemap_CtrlCOnlyQuits(t *testing.T) {
	k := keymap.DefaultKeyMap()
	for _, n := range keymap.Names() {
		err := k.Remap(n, []string{"ctrl+c"})
		if (err == nil) != (n == "quit") {
			t.Errorf("%s = \"ctrl+c\": error %v", n, err)
		}
	}
	if err := k.Remap("quit", nil); err != nil {
		t.Fatal(err)
	}
	if got := k.Interrupt().Keys(); len(got) != 1 || got[0] != "ctrl+c" {
		t.Errorf("interrupt keys %v", got)
	}
}

// TestRemap_TypingBindingsNeedAKeyThatDoesNotType: accept, cancel and the
// search line's accept and cancel act while printable keys are text; bound
// only to printable keys (accept = "y") a rename prompt could not be
// accepted, so the remap is refused. A printable key beside another, or
// no key at all, is accepted.
func TestRemap_TypingBindingsNeedAKeyThatDoesNotType(t *testing.T) {
	tests := []struct {
		name string
		keys []string
		ok   bool
	}{
		{"accept", []string{"y"}, false},
		{"cancel", []string{"q", "space"}, false},
		{"search_accept", []string{"!"}, false},
		{"search_cancel", []string{"x"}, false},
		{"accept", []string{"y", "enter"}, true},
		{"cancel", []string{"ctrl+g"}, true},
		{"accept", nil, true},
		{"yes", []string{"j"}, true},
	}
	for _, tt := range tests {
		k := keymap.DefaultKeyMap()
		err := k.Remap(tt.name, tt.keys)
		if (err == nil) != tt.ok {
			t.Errorf("%s = %v: error %v, want ok %v", tt.name, tt.keys, err, tt.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "types a character") {
			t.Errorf("%s = %v: error %q", tt.name, tt.keys, err)
		}
	}
}
