package cli

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/crmem/crmem/tui"
)

// signalWait is how long a signalled TUI gets to restore the terminal
// before crmem exits anyway.
const signalWait = 2 * time.Second

// signalExit is the end of a run stopped by a signal: crmem exits with the
// conventional status 128+signal after cleaning up.
type signalExit struct{ sig syscall.Signal }

func (e signalExit) Error() string { return fmt.Sprintf("stopped by %s", e.sig) }

// status is the exit status of a process ended by the signal.
func (e signalExit) status() int { return 128 + int(e.sig) }

// holdSignal keeps the first signal an append to crabtalk's store held
// (ctrl-c, kill or a closing terminal during the write): the command
// reports what it wrote, then crmem ends as the signal asked (execute).
func (o *opener) holdSignal(s os.Signal) {
	if sig, ok := s.(syscall.Signal); ok && o.held == 0 {
		o.held = sig
	}
}

// runScreen runs the TUI with opts, returning however the TUI ends: on
// quit, on SIGTERM (kill) and on SIGHUP (the terminal was closed), so that
// the caller's cleanups (--demo's temp folder) run. A SIGTERM or SIGHUP ends crmem with status 128+signal once the
// screen has been restored (or after signalWait).
func runScreen(opts tui.Options) (err error) {
	sigs := make(chan os.Signal, 2)
	ending := []os.Signal{syscall.SIGHUP, syscall.SIGTERM}
	for _, s := range ending {
		if !signal.Ignored(s) { // under nohup, SIGHUP stays ignored
			signal.Notify(sigs, s)
		}
	}
	defer func() {
		signal.Stop(sigs)
		if errors.As(err, new(signalExit)) {
			// crmem is ending by a signal: one more (the terminal's hang-up
			// after a kill, a second kill) must not end the process before
			// the caller's cleanups run, as the default action would.
			signal.Ignore(ending...)
		}
	}()
	done := make(chan error, 1)
	go func() { done <- tui.Run(opts) }()
	select {
	case err := <-done:
		select {
		case s := <-sigs: // the TUI quit because of this SIGTERM
			return signalExit{s.(syscall.Signal)}
		default:
			return err
		}
	case s := <-sigs:
		if s == syscall.SIGHUP {
			// Bubble Tea quits cleanly on SIGTERM but not on SIGHUP: pass
			// it on so the terminal, if still there, is restored.
			if err := sendSelfTerm(); err != nil {
				return errors.Join(signalExit{syscall.SIGHUP}, err)
			}
		}
		select {
		case <-done:
		case <-time.After(signalWait):
		}
		return signalExit{s.(syscall.Signal)}
	}
}
