package preview

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"
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
		r := renderEntry(&renderers{}, RenderKey{width: 80, style: "dark"}, nestingBombs()[name], func() bool { return false })
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
	r = renderEntry(&renderers{}, RenderKey{width: 80, style: "dark"}, md, func() bool { return false })
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
	r := renderEntry(rs, RenderKey{width: 60, style: "dark"}, md.String(), func() bool { calls++; return calls > 50 })
	if !r.dropped || r.out != "" {
		t.Errorf("superseded after 50 nodes: dropped %v, %d bytes out", r.dropped, len(r.out))
	}
	if calls > 52 {
		t.Errorf("asked %d times after it was superseded", calls-50)
	}
	r = renderEntry(rs, RenderKey{width: 60, style: "dark"}, "fine", func() bool { return true })
	if !r.dropped {
		t.Error("a render superseded before it started ran")
	}
	// the renderer the stopped render left half way still renders right
	r = renderEntry(rs, RenderKey{width: 60, style: "dark"}, "# title\n\nbody", func() bool { return false })
	if r.dropped || r.plain != "" || !strings.Contains(r.out, "title") {
		t.Errorf("after a stopped render: %+v", r)
	}
}
