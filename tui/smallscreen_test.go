package tui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/tui/dialog"
)

// Issue 29 item 7: small heights and widths keep what matters.

// smallSizes are the sizes of the small-screen property: every corner and
// the sizes the sweep of issue 29 found wanting.
func smallSizes() [][2]int {
	var out [][2]int
	for _, w := range []int{20, 24, 30, 36, 40, 45, 50, 60, 80, 120} {
		for _, h := range []int{5, 6, 7, 8, 10, 12, 24, 40} {
			out = append(out, [2]int{w, h})
		}
	}
	return out
}

// mustShow is what the screen must keep with the top layer open: a
// dialog's question and its answer keys, a prompt's title and keys, the
// query being typed.
func mustShow(m *Model) []string {
	switch m.top() {
	case layerDialog:
		switch d := m.ed.Dialog().(type) {
		case *dialog.Confirm:
			return []string{firstWord(d.Text), "[" + keyName(m.c.keys.Yes) + "/" + keyName(m.c.keys.No) + "]"}
		case *dialog.Choice:
			out := []string{firstWord(d.Text)}
			for _, ch := range d.Options {
				out = append(out, "["+keyName(*ch.Key)+"]")
			}
			return out
		case *dialog.Prompt:
			return promptShows(m, d)
		}
	case layerWhyPrompt:
		return promptShows(m, m.why.prompt)
	case layerDatePrompt:
		return []string{strings.TrimSpace(m.dates.input.Prompt)}
	case layerSearch:
		return []string{m.c.searchPrompt() + m.bar.Input.Value()}
	}
	return nil
}

// promptShows is what a prompt keeps: its keys, and its title, whole
// (squeezed: it may wrap) when it fits the two lines it may take.
func promptShows(m *Model, p *dialog.Prompt) []string {
	title := firstWord(p.Title)
	if len(p.Title)+1 <= 2*m.c.width {
		title = squeeze(p.Title + ":")
	}
	return []string{title, keyName(m.c.keys.Accept), keyName(m.c.keys.Cancel)}
}

