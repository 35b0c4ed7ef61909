//go:build unix

package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompletion_BashTabInTerminal: in an interactive bash without the
// bash-completion package, in a real terminal (tmux), TAB after a prefix
// of an entry name completes it, and nothing says "command not found".
func TestCompletion_BashTabInTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: drives bash in a terminal")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed")
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "crmem.bash")
	if err := os.WriteFile(script, []byte(mustRun(t, "", "completion", "bash")), 0o600); err != nil {
		t.Fatal(err)
	}
	tm := newPrivateTmux(t)
	tm.run("new-session", "-d", "-s", "s", "-x", "120", "-y", "20",
		"env", "-i", "HOME="+testHome, "TERM=xterm-256color", "TMPDIR="+dir, "CRMEM_CONFIG=/nonexistent", "PS1=$ ",
		"PATH="+filepath.Dir(crmemBin)+":/usr/bin:/bin", bash, "--norc", "--noprofile")
	capture := func() string { return tm.run("capture-pane", "-p", "-t", "s") }
	// Typed before bash has drawn its prompt, the line can be lost or
	// echoed twice (seen on a machine at load 10 and more).
	waitFor(t, "bash's first prompt", func() bool { return strings.HasPrefix(capture(), "$") })
	tm.run("send-keys", "-t", "s", "-l", "source "+script)
	tm.run("send-keys", "-t", "s", "Enter")
	waitFor(t, "the prompt after source", func() bool { return strings.Contains(capture(), script+"\n$") })
	tm.run("send-keys", "-t", "s", "-l", "crmem --demo show deploy-s")
	tm.run("send-keys", "-t", "s", "Tab")
	// capture-pane leaves out the space after the completed name.
	waitFor(t, "the completed name", func() bool { return strings.Contains(capture(), "$ crmem --demo show deploy-steps\n") })
	if screen := capture(); strings.Contains(screen, "not found") {
		t.Errorf("bash complained:\n%s", screen)
	}
}
