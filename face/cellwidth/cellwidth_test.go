package cellwidth

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// clusters whose width per code point is not their width as a cluster.
var clusters = []string{"👩🏽‍💻", "☺️", "🏳️‍🌈", "ｶﾞ", "नमस्ते", "👨‍👩‍👧‍👦", "e\u0301"}

func TestFit_EveryMethodEveryWidth(t *testing.T) {
	for _, c := range clusters {
		for _, line := range []string{
			"│ " + c + " name      │",
			"\x1b[1m" + c + "\x1b[0m  row   2h  184B",
			c + c + c + c + c + c,
			"plain " + c,
		} {
			for _, m := range []ansi.Method{ansi.WcWidth, ansi.GraphemeWidth} {
				for w := 1; w <= 30; w++ {
					got := Fit(m, line, w)
					if gw := m.StringWidth(got); gw != w {
						t.Errorf("Fit(%d, %q, %d) = %q: %d cells", m, line, w, got, gw)
					}
				}
			}
		}
	}
}

// TestFit_KeepsTheBorder: a card line with a cluster that draws wider per
// code point gives the difference from its padding, so its border stays
// in the last column.
func TestFit_KeepsTheBorder(t *testing.T) {
	line := "│ 👩🏽‍💻 dev" + strings.Repeat(" ", 10) + "\x1b[2m│\x1b[0m"
	w := ansi.StringWidth(line) // laid out by clusters
	got := Fit(ansi.WcWidth, line, w)
	if ansi.StringWidthWc(got) != w || !strings.HasSuffix(ansi.Strip(got), "dev      │") {
		t.Errorf("%q (%d cells)", ansi.Strip(got), ansi.StringWidthWc(got))
	}
	narrow := "│ ☺️ smile" + strings.Repeat(" ", 4) + "│"
	got = Fit(ansi.WcWidth, narrow, ansi.StringWidth(narrow))
	if !strings.HasSuffix(got, "smile     │") {
		t.Errorf("%q", got)
	}
}

func TestFromModeReport(t *testing.T) {
	for _, v := range []ansi.ModeSetting{ansi.ModeSet, ansi.ModeReset, ansi.ModePermanentlySet} {
		if m, ok := FromModeReport(ansi.ModeUnicodeCore, v); !ok || m != ansi.GraphemeWidth {
			t.Errorf("2027 %v: %v %v", v, m, ok)
		}
	}
	for _, v := range []ansi.ModeSetting{ansi.ModeNotRecognized, ansi.ModePermanentlyReset} {
		if _, ok := FromModeReport(ansi.ModeUnicodeCore, v); ok {
			t.Errorf("2027 %v switched the method", v)
		}
	}
	if _, ok := FromModeReport(ansi.ModeSynchronizedOutput, ansi.ModeSet); ok {
		t.Error("2026 switched the method")
	}
}
