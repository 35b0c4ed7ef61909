package tui

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/face/editor"
)

// badStarts are the memories the screen cannot open at start: every
// invalid fixture of both formats, and paths that are no regular file.
// Each returns the path to open.
func badStarts(t *testing.T) map[string]func(t *testing.T) string {
	t.Helper()
	cases := map[string]func(t *testing.T) string{
		"directory": func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "memory.db")
			if err := os.Mkdir(p, 0o700); err != nil {
				t.Fatal(err)
			}
			return p
		},
		"fifo": func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "memory.db")
			if err := mkfifo(p); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			return p
		},
		"device": func(t *testing.T) string { return os.DevNull },
		"link to a device": func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "memory.db")
			if err := os.Symlink("/dev/zero", p); err != nil {
				t.Fatal(err)
			}
			return p
		},
		"dangling link loop": func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "memory.db")
			if err := os.Symlink(p, p); err != nil {
				t.Fatal(err)
			}
			return p
		},
	}
	for _, dir := range []string{"bad", filepath.Join("crabdb", "bad")} {
		names, err := filepath.Glob(filepath.Join("..", "testdata", "reference", dir, "*"))
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range names {
			base := filepath.Base(n)
			if strings.HasSuffix(base, ".json") {
				continue // the fixtures' expectations
			}
			rel := filepath.Join(dir, base)
			cases[rel] = func(t *testing.T) string { return copyFixture(t, rel) }
		}
	}
	if runtime.GOOS != "windows" && os.Geteuid() != 0 { // root reads anything
		cases["unreadable"] = func(t *testing.T) string {
			p := copyFixture(t, "crmem/small.db")
			if err := os.Chmod(p, 0); err != nil {
				t.Fatal(err)
			}
			return p
		}
	}
	return cases
}

// TestStart_UnopenableMemoryKeepsTheScreenUsable pins issue 27 item 1 over
// every bad fixture of both formats and the paths that are no regular
// file: a memory the screen cannot open at start (a bad magic, an unsupported
// version, a FIFO, a directory, a device, …) panicked in the editing
// layer's open handler (a nil source's Features). The screen must instead
// say why where the list would be, name the path, and stay usable: every
// key does nothing harmful, help opens, q quits.
func TestStart_UnopenableMemoryKeepsTheScreenUsable(t *testing.T) {
	for name, mk := range badStarts(t) {
		t.Run(name, func(t *testing.T) {
			path := mk(t)
			opts := Options{Path: path, SessionsDir: t.TempDir()}
			ed := editor.Options{TempDir: t.TempDir()}
			m := newModel(config{path: path, style: "dark", noColor: true, now: func() time.Time { return testNow }, loc: time.UTC, after: noTimer,
				ed: newEditing(opts, ed, nil)})
			drive(m, func() tea.Msg { return tea.WindowSizeMsg{Width: 120, Height: 40} })
			done := make(chan struct{})
			go func() { defer close(done); drive(m, openCmd(path, "")) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("the open did not return (blocked on the file?)")
			}
			if m.c.db != nil { // an odd file crabtalk reads too (ok-*, a torn tail): usable as any
				requireUsable(t, m, []string{"j", "k", "g", "G", "tab", "/", "esc", "s", "enter", "esc"})
				return
			}
			pane := squeeze(ansi.Strip(m.listPane(m.c.listWidth(), m.bodyHeight())))
			for _, want := range []string{"crmemcannotopen", squeeze(displayPath(path, m.home)), squeeze(m.openErr)} {
				if m.openErr == "" || !strings.Contains(pane, want) {
					t.Fatalf("the list pane does not say why the memory cannot be opened (%q missing):\n%s", want, plainScreen(m))
				}
			}
			if help := ansi.Strip(m.shortHelp()); strings.Contains(help, "edit") || !strings.Contains(help, "quit") {
				t.Fatalf("the short help offers keys that need an open memory, or not quit: %q", help)
			}
			keys := make([]string, 0, 2*len(everyKey))
			for _, k := range everyKey {
				keys = append(keys, k, "esc")
			}
			requireUsable(t, m, keys)
		})
	}
}

// requireUsable presses keys, then requires that ? opens the help and q
// quits.
func requireUsable(t *testing.T, m *Model, keys []string) {
	t.Helper()
	for _, k := range keys {
		press(m, k)
	}
	press(m, "?")
	if !m.hp.Open() {
		t.Fatalf("? does not open the help:\n%s", plainScreen(m))
	}
	press(m, "?")
	_, cmd := m.Update(keyMsg("q"))
	if !cmdQuits(cmd) {
		t.Fatalf("q does not quit:\n%s", plainScreen(m))
	}
}

// everyKey is a key of every kind the default map binds, and some it
// does not: the screen on a memory it could not open must take them all.
var everyKey = []string{
	"j", "k", "g", "G", "enter", "tab", "/", "d", "D", "e", "n", "r", "a", "m", "*", "u", "U",
	"o", "O", "s", "S", "y", "x", "X", "c", "f", "F", "t", "T", "w", "W", "l", "L", "h", "H",
	"R", "p", "P", "v", "V", "z", "Z", "i", "b", "1", "2", "3", "!", "ctrl+e", "ctrl+s", " ", "left", "right", "pgdown", "pgup",
}

// TestStart_UnreadableStoreGivesBothReasons: a file named like crabtalk's
// store that neither reader takes gets, at the screen's start, both
// readers' reasons as the command line gives them (open.Unreadable), not
// the CRMEM v1 reader's alone (seen: "bad memory file format: truncated
// body" for a store whose header's index length runs past the end).
func TestStart_UnreadableStoreGivesBothReasons(t *testing.T) {
	for name, want := range map[string]string{
		"bad/huge-index-len.crmem": "crabdb: snapshot of 18446744073709551615 bytes runs past the end of the file",
		"bad/short-header.crmem":   "crabdb: file shorter than its header (nor a CRMEM v1 memory file",
		"bad/big-index-len.crmem":  "crabdb: snapshot of 1099511627776 bytes runs past the end of the file",
	} {
		t.Run(name, func(t *testing.T) {
			path := copyStore(t, name)
			m := newModel(config{path: path, style: "dark", noColor: true, now: func() time.Time { return testNow }, loc: time.UTC, after: noTimer})
			drive(m, func() tea.Msg { return tea.WindowSizeMsg{Width: 120, Height: 40} })
			drive(m, openCmd(path, ""))
			if m.c.db != nil || !strings.Contains(m.openErr, want) {
				t.Errorf("open error %q, want %q", m.openErr, want)
			}
		})
	}
}
