//go:build unix

package tui

import (
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ctrl+z stops crmem as a shell's job control expects and, once continued,
// redraws the screen (through the same settled exec as the editor).
func TestTmux_SuspendAndResume(t *testing.T) {
	e := newTmux(t)
	bin := buildBinary(t)
	path := copyFixture(t, "crmem/small.db")
	e.start("s", bin+" "+path)
	e.waitFor("s", 15*time.Second, "first screen", contains("final-note", "22 notes"))
	e.keys("s", "/")
	e.text("s", "pool")
	e.keys("s", "C-z")
	e.waitFor("s", 15*time.Second, "crmem stopped, the terminal handed back", func(s string) bool {
		return !strings.Contains(s, "22 notes")
	})
	pid, err := strconv.Atoi(strings.TrimSpace(e.tmux("display", "-p", "-t", "s", "#{pane_pid}")))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(-pid, syscall.SIGCONT); err != nil { // the pane's process group, as fg would
		t.Fatalf("SIGCONT to process group %d: %v", pid, err)
	}
	e.waitFor("s", 15*time.Second, "redrawn after continuing, the query kept", contains("22 notes", "/ pool"))
}
