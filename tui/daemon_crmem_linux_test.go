//go:build linux

package tui

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// holdAsCrmemEnv names the store TestHelperHoldAsCrmem holds as a crmem
// appending to it would.
const holdAsCrmemEnv = "CRMEM_TUI_TEST_HOLD_AS_CRMEM"

// TestHelperHoldAsCrmem is not a test: run as a child with holdAsCrmemEnv
// set, it takes crmem's lock of the store's folder and opens the store for
// writing, as another crmem mid-append does, says "ready", and holds both
// until its standard input closes.
func TestHelperHoldAsCrmem(t *testing.T) {
	path := os.Getenv(holdAsCrmemEnv)
	if path == "" {
		return
	}
	dir, err := os.Open(filepath.Dir(path))
	if err == nil {
		err = unix.Flock(int(dir.Fd()), unix.LOCK_EX)
	}
	var f *os.File
	if err == nil {
		f, err = os.OpenFile(path, os.O_RDWR, 0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		os.Exit(1)
	}
	fmt.Println("ready")
	io.Copy(io.Discard, os.Stdin)
	f.Close()
	dir.Close()
	os.Exit(0)
}

// TestDaemonCheck_AnotherCrmemIsNotTheDaemon (issue 38 §2): another crmem
// appending to the store (it holds crmem's lock of the folder and the store
// open for writing) does not make the screen read-only as if crabtalk's
// daemon ran: its append ends in moments, and a write waits for it.
func TestDaemonCheck_AnotherCrmemIsNotTheDaemon(t *testing.T) {
	path := copyStore(t, "small.crmem")
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperHoldAsCrmem$", "-test.count=1")
	cmd.Env = append(os.Environ(), holdAsCrmemEnv+"="+path)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(); cmd.Wait() })
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "ready\n" {
		t.Fatalf("helper: %q, %v", line, err)
	}
	msg, ok := storeDaemonCmd(path, "")().(daemonMsg)
	if !ok {
		t.Fatalf("storeDaemonCmd returned %T", msg)
	}
	if msg.up {
		t.Errorf("another crmem holds the store: daemonMsg = %+v, want the daemon not up", msg)
	}
}
