package tui

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/store"
)

// nestingBombs are small entries whose markdown nests deeply: rendered
// as they were, the first took a minute and gigabytes.
func nestingBombs() map[string]string {
	var list, mixed strings.Builder
	for i := range 100 {
		list.WriteString(strings.Repeat("  ", i) + "- level\n")
		mixed.WriteString(strings.Repeat("> ", i%7) + strings.Repeat("  ", i%5) + "- x *y* [z](w)\n")
	}
	return map[string]string{
		"quotes70":      strings.Repeat("> ", 70) + "deep",
		"quoted lists":  strings.Repeat("> - ", 40),
		"list100":       list.String(),
		"mixed":         mixed.String(),
		"quote9 16K":    strings.Repeat(strings.Repeat("> ", 9)+"deep words here and there and more words to wrap the width\n", 260),
		"quotes 10K":    strings.Repeat("> ", 10_000) + "deep",
		"brackets":      strings.Repeat("[", 20_000) + strings.Repeat("]", 20_000),
		"emphasis":      strings.Repeat("*a _b ", 5_000),
		"ordered 1. 1.": strings.Repeat("1. ", 2_000),
	}
}

// TestRender_NestingBombsBounded: every bomb renders (or falls back to the
// plain text, saying why) in bounded time, allocation and output. The
// ceilings are far above what the bounded render takes (milliseconds, a
// few MiB) and far below the unbounded one (quotes70: 64 s, 43 MB out).
func TestRender_NestingBombsBounded(t *testing.T) {
	for name, md := range nestingBombs() {
		r, took, alloc := checkRenderBounded(t, name, md)
		t.Logf("%-14s %6d B in: %6v, %6d KiB allocated, %6d B out, plain: %q", name, len(md), took.Round(time.Millisecond), alloc>>10, len(r.out), r.plain)
	}
	for _, name := range []string{"quotes70", "quoted lists", "list100", "quote9 16K", "quotes 10K"} {
		r := renderEntry(&renderers{}, renderKey{width: 80, style: "dark"}, nestingBombs()[name], func() bool { return false })
		if r.plain == "" {
			t.Errorf("%s: rendered, not shown as plain text", name)
		}
	}
	// and random ones: quotes, lists, code, emphasis and links nested at
	// random, repeated to a few KiB
	pieces := []string{"> ", "- ", "1. ", "  ", "* ", "+ ", "[", "](x)", "*", "_", "`", "```\n", "| a |\n", "word ", "\n", "\n\n", "# ", "<b>", "~~"}
	rnd := rand.New(rand.NewPCG(29, 1))
	for i := range 40 {
		var line strings.Builder
		for range 1 + rnd.IntN(120) {
			line.WriteString(pieces[rnd.IntN(len(pieces))])
		}
		md := strings.Repeat(line.String()+"text\n", 1+rnd.IntN(60))
		checkRenderBounded(t, fmt.Sprintf("random %d", i), md)
	}
}

// checkRenderBounded renders md at 80 columns and fails when it allocates
// over 64 MiB or makes over 1 MiB: the bound on the work, as deterministic
// as the renderer (the bounded render takes a few MiB; the unbounded one
// of quotes70 allocated gigabytes and made 43 MB). Time is only a guard
// against a hang (30 s): a wall-clock ceiling near the render's own
// milliseconds failed on a loaded two-core machine (random 39: 4.7 s at a
// load of 18, 10 ms idle), and timing belongs in benchmarks.
func checkRenderBounded(t *testing.T, name, md string) (r rendering, took time.Duration, alloc uint64) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	r = renderEntry(&renderers{}, renderKey{width: 80, style: "dark"}, md, func() bool { return false })
	took = time.Since(start)
	runtime.ReadMemStats(&after)
	alloc = after.TotalAlloc - before.TotalAlloc
	if took > 30*time.Second {
		t.Errorf("%s (%d B): took %v", name, len(md), took)
	}
	if alloc > 64<<20 {
		t.Errorf("%s (%d B): allocated %d MiB", name, len(md), alloc>>20)
	}
	if len(r.out) > 1<<20 {
		t.Errorf("%s: %d bytes out of %d in", name, len(r.out), len(md))
	}
	return r, took, alloc
}

// FuzzRender_Bounded: any content renders, or shows as plain text, within
// the ceilings of checkRenderBounded (seeded with the nesting bombs).
func FuzzRender_Bounded(f *testing.F) {
	for _, md := range nestingBombs() {
		f.Add(md)
	}
	f.Fuzz(func(t *testing.T, md string) {
		checkRenderBounded(t, "fuzzed", md)
	})
}

// TestRender_SupersededRenderEnds: a render the screen no longer waits for
// ends at its next node rather than running to the end, and one that has
// not started is dropped.
func TestRender_SupersededRenderEnds(t *testing.T) {
	var md strings.Builder
	for range 400 {
		md.WriteString("A paragraph with *some* words, `code` and [a link](x) to wrap.\n\n")
	}
	rs := &renderers{}
	calls := 0
	r := renderEntry(rs, renderKey{width: 60, style: "dark"}, md.String(), func() bool { calls++; return calls > 50 })
	if !r.dropped || r.out != "" {
		t.Errorf("superseded after 50 nodes: dropped %v, %d bytes out", r.dropped, len(r.out))
	}
	if calls > 52 {
		t.Errorf("asked %d times after it was superseded", calls-50)
	}
	r = renderEntry(rs, renderKey{width: 60, style: "dark"}, "fine", func() bool { return true })
	if !r.dropped {
		t.Error("a render superseded before it started ran")
	}
	// the renderer the stopped render left half way still renders right
	r = renderEntry(rs, renderKey{width: 60, style: "dark"}, "# title\n\nbody", func() bool { return false })
	if r.dropped || r.plain != "" || !strings.Contains(r.out, "title") {
		t.Errorf("after a stopped render: %+v", r)
	}
}

// TestRender_PreviewSaysRenderingAndPlain: while the rendering is made the
// header says so instead of counting the placeholder's lines, and content
// shown as plain text says why on its card.
func TestRender_PreviewSaysRenderingAndPlain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.db")
	writeEntries(t, path, []store.Entry{{ID: 1, Name: "bomb", Content: strings.Repeat("> ", 70) + "deep", CreatedAt: 1_700_000_000}})
	m := openModel(t, path, 100, 30)
	if got := m.pv.lines(); strings.Contains(got, "rendering") {
		t.Errorf("after the rendering arrived: %q", got)
	}
	if s := plainScreen(m); !strings.Contains(s, "plain text: quotes nest 70 deep (limit 10)") {
		t.Errorf("the card does not say the content is plain text:\n%s", s)
	}
	m.pv.cache = renderCache{}
	cmd := m.showSelected()
	if cmd == nil || !m.pv.pending {
		t.Fatal("no rendering asked for")
	}
	if got := m.pv.lines(); got != "rendering…" {
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
		if r, ok := msg.(renderedMsg); ok {
			if r.dropped {
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
	if m.pv.pending || m.pv.key.width != m.previewWidth()-2 {
		t.Errorf("after the storm: pending %v, rendered at %d", m.pv.pending, m.pv.key.width)
	}
	if _, ok := m.pv.cache.get(m.pv.key); !ok {
		t.Error("the last width was not rendered")
	}
}
