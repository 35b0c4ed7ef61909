//go:build unix

package tui

import (
	"strings"
	"testing"
	"time"
)

// ctrl+z stops crmem as a shell's job control expects and, once
// continued with fg, redraws the screen (through the same settled exec as
// the editor). crmem runs under an interactive bash, as a person runs it:
// without a shell's job control its process group is orphaned, the kernel
// discards the stop, and a SIGCONT sent before crmem waits for it was lost
// (the test failed about one run in four under load).
func TestTmux_SuspendAndResume(t *testing.T) {
	e := newTmux(t)
	bin := buildBinary(t)
	path := copyFixture(t, "crmem/small.db")
	e.start("s", "PS1='shell$ ' bash --norc --noprofile -i")
	e.waitFor("s", 15*time.Second, "the shell's prompt", contains("shell$"))
	e.text("s", bin+" "+path)
	e.keys("s", "Enter")
	e.waitFor("s", 15*time.Second, "first screen", contains("final-note", "22 notes"))
	e.keys("s", "/")
	e.text("s", "pool")
	e.keys("s", "C-z")
	e.waitFor("s", 15*time.Second, "crmem stopped, the terminal handed back to the shell", func(s string) bool {
		return !strings.Contains(s, "22 notes") && strings.Contains(s, "Stopped")
	})
	e.text("s", "fg")
	e.keys("s", "Enter")
	e.waitFor("s", 15*time.Second, "redrawn after fg, the query kept", contains("22 notes", "/ pool"))
}
