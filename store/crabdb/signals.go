package crabdb

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// holdSignals keeps SIGINT, SIGTERM and SIGHUP from stopping the process
// for the time of an append (ctrl-c, kill, the terminal closing): from
// the call until the returned func is called, they are caught, and the
// returned func sends each one caught to the process again, so that what
// it would have done (the default action, the end of the run; or the
// handler of whoever else asked for it, os/signal delivering to all) now
// happens, after the append; or, when to is set, hands each to it instead
// (a command line that reports the write first, then ends as the signal
// asked). A signal ignored when the append starts (nohup's SIGHUP) stays
// ignored. While any append is held, WaitAppends waits.
func holdSignals(to func(os.Signal)) (release func()) {
	appending.RLock()
	ch := make(chan os.Signal, 3)
	var held []os.Signal
	for _, s := range heldSignals {
		if !signal.Ignored(s) {
			held = append(held, s)
		}
	}
	signal.Notify(ch, held...)
	return func() {
		signal.Stop(ch)
		appending.RUnlock()
		close(ch)
		seen := map[os.Signal]bool{}
		self, _ := os.FindProcess(os.Getpid())
		for s := range ch {
			switch {
			case seen[s]:
			case to != nil:
				seen[s] = true
				to(s)
			case self != nil:
				seen[s] = true
				self.Signal(s)
			}
		}
	}
}

// heldSignals are the signals an append holds.
var heldSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// appending is held for reading by every append in progress.
var appending sync.RWMutex

// WaitAppends returns once no append is in progress: the end of a run
// calls it, so that a face that ends on a signal while a write of its
// own runs on (the screen's, in a goroutine) does not exit inside it.
func WaitAppends() {
	// Taking the lock for writing waits for every append's read lock to
	// be released; nothing is done inside.
	appending.Lock()
	defer appending.Unlock()
}
