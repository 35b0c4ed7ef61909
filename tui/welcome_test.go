package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/store"
)

// TestWelcome_BlankMemory: a missing or empty memory greets with what the
// file is and how to begin, wrapped to any width, and the help line offers
// only the keys that act on it.
func TestWelcome_BlankMemory(t *testing.T) {
	cases := []struct {
		name  string
		path  func(t *testing.T) string
		wants []string
	}{
		{"missing folder", func(t *testing.T) string { return filepath.Join(t.TempDir(), "no", "such", "memory.db") },
			[]string{"No memory file yet: the folder", "does not exist either; the first write creates both."}},
		{"missing file", func(t *testing.T) string { return filepath.Join(t.TempDir(), "memory.db") },
			[]string{"No memory file yet at", ": the first write creates it."}},
		{"empty file", func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "memory.db")
			if err := os.WriteFile(p, store.Encode(1, nil), 0o600); err != nil {
				t.Fatal(err)
			}
			return p
		}, []string{"This memory is empty:", "holds no entries yet."}},
	}
	for _, c := range cases {
		for _, w := range []int{120, 60, 24} {
			t.Run(fmt.Sprintf("%s/%d", c.name, w), func(t *testing.T) {
				m := openModel(t, c.path(t), w, 30)
				m.enableEditing()
				screen := plainScreen(m)
				for _, line := range strings.Split(screen, "\n") {
					if ansi.StringWidth(line) > w {
						t.Errorf("line wider than %d: %q", w, line)
					}
				}
				text := strings.Join(strings.Fields(strings.ReplaceAll(screen, "┃", " ")), " ")
				for _, want := range append(c.wants, "This is an AI agent's long-term memory", "n add the first note", "? all keys") {
					if !strings.Contains(text, want) {
						t.Errorf("screen lacks %q:\n%s", want, screen)
					}
				}
				lines := strings.Split(screen, "\n")
				want := "n new note • q quit • ? help"
				if w < len(want) {
					want = "n new note • ? help" // ? help stays, the ones before it give way
				}
				if help := strings.TrimSpace(lines[len(lines)-1]); help != want {
					t.Errorf("help line %q, want only the keys that act", help)
				}
			})
		}
	}
}

// TestWelcome_GoneOnceWritten: the first entry replaces the welcome with
// the list and the usual help line; a read-only memory does not offer n.
func TestWelcome_GoneOnceWritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.db")
	m := openModel(t, path, 120, 30)
	if s := plainScreen(m); strings.Contains(s, "add the first note") || !strings.Contains(s, "q quit • ? help") {
		t.Errorf("without editing the welcome offers n, or the help line is wrong:\n%s", s)
	}
	m.enableEditing()
	apply(t, path, store.Add{Name: "first", Content: "hello"})
	reload(m)
	s := plainScreen(m)
	if strings.Contains(s, "No memory file yet") || selectedName(m) != "first" || !strings.Contains(s, "open preview") {
		t.Errorf("after the first write:\n%s", s)
	}
}

// TestTmux_Welcome: crmem on its default path, whose folder (~/.crabtalk)
// does not exist yet, shows the welcome and the short help in a real
// terminal, and q quits. (A folder named with --db that does not exist is
// refused as a likely typo: TestTmux_TypedPathsAsTheCommandLine.)
func TestTmux_Welcome(t *testing.T) {
	e := newTmux(t)
	bin := buildBinary(t)
	path := filepath.Join(e.home, ".crabtalk", "memory.db")
	e.start("s", "unset CRMEM_DB CRMEM_CONFIG XDG_CONFIG_HOME CRABTALK_HOME; "+bin+"; echo crmem-exited")
	e.waitFor("s", 20*time.Second, "the welcome", contains("No memory file yet: the folder", "n new note • q quit • ? help"))
	e.keys("s", "q")
	e.waitFor("s", 20*time.Second, "crmem to quit", contains("crmem-exited"))
	if _, err := os.Stat(filepath.Dir(path)); err == nil {
		t.Error("opening the screen created the folder")
	}
}

// TestWelcome_Small: at 40×12 the welcome still shows, whole, the keys to
// begin with and the two ways to open another memory (--demo, --db); what
// gives way to the height is the explanation.
func TestWelcome_Small(t *testing.T) {
	for _, size := range [][2]int{{40, 12}, {80, 24}} {
		m := openModel(t, filepath.Join(t.TempDir(), "memory.db"), size[0], size[1])
		m.enableEditing()
		screen := plainScreen(m)
		lines := strings.Split(screen, "\n")
		if len(lines) > size[1] {
			t.Errorf("%v: %d lines", size, len(lines))
		}
		for _, want := range []string{"n  add the first note", "?  all keys", "crmem --demo", "crmem --db PATH"} {
			found := false
			for _, l := range lines {
				if strings.Contains(l, want) {
					found = true
				}
			}
			if !found {
				t.Errorf("%v: no line holds %q whole:\n%s", size, want, screen)
			}
		}
	}
}
