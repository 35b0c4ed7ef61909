//go:build unix

package crabdb

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/crmem/crmem/store"
)

// TestHelperSignalled is not a test: it is the child side of
// TestAppend_SignalWaitsForTheAppend, and returns at once in a normal run.
// It appends one entry, stopping once the reserve is written until its
// parent says go (a line on stdin), then says "saved" and waits for stdin
// to end: only a signal ends it (the signal held during the append acts
// as the append ends, most often before "saved").
func TestHelperSignalled(t *testing.T) {
	if os.Getenv(helperEnv) != "signalled" {
		return
	}
	db, err := OpenDB(os.Getenv("CRMEM_HELPER_PATH"), store.Options{Guard: passGuard, Index: store.IndexOnDemand})
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		os.Exit(1)
	}
	in := bufio.NewScanner(os.Stdin)
	db.Backend().(*Source).f.hooks = appendHooks{split: 64, afterStep: func(step int) {
		if step == stepReserved {
			fmt.Println("reserved")
			in.Scan()
		}
	}}
	if _, err := db.Apply(store.Add{Name: "signalled", Content: "written whole whatever the signal"}); err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		os.Exit(1)
	}
	fmt.Println("saved")
	for in.Scan() {
	}
	os.Exit(0)
}

// TestAppend_SignalWaitsForTheAppend sends SIGINT, SIGTERM and SIGHUP to
// a crmem appending to a store, once its reserve is written: the append
// goes on to its end (the entry whole, the file as crabtalk's own code
// writes it, no note left), and only then does the signal end the process,
// as it would have (killed by it: a shell's status 128+signal).
func TestAppend_SignalWaitsForTheAppend(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			if signal.Ignored(sig) {
				t.Skipf("%v is ignored here (nohup): the child would inherit that", sig)
			}
			path := copyBefore(t, t.TempDir(), "store.crmem")
			before, _ := os.ReadFile(path)
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperSignalled$", "-test.count=1")
			cmd.Env = append(os.Environ(), helperEnv+"=signalled", "CRMEM_HELPER_PATH="+path)
			cmd.Stderr = os.Stderr
			stdin, err := cmd.StdinPipe()
			must(t, err)
			out, err := cmd.StdoutPipe()
			must(t, err)
			must(t, cmd.Start())
			lines := bufio.NewScanner(out)
			if !lines.Scan() || lines.Text() != "reserved" {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("child said %q", lines.Text())
			}
			must(t, cmd.Process.Signal(sig))
			fmt.Fprintln(stdin, "go")
			for lines.Scan() { // "saved", unless the signal ends it first
			}
			err = cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("child ended with %v, want killed by %v", err, sig)
			}
			ws := ee.Sys().(syscall.WaitStatus)
			if !ws.Signaled() || ws.Signal() != sig {
				t.Fatalf("child ended with %v (status %d), want killed by %v (128+%d)", err, ws.ExitStatus(), sig, sig)
			}
			after, _ := os.ReadFile(path)
			if !bytes.HasPrefix(after, before) || len(after) == len(before) {
				t.Fatalf("the append did not land whole: %d bytes, before %d", len(after), len(before))
			}
			f, err := Open(path)
			must(t, err)
			if w := f.Store().Warnings(); len(w) > 0 {
				t.Errorf("warnings %q", w)
			}
			if _, ok := f.Store().Get(ColMemory, MemoryKey("signalled")); !ok {
				t.Error("the entry is not in the store")
			}
			if _, err := os.Stat(IntentPath(path)); err == nil {
				t.Error("the note is left")
			}
			crabtalkReads(t, path, map[string]string{"signalled": "written whole whatever the signal"})
		})
	}
}

// TestWaitAppends: WaitAppends, which the end of every crmem run calls,
// returns only once an append under way (here the screen's, in another
// goroutine, held after its reserve) is over.
func TestWaitAppends(t *testing.T) {
	path := copyBefore(t, t.TempDir(), "store.crmem")
	f, err := Open(path)
	must(t, err)
	reserved, resume := make(chan struct{}), make(chan struct{})
	var trimmed atomic.Bool
	f.hooks.afterStep = func(step int) {
		switch step {
		case stepReserved:
			close(reserved)
			<-resume
		case stepTrimmed:
			trimmed.Store(true)
		}
	}
	b := f.Store().NewBatch()
	must(t, b.PutMemory(Entry{Name: "n", Kind: "note", Content: "the screen's write", CreatedAt: "2026-01-01T00:00:00+00:00"}))
	appended := make(chan error, 1)
	go func() { appended <- f.Append(b) }()
	<-reserved
	waited := make(chan bool, 1)
	go func() {
		WaitAppends()
		waited <- trimmed.Load()
	}()
	// Resume the append only once the waiter is seen blocked inside
	// WaitAppends (or has returned: then it did not wait).
	for blocked := false; !blocked; {
		select {
		case <-waited:
			t.Fatal("WaitAppends returned while the append was under way")
		default:
		}
		buf := make([]byte, 1<<20)
		st := string(buf[:runtime.Stack(buf, true)])
		for _, g := range strings.Split(st, "\n\n") {
			if strings.Contains(g, "crabdb.WaitAppends") && strings.Contains(g, "sync.") && strings.Contains(g, "Lock") {
				blocked = true
			}
		}
		runtime.Gosched()
	}
	close(resume)
	if !<-waited {
		t.Error("WaitAppends returned while the append was under way")
	}
	must(t, <-appended)
}
