// Package workgroup runs functions on goroutines and waits for them, as
// sync.WaitGroup's Go and Wait do (with errgroup's errors and limit for
// work that can fail), and carries a panic in one of them back to the
// goroutine that waits.
//
// crmem reads a memory file for a one-shot command by mapping it
// (store.MapFile), and the workers that scan its entries read the mapped
// bytes. If another program cuts the file short in place meanwhile, a
// read past its new end faults. Each worker turns such a fault into a
// panic (debug.SetPanicOnFault) instead of a crash, and Wait panics with
// the same value on the waiting goroutine, where the command line's
// recover reports it as one error line. Any other panic in a worker is
// carried the same way: one "crmem: " line, not a crash of the process.
package workgroup

import (
	"runtime/debug"
	"sync"
)

// Group is a set of goroutines working on parts of one task. The zero
// value runs any number at once; it must not be copied after first use.
type Group struct {
	wg    sync.WaitGroup
	sem   chan struct{} // nil: no limit
	mu    sync.Mutex
	err   error // the first error returned
	panic any   // the first panic's value
}

// SetLimit makes Go wait while n goroutines of the group are running.
// Call it before the first Go.
func (g *Group) SetLimit(n int) { g.sem = make(chan struct{}, max(1, n)) }

// Go runs f on a new goroutine, with faults on memory it reads turned
// into panics; a panic in f is recovered and raised again by Wait.
func (g *Group) Go(f func()) {
	g.GoErr(func() error { f(); return nil })
}

// GoErr is Go for a function that can fail: its error, if it is the
// group's first, is Wait's.
func (g *Group) GoErr(f func() error) {
	if g.sem != nil {
		g.sem <- struct{}{}
	}
	g.wg.Go(func() {
		defer func() {
			if r := recover(); r != nil {
				g.mu.Lock()
				if g.panic == nil {
					g.panic = r
				}
				g.mu.Unlock()
			}
			if g.sem != nil {
				<-g.sem
			}
		}()
		debug.SetPanicOnFault(true)
		if err := f(); err != nil {
			g.mu.Lock()
			if g.err == nil {
				g.err = err
			}
			g.mu.Unlock()
		}
	})
}

// Wait waits for every goroutine the group started. If one of them
// panicked, Wait panics with that value (the first); otherwise it returns
// the first error a function given to GoErr returned (nil for a group
// that only ran functions given to Go).
func (g *Group) Wait() error {
	g.wg.Wait()
	if g.panic != nil {
		panic(g.panic)
	}
	return g.err
}
