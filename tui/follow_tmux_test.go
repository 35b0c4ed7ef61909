package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crmem/crmem/store"
)

// manyEntries is a memory of n notes created a minute apart.
func manyEntries(n int) []store.Entry {
	entries := make([]store.Entry, n)
	for i := range entries {
		entries[i] = store.Entry{ID: uint64(i + 1), Name: fmt.Sprintf("note-%05d", i+1), Kind: store.Note,
			CreatedAt: uint64(testNow.Unix()) - uint64(n-i)*60, Content: fmt.Sprintf("note number %d", i+1), Aliases: []string{}}
	}
	return entries
}

// TestTmux_FollowAgentAtTheBottomOf10k: at the bottom of a 10k list, an
// external write is named in the status line and marked, and `.` jumps to
// it at the top.
func TestTmux_FollowAgentAtTheBottomOf10k(t *testing.T) {
	e := newTmux(t)
	bin := buildBinary(t)
	path := filepath.Join(t.TempDir(), "memory.db")
	writeEntries(t, path, manyEntries(10000))
	e.start("s", bin+" "+path)
	e.waitFor("s", 10*time.Second, "first screen", contains("note-10000", "1/10,000"))
	e.keys("s", "G")
	e.waitFor("s", 5*time.Second, "bottom", contains("10,000/10,000"))

	apply(t, path, store.Add{Name: "zz-agent-wrote", Kind: store.Archive, Content: "the agent's latest archive"})
	e.waitFor("s", 5*time.Second, "reload named", contains("reloaded: +1 zz-agent-wrote", "10,001/10,001"))
	if s := e.screen("s"); listShows(s, "zz-agent-wrote") {
		t.Errorf("the new entry is listed on screen before . although the list is at the bottom:\n%s", s)
	}
	e.keys("s", ".")
	s := e.waitFor("s", 5*time.Second, "jumped", func(s string) bool { return cardTitle(s) == "zz-agent-wrote" })
	t.Logf(". to its frame (tmux polling included): %v", s)
	if !strings.Contains(e.screen("s"), "1/10,001") {
		t.Errorf("position after .:\n%s", e.screen("s"))
	}
}

// TestTmux_ConfigRemapsQuitAndSort: a config file that sorts by name and
// moves quit to Q: q does nothing, the help shows Q, Q quits.
func TestTmux_ConfigRemapsQuitAndSort(t *testing.T) {
	e := newTmux(t)
	bin := buildBinary(t)
	path := copyFixture(t, "crmem/small.db")
	dir := filepath.Join(e.home, ".config", "crmem")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := "sort = \"name\"\n\n[keys]\nquit = \"Q\"\n"
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	e.start("s", "unset CRMEM_CONFIG XDG_CONFIG_HOME; "+bin+" "+path+"; echo crmem-exited")
	e.waitFor("s", 10*time.Second, "sorted by name", func(s string) bool {
		return strings.Contains(s, "all · name") && cardTitle(s) == "alice-preferences"
	})
	e.keys("s", "q")
	e.keys("s", "?")
	e.waitFor("s", 5*time.Second, "help after q", func(s string) bool { return strings.Contains(strings.Join(strings.Fields(s), " "), "Q quit") })
	e.keys("s", "?") // not esc: esc and a quick Q would read as alt+Q
	e.waitFor("s", 5*time.Second, "help closed", func(s string) bool { return !strings.Contains(s, "close help") })
	e.keys("s", "Q")
	e.waitFor("s", 5*time.Second, "exit", contains("crmem-exited"))
}

// TestTmux_PagerRestoresScreen: v hands the terminal to $PAGER with the
// content, and the screen comes back as it was when the pager exits.
func TestTmux_PagerRestoresScreen(t *testing.T) {
	e := newTmux(t)
	bin := buildBinary(t)
	path := copyFixture(t, "crmem/small.db")
	pager := filepath.Join(t.TempDir(), "pager.sh")
	script := "#!/bin/sh\ncat\necho '-- end of pager, press enter --'\nread x </dev/tty\n"
	if err := os.WriteFile(pager, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	e.start("s", "PAGER="+pager+" "+bin+" "+path)
	// The card shows the content as text until its markdown rendering
	// (off the update loop) arrives, indented by the style's margin: the
	// screen to compare with is the rendered one.
	e.waitFor("s", 10*time.Second, "first screen, rendered", func(s string) bool {
		return cardTitle(s) == "final-note" && !strings.Contains(s, "indexing") && strings.Contains(s, "┃  Added after removals")
	})
	before := panes(e.screen("s"))
	e.keys("s", "v")
	e.waitFor("s", 5*time.Second, "pager", func(s string) bool {
		return strings.Contains(s, "-- end of pager, press enter --") && !strings.Contains(s, "22 notes")
	})
	e.keys("s", "Enter")
	e.waitFor("s", 5*time.Second, "the panes restored as they were", func(s string) bool {
		return panes(s) == before && strings.Contains(s, "22 notes") && !strings.Contains(s, "end of pager")
	})
}

// panes is the screen without its last three lines (status and help,
// where transient messages come and go).
func panes(screen string) string {
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	return strings.Join(lines[:max(len(lines)-3, 0)], "\n")
}

// listShows reports whether a list row of the screen holds name.
func listShows(screen, name string) bool {
	lines := strings.Split(screen, "\n")
	for _, l := range lines[1:max(len(lines)-3, 1)] {
		left, _, _ := strings.Cut(l, "│")
		if left, _, _ = strings.Cut(left, "┃"); strings.Contains(left, name) {
			return true
		}
	}
	return false
}

// TestTmux_CopyReachesTheClipboard: y and Y set tmux's clipboard through
// OSC 52 (tmux with set-clipboard on takes the sequence as a paste buffer).
func TestTmux_CopyReachesTheClipboard(t *testing.T) {
	e := newTmux(t)
	bin := buildBinary(t)
	path := filepath.Join(t.TempDir(), "memory.db")
	writeEntries(t, path, []store.Entry{{ID: 1, Name: "clip-me", Kind: store.Note, CreatedAt: 1767265200, Aliases: []string{},
		Content: "first line\nsecond \x1b[31mred\x1b[0m line"}})
	e.start("s", bin+" "+path)
	e.tmux("set-option", "-g", "set-clipboard", "on")
	e.waitFor("s", 10*time.Second, "first screen", func(s string) bool { return cardTitle(s) == "clip-me" })
	e.keys("s", "y")
	e.waitFor("s", 5*time.Second, "name copied", func(s string) bool {
		return strings.Contains(s, "copied the name clip-me (7 bytes)") && e.clipboard() == "clip-me"
	})
	e.keys("s", "Y")
	e.waitFor("s", 5*time.Second, "content copied", func(s string) bool {
		return strings.Contains(s, "copied the content of clip-me") && e.clipboard() == "first line\nsecond ⟨U+001B⟩[31mred⟨U+001B⟩[0m line" // as shown
	})
}

// clipboard is tmux's newest paste buffer, "" while there is none.
func (e *tmuxEnv) clipboard() string {
	if strings.TrimSpace(e.tmux("list-buffers")) == "" {
		return ""
	}
	return e.tmux("show-buffer")
}
