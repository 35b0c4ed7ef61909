package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/crmem/crmem/tui/part"
	"golang.org/x/text/unicode/norm"
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
// escape sequences take none (part.DrawnWidth).
func drawnWidth(s string) int { return part.DrawnWidth(s) }

// hardwrap breaks plain text into lines of at most width cells as
// drawnWidth measures them (part.Hardwrap).
func hardwrap(s string, width int) []string { return part.Hardwrap(s, width) }

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

// composeJamo draws decomposed Hangul in a form of known width: each run
// of conjoining jamo composed into syllables (NFC: ᄒ ᅡ ᆫ as 한, two cells
// everywhere), and a vowel or final consonant left over as its halfwidth
// letter (one cell everywhere). Per code point a medial or final jamo is
// a cell, while tmux and xterm draw it in the cell before: the row was
// drawn narrower than laid out and the pane separator moved (issue 42
// item 5). lost is the cells the composed syllables take fewer than
// their jamo did, for the caller to put back as padding.
func composeJamo(l string) (out string, lost int) {
	if !hasJamo(l) {
		return l, 0
	}
	was := ansi.WcWidth.StringWidth(l)
	out = strings.Map(halfwidthJamo, norm.NFC.String(l))
	return out, was - ansi.WcWidth.StringWidth(out)
}

// hasJamo reports whether l holds a conjoining vowel or final consonant.
func hasJamo(l string) bool {
	return strings.IndexFunc(l, func(r rune) bool { return r >= 0x1160 && r <= 0x11ff || r >= 0xd7b0 && r <= 0xd7ff }) >= 0
}

// jamoVowels are the halfwidth letters of the vowels U+1161…U+1175.
var jamoVowels = [...]rune{0xffc2, 0xffc3, 0xffc4, 0xffc5, 0xffc6, 0xffc7, 0xffca, 0xffcb, 0xffcc, 0xffcd, 0xffce,
	0xffcf, 0xffd2, 0xffd3, 0xffd4, 0xffd5, 0xffd6, 0xffd7, 0xffda, 0xffdb, 0xffdc}

// jamoFinals are the halfwidth letters of the final consonants
// U+11A8…U+11C2 (the compatibility letter's, U+3131…U+314E, moved to
// U+FFA1…).
var jamoFinals = [...]rune{0x3131, 0x3132, 0x3133, 0x3134, 0x3135, 0x3136, 0x3137, 0x3139, 0x313a, 0x313b, 0x313c,
	0x313d, 0x313e, 0x313f, 0x3140, 0x3141, 0x3142, 0x3144, 0x3145, 0x3146, 0x3147, 0x3148, 0x314a, 0x314b, 0x314c,
	0x314d, 0x314e}

// halfwidthJamo is r's halfwidth letter for a modern vowel or final
// consonant left uncomposed, else r.
func halfwidthJamo(r rune) rune {
	switch {
	case r >= 0x1161 && r <= 0x1175:
		return jamoVowels[r-0x1161]
	case r >= 0x11a8 && r <= 0x11c2:
		return jamoFinals[r-0x11a8] - 0x3131 + 0xffa1
	}
	return r
}
