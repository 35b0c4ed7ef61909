package tui

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crmem/crmem/store/crabdb"
)

// privateTmux is a tmux server on a socket inside the test's temp folder
// (given relative to it, so a long TMPDIR cannot exceed the socket path
// limit); the server is killed and the socket removed when the test ends.
type privateTmux struct {
	t   *testing.T
	dir string
}

// newPrivateTmux starts nothing yet; it skips the test without tmux.
func newPrivateTmux(t *testing.T) *privateTmux {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: the tmux tests need it")
	}
	p := &privateTmux{t: t, dir: t.TempDir()}
	t.Cleanup(func() {
		c := exec.Command("tmux", "-S", "sock", "kill-server")
		c.Dir = p.dir
		c.Run()
		os.Remove(filepath.Join(p.dir, "sock"))
	})
	return p
}

// run runs a tmux command on the private server.
func (p *privateTmux) run(args ...string) string {
	p.t.Helper()
	c := exec.Command("tmux", append([]string{"-S", "sock", "-f", "/dev/null"}, args...)...)
	c.Dir = p.dir
	out, err := c.CombinedOutput()
	if err != nil {
		p.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// waitFor polls the pane until ok holds; the deadline is generous (no
// timing is asserted, a loaded machine is slow).
func (p *privateTmux) waitFor(what string, ok func(string) bool) string {
	p.t.Helper()
	var last string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(25 * time.Millisecond) {
		if last = p.run("capture-pane", "-p", "-t", "s"); ok(last) {
			return last
		}
	}
	p.t.Fatalf("%s: not seen; screen:\n%s", what, last)
	return ""
}

// TestTmux_StoreSearchDepl opens small.crmem, types "depl" and sees
// deploy-steps first, as the store's recall ranks depl*; a write key is
// refused; an entry the daemon appends appears.
func TestTmux_StoreSearchDepl(t *testing.T) {
	p := newPrivateTmux(t)
	bin := buildBinary(t)
	path := copyStore(t, "small.crmem")
	home := t.TempDir()
	p.run("new-session", "-d", "-s", "s", "-x", "120", "-y", "40",
		"env", "HOME="+home, "TERM=xterm-256color", "NO_COLOR=1", "sh", "-c", bin+" '"+path+"'; sleep 60")
	p.waitFor("first screen", func(s string) bool {
		return strings.Contains(s, "release-checklist") && strings.Contains(s, "3 archives")
	})
	p.run("send-keys", "-t", "s", "/")
	p.run("send-keys", "-t", "s", "-l", "depl")
	s := p.waitFor("depl searched as depl*", func(s string) bool {
		return strings.Contains(s, `store recall "depl*"`) && cardTitle(s) == "deploy-steps"
	})
	first := -1
	for i, line := range strings.Split(s, "\n") {
		if i > 1 && strings.Contains(line, "deploy-steps") {
			first = i
			break
		}
	}
	if first < 0 || strings.Index(s, "deploy-steps") > strings.Index(s, "long-note") {
		t.Errorf("deploy-steps is not first:\n%s", s)
	}
	before, _ := os.ReadFile(path)
	p.run("send-keys", "-t", "s", "Enter")
	p.run("send-keys", "-t", "s", "e")
	p.waitFor("write refused", func(s string) bool { return strings.Contains(s, "crmem opens crabtalk's store read-only") })
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("the store changed")
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(storeRecord(crabdb.OpPut, crabdb.ColMemory, "local/memory/zz-appended",
		`{"name":"zz-appended","kind":"note","content":"depl","aliases":[],"created_at":"2026-08-21T10:00:00+00:00"}`))
	f.Close()
	p.waitFor("reloaded", func(s string) bool { return strings.Contains(s, "23 notes") || strings.Contains(s, "23 N ·") })
	p.run("send-keys", "-t", "s", "Escape") // the appended entry is not in the stored index: list everything
	p.waitFor("appended entry listed", func(s string) bool { return strings.Contains(s, "zz-appended") })
}
