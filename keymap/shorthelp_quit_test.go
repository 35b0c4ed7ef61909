package keymap_test

import (
	"strings"
	"testing"

	"github.com/crmem/crmem/keymap"
)

// shortHelpText is the short help's enabled bindings as "key desc" parts.
func shortHelpText(k keymap.KeyMap) string {
	var parts []string
	for _, b := range k.ShortHelp() {
		if b.Enabled() {
			parts = append(parts, b.Help().Key+" "+b.Help().Desc)
		}
	}
	return strings.Join(parts, " • ")
}

// TestShortHelp_QuitUnboundNamesCtrlC (issue 29 item 8): with quit (and
// help) unbound, ctrl+c still quits, and the short help of the list, the
// preview and the search line says so rather than naming no way out; a
// quit of its own is shown as configured.
func TestShortHelp_QuitUnboundNamesCtrlC(t *testing.T) {
	k := keymap.DefaultKeyMap()
	for _, n := range []string{"quit", "help"} {
		if err := k.Remap(n, nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, mode := range []keymap.Mode{keymap.ModeList, keymap.ModePreview, keymap.ModeSearch} {
		k.SetMode(mode, true, false)
		if got := shortHelpText(k); !strings.HasSuffix(got, "ctrl+c quit") {
			t.Errorf("mode %d: %q", mode, got)
		}
	}
	q := keymap.DefaultKeyMap()
	if err := q.Remap("quit", []string{"Q"}); err != nil {
		t.Fatal(err)
	}
	q.SetMode(keymap.ModeList, true, false)
	if got := shortHelpText(q); !strings.Contains(got, "Q quit") || strings.Contains(got, "ctrl+c") {
		t.Errorf("quit remapped to Q: %q", got)
	}
}