// firstWord is the first word of a question, as the screen shows it.
func firstWord(s string) string {
	f := strings.Fields(sanitize.Line(s))
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// emptyWindow matches a panel position that shows no row ("1–0/105").
var emptyWindow = regexp.MustCompile(`(\d+)–(\d+)/\d`)

// TestSmallScreens_KeepWhatMatters is the property of issue 29 item 7
// over every overlay at sizes from 20×5 to 120×40: the frame is never
// taller or wider than the terminal; a dialog's question and its answer
// keys, a prompt's title and keys and the query being typed are on the
// screen; no panel says it shows lines it does not. Before, at heights
// 5–6 the dialogs lost [y/n] and the question below the bottom edge, and
// below ~50 columns the query typed was cut to "/ l…".
func TestSmallScreens_KeepWhatMatters(t *testing.T) {
	overlays := append(behindOverlays(), behindOverlay{"panes", func(*editHarness) {}, layerPanes},
		behindOverlay{"search typed", func(h *editHarness) { press(h.m, "/"); typeText(h.m, "deploy") }, layerSearch})
	for _, o := range overlays {
		// Each overlay's sizes beside the other overlays'.
		t.Run(o.name, func(t *testing.T) {
			t.Parallel()
			// Every size starts from the overlay opened at 120×40. One
			// harness serves the sizes in turn, taken back to 120×40 after
			// each; a new one is made when that frame or the state behind it
			// is not what it was when the overlay opened (a harness per size
			// made this test the package's costliest, for the same frames).
			var h *editHarness
			var opened string
			for _, size := range smallSizes() {
				w, hgt := size[0], size[1]
				if h == nil {
					h = behindHarness(t, 120, 40)
					o.open(h)
					opened = h.m.screen() + screenState(h.m)
				}
				drive(h.m, resizeCmd(w, hgt))
				if got := h.m.top(); got != o.want {
					t.Fatalf("%s at %dx%d: top %v, want %v", o.name, w, hgt, got, o.want)
				}
				checkSmallFrame(t, h.m, fmt.Sprintf("%s at %dx%d", o.name, w, hgt), w, hgt)
				drive(h.m, resizeCmd(120, 40))
				if h.m.screen()+screenState(h.m) != opened {
					h = nil
				}
			}
		})
	}
}

// checkSmallFrame checks one frame of the small-screen property.
func checkSmallFrame(t *testing.T, m *Model, what string, w, hgt int) {
	t.Helper()
	screen := plainScreen(m)
	lines := strings.Split(screen, "\n")
	if len(lines) > hgt {
		t.Errorf("%s: the frame is %d lines tall:\n%s", what, len(lines), screen)
	}
	for _, l := range lines {
		if cw := m.c.cells.StringWidth(l); cw > w {
			t.Errorf("%s: a line is %d wide: %q", what, cw, l)
		}
	}
	for _, want := range mustShow(m) {
		if !strings.Contains(screen, want) && !strings.Contains(squeeze(screen), want) {
			t.Errorf("%s: %q is not on the screen:\n%s", what, want, screen)
		}
	}
	for _, p := range emptyWindow.FindAllStringSubmatch(screen, -1) {
		var a, b int
		fmt.Sscan(p[1], &a)
		fmt.Sscan(p[2], &b)
		if b < a {
			t.Errorf("%s: the position %q shows no row:\n%s", what, p[0], screen)
		}
	}
}

// TestSmallScreens_TheQuestionStaysAtHeightFive: at heights 5 and 6 the
// delete question and its [y/n] are the bottom lines of a frame no
// taller than the terminal. Before, the frame was 7–8 lines and the
// terminal cut the question off.
func TestSmallScreens_TheQuestionStaysAtHeightFive(t *testing.T) {
	for _, w := range []int{20, 30, 40} {
		for _, hgt := range []int{5, 6} {
			h := behindHarness(t, w, hgt)
			press(h.m, "d")
			lines := strings.Split(plainScreen(h.m), "\n")
			if len(lines) > hgt {
				t.Errorf("at %dx%d the frame is %d lines:\n%s", w, hgt, len(lines), strings.Join(lines, "\n"))
			}
			if last := lines[len(lines)-1]; !strings.Contains(last, "[y/n]") {
				t.Errorf("at %dx%d the bottom line is %q, not the answers", w, hgt, last)
			}
		}
	}
}

// TestSmallScreens_TheQueryTypedShows: below 50 columns the query being
// typed is on the search line whole, the figures on the right giving
// way; a query longer than the line shows its end, where the cursor is.
// Before, 40 columns showed "/ dep…" beside "all · newest · 23/25".
func TestSmallScreens_TheQueryTypedShows(t *testing.T) {
	for _, w := range []int{20, 30, 40, 45} {
		h := behindHarness(t, w, 12)
		press(h.m, "/")
		typeText(h.m, "deploy-st")
		if first := strings.Split(plainScreen(h.m), "\n")[0]; !strings.Contains(first, "/ deploy-st") {
			t.Errorf("at %dx12 the search line is %q", w, first)
		}
		typeText(h.m, "eps-and-more-words")
		if first := strings.Split(plainScreen(h.m), "\n")[0]; !strings.Contains(first, "more-words") {
			t.Errorf("at %dx12 a long query does not show its end: %q", w, first)
		}
	}
}

// TestDialog_NamesAreNotSplitAtTheirHyphen: at every width from 16 to 60
// the delete question keeps "commit-format" whole on one line (a word
// wider than the line aside), and no line of it starts with a lone ","
// or "-". Before, ansi's word wrap broke at the hyphen ("commit-" /
// "format?").
func TestDialog_NamesAreNotSplitAtTheirHyphen(t *testing.T) {
	for w := 16; w <= 60; w++ {
		h := behindHarness(t, w, 24)
		press(h.m, "d")
		o := plainOverlay(h.m)
		if !strings.Contains(o, "commit-format") {
			t.Errorf("at %d columns the name is split:\n%s", w, o)
		}
		for _, l := range strings.Split(o, "\n") {
			if f := strings.Fields(l); len(f) > 0 && (f[0] == "," || f[0] == "-") {
				t.Errorf("at %d columns a line starts with a lone %q:\n%s", w, f[0], o)
			}
		}
	}
}

// TestDialog_NarrowPromptsAndChoicesKeepTheirKeys: below ~60 columns a
// prompt's title, the line typed and its keys take lines of their own,
// and an edit conflict's answers wrap, each whole. Before, the aliases
// prompt cut the text typed and "esc cancel" at every width up to 45,
// and at 20 columns the conflict lost the name it is about.
func TestDialog_NarrowPromptsAndChoicesKeepTheirKeys(t *testing.T) {
	for _, w := range []int{20, 24, 30, 45} {
		h := behindHarness(t, w, 24)
		press(h.m, "a")
		typeText(h.m, "x")
		o := plainOverlay(h.m)
		title := "aliasesofcommit-format(comma-separated):" // whole on two lines from 22 columns on
		if w < 22 {
			title = "aliasesof"
		}
		for _, want := range []string{"enter", "ok", "esc", "cancel", title, "x"} {
			if !strings.Contains(squeeze(o), want) {
				t.Errorf("at %d columns the aliases prompt lost %q:\n%s", w, want, o)
			}
		}
		h = behindHarness(t, w, 24)
		behindOverlays()[7].open(h) // the edit conflict's choice
		o = plainScreen(h.m)
		for _, want := range []string{"[m]", "[t]", "[n]", "commit-format"} {
			if !strings.Contains(o, want) {
				t.Errorf("at %d columns the conflict lost %q:\n%s", w, want, o)
			}
		}
	}
}

// TestSmallScreens_APanelKeepsALine: at 20×5 with a message on the
// status the help keeps its title and the line below it, the message
// giving way. Before, the message kept its line and the help its title alone
// ("1–0/78").
func TestSmallScreens_APanelKeepsALine(t *testing.T) {
	h := behindHarness(t, 20, 5)
	press(h.m, "?")
	drive(h.m, h.m.setMessage("cancelled"))
	lines := strings.Split(plainScreen(h.m), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[1], "Keys") || strings.Contains(lines[2], "cancelled") || !strings.Contains(lines[3], " N · ") {
		t.Errorf("at 20x5 the help is not its title and a line:\n%s", strings.Join(lines, "\n"))
	}
}
