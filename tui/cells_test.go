package tui

import (
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/store"
)

// widerPerCodePoint are texts a terminal without grapheme clustering (mode
// 2027: tmux, xterm-class terminals) draws wider or narrower than their
// clusters measure (issue 29 item 2).
var widerPerCodePoint = []string{"dev 👩🏽‍💻 notes", "smile ☺️ here", "pride 🏳️‍🌈 flag", "ｶﾞｷﾞｸﾞ half", "नमस्ते दुनिया"}

// TestPreview_WrapsAsTheTerminalDraws: on a terminal that draws per code
// point every word of the content is on the preview (wrapped by that
// measure, not cut at the pane's edge), at every width.
func TestPreview_WrapsAsTheTerminalDraws(t *testing.T) {
	var content strings.Builder
	for i := range 6 {
		content.WriteString(widerPerCodePoint[i%len(widerPerCodePoint)] + " word" + string(rune('a'+i)) + " ")
	}
	path := filepath.Join(t.TempDir(), "memory.db")
	writeEntries(t, path, []store.Entry{{ID: 1, Name: "wide", Content: content.String(), CreatedAt: 1_700_000_000}})
	for w := 50; w <= 160; w += 7 {
		m := openModel(t, path, w, 40)
		press(m, "enter") // the preview alone, so the words are not shortened by the list
		screen := squeeze(ansi.Strip(m.View().Content))
		for i := range 6 {
			if word := "word" + string(rune('a'+i)); !strings.Contains(screen, word) {
				t.Errorf("at %d columns %q is cut from the preview:\n%s", w, word, ansi.Strip(m.View().Content))
			}
		}
	}
}

// TestModeReport_SwitchesTheMeasure: the layout measures per code point,
// as Bubble Tea's renderer does, until the terminal answers the mode 2027
// query; then by clusters, and the preview is rendered again for it.
func TestModeReport_SwitchesTheMeasure(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.db")
	writeEntries(t, path, []store.Entry{{ID: 1, Name: widerPerCodePoint[0], Content: strings.Repeat(widerPerCodePoint[0]+" ", 20), CreatedAt: 1_700_000_000}})
	m := openModel(t, path, 80, 20)
	if m.c.cells != ansi.WcWidth {
		t.Fatalf("measure at start %v, want per code point", m.c.cells)
	}
	checkScreenFits(t, m, 80, "before the report")
	before := m.pv.RenderKey()
	drive(m, func() tea.Msg { return tea.ModeReportMsg{Mode: ansi.ModeUnicodeCore, Value: ansi.ModeNotRecognized} })
	if m.c.cells != ansi.WcWidth {
		t.Error("a terminal that does not know mode 2027 switched the measure")
	}
	drive(m, func() tea.Msg { return tea.ModeReportMsg{Mode: ansi.ModeUnicodeCore, Value: ansi.ModeSet} })
	if m.c.cells != ansi.GraphemeWidth || m.pv.RenderKey() == before || m.pv.RenderKey().Cells() != ansi.GraphemeWidth {
		t.Errorf("after the report: measure %v, preview key %+v", m.c.cells, m.pv.RenderKey())
	}
	checkScreenFits(t, m, 80, "after the report")
}
