package textdiff

import (
	"fmt"
	"strconv"
)

// Hunk is a run of changed lines with the unchanged lines around them, as
// diff -u prints it.
type Hunk struct {
	// AStart, ALines, BStart, BLines are as diff -u prints them in
	// "@@ -a,n +b,m @@": the first line's number in each text and the
	// count of the hunk's lines in it; with no lines in a text, its start
	// is the number of the line before the hunk (0 at the top).
	AStart, ALines, BStart, BLines int
	Lines                          []Line
}

// Header is the hunk's "@@ -a,n +b,m @@" line as diff -u prints it (a
// count of 1 left out).
func (h Hunk) Header() string {
	return fmt.Sprintf("@@ -%s +%s @@", unifiedRange(h.AStart, h.ALines), unifiedRange(h.BStart, h.BLines))
}

func unifiedRange(start, n int) string {
	if n == 1 {
		return strconv.Itoa(start)
	}
	return strconv.Itoa(start) + "," + strconv.Itoa(n)
}

// Hunks groups the lines of a diff into unified hunks, each change with
// up to context unchanged lines before and after it (3 is diff -u's); two
// changes at most 2·context unchanged lines apart share a hunk. A diff
// without changes has no hunks. A hunk's Lines are part of lines, not a
// copy.
func Hunks(lines []Line, context int) []Hunk {
	context = min(max(context, 0), len(lines)) // no more than there are; 2·context cannot overflow
	var hunks []Hunk
	aBefore, bBefore := 0, 0 // lines of each text before lines[i]
	for i := 0; i < len(lines); {
		if lines[i].Op == opSame {
			aBefore, bBefore = aBefore+1, bBefore+1
			i++
			continue
		}
		start := max(i-context, 0)
		// The hunk ends where context+1 unchanged lines follow its last
		// change and the next change is more than 2·context lines on.
		end := i
		for end < len(lines) {
			if lines[end].Op != opSame {
				end++
				continue
			}
			run := end
			for run < len(lines) && lines[run].Op == opSame {
				run++
			}
			if run == len(lines) || run-end > 2*context {
				end = min(end+context, len(lines))
				break
			}
			end = run
		}
		h := Hunk{Lines: lines[start:end:end]}
		lead := i - start
		h.AStart, h.BStart = aBefore-lead+1, bBefore-lead+1
		for _, l := range h.Lines {
			if l.Op != opIns {
				h.ALines++
			}
			if l.Op != opDel {
				h.BLines++
			}
		}
		if h.ALines == 0 {
			h.AStart--
		}
		if h.BLines == 0 {
			h.BStart--
		}
		hunks = append(hunks, h)
		aBefore += h.ALines - lead
		bBefore += h.BLines - lead
		i = end
	}
	return hunks
}

// Segment is a run of a line's text, changed or not.
type Segment struct {
	Text    string
	Changed bool
}

// Segments cuts the line's text into runs, each inside its Changed spans
// or outside them, for a renderer to emphasise the changed ones. A line
// without spans (a line unchanged, added or removed whole) is one run,
// not changed: the whole line's colour says it.
func (l Line) Segments() []Segment {
	var out []Segment
	at := 0
	for _, s := range l.Changed {
		if s.Start > at {
			out = append(out, Segment{l.Text[at:s.Start], false})
		}
		if s.End > s.Start {
			out = append(out, Segment{l.Text[s.Start:s.End], true})
		}
		at = s.End
	}
	if at < len(l.Text) || len(out) == 0 {
		out = append(out, Segment{l.Text[at:], false})
	}
	return out
}
