package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/export/exporttest"
)

func TestDump_PromptWritesTheReferenceTree(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	dir := filepath.Join(t.TempDir(), "book")
	press(h.m, "W")
	h.wantOverlay("dump the memory as an mdbook tree into folder: ", "/memory-book")
	press(h.m, "ctrl+u")
	typeText(h.m, dir)
	press(h.m, "enter")
	h.wantStatus("dumped 26 entries to " + dir)
	exporttest.SameTree(t, exporttest.ReadTree(t, dir), exporttest.ReadTree(t, filepath.Join("..", "testdata", "reference", "dump", "small")))
}

func TestDump_RefusesAFileAndCancels(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	press(h.m, "W", "ctrl+u")
	typeText(h.m, h.path) // the memory file itself: not a folder
	press(h.m, "enter")
	h.wantOverlay("that is a file, not a folder")
	press(h.m, "esc")
	h.wantStatus("cancelled")
	if _, err := os.Stat(filepath.Join(filepath.Dir(h.path), "memory-book")); !os.IsNotExist(err) {
		t.Fatalf("a cancelled dump wrote something: %v", err)
	}
}

// TestDumpDir_HomeFromTheEnvironment: the dump prompt expands ~ with the
// home folder the environment given to the TUI names (HOME), not the
// process's: a file there is refused as a folder.
func TestDumpDir_HomeFromTheEnvironment(t *testing.T) {
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "book"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	h := newEditHarnessHome(t, copyFixture(t, "crmem/small.db"), home)
	press(h.m, "W")
	typeText(h.m, "~/book")
	press(h.m, "enter")
	if h.f.Dialog() == nil || !strings.Contains(plainOverlay(h.m), "that is a file") {
		t.Errorf("~/book, a file in HOME %s, was taken as a folder: overlay %q, status %q", home, plainOverlay(h.m), h.status())
	}
}

func TestDelete_NarrowScreenKeepsTheResumeWarning(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	drive(h.m, func() tea.Msg { return tea.WindowSizeMsg{Width: 60, Height: 20} })
	h.sel("archive-sess-0004-1767600000000000000")
	press(h.m, "d")
	lines := h.m.helpLines()
	for _, l := range lines {
		if w := ansi.StringWidth(l); w > 60 {
			t.Fatalf("confirmation line is %d cells wide on a 60-cell screen: %q", w, l)
		}
	}
	line := ansi.Strip(strings.Join(lines, " "))
	for _, want := range []string{"delete", "bob-db", "[y/n]"} {
		if !strings.Contains(line, want) {
			t.Errorf("narrow confirmation %q lacks %q", line, want)
		}
	}
}

// TestDump_TypedPathReplacesTheSuggestion pins issue 17 item 14: W
// appended a typed absolute path to the folder it proposed
// (…/memory-book/tmp/x). The proposal is a suggestion: a path typed or
// pasted, /… or ~/…, replaces it; an editing key keeps it to edit; enter
// takes it.
func TestDump_TypedPathReplacesTheSuggestion(t *testing.T) {
	home := t.TempDir() // the home the environment names (Options.Getenv)
	abs := filepath.Join(t.TempDir(), "book")
	tests := []struct {
		name        string
		keys        []string // before typing
		typed, want string
		paste       bool // typed arrives as a paste
	}{
		{name: "absolute", typed: abs, want: abs},
		{name: "home", typed: "~/book", want: filepath.Join(home, "book")},
		{name: "pasted", typed: abs, want: abs, paste: true},
		{name: "edited", keys: []string{"end"}, typed: "-2", want: "memory-book-2"},
		{name: "backspace clears", keys: []string{"backspace"}, typed: abs, want: abs},
		{name: "as proposed", want: "memory-book"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newEditHarnessHome(t, copyFixture(t, "crmem/small.db"), home)
			press(h.m, "W")
			press(h.m, tt.keys...)
			if tt.paste {
				drive(h.m, func() tea.Msg { return tea.PasteMsg{Content: tt.typed} })
			} else {
				typeText(h.m, tt.typed)
			}
			press(h.m, "enter")
			want := tt.want
			if !filepath.IsAbs(want) {
				want = filepath.Join(filepath.Dir(h.path), want)
			}
			h.wantStatus("dumped 26 entries to " + want)
			if _, err := os.Stat(filepath.Join(want, "SUMMARY.md")); err != nil {
				t.Fatalf("no tree at %s: %v", want, err)
			}
		})
	}
}
