// Package cellwidth fits terminal lines to a width as the renderer will
// draw them.
//
// Layout (lipgloss, x/ansi's StringWidth) measures grapheme clusters, but
// Bubble Tea's renderer advances per code point (wcwidth) unless the
// terminal reports mode 2027, grapheme clustering: then "👩🏽‍💻" is six cells
// rather than two, "☺️" one rather than two, a half-width katakana with its
// dakuten two rather than one. A line laid out by clusters is then wider
// or narrower on the screen than planned: the pane separator moves and the
// card's border is cut. [Fit] corrects each laid-out line by the method
// the renderer uses ([FromModeReport]), taking cells from or giving them
// to the line's padding so the columns after it stay where they were.
package cellwidth

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// FromModeReport is the width method Bubble Tea's renderer switches to on
// a mode report, as it decides (tea.go: any answer to the mode 2027 query
// that is set, reset or permanently set turns grapheme clustering on);
// ok is false for a report that changes nothing. Until a report arrives
// the renderer measures with ansi.WcWidth.
func FromModeReport(mode ansi.Mode, value ansi.ModeSetting) (m ansi.Method, ok bool) {
	if mode != ansi.ModeUnicodeCore {
		return 0, false
	}
	switch value {
	case ansi.ModeSet, ansi.ModeReset, ansi.ModePermanentlySet:
		return ansi.GraphemeWidth, true
	}
	return 0, false
}

// Fit returns line exactly w cells wide as m measures it. A line that is
// as wide by clusters as by m is cut or padded at its end. Otherwise the
// difference comes out of (or goes into) the line's widest run of spaces
// (its padding: the gap before a card's border, a row's columns or the
// status line's right part), keeping one space of it, and only what that
// cannot absorb is cut or padded at the end.
func Fit(m ansi.Method, line string, w int) string {
	mw := m.StringWidth(line)
	if mw == w {
		return line
	}
	if m != ansi.GraphemeWidth && mw != ansi.StringWidth(line) {
		line = repad(line, w-mw)
		mw = m.StringWidth(line)
	}
	switch {
	case mw > w:
		line = Truncate(m, line, w, "")
		if tw := m.StringWidth(line); tw < w { // a wide character did not fit
			line += strings.Repeat(" ", w-tw)
		}
	case mw < w:
		line += strings.Repeat(" ", w-mw)
	}
	return line
}

// Truncate is line cut to at most w cells as m measures it, with tail;
// escape sequences after the cut are kept (an SGR reset still resets).
// x/ansi's Method.Truncate decides whether to cut by clusters whatever the
// method, so a line narrow by clusters and wide per code point came back
// whole.
func Truncate(m ansi.Method, line string, w int, tail string) string {
	if m.StringWidth(line) <= w {
		return line
	}
	if m == ansi.GraphemeWidth {
		return m.Truncate(line, w, tail)
	}
	w -= m.StringWidth(tail)
	if w < 0 {
		return ""
	}
	var b strings.Builder
	cells, cut := 0, false
	for i := 0; i < len(line); {
		if line[i] == 0x1b {
			n := escapeLen(line[i:])
			b.WriteString(line[i : i+n])
			i += n
			continue
		}
		_, size := utf8.DecodeRuneInString(line[i:])
		rw := m.StringWidth(line[i : i+size])
		if !cut && cells+rw > w {
			cut = true
			b.WriteString(tail)
		}
		if !cut {
			b.WriteString(line[i : i+size])
			cells += rw
		}
		i += size
	}
	return b.String()
}

// repad takes -d spaces out of line's widest runs of spaces (d < 0), each
// keeping one, or puts d spaces into its widest run (d > 0; none: nothing).
func repad(line string, d int) string {
	for d != 0 {
		run := widestRun(line)
		if len(run) == 0 || d < 0 && len(run) < 2 {
			return line
		}
		if d > 0 {
			at := run[len(run)-1]
			return line[:at] + strings.Repeat(" ", d) + line[at:]
		}
		n := min(-d, len(run)-1)
		cut := run[len(run)-n:]
		var b strings.Builder
		prev := 0
		for _, at := range cut {
			b.WriteString(line[prev:at])
			prev = at + 1
		}
		b.WriteString(line[prev:])
		line, d = b.String(), d+n
	}
	return line
}

// widestRun is the byte offsets of the spaces of line's widest run of
// visible spaces (escape sequences between them do not end a run); the
// last of the widest when several tie.
func widestRun(line string) []int {
	var best, cur []int
	for i := 0; i < len(line); {
		switch c := line[i]; {
		case c == 0x1b:
			i += escapeLen(line[i:])
			continue
		case c == ' ':
			cur = append(cur, i)
		default:
			if len(cur) >= len(best) && len(cur) > 0 {
				best = cur
			}
			cur = nil
		}
		i++
	}
	if len(cur) >= len(best) && len(cur) > 0 {
		best = cur
	}
	return best
}

// escapeLen measures the escape sequence at the start of s: a CSI (SGR and
// the like) up to its final byte, an OSC (a hyperlink) up to BEL or ST, or
// ESC and one byte.
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		for i := 2; i < len(s); i++ {
			if s[i] >= 0x40 && s[i] <= 0x7e {
				return i + 1
			}
		}
	case ']':
		for i := 2; i < len(s); i++ {
			if s[i] == 0x07 {
				return i + 1
			}
			if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
		}
	default:
		return 2
	}
	return len(s)
}

// Pad puts d spaces into line's widest run of spaces (its padding), or at
// its end when it has none: a line whose text was drawn d cells narrower
// than laid out keeps the columns after that run where they were.
func Pad(line string, d int) string {
	if d <= 0 {
		return line
	}
	if padded := repad(line, d); padded != line {
		return padded
	}
	return line + strings.Repeat(" ", d)
}
