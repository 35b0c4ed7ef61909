package textdiff

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// check is the diff's invariants: the ' ' and '-' lines rebuild a, the
// ' ' and '+' lines rebuild b, A and B count up from 1 without gaps,
// removals come before additions in each change block, every span is in
// range, ordered, apart, not empty, and on rune boundaries in valid UTF-8,
// and the hunks with any context hold every changed line once, in order.
func check(a, b string, r Result) error {
	var ra, rb strings.Builder
	na, nb := 0, 0
	for i, l := range r.Lines {
		text := l.Text
		if !l.NoEOL {
			text += "\n"
		}
		switch l.Op {
		case ' ', '-':
			na++
			if l.A != na {
				return fmt.Errorf("line %d: A %d, want %d", i, l.A, na)
			}
			ra.WriteString(text)
		}
		switch l.Op {
		case ' ', '+':
			nb++
			if l.B != nb {
				return fmt.Errorf("line %d: B %d, want %d", i, l.B, nb)
			}
			rb.WriteString(text)
		}
		if (l.Op == '-' && l.B != 0) || (l.Op == '+' && l.A != 0) || !strings.ContainsRune(" -+", rune(l.Op)) {
			return fmt.Errorf("line %d: op %q A %d B %d", i, l.Op, l.A, l.B)
		}
		if l.Op == '+' && i+1 < len(r.Lines) && r.Lines[i+1].Op == '-' {
			return fmt.Errorf("line %d: a removal after an addition", i+1)
		}
		if l.Op == ' ' && l.Changed != nil {
			return fmt.Errorf("line %d: unchanged with spans %v", i, l.Changed)
		}
		if err := checkSpans(l); err != nil {
			return fmt.Errorf("line %d %q: %w", i, l.Text, err)
		}
		if strings.Contains(l.Text, "\n") || (l.NoEOL && i != len(r.Lines)-1 && r.Lines[i+1].Op == l.Op) {
			return fmt.Errorf("line %d %q: newline inside, or no newline before another", i, l.Text)
		}
	}
	if ra.String() != a || rb.String() != b {
		return fmt.Errorf("rebuilt %q and %q, want %q and %q", ra.String(), rb.String(), a, b)
	}
	for _, context := range []int{0, 1, 3} {
		if err := checkHunks(r.Lines, context); err != nil {
			return fmt.Errorf("context %d: %w", context, err)
		}
	}
	return nil
}

func checkSpans(l Line) error {
	at := 0
	for _, s := range l.Changed {
		if s.Start < at || s.End <= s.Start || s.End > len(l.Text) || (at > 0 && s.Start == at) {
			return fmt.Errorf("spans %v out of range, order, or touching", l.Changed)
		}
		if utf8.ValidString(l.Text) && (!utf8.RuneStart(byteAt(l.Text, s.Start)) || !utf8.RuneStart(byteAt(l.Text, s.End))) {
			return fmt.Errorf("span %v not on rune boundaries", s)
		}
		at = s.End
	}
	return nil
}

// byteAt is s[i], or a rune start at the end of s.
func byteAt(s string, i int) byte {
	if i == len(s) {
		return 0
	}
	return s[i]
}

// checkHunks: every changed line is in exactly one hunk, in order, each
// hunk's counts and starts agree with its lines, and its unchanged lines
// at either end are at most context.
func checkHunks(lines []Line, context int) error {
	var changed []int
	for i := range lines {
		if lines[i].Op != ' ' {
			changed = append(changed, i)
		}
	}
	k := 0
	for _, h := range Hunks(lines, context) {
		na, nb, firstA, firstB := 0, 0, 0, 0
		for _, l := range h.Lines {
			if l.Op != ' ' {
				if k >= len(changed) || lines[changed[k]].A != l.A || lines[changed[k]].B != l.B || lines[changed[k]].Op != l.Op {
					return fmt.Errorf("hunk %s: changed line %c%d/%d out of order", h.Header(), l.Op, l.A, l.B)
				}
				k++
			}
			if l.Op != '+' {
				na++
				if firstA == 0 {
					firstA = l.A
				}
			}
			if l.Op != '-' {
				nb++
				if firstB == 0 {
					firstB = l.B
				}
			}
		}
		if na != h.ALines || nb != h.BLines || (na > 0 && firstA != h.AStart) || (nb > 0 && firstB != h.BStart) {
			return fmt.Errorf("hunk %s: has %d/%d lines from %d/%d", h.Header(), na, nb, firstA, firstB)
		}
		lead, trail := 0, 0
		for lead < len(h.Lines) && h.Lines[lead].Op == ' ' {
			lead++
		}
		for trail < len(h.Lines) && h.Lines[len(h.Lines)-1-trail].Op == ' ' {
			trail++
		}
		if lead > context || trail > context || lead == len(h.Lines) {
			return fmt.Errorf("hunk %s: %d and %d lines of context", h.Header(), lead, trail)
		}
	}
	if k != len(changed) {
		return fmt.Errorf("hunks hold %d of %d changed lines", k, len(changed))
	}
	return nil
}
