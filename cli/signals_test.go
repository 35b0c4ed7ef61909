//go:build unix

package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// privateTmux is a tmux server on a socket inside a test's temp folder
// (named relative to that folder, so its length does not matter).
type privateTmux struct {
	t   *testing.T
	dir string
}

// newPrivateTmux starts nothing yet; the server it names is killed and its
// socket removed when the test ends. Without tmux the test is skipped.
func newPrivateTmux(t *testing.T) *privateTmux {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("skipped: tmux is not installed and this test drives crmem in a terminal through it (install tmux to run it)")
	}
	p := &privateTmux{t: t, dir: t.TempDir()}
	t.Cleanup(func() {
		kill := exec.Command("tmux", "-S", "sock", "kill-server")
		kill.Dir = p.dir
		_ = kill.Run() // the server may already be gone
		os.Remove(filepath.Join(p.dir, "sock"))
	})
	return p
}

// run runs one tmux command on the private server.
func (p *privateTmux) run(args ...string) string {
	p.t.Helper()
	cmd := exec.Command("tmux", append([]string{"-S", "sock", "-f", "/dev/null"}, args...)...)
	cmd.Dir = p.dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		p.t.Fatalf("tmux %q: %v\n%s", args, err, out)
	}
	return string(out)
}

// waitFor polls until ok holds; what names the wait in the failure.
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second) // generous: no timing is asserted
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// demoFolders lists the crmem-demo-* folders in dir.
func demoFolders(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "crmem-demo-*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestDemo_Signals runs `crmem --demo` in a terminal, ends it by SIGHUP,
// SIGTERM or q, and checks the exit status (128+signal, 0 for q) and that
// the demo folder it created in $TMPDIR is gone.
func TestDemo_Signals(t *testing.T) {
	cases := []struct {
		name   string
		sig    syscall.Signal // 0: press q; -1: end the terminal (kill its tmux server)
		then   syscall.Signal // a second signal right after the first (0: none)
		status int            // -1: not recorded (the terminal is gone)
	}{
		{"SIGHUP", syscall.SIGHUP, 0, 129},
		{"SIGTERM", syscall.SIGTERM, 0, 143},
		{"q", 0, 0, 0},
		// The terminal's hang-up and a kill together (pkill -f matching the
		// terminal and crmem): the second signal must not end crmem before
		// it has removed the demo folder.
		{"SIGHUP then SIGTERM", syscall.SIGHUP, syscall.SIGTERM, 129},
		// The same with the terminal itself gone first (its tmux server
		// killed): the status goes unrecorded, the folder must still go.
		{"terminal gone, then SIGTERM", -1, syscall.SIGTERM, -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tm := newPrivateTmux(t)
			work, tmp := t.TempDir(), t.TempDir()
			script := filepath.Join(work, "run.sh")
			// The inner sh records its pid, then becomes crmem; the outer one
			// records crmem's exit status.
			body := `sh -c 'echo $$ > "$1/pid.tmp" && mv "$1/pid.tmp" "$1/pid"; exec "$2" --demo' sh "$WORK" "$BIN"
echo $? > "$WORK/status.tmp" && mv "$WORK/status.tmp" "$WORK/status"
exec sleep 600
`
			if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
				t.Fatal(err)
			}
			tm.run("new-session", "-d", "-s", "demo", "-x", "100", "-y", "30",
				"env", "WORK="+work, "BIN="+crmemBin, "TMPDIR="+tmp, "HOME="+testHome, "TERM=xterm-256color", "NO_COLOR=1", "sh", script)
			waitFor(t, "the demo screen", func() bool {
				return strings.Contains(tm.run("capture-pane", "-p", "-t", "demo"), "deploy-steps")
			})
			if n := len(demoFolders(t, tmp)); n != 1 {
				t.Fatalf("%d demo folders in TMPDIR while running, want 1", n)
			}
			if c.sig == 0 {
				tm.run("send-keys", "-t", "demo", "q")
			} else {
				b, err := os.ReadFile(filepath.Join(work, "pid"))
				if err != nil {
					t.Fatal(err)
				}
				pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
				if err != nil {
					t.Fatal(err)
				}
				if c.sig == -1 {
					tm.run("kill-server")
				} else if err := syscall.Kill(pid, c.sig); err != nil {
					t.Fatal(err)
				}
				if c.then != 0 {
					if err := syscall.Kill(pid, c.then); err != nil {
						t.Fatal(err)
					}
				}
			}
			if c.status < 0 {
				waitFor(t, "the demo folder to be removed", func() bool { return len(demoFolders(t, tmp)) == 0 })
				return
			}
			var status []byte
			waitFor(t, "crmem to exit", func() bool {
				var err error
				status, err = os.ReadFile(filepath.Join(work, "status"))
				return err == nil
			})
			got := strings.TrimSpace(string(status))
			if c.then != 0 && got == strconv.Itoa(128+int(c.then)) {
				got = strconv.Itoa(c.status) // the two may arrive in either order
			}
			if got != strconv.Itoa(c.status) {
				t.Errorf("exit status %s, want %d; screen:\n%s", got, c.status, tm.run("capture-pane", "-p", "-t", "demo"))
			}
			if left := demoFolders(t, tmp); len(left) != 0 {
				t.Errorf("demo folder left behind: %v", left)
			}
		})
	}
}
