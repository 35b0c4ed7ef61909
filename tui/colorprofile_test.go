package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTmux_OneTmuxProbe: started inside tmux, crmem asks tmux about its
// colours once (lipgloss's package init does, before crmem's code runs),
// not a second time when the screen starts: each `tmux info` is a process
// start on the way to the first screen. A fake tmux on PATH counts the
// calls.
func TestTmux_OneTmuxProbe(t *testing.T) {
	e := newTmux(t)
	bin := buildBinary(t)
	path := copyFixture(t, "crmem/small.db")
	fake := t.TempDir()
	calls := filepath.Join(fake, "calls")
	script := "#!/bin/sh\necho \"$*\" >> '" + calls + "'\nexit 1\n"
	if err := os.WriteFile(filepath.Join(fake, "tmux"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	e.start("s", "TMUX=/fake/tmux,1,0 PATH='"+fake+"':\"$PATH\" "+bin+" '"+path+"'")
	e.waitFor("s", 10*time.Second, "first screen", contains("final-note", "22 notes"))
	data, err := os.ReadFile(calls)
	if err != nil {
		t.Fatalf("tmux was never asked (the fake is not on PATH?): %v", err)
	}
	if got := strings.Count(string(data), "\n"); got != 1 {
		t.Errorf("tmux was run %d times, want once:\n%s", got, data)
	}
}
