package tui

import (
	"strings"
	"testing"
)

// TestMarkOlder_AsksAboutSpansUnderADay pins issue 17 item 4: `O 6m`
// marked 1,507 of 1,508 archives (6m is six minutes, as everywhere). A
// span under a day asks "did you mean months?" before marking: n marks
// nothing, y marks as typed; a day or more marks at once.
func TestMarkOlder_AsksAboutSpansUnderADay(t *testing.T) {
	for _, tt := range []struct {
		span, answer string
		asks         string // the question, "" for none
		want         int
	}{
		{"6m", "n", `"6m" is 6 minutes: did you mean months (6mo)? Mark the archives older than 6 minutes?`, 0},
		{"6m", "y", "did you mean months", 10},
		{"12h", "n", `"12h" is 12 hours, under a day: mark the archives older than 12 hours?`, 0},
		{"1d", "", "", 10},
		{"6mo", "", "", 0},
		// issue 29 item 8: "0d" said "0 minutes: did you mean months (0dmo)?"
		{"0d", "n", `"0d" is no time at all: mark every archive?`, 0},
		{"0m", "y", `"0m" is no time at all: mark every archive?`, 10},
	} {
		path, _ := agedMemory(t)
		h := newEditHarnessIn(t, path, t.TempDir())
		press(h.m, "O")
		typeText(h.m, tt.span)
		press(h.m, "enter")
		asked := squeeze(plainOverlay(h.m))
		if tt.asks == "" && strings.Contains(asked, "[") || tt.asks != "" && !strings.Contains(asked, squeeze(tt.asks)) {
			t.Fatalf("O %s: asked %q, want %q", tt.span, asked, tt.asks)
		}
		if tt.asks != "" {
			if n, _ := h.m.markedSize(); n != 0 {
				t.Fatalf("O %s marked %d before the answer", tt.span, n)
			}
			press(h.m, tt.answer)
		}
		if n, _ := h.m.markedSize(); n != tt.want {
			t.Errorf("O %s, answer %q: marked %d, want %d (status %q)", tt.span, tt.answer, n, tt.want, h.status())
		}
	}
}

// TestMarkOlder_RefusesSpansThatWrap pins issue 17 item 4: `O 293y`
// wrapped around to a negative span and marked every archive. The prompt
// refuses it, naming the largest span, and marks nothing.
func TestMarkOlder_RefusesSpansThatWrap(t *testing.T) {
	path, _ := agedMemory(t)
	h := newEditHarnessIn(t, path, t.TempDir())
	press(h.m, "O")
	typeText(h.m, "293y")
	press(h.m, "enter")
	if n, _ := h.m.markedSize(); n != 0 {
		t.Fatalf("O 293y marked %d archives", n)
	}
	if got := squeeze(plainOverlay(h.m)); !strings.Contains(got, squeeze(`"293y": at most 292y`)) {
		t.Fatalf("prompt %q, want it to name the largest span", plainOverlay(h.m))
	}
	press(h.m, "backspace", "backspace", "backspace", "backspace")
	typeText(h.m, "292y")
	press(h.m, "enter")
	if n, _ := h.m.markedSize(); n != 0 {
		t.Fatalf("O 292y marked %d archives created this century", n)
	}
}
