package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Dialogs, prompts and the status line are laid out by drawnWidth: the
// wider of a text's width by grapheme clusters (what a terminal that
// reports mode 2027 draws) and per code point (wcwidth: tmux, xterm and
// Bubble Tea's renderer until such a report). The two disagree on
// half-width katakana with its voiced marks, Devanagari, Tamil and
// Malayalam vowel signs and ZWJ emoji; rows wrapped by clusters alone
// were cut by the screen's fitting, and a question lost its [y/n] (issue
// 42 item 1). A row laid out so fits however the renderer measures.

// drawnWidth is the cells s takes however the terminal measures it;
// escape sequences take none.
func drawnWidth(s string) int {
	w := 0
	for l := range strings.SplitSeq(s, "\n") {
		w = max(w, ansi.StringWidth(l), ansi.WcWidth.StringWidth(l))
	}
	return w
}

// drawnClusters splits plain text into its grapheme clusters, each as
// wide as drawnWidth measures it.
func drawnClusters(s string) []cluster {
	cs := clustersOf(s)
	for i, c := range cs {
		cs[i].width = max(c.width, ansi.WcWidth.StringWidth(c.text))
	}
	return cs
}

// hardwrap breaks plain text into lines of at most width cells as
// drawnWidth measures them, between grapheme clusters.
func hardwrap(s string, width int) []string {
	width = max(width, 1)
	var lines []string
	for l := range strings.SplitSeq(s, "\n") {
		cs := drawnClusters(l)
		for cellsOf(cs) > width {
			head := headIn(cs, width)
			if len(head) == 0 {
				head = cs[:1]
			}
			lines = append(lines, textOf(head))
			cs = cs[len(head):]
		}
		lines = append(lines, textOf(cs))
	}
	return lines
}

// drawnTruncate cuts plain text to at most w cells as drawnWidth
// measures them, with tail ("…") when cut.
func drawnTruncate(s string, w int, tail string) string {
	cs := drawnClusters(s)
	if cellsOf(cs) <= w {
		return s
	}
	return textOf(headIn(cs, max(w-drawnWidth(tail), 0))) + tail
}

// drawnTruncateLeft keeps the end of plain text that fits in w cells,
// with head ("…") before it when cut.
func drawnTruncateLeft(s string, w int, head string) string {
	cs := drawnClusters(s)
	if cellsOf(cs) <= w {
		return s
	}
	return head + textOf(tailIn(cs, max(w-drawnWidth(head), 0)))
}

// zwj is the zero-width joiner that joins emoji into one picture.
const zwj = "\u200d"

// unjoinEmoji draws an emoji ZWJ sequence as the emoji it joins, side by
// side: 👨‍👩‍👧‍👦 as 👨👩👧👦, 👩🏽‍💻 as 👩🏽💻, 🏳️‍🌈 as 🏳️🌈. Terminals disagree on a
// joined sequence (per code point it is 8 cells, xterm draws 8, tmux 2,
// terminals that cluster graphemes 2), and the pane separator and the
// card's border moved with them (issue 42 item 5); on its own every emoji
// is as wide in each of them as per code point, and the joiner takes no
// cell, so the line keeps the width it was laid out with. The screen
// draws so until the terminal reports grapheme clustering (mode 2027);
// then it draws the sequence joined, which such a terminal draws as two
// cells. A ZWJ anywhere else was already shown as a marker (sanitize),
// so every raw ZWJ in a drawn line joins emoji.
func unjoinEmoji(l string) string {
	if !strings.Contains(l, zwj) {
		return l
	}
	return strings.ReplaceAll(l, zwj, "")
}
