package tui

import (
	"bytes"
	"io"
	"os/exec"
	"runtime"
	"time"

	tea "charm.land/bubbletea/v2"
)

// Bubble Tea v2 (v2.0.9) hands the terminal to another process by stopping
// its renderer, running the process, and starting the renderer again. The
// renderer is a goroutine that flushes frames on a ticker; stopping it
// sends on an unbuffered channel, and the goroutine calls ticker.Stop()
// only after that send has returned. Starting again calls ticker.Reset().
// When the old goroutine is descheduled between the receive and its
// Stop() for as long as the editor runs (seen under CPU load: 4 times in
// ~850 edits with an editor that exits at once), Stop() lands after
// Reset(): the new renderer goroutine waits on a ticker that never ticks,
// nothing is drawn again, and the screen stays blank while keys still
// work. The commands below wait, before returning to Bubble Tea, until the
// old renderer goroutine has really exited, so Stop() always comes before
// Reset().

// rendererLoop is the function of Bubble Tea's renderer goroutine as it
// appears in a stack dump.
const rendererLoop = "charm.land/bubbletea/v2.(*Program).startRenderer.func1"

// settleLimit bounds the wait for the renderer goroutine (it exits within
// microseconds once it runs; the bound only guards against a future
// Bubble Tea whose goroutine is named differently and lives on, and against
// a second Program in the same process, whose renderer would keep the
// function on the stacks: crmem runs one).
const settleLimit = 5 * time.Second

// execProcess is tea.ExecProcess with the renderer race closed.
func execProcess(c *exec.Cmd, fn tea.ExecCallback) tea.Cmd {
	return tea.Exec(&settledCommand{run: c.Run, cmd: c}, fn)
}

// settledCommand runs an exec.Cmd on the terminal (as tea.ExecProcess
// does) and returns only once Bubble Tea's stopped renderer goroutine is
// gone.
type settledCommand struct {
	run func() error
	cmd *exec.Cmd // nil for a command that needs no streams
}

// Run runs the command, then waits for the renderer goroutine to exit.
func (c *settledCommand) Run() error {
	err := c.run()
	waitGone(rendererLoop, settleLimit)
	return err
}

// SetStdin attaches the terminal's input unless the command has its own:
// the terminal's file itself, not crmem's wrapper of it (escInput), which
// exec would feed through a pipe and the editor would not see a terminal.
func (c *settledCommand) SetStdin(r io.Reader) {
	if c.cmd != nil && c.cmd.Stdin == nil {
		c.cmd.Stdin = terminalFile(r)
	}
}

// SetStdout attaches the terminal's output unless the command has its own.
func (c *settledCommand) SetStdout(w io.Writer) {
	if c.cmd != nil && c.cmd.Stdout == nil {
		c.cmd.Stdout = w
	}
}

// SetStderr attaches stderr unless the command has its own.
func (c *settledCommand) SetStderr(w io.Writer) {
	if c.cmd != nil && c.cmd.Stderr == nil {
		c.cmd.Stderr = w
	}
}

// waitGone polls the goroutine stacks until no goroutine is running the
// function fn, or limit passes. It reports whether fn is gone.
func waitGone(fn string, limit time.Duration) bool {
	deadline := time.Now().Add(limit)
	marker := []byte(fn + "(")
	for {
		if !bytes.Contains(allStacks(), marker) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		runtime.Gosched()
		time.Sleep(time.Millisecond)
	}
}

// allStacks returns every goroutine's stack trace.
func allStacks() []byte {
	buf := make([]byte, 256<<10)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return buf[:n]
		}
		buf = make([]byte, 2*len(buf))
	}
}
