package tui

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/face/cellwidth"
	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store"
)

// wideParts are the pieces random names and contents are built from:
// scripts whose display width is not their rune count (CJK, fullwidth,
// emoji, ZWJ sequences, flags, variation selectors, combining marks, Thai,
// right-to-left text) and the ASCII separators the shortener cuts at.
var wideParts = []string{
	"日本語", "の名前の長いメモのタイトル", "中文笔记", "한국어", "ＡＢＣ", "ｶﾀｶﾅ",
	"😀", "🎉", "👍🏽", "👨‍👩‍👧‍👦", "🏳️‍🌈", "👩‍💻", "👩🏽‍💻", "🇯🇵", "❤️", "☺️", "ｶﾞｷﾞ", "नमस्ते", "हिन्दी",
	"e\u0301", "a\u0308\u0323", "Z̴̡̢͖͍", "สวัสดี", "שלום", "مرحبا", "\u200f",
	"x", "-", "_", ".", "/", " ", "archive-sess-0001", "note", "1767300000",
}

// randomText joins n random parts.
func randomText(r *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(wideParts[r.IntN(len(wideParts))])
	}
	return b.String()
}

// randomContent is markdown built from wide parts: paragraphs, a heading,
// a list, a code block and a table.
func randomContent(r *rand.Rand) string {
	var b strings.Builder
	for range 1 + r.IntN(4) {
		switch r.IntN(5) {
		case 0:
			fmt.Fprintf(&b, "# %s\n\n", randomText(r, 1+r.IntN(4)))
		case 1:
			fmt.Fprintf(&b, "- %s\n- %s\n\n", randomText(r, 1+r.IntN(6)), randomText(r, 1+r.IntN(6)))
		case 2:
			fmt.Fprintf(&b, "```\n%s\n```\n\n", randomText(r, 1+r.IntN(20)))
		case 3:
			fmt.Fprintf(&b, "| %s | %s |\n|---|---|\n| %s | %s |\n\n",
				randomText(r, 1+r.IntN(3)), randomText(r, 1+r.IntN(3)), randomText(r, 1+r.IntN(12)), randomText(r, 1+r.IntN(12)))
		default:
			fmt.Fprintf(&b, "%s\n\n", randomText(r, 1+r.IntN(40)))
		}
	}
	return b.String()
}

// randomWideEntries is a memory of 1–8 entries whose names often share a
// prefix, so the shortener keeps the part that tells them apart.
func randomWideEntries(r *rand.Rand) []store.Entry {
	prefix := randomText(r, r.IntN(4))
	n := 1 + r.IntN(8)
	entries := make([]store.Entry, 0, n)
	seen := map[string]bool{}
	for i := range n {
		name := randomText(r, 1+r.IntN(6))
		if r.IntN(2) == 0 {
			name = prefix + name
		}
		if strings.TrimSpace(name) == "" || seen[name] {
			continue
		}
		seen[name] = true
		entries = append(entries, store.Entry{
			ID: uint64(i + 1), Name: name, Kind: store.Kinds[r.IntN(len(store.Kinds))],
			CreatedAt: uint64(testNow.Unix()) - uint64(r.IntN(400*86400)),
			Content:   randomContent(r),
		})
	}
	return entries
}

// checkScreenFits fails when the model's view is taller than the
// terminal, when a line of it is wider than the terminal, measured as the renderer measures it (per code point until the
// terminal reports grapheme clustering, by clusters after: m.c.cells), or
// when the separator of two panes is not in its column on every row. It
// returns the frame it checked, for a caller's further checks.
func checkScreenFits(t *testing.T, m *Model, w int, what string) (frame string) {
	t.Helper()
	frame = m.View().Content
	lines := strings.Split(frame, "\n")
	if len(lines) > m.c.height { // issue 29 item 7: the terminal would cut the bottom, where a question is
		t.Fatalf("%s: the frame is %d lines, taller than %d:\n%s", what, len(lines), m.c.height, ansi.Strip(m.View().Content))
	}
	for i, l := range lines {
		if lw := m.c.cells.StringWidth(l); lw > w {
			t.Fatalf("%s (cells by %s): line %d is %d cells wide, more than %d:\n%s", what, methodName(m.c.cells), i, lw, w, ansi.Strip(l))
		}
	}
	if !m.c.twoPanes() || m.read.zoom || m.layerBody(w, m.bodyHeight()) != "" { // a layer is drawn in place of the panes
		return frame
	}
	lw := m.c.listWidth()
	for i, l := range lines[1 : 1+m.bodyHeight()] {
		if at := ansi.Strip(cellwidth.Truncate(m.c.cells, l, lw+1, "")); !strings.HasSuffix(at, "┃") && !strings.HasSuffix(at, "│") {
			t.Fatalf("%s (cells by %s): body row %d has no separator in column %d:\n%s", what, methodName(m.c.cells), i, lw, ansi.Strip(l))
		}
	}
	return frame
}

// methodName names a width method in failures.
func methodName(c ansi.Method) string {
	if c == ansi.GraphemeWidth {
		return "grapheme cluster (mode 2027)"
	}
	return "code point (wcwidth)"
}

