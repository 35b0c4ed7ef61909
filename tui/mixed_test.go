package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/part"
)

// TestMixedScript_MarkedWhereShown: "dеploy-steps" (Cyrillic е) and
// "rοllback" (Greek ο) are told from "deploy-steps" and "rollback"
// wherever the screen shows them: the list marks the row, the card, the
// delete question and the rename and aliases prompts say which letter
// (issue 42 item 4). Before, only L flagged them.
func TestMixedScript_MarkedWhereShown(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.db")
	writeEntries(t, path, []store.Entry{
		{ID: 1, Name: "deploy-steps", Content: "a", CreatedAt: 1_700_000_000},
		{ID: 2, Name: "dеploy-steps", Content: "b", CreatedAt: 1_700_000_001},
		{ID: 3, Name: "rollback", Content: "c", CreatedAt: 1_700_000_002},
		{ID: 4, Name: "rοllback", Content: "d", CreatedAt: 1_700_000_003},
	})
	for _, c := range []struct{ name, letter string }{{"dеploy-steps", "е U+0435 CYRILLIC"}, {"rοllback", "ο U+03BF GREEK"}} {
		for _, w := range []int{60, 120} {
			h := newEditHarness(t, path)
			drive(h.m, resizeCmd(w, 30))
			h.sel(c.name)
			rows := map[string]string{}
			for _, l := range strings.Split(ansi.Strip(h.m.listPane(h.m.c.listWidth(), 10)), "\n") {
				for _, n := range []string{"deploy-steps", "dеploy-steps", "rollback", "rοllback"} {
					if strings.Contains(l, n) {
						rows[n] = l
					}
				}
			}
			plain := strings.NewReplacer("е", "e", "ο", "o").Replace(c.name)
			if !strings.Contains(rows[c.name], c.name+part.MixedMark) || strings.Contains(rows[plain], "!") {
				t.Errorf("at %d columns the list rows read %q and %q; want %q marked, %q not", w, rows[c.name], rows[plain], c.name, plain)
			}
			if !h.m.c.twoPanes() {
				press(h.m, "enter") // the card alone
			}
			if screen := ansi.Strip(h.m.screen()); !strings.Contains(squeeze(screen), squeeze(c.letter)) {
				t.Errorf("at %d columns the card does not say %q:\n%s", w, c.letter, screen)
			}
			if !h.m.c.twoPanes() {
				press(h.m, "esc")
			}
			for _, k := range []string{"d", "r", "a"} {
				press(h.m, k)
				if o := ansi.Strip(h.overlay()); !strings.Contains(squeeze(o), squeeze(c.letter)) {
					t.Errorf("at %d columns %s: %q does not say %q", w, k, o, c.letter)
				}
				press(h.m, "esc")
			}
			h.sel(plain)
			press(h.m, "d")
			if o := ansi.Strip(h.overlay()); strings.Contains(o, "mixes scripts") {
				t.Errorf("the question about %q says it mixes scripts: %q", plain, o)
			}
			press(h.m, "esc")
		}
	}
}
