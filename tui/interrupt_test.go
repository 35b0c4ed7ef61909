package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store"
)

// noKeys is a key map with every configurable binding set to false.
func noKeys(t *testing.T) keymap.KeyMap {
	t.Helper()
	k := keymap.DefaultKeyMap()
	for _, n := range keymap.Names() {
		if err := k.Remap(n, nil); err != nil {
			t.Fatal(err)
		}
	}
	return k
}

// Issue 17 item 3: a config that unbinds every key cannot lock the user
// in: ctrl+c quits in every mode, whatever the [keys] table says.
func TestInterrupt_CtrlCQuitsInEveryMode(t *testing.T) {
	modes := []struct {
		name  string
		open  func(h *editHarness)
		check func(h *editHarness) bool // the mode is open
	}{
		{"list", func(h *editHarness) {}, func(h *editHarness) bool { return h.m.focus == focusList }},
		{"preview", func(h *editHarness) { press(h.m, "enter") }, func(h *editHarness) bool { return h.m.focus == focusPreview }},
		{"search line", func(h *editHarness) { press(h.m, "/"); typeText(h.m, "dep") }, func(h *editHarness) bool { return h.m.bar.Typing() }},
		{"help", func(h *editHarness) { press(h.m, "?") }, func(h *editHarness) bool { return h.m.hp.Open() }},
		{"reload log", func(h *editHarness) {
			apply(h.t, h.path, store.Add{Name: "first-add", Content: "x"})
			reload(h.m)
			press(h.m, "c")
		}, func(h *editHarness) bool { return h.m.chg.log.Open() }},
		{"date prompt", func(h *editHarness) { press(h.m, "f") }, func(h *editHarness) bool { return h.m.dates.prompting }},
		{"rename prompt", func(h *editHarness) { h.sel("commit-format"); press(h.m, "r") }, func(h *editHarness) bool { return h.f.Dialog() != nil }},
		{"delete question", func(h *editHarness) { h.sel("commit-format"); press(h.m, "d") }, func(h *editHarness) bool { return h.f.Dialog() != nil }},
		{"editor conflict", func(h *editHarness) {
			h.sel("commit-format")
			h.editor = appendMine
			h.during = func() { apply(h.t, h.path, store.Write{Name: "commit-format", Content: "Theirs."}) }
			press(h.m, "e")
		}, func(h *editHarness) bool { return h.f.Dialog() != nil }},
	}
	for _, md := range modes {
		t.Run(md.name, func(t *testing.T) {
			h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
			md.open(h)
			if !md.check(h) {
				t.Fatalf("%s did not open:\n%s", md.name, plainScreen(h.m))
			}
			h.m.c.keys = noKeys(t) // as a config with every binding false would
			h.m.setMode()
			if !quits(h.m, "ctrl+c") {
				t.Fatalf("ctrl+c does not quit from the %s", md.name)
			}
		})
	}
}

// Issue 17 item 3: quitting from the conflict question names the file that
// keeps the text, for Run to print once the screen is gone.
func TestInterrupt_QuitDuringConflictNamesTheKeptFile(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	h.sel("commit-format")
	h.editor = appendMine
	h.during = func() { apply(t, h.path, store.Write{Name: "commit-format", Content: "Theirs."}) }
	press(h.m, "e")
	if !quits(h.m, "ctrl+c") {
		t.Fatal("ctrl+c does not quit from the conflict question")
	}
	if m := keptPathRE.FindStringSubmatch(h.m.quitNotice); m == nil {
		t.Fatalf("quit notice %q names no kept file", h.m.quitNotice)
	}
}

// Issue 17 item 3, in a real terminal: a config that sets every binding to
// false is accepted, and ctrl+c still ends crmem, from the list and from a
// prompt (here the search line of a config that keeps only search).
func TestTmux_NoBindingsCtrlCStillQuits(t *testing.T) {
	e := newTmux(t)
	bin := buildBinary(t)
	path := copyFixture(t, "crmem/small.db")
	dir := filepath.Join(e.home, ".config", "crmem")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, keep := range []string{"", "search"} {
		var cfg strings.Builder
		cfg.WriteString("[keys]\n")
		for _, n := range keymap.Names() {
			if n != keep {
				cfg.WriteString(n + " = false\n")
			}
		}
		if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(cfg.String()), 0o600); err != nil {
			t.Fatal(err)
		}
		s := "s" + keep
		e.start(s, "unset CRMEM_CONFIG XDG_CONFIG_HOME; "+bin+" "+path+"; echo crmem-exited-$?")
		e.waitFor(s, 10*time.Second, "first screen", contains("final-note", "22 notes"))
		if keep == "search" {
			e.keys(s, "/")
			e.text(s, "q")
			e.waitFor(s, 5*time.Second, "typing", func(sc string) bool { return strings.HasPrefix(sc, "/ q") })
		} else {
			e.keys(s, "q")
		}
		e.keys(s, "C-c")
		e.waitFor(s, 5*time.Second, "exit", contains("crmem-exited-0"))
	}
}