// viewWideModel opens entries at w×h and checks the screen after the
// steps a user takes first (the list, moving down, the preview, a search),
// once for a terminal that draws per code point and once for one that
// reported grapheme clustering (mode 2027).
func viewWideModel(t *testing.T, entries []store.Entry, w, h int, query string) {
	t.Helper()
	for _, report := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "memory.db")
		writeEntries(t, path, entries)
		m := openModel(t, path, w, h)
		if report {
			drive(m, func() tea.Msg { return tea.ModeReportMsg{Mode: ansi.ModeUnicodeCore, Value: ansi.ModeReset} })
		}
		what := fmt.Sprintf("%d entries at %dx%d", len(entries), w, h)
		checkScreenFits(t, m, w, what)
		press(m, "j")
		checkScreenFits(t, m, w, what+", after j")
		press(m, "tab")
		checkScreenFits(t, m, w, what+", preview focused")
		press(m, "tab", "/")
		typeText(m, query)
		checkScreenFits(t, m, w, what+", searching "+query)
		press(m, "enter")
		checkScreenFits(t, m, w, what+", searched "+query)
	}
}

// TestView_WideScriptsFitEveryWidth pins issue 17 item 1: names in wide
// scripts made the list's shortener cut in runes where it meant cells
// ("slice bounds out of range [-2:]" in fitFrom at 80×24). Random models
// of wide, emoji, combining and right-to-left text, at widths 20–250 and
// heights 5–80 sampled with a fixed seed, never panic and never draw a
// line wider than the terminal.
func TestView_WideScriptsFitEveryWidth(t *testing.T) {
	t.Parallel() // every width on a model of its own: beside the other long tests
	repro := []store.Entry{
		{ID: 1, Name: "x-日本語の名前の長いメモのタイトル", Kind: store.Note, CreatedAt: uint64(testNow.Unix()), Content: "one"},
		{ID: 2, Name: "x", Kind: store.Note, CreatedAt: uint64(testNow.Unix()), Content: "two"},
	}
	viewWideModel(t, repro, 80, 24, "x")
	r := rand.New(rand.NewPCG(17, 1))
	for range 60 {
		entries := randomWideEntries(r)
		if len(entries) == 0 {
			continue
		}
		w, h := 20+r.IntN(231), 5+r.IntN(76)
		viewWideModel(t, entries, w, h, randomText(r, 1))
	}
}

// FuzzView is the fuzzing form of TestView_WideScriptsFitEveryWidth
// (issue 17 item 1): names (one per line) and a content, from a seed
// corpus of wide, emoji, ZWJ, combining and right-to-left text
// (testdata/fuzz/FuzzView), shown at a width of 20–250 and a height of
// 5–80; the view never panics and no line is wider than the terminal,
// measured per code point and, after a mode 2027 report, by cluster.
// The memory is decoded from the bytes a file would hold (so what the
// file format refuses never reaches the view) and handed to the model
// without a file, which keeps one execution near a millisecond.
func FuzzView(f *testing.F) {
	keys := keymap.DefaultKeyMap()
	f.Fuzz(func(t *testing.T, names, content string, w, h uint8) {
		width, height := 20+int(w)%231, 5+int(h)%76
		file, err := store.Decode(store.Encode(0, fuzzEntries(names, content)))
		if err != nil {
			t.Skip("the file format refuses it:", err)
		}
		src := memSource{store.NewMemoryWith(file, store.IndexNow)}
		m := newModel(config{path: "memory.db", keys: keys, style: "dark", noColor: true, now: func() time.Time { return testNow }, loc: time.UTC, after: noTimer})
		drive(m, resizeCmd(width, height))
		drive(m, func() tea.Msg { return loadedMsg{db: src, snap: listedSnapshot(src.mem, nil)} })
		checkScreenFits(t, m, width, fmt.Sprintf("%q at %dx%d", names, width, height))
		// and on a terminal that reported grapheme clustering (mode 2027)
		drive(m, func() tea.Msg { return tea.ModeReportMsg{Mode: ansi.ModeUnicodeCore, Value: ansi.ModeSet} })
		checkScreenFits(t, m, width, fmt.Sprintf("%q at %dx%d", names, width, height))
	})
}

// fuzzEntries is up to eight entries named by the lines of names, each
// holding content.
func fuzzEntries(names, content string) []store.Entry {
	var entries []store.Entry
	seen := map[string]bool{}
	for i, name := range strings.Split(names, "\n") {
		if seen[name] || len(entries) == 8 {
			continue
		}
		seen[name] = true
		entries = append(entries, store.Entry{
			ID: uint64(i + 1), Name: name, Kind: store.Kinds[i%len(store.Kinds)],
			CreatedAt: uint64(testNow.Unix()) - uint64(i)*86400, Content: content,
		})
	}
	return entries
}

// memSource is a memory without a file, for the fuzz target.
type memSource struct{ mem *store.Memory }

func (s memSource) Path() string                { return "memory.db" }
func (s memSource) Memory() *store.Memory       { return s.mem }
func (s memSource) Reload() (store.Diff, error) { return store.Diff{}, nil }
func (s memSource) Exists() bool                { return true }
func (s memSource) Features() store.Features    { return store.Features{Format: "in-memory"} }
