package tui

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// execProbe is a model that runs one settled exec and records the
// goroutine stacks before it and right after the command returned.
type execProbe struct {
	before, after []byte
}

type probeDone struct{}

func (p *execProbe) Init() tea.Cmd {
	return func() tea.Msg { return "go" }
}

func (p *execProbe) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg.(type) {
	case string:
		p.before = allStacks()
		c := &settledCommand{run: func() error { return nil }} // returns at once: the widest window
		return p, tea.Exec(probeCommand{c, p}, func(error) tea.Msg { return probeDone{} })
	case probeDone:
		return p, tea.Quit
	}
	return p, nil
}

func (p *execProbe) View() tea.View { return tea.NewView("probe") }

// probeCommand records the stacks once the settled command returned (still
// inside Bubble Tea's exec, before it restarts the renderer).
type probeCommand struct {
	*settledCommand
	p *execProbe
}

func (c probeCommand) Run() error {
	err := c.settledCommand.Run()
	c.p.after = allStacks()
	return err
}

// TestSettledExec_RendererGoneBeforeRestart pins the fix of the blank
// screen after an editor (issue 10, item 13): the goroutine name the fix
// waits for is Bubble Tea's renderer loop (so the wait is not vacuous),
// and when the command returns to Bubble Tea no renderer goroutine is
// left whose late ticker.Stop() could silence the restarted renderer.
func TestSettledExec_RendererGoneBeforeRestart(t *testing.T) {
	p := &execProbe{}
	prog := tea.NewProgram(p, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignals())
	done := make(chan error, 1)
	go func() { _, err := prog.Run(); done <- err }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		prog.Kill()
		t.Fatal("program did not finish")
	}
	if !bytes.Contains(p.before, []byte(rendererLoop)) {
		t.Fatalf("no goroutine runs %s while the program runs: Bubble Tea changed, the fix waits for nothing", rendererLoop)
	}
	if bytes.Contains(p.after, []byte(rendererLoop+"(")) {
		i := bytes.Index(p.after, []byte(rendererLoop))
		t.Fatalf("the renderer goroutine still runs after the command returned:\n%s", p.after[max(0, i-400):i+200])
	}
}

func TestWaitGone(t *testing.T) {
	release, started := make(chan struct{}), make(chan struct{})
	go parkedForWaitGoneTest(started, release)
	<-started
	if waitGone("crmem/tui.parkedForWaitGoneTest", 50*time.Millisecond) {
		t.Fatal("waitGone reported a running goroutine gone")
	}
	close(release)
	if !waitGone("crmem/tui.parkedForWaitGoneTest", 10*time.Second) {
		t.Fatal("waitGone did not see the goroutine exit")
	}
	if !strings.Contains(string(allStacks()), "TestWaitGone") {
		t.Fatal("allStacks lacks the running test")
	}
}

// parkedForWaitGoneTest says it started and blocks until release is closed.
func parkedForWaitGoneTest(started, release chan struct{}) {
	close(started)
	<-release
}
