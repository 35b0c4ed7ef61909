//go:build linux

package tui

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/store/owner"
)

// On crabtalk's store the daemon check is owner.Check: a process holding
// the store open for writing is the daemon running, named, though its
// socket is gone (as in its last checkpoint); the socket beside the store
// answering is too. On a v1 file it is the socket alone, as before.
func TestDaemonCheck_Store(t *testing.T) {
	path := copyStore(t, "small.crmem")
	check := func() daemonMsg {
		t.Helper()
		msg, ok := storeDaemonCmd(path, "")().(daemonMsg)
		if !ok {
			t.Fatalf("storeDaemonCmd returned %T", msg)
		}
		return msg
	}
	if msg := check(); msg.up {
		t.Fatalf("nobody holds the store, daemonMsg = %+v", msg)
	}

	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	child := exec.Command("sleep", "30")
	child.ExtraFiles = []*os.File{f}
	if err := child.Start(); err != nil {
		t.Skipf("cannot run sleep: %v", err)
	}
	f.Close()
	t.Cleanup(func() { child.Process.Kill(); child.Wait() })
	msg := check()
	if !msg.up || msg.running == nil || msg.running.PID != child.Process.Pid {
		t.Errorf("a child holds the store for writing: daemonMsg = %+v, want it up and named (pid %d)", msg, child.Process.Pid)
	}
	m := openModel(t, path, 120, 30)
	drive(m, m.daemonCheck())
	if !m.st.daemon {
		t.Error("the model does not know the daemon runs")
	}
	child.Process.Kill()
	child.Wait()
	if msg := check(); msg.up {
		t.Errorf("the child ended: daemonMsg = %+v", msg)
	}

	sock := owner.Socket(path)
	if err := os.Mkdir(filepath.Dir(sock), 0o755); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Skipf("unix sockets unavailable: %v", err)
	}
	defer l.Close()
	if msg := check(); !msg.up || msg.running == nil || msg.running.Socket != sock {
		t.Errorf("the socket beside the store answers: daemonMsg = %+v", msg)
	}

	v1m := openModel(t, copyFixture(t, "crmem/small.db"), 120, 30)
	v1m.st.daemonSock = sock
	if msg, _ := v1m.daemonCheck()().(daemonMsg); !msg.up || msg.running != nil {
		t.Errorf("a v1 file with the daemon's socket answering: daemonMsg = %+v", msg)
	}
}

// TestDaemonCheck_EveryTickOnAStore: on crabtalk's store, which is
// read-only while the daemon runs and writable once it stops, every poll
// tick checks (a lease asked of the kernel, ~15 µs), so the screen
// follows the daemon within a tick; a v1 file, where the check only
// warns, is checked every daemonEvery ticks.
func TestDaemonCheck_EveryTickOnAStore(t *testing.T) {
	checks := func(m *Model) int {
		t.Helper()
		msgs := make(chan tea.Msg, 64)
		var wg sync.WaitGroup
		runCmds(m.polled(), msgs, &wg) // the tick itself waits a second: not waited for
		n := 0
		for deadline := time.After(500 * time.Millisecond); ; {
			select {
			case msg := <-msgs:
				if _, ok := msg.(daemonMsg); ok {
					n++
				}
			case <-deadline:
				return n
			}
		}
	}
	store := openModel(t, copyStore(t, "small.crmem"), 120, 30)
	store.w.ticks = 0 // the next tick is not a daemonEvery'th
	if n := checks(store); n != 1 {
		t.Errorf("a store's poll tick ran %d daemon checks, want 1", n)
	}
	v1 := openModel(t, copyFixture(t, "crmem/small.db"), 120, 30)
	v1.w.ticks = 0
	if n := checks(v1); n != 0 {
		t.Errorf("a v1 file's first poll tick ran %d daemon checks, want 0 (every %d ticks)", n, daemonEvery)
	}
}
