package tui

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/preview"
)

// TestRender_PreviewSaysRenderingAndPlain: while the rendering is made the
// header says so instead of counting the placeholder's lines, and content
// shown as plain text says why on its card.
func TestRender_PreviewSaysRenderingAndPlain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.db")
	writeEntries(t, path, []store.Entry{{ID: 1, Name: "bomb", Content: strings.Repeat("> ", 70) + "deep", CreatedAt: 1_700_000_000}})
	m := openModel(t, path, 100, 30)
	if got := m.pv.Lines(); strings.Contains(got, "rendering") {
		t.Errorf("after the rendering arrived: %q", got)
	}
	if s := plainScreen(m); !strings.Contains(s, "plain text: quotes nest 70 deep (limit 10)") {
		t.Errorf("the card does not say the content is plain text:\n%s", s)
	}
	m.pv.ForgetRenderings()
	cmd := m.showSelected()
	if cmd == nil || !m.pv.Pending() {
		t.Fatal("no rendering asked for")
	}
	if got := m.pv.Lines(); got != "rendering…" {
		t.Errorf("while rendering the header says %q", got)
	}
	if s := plainScreen(m); !strings.Contains(s, "rendering…") {
		t.Errorf("the screen does not say rendering…:\n%s", s)
	}
}

// runCmds runs cmd as Bubble Tea does, each command of a batch on its own
// goroutine, and sends what they return to msgs.
func runCmds(cmd tea.Cmd, msgs chan<- tea.Msg, wg *sync.WaitGroup) {
	if cmd == nil {
		return
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		msg := cmd()
		if b, ok := msg.(tea.BatchMsg); ok {
			for _, c := range b {
				runCmds(c, msgs, wg)
			}
			return
		}
		msgs <- msg
	}()
}

// TestRender_ResizeStormRendersTheLastWidth: a resize storm over a large
// entry renders at the last width; the renders for widths passed over are
// dropped or stop at their next node instead of each running to its end
// (a 1 MiB entry spent 14 s of CPU on widths nobody saw).
func TestRender_ResizeStormRendersTheLastWidth(t *testing.T) {
	var md strings.Builder
	for md.Len() < 200<<10 { // within mdbound.Default(): rendered, not plain
		md.WriteString(strings.Repeat("A paragraph with *some* words, `code` and [a link](x) to wrap. ", 30) + "\n\n")
	}
	path := filepath.Join(t.TempDir(), "memory.db")
	writeEntries(t, path, []store.Entry{{ID: 1, Name: "big", Content: md.String(), CreatedAt: 1_700_000_000}})
	m := openModel(t, path, 120, 40)
	msgs := make(chan tea.Msg, 256)
	var wg sync.WaitGroup
	start := time.Now()
	const steps = 30
	for i := range steps {
		_, cmd := m.Update(tea.WindowSizeMsg{Width: 80 + i, Height: 40})
		runCmds(cmd, msgs, &wg)
		time.Sleep(2 * time.Millisecond) // a terminal's resize events come apart
	}
	wg.Wait()
	took := time.Since(start)
	close(msgs)
	finished, dropped := 0, 0
	for msg := range msgs {
		if r, ok := msg.(preview.RenderedMsg); ok {
			if r.Dropped() {
				dropped++
			} else {
				finished++
			}
			m.Update(msg)
		}
	}
	t.Logf("%d resizes over %d KiB: %d renders finished, %d dropped, %v", steps, md.Len()>>10, finished, dropped, took.Round(time.Millisecond))
	if finished == 0 || finished > 2 {
		t.Errorf("%d renders finished, %d dropped", finished, dropped)
	}
	if m.pv.Pending() || m.pv.RenderKey().Width() != m.previewWidth()-2 {
		t.Errorf("after the storm: pending %v, rendered at %d", m.pv.Pending(), m.pv.RenderKey().Width())
	}
	if !m.pv.Cached(m.pv.RenderKey()) {
		t.Error("the last width was not rendered")
	}
}
