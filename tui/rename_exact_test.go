package tui

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/store"
)

// trickyNames are names whose invisible and control characters a cleaned
// prefill lost (issue 42 item 2): c1-⟨U+009D⟩-x became "c1-" (the OSC
// swallowed "-x"), the others lost or changed a character.
var trickyNames = []string{"c1-\u009d-x", "ctl-\x02-x", "same\u200b", "tab\tname", "cr-safe\rEVIL", "evil-\u202etxt.exe"}

// trickyMemory is a memory file of notes named trickyNames, each with the
// next one's name as its alias.
func trickyMemory(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "memory.db")
	var es []store.Entry
	for i, n := range trickyNames {
		alias := trickyNames[(i+1)%len(trickyNames)] + "-alias"
		es = append(es, store.Entry{ID: uint64(i + 1), Name: n, Aliases: []string{alias, "plain"}, Content: "note", CreatedAt: 1_700_000_000 + uint64(i)})
	}
	writeEntries(t, path, es)
	return path
}

// TestRename_EnterUntouchedChangesNothing: r then enter, and a then
// enter, write nothing on any of the names; the field shows the name with
// its invisible characters as the markers the rest of the screen uses;
// an edit keeps them (issue 42 item 2). Before, enter wrote the cleaned
// form the prompt was prefilled with: 14 of 30 names changed.
func TestRename_EnterUntouchedChangesNothing(t *testing.T) {
	for _, name := range trickyNames {
		h := newEditHarness(t, trickyMemory(t))
		before := fileBytes(t, h.path)
		h.sel(name)
		press(h.m, "r")
		if field := ansi.Strip(h.overlay()); !strings.Contains(squeeze(field), squeeze(sanitize.Name(name))) {
			t.Errorf("%q: the rename field %q does not show the name as the screen does (%q)", name, field, sanitize.Name(name))
		}
		press(h.m, "enter")
		h.wantStatus("no changes")
		press(h.m, "a", "enter")
		h.wantStatus("no changes")
		if !bytes.Equal(fileBytes(t, h.path), before) {
			t.Fatalf("%q: r enter or a enter wrote to the memory: %v", name, h.onDisk())
		}
		// moving about and back is no edit either
		press(h.m, "r", "home", "end", "left", "right", "enter")
		if !bytes.Equal(fileBytes(t, h.path), before) {
			t.Fatalf("%q: moving the cursor then enter wrote to the memory", name)
		}
		// an edit keeps the characters it does not touch: the new name
		// is written exactly, or, when the store refuses a character
		// kept, the prompt says which and writes nothing
		press(h.m, "r", "end")
		typeText(h.m, "2")
		press(h.m, "enter")
		disk := h.onDisk()
		if err := store.ValidName(name + "2"); err != nil {
			if _, ok := disk[name]; !ok || !strings.Contains(ansi.Strip(h.overlay()), "invalid name") {
				t.Errorf("%q + 2 (%v): names on disk %q, dialog %q; want the name kept and the prompt saying why", name, err, keysOf(disk), ansi.Strip(h.overlay()))
			}
			press(h.m, "esc")
		} else if _, ok := disk[name+"2"]; !ok {
			t.Errorf("%q + 2: the names on disk are %q (status %q, dialog %q)", name, keysOf(disk), h.status(), ansi.Strip(h.overlay()))
		} else {
			name += "2"
		}
		press(h.m, "a", "end")
		typeText(h.m, ", more")
		press(h.m, "enter")
		want := append(slices.Clone(disk[name].Aliases), "more")
		if got := h.onDisk()[name].Aliases; !slices.Equal(got, want) {
			t.Errorf("%q: aliases after adding one %q, want %q", name, got, want)
		}
	}
}

// keysOf is the names of a map of entries.
func keysOf(m map[string]store.Entry) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestTmux_RenameEnterChangesNothing: in a terminal, r then enter on a
// name holding a bidi control, and a then enter, leave the memory file as
// it was; the field shows the control as its marker (issue 42 item 2).
func TestTmux_RenameEnterChangesNothing(t *testing.T) {
	e := newTmux(t)
	bin := buildBinary(t)
	path := trickyMemory(t)
	before := fileBytes(t, path)
	e.start("s", bin+" "+path)
	e.waitFor("s", 10*time.Second, "the list", contains("6 notes"))
	e.keys("s", "r")
	e.waitFor("s", 5*time.Second, "the rename field", contains("evil-⟨U+202E⟩txt.exe", "esc cancel"))
	e.keys("s", "Enter")
	e.waitFor("s", 5*time.Second, "no changes", contains("no changes"))
	e.keys("s", "a")
	e.waitFor("s", 5*time.Second, "the aliases field", contains("aliases of", "esc cancel"))
	e.keys("s", "Enter")
	e.waitFor("s", 5*time.Second, "the aliases prompt closed", func(s string) bool { return !strings.Contains(s, "esc cancel") })
	if !bytes.Equal(fileBytes(t, path), before) {
		t.Fatal("r enter or a enter wrote to the memory file")
	}
}
