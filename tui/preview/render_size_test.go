package preview

import (
	"runtime"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/crmem/crmem/face/mdbound"
)

// TestRender_DecidedBySize: content over mdbound's byte limit is shown as
// plain text decided by its size alone, before anything reads it as
// markdown (issue 42 item 6): one 95 MB entry took 707 MB and 12 s of CPU
// before the plain text showed.
func TestRender_DecidedBySize(t *testing.T) {
	if maxMarkdownBytes != mdbound.Default().Bytes {
		t.Fatalf("maxMarkdownBytes %d, mdbound's limit %d: they must agree", maxMarkdownBytes, mdbound.Default().Bytes)
	}
	for _, tt := range []struct {
		n     int
		plain bool
	}{{0, false}, {1000, false}, {maxMarkdownBytes, false}, {maxMarkdownBytes + 1, true}, {95 << 20, true}} {
		if got := tooLargeToRender(tt.n) != ""; got != tt.plain {
			t.Errorf("tooLargeToRender(%d) = %q, want plain %v", tt.n, tooLargeToRender(tt.n), tt.plain)
		}
	}
}

// TestRender_LargeEntryBounded: a 4 MB entry (markdown, a tab, a wide
// line) is shown as plain text without a glamour renderer being built,
// allocating within three times its size and keeping every line. Before,
// it was sanitized, escaped and measured as markdown first: 8.4 times
// its size.
func TestRender_LargeEntryBounded(t *testing.T) {
	line := "# a heading *with* emphasis and\ta [link](x) `code` over eighty cells wide " + strings.Repeat("ｶﾞ", 20) + "\n"
	content := strings.Repeat(line, (4<<20)/len(line))
	rs := &renderers{}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := renderEntry(rs, RenderKey{width: 80, style: "dark"}, content, func() bool { return false })
	runtime.ReadMemStats(&after)
	if r.plain == "" || !strings.Contains(r.plain, "limit") {
		t.Fatalf("rendered, not plain text: plain %q", r.plain)
	}
	if len(rs.m) != 0 {
		t.Errorf("%d glamour renderers built for content decided by size", len(rs.m))
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 3*uint64(len(content)) {
		t.Errorf("allocated %d MiB for %d MiB of content, over three times its size", alloc>>20, len(content)>>20)
	}
	if got, want := strings.Count(r.out, "emphasis"), strings.Count(content, "emphasis"); got != want {
		t.Errorf("%d of %d lines shown", got, want)
	}
	for _, l := range strings.Split(r.out, "\n")[:10] {
		if w := ansi.WcWidth.StringWidth(l); w > 80 {
			t.Errorf("a line is %d cells: %q", w, l)
		}
	}
}
