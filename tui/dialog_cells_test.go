package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/dialog"
)

// scriptNames are names in scripts a terminal draws wider per code point
// than by grapheme clusters (half-width katakana with its voiced marks,
// Devanagari, Tamil, Malayalam with their vowel signs): 16 of them, so a
// bulk delete names three and counts 13 more.
func scriptNames() []string {
	return namesFrom("ｶﾞｷﾞｸﾞｹﾞｺﾞ-ﾒﾓ", "हिन्दी-नोट्स-परियोजना", "தமிழ்-குறிப்புகள்", "മലയാളം-കുറിപ്പുകൾ")
}

// longScriptNames are longer such names, half-width katakana and
// Devanagari: tmux cut the bulk-delete question about them (at 40 columns
// "… and 13 mo", at 120 its end, "and 13 more?").
func longScriptNames() []string {
	return namesFrom("ﾃﾞｰﾀﾍﾞｰｽ-ﾊﾞｯｸｱｯﾌﾟ-ｽｹｼﾞｭｰﾙ-ﾃﾞﾌﾟﾛｲ", "परियोजना-दस्तावेज़-संग्रहालय-निर्देशिका", "ｶﾞｷﾞｸﾞｹﾞｺﾞ-ﾊﾞﾋﾞﾌﾞﾍﾞﾎﾞ-ﾒﾓ", "देवनागरी-लिपि-उदाहरण-सूची")
}

// namesFrom is 16 names, the bases in turn, each numbered.
func namesFrom(bases ...string) []string {
	var out []string
	for i := range 16 {
		out = append(out, fmt.Sprintf("%s-%02d", bases[i%len(bases)], i))
	}
	return out
}

// scriptMemory is a memory file of notes named by scriptNames.
func scriptMemory(t *testing.T) string {
	t.Helper()
	return memoryNamed(t, scriptNames())
}

// memoryNamed is a memory file of notes with the given names.
func memoryNamed(t *testing.T, names []string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "memory.db")
	var es []store.Entry
	for i, n := range names {
		es = append(es, store.Entry{ID: uint64(i + 1), Name: n, Content: "note " + n, CreatedAt: 1_700_000_000 + uint64(i)})
	}
	writeEntries(t, path, es)
	return path
}

// measures is every way the renderer measures a line: per code point
// until the terminal reports grapheme clustering, then by clusters.
var measures = []ansi.Method{ansi.WcWidth, ansi.GraphemeWidth}

// useMeasure switches the model's measure as a mode 2027 report would.
func useMeasure(m *Model, meth ansi.Method) {
	if meth == ansi.GraphemeWidth {
		drive(m, func() tea.Msg { return tea.ModeReportMsg{Mode: ansi.ModeUnicodeCore, Value: ansi.ModeSet} })
	}
}

// checkDialogRows fails for a row of s wider than w as meth measures it.
func checkDialogRows(t *testing.T, what string, meth ansi.Method, s string, w int) {
	t.Helper()
	for _, l := range strings.Split(s, "\n") {
		if got := meth.StringWidth(l); got > w {
			t.Errorf("%s at %d columns (measure %v): a row is %d cells: %q", what, w, meth, got, ansi.Strip(l))
		}
	}
}

// TestDialogs_MeasuredAsTheRendererDraws: with names in scripts drawn
// wider per code point than by clusters, every row of the bulk-delete
// question, the delete question and the rename and aliases prompts fits
// the width as the renderer measures it, and the answer keys ([y/n],
// "esc cancel") are on screen (issue 42 item 1). Before, the rows were
// wrapped by clusters and the screen cut them: at 120 columns the
// question ended "… and 13 more? [", at 60 "… and 13 mo", and the rename
// hint read "esc canc".
func TestDialogs_MeasuredAsTheRendererDraws(t *testing.T) {
	path := scriptMemory(t)
	for _, meth := range measures {
		for _, w := range []int{20, 32, 40, 60, 80, 120} {
			for _, open := range [][]string{{"*", "D"}, {"d"}, {"r"}, {"a"}} {
				h := newEditHarness(t, path)
				useMeasure(h.m, meth)
				drive(h.m, resizeCmd(w, 24))
				press(h.m, open...)
				what := fmt.Sprintf("%v", open)
				o := h.overlay()
				if o == "" {
					t.Fatalf("%s opened nothing (status %q)", what, h.status())
				}
				checkDialogRows(t, what, meth, o, w)
				screen := ansi.Strip(h.m.screen())
				want := "[y/n]"
				if open[0] == "r" || open[0] == "a" {
					want = "esc cancel"
				}
				if !strings.Contains(strings.ReplaceAll(screen, "\n", ""), want) && !strings.Contains(screen, strings.ReplaceAll(want, " ", "  ")) {
					t.Errorf("%s at %d columns (measure %v): %q is not on the screen:\n%s", what, w, meth, want, screen)
				}
				if open[0] == "*" {
					flat := squeeze(ansi.Strip(o))
					if !strings.HasPrefix(flat, squeeze("delete 16 entries")) || !strings.Contains(flat, squeeze("13 more?")) || strings.Count(o, "\n") >= dialog.MaxLines {
						t.Errorf("%s at %d columns (measure %v): the question lost its start or end, or takes over %d lines:\n%s", what, w, meth, dialog.MaxLines, ansi.Strip(o))
					}
				}
				press(h.m, "esc")
			}
		}
	}
}

// TestTmux_BulkDeleteKeepsItsAnswers: in tmux, which draws per code
// point, the bulk-delete question about long half-width katakana and
// Devanagari names shows its end and its [y/n] at 40, 60 and 120 columns
// (issue 42 item 1: at 40 it ended "… and 13 mo", at 120 it lost "and 13
// more?").
func TestTmux_BulkDeleteKeepsItsAnswers(t *testing.T) {
	e := newTmux(t)
	bin := buildBinary(t)
	path := memoryNamed(t, longScriptNames())
	e.start("s", bin+" "+path)
	e.waitFor("s", 10*time.Second, "the list", contains("16 notes"))
	e.keys("s", "*")
	e.waitFor("s", 5*time.Second, "the marks", contains("16 marked"))
	e.keys("s", "D")
	for _, w := range []string{"120", "60", "40"} {
		e.tmux("resize-window", "-t", "s", "-x", w, "-y", "20")
		e.waitFor("s", 5*time.Second, "the question's answers at "+w+" columns", func(s string) bool {
			return strings.Contains(s, "13 more?") && strings.Contains(s, "[y/n]")
		})
	}
}

// TestStatus_PathMeasuredAsDrawn: the status line's path in a folder
// named in half-width katakana and Devanagari fits the width per code
// point and keeps its end, the file's name (issue 42 item 1).
func TestStatus_PathMeasuredAsDrawn(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ｶﾞｷﾞｸﾞｹﾞｺﾞ-ﾊﾞﾋﾞﾌﾞﾍﾞﾎﾞ-ﾃﾞｰﾀﾍﾞｰｽ", "परियोजना-दस्तावेज़")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "memory.db")
	writeEntries(t, path, []store.Entry{{ID: 1, Name: "a", Content: "x", CreatedAt: 1_700_000_000}})
	for _, w := range []int{60, 80, 100, 120} {
		m := openModel(t, path, w, 20)
		line := ansi.Strip(m.statusLines()[len(m.statusLines())-1])
		if ansi.WcWidth.StringWidth(line) > w || !strings.HasSuffix(strings.TrimSpace(line), "memory.db") {
			t.Errorf("at %d columns the status line is %d cells per code point: %q", w, ansi.WcWidth.StringWidth(line), line)
		}
	}
}
