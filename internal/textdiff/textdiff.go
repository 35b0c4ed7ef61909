// Package textdiff is the line diff of two texts with the words changed
// within each changed line, and its unified hunks: what `crmem diff` and
// the TUI's history view draw between two versions of an entry. It knows
// nothing of a terminal: the faces style what it returns.
//
// # Lines
//
// A text is cut after each "\n"; "" is no lines, "a\n" is one line "a",
// and so is "a", whose line has no newline at its end (Line.NoEOL). As
// with diff -u, a last line without a newline differs from the same line
// with one: "a" against "a\n" is the removal of "a" (no newline) and the
// addition of "a". A "\r" before the "\n" stays in the line's text.
//
// # The diff
//
// Lines are compared by Myers' O(ND) algorithm after the common first and
// last lines are set aside, so the diff is minimal (within the bounds
// below: as few lines removed and added as can be); within each change
// block its removals come before its additions, as diff -u prints them.
// Within a block each removed line is paired with an added line, in
// order, and their words are compared the same way: runs of letters and
// digits (a combining mark stays with what it marks), runs of spaces,
// each other character. The words a pair does not share are its lines'
// Changed spans. A removed line's partner is the first of the next few
// added lines (after the last partner) that shares at least a third of
// its bytes outside spaces: the i-th removed line is the i-th added one's
// unless a line was inserted or removed among them, and a line that
// shares too little with any is left unpaired (highlighting nearly every
// word of it would be noise).
//
// # Bounds
//
// The texts are untrusted: an entry may be a megabyte of one line, or
// 100,000 lines each different. The work is bounded (maxLineWork for the
// lines, maxWordWork for the words of all pairs together). Past half the
// line budget the middle is cut instead at the lines each text holds
// once, in the order both hold them (patience diff's anchors), and each
// piece between two is diffed with what is left: the diff is then no
// longer sure to be minimal, but one line in fifty changed in 100,000 is
// still exactly those lines. A piece the budget does not reach is one
// removal and one addition, and is not compared word by word; neither is
// a pair of lines whose differing middle is over maxWordBytes, nor any
// pair once the word budget is spent. Result.Bounded says when any of
// this happened. Any input is diffed in a few tens of milliseconds
// (BenchmarkDiff_*: 30-65 ms of CPU for the worst, 20 µs for a typical
// entry).
package textdiff

import "strings"

// Work bounds, in units of Myers' search (a diagonal visited or a symbol
// compared, a few nanoseconds each). A diff of two texts with D lines
// changed in a middle of N+M lines costs about (N+M)·D: the first half
// of maxLineWork covers 500 changed lines in a middle of 2,000.
const (
	maxLineWork = 2 << 20
	maxWordWork = 2 << 20
)

// Line is one line of a diff.
type Line struct {
	Op   byte   // ' ' in both, '-' only in A, '+' only in B
	Text string // without its newline
	A, B int    // 1-based line numbers in A and B (0 where the line is not in that text)
	// NoEOL is true for a text's last line when the text does not end in
	// "\n" (diff -u's "\ No newline at end of file").
	NoEOL bool
	// Changed are the byte ranges of Text that differ from the line it
	// replaces (a '-' line paired with a '+' line in the same change
	// block): the words changed, for highlighting, ascending and apart.
	// nil when the line is not paired (a pure add/remove: the whole line
	// is new; so is a line that shares less than a third of its bytes
	// outside spaces with each added line it was compared with), when
	// the pair's texts are identical (only a newline at the end differs),
	// or when a work bound left it uncompared. Empty but not nil when the
	// line is paired and none of its own words changed (words were only
	// added to its partner, or only removed).
	Changed []Span
}

// Span is a range of a line's text, byte offsets into Line.Text (Start
// included, End not), on rune boundaries when the text is valid UTF-8.
type Span struct{ Start, End int }

// Result is the diff of two texts.
type Result struct {
	Lines []Line
	// Bounded is true when a work bound was hit: part of the middle was
	// diffed coarsely (as lines removed and added whole), or some pairs
	// of lines were not compared word by word. Say so to the user.
	Bounded bool
}

// Changes counts the lines removed and added.
func (r Result) Changes() (removed, added int) {
	for _, l := range r.Lines {
		switch l.Op {
		case opDel:
			removed++
		case opIns:
			added++
		}
	}
	return removed, added
}

// Diff is the line diff from a to b, its changed lines paired and
// compared word by word.
func Diff(a, b string) Result {
	la, lb := splitLines(a), splitLines(b)
	ops, coarse := lineScript(la, lb)
	lines := make([]Line, 0, len(ops))
	i, j := 0, 0
	for _, op := range ops {
		var l Line
		switch op {
		case opSame:
			l = newLine(op, la[i], i+1, j+1)
			i, j = i+1, j+1
		case opDel:
			l = newLine(op, la[i], i+1, 0)
			i++
		default:
			l = newLine(op, lb[j], 0, j+1)
			j++
		}
		lines = append(lines, l)
	}
	complete := pairWords(lines, coarse, maxWordWork)
	return Result{Lines: lines, Bounded: len(coarse) > 0 || !complete}
}

// lineScript is the edit script of the lines la and lb, and its coarse
// ranges. The lines they share at either end are set aside by comparing
// them, before the rest is numbered: a megabyte entry with one line
// changed costs its compare, not a hash of every line.
func lineScript(la, lb []string) (ops []byte, coarse [][2]int) {
	pre := 0
	for pre < len(la) && pre < len(lb) && la[pre] == lb[pre] {
		pre++
	}
	suf := 0
	for suf < len(la)-pre && suf < len(lb)-pre && la[len(la)-1-suf] == lb[len(lb)-1-suf] {
		suf++
	}
	ia, ib := intern(la[pre:len(la)-suf], lb[pre:len(lb)-suf])
	e := script(ia, ib, maxLineWork)
	ops = make([]byte, 0, pre+len(e.ops)+suf)
	for range pre {
		ops = append(ops, opSame)
	}
	ops = append(ops, e.ops...)
	for range suf {
		ops = append(ops, opSame)
	}
	for _, c := range e.coarse {
		coarse = append(coarse, [2]int{c[0] + pre, c[1] + pre})
	}
	return ops, coarse
}

// splitLines cuts s after each "\n"; each line keeps its newline, so that
// a last line without one compares unequal to the same text with one.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := make([]string, 0, strings.Count(s, "\n")+1)
	for s != "" {
		i := strings.IndexByte(s, '\n') + 1
		if i == 0 {
			i = len(s)
		}
		lines = append(lines, s[:i])
		s = s[i:]
	}
	return lines
}

// newLine is a line of the diff from a line of a text (its newline, if
// any, still on).
func newLine(op byte, raw string, a, b int) Line {
	text, eol := strings.CutSuffix(raw, "\n")
	return Line{Op: op, Text: text, A: a, B: b, NoEOL: !eol}
}

// intern numbers the distinct strings of a and b, equal strings alike.
func intern(a, b []string) (ia, ib []int32) {
	t := newInterner(len(a) + len(b))
	return t.number(a), t.number(b)
}
