package textdiff

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// unified prints hunks as diff -u prints them after its two file lines.
func unified(hunks []Hunk) string {
	var b strings.Builder
	for _, h := range hunks {
		b.WriteString(h.Header() + "\n")
		for _, l := range h.Lines {
			fmt.Fprintf(&b, "%c%s\n", l.Op, l.Text)
			if l.NoEOL {
				b.WriteString("\\ No newline at end of file\n")
			}
		}
	}
	return b.String()
}

// numbered is lines "l1\n" to "lN\n".
func numbered(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("l%d\n", i+1)
	}
	return out
}

// edited is numbered(20) with line i (1-based) replaced by the lines of
// with ("" removes it); several edits apply from the last line up.
func edited(edits ...any) string {
	ls := numbered(20)
	for k := len(edits) - 2; k >= 0; k -= 2 {
		i, with := edits[k].(int), edits[k+1].(string)
		ls = append(ls[:i-1], append(splitLines(with), ls[i:]...)...)
	}
	return strings.Join(ls, "")
}

// TestHunks_AsDiffU compares the hunks, headers and lines, with what GNU
// diff -u 3.8 printed for the same two files (its two file lines left
// out), obtained once and written here so the test needs no diff.
func TestHunks_AsDiffU(t *testing.T) {
	t20 := strings.Join(numbered(20), "")
	for _, c := range []struct {
		name, a, b, want string
	}{
		{"identical", t20, t20, ""},
		{"both empty", "", "", ""},
		{"empty to text", "", "a\nb\nc\n", "@@ -0,0 +1,3 @@\n+a\n+b\n+c\n"},
		{"text to empty", "a\nb\nc\n", "", "@@ -1,3 +0,0 @@\n-a\n-b\n-c\n"},
		{"newline added at the end", "a\nb\nc", "a\nb\nc\n", "@@ -1,3 +1,3 @@\n a\n b\n-c\n\\ No newline at end of file\n+c\n"},
		{"newline removed at the end", "a\nb\nc\n", "a\nb\nc", "@@ -1,3 +1,3 @@\n a\n b\n-c\n+c\n\\ No newline at end of file\n"},
		{"one line without newline to empty", "x", "", "@@ -1 +0,0 @@\n-x\n\\ No newline at end of file\n"},
		{"last line changed, no newline in either", "a\nb\nold", "a\nb\nnew", "@@ -1,3 +1,3 @@\n a\n b\n-old\n\\ No newline at end of file\n+new\n\\ No newline at end of file\n"},
		{"one line changed", t20, edited(10, "changed\n"), "@@ -7,7 +7,7 @@\n l7\n l8\n l9\n-l10\n+changed\n l11\n l12\n l13\n"},
		{"insert in the middle", t20, edited(11, "new\nl11\n"), "@@ -8,6 +8,7 @@\n l8\n l9\n l10\n+new\n l11\n l12\n l13\n"},
		{"delete in the middle", t20, edited(11, ""), "@@ -8,7 +8,6 @@\n l8\n l9\n l10\n-l11\n l12\n l13\n l14\n"},
		{"first and last lines changed", t20, edited(1, "first\n", 20, "last\n"), "@@ -1,4 +1,4 @@\n-l1\n+first\n l2\n l3\n l4\n@@ -17,4 +17,4 @@\n l17\n l18\n l19\n-l20\n+last\n"},
		{"changes 6 apart share a hunk", t20, edited(5, "x\n", 12, "y\n"), "@@ -2,14 +2,14 @@\n l2\n l3\n l4\n-l5\n+x\n l6\n l7\n l8\n l9\n l10\n l11\n-l12\n+y\n l13\n l14\n l15\n"},
		{"changes 7 apart are two hunks", t20, edited(5, "x\n", 13, "y\n"), "@@ -2,7 +2,7 @@\n l2\n l3\n l4\n-l5\n+x\n l6\n l7\n l8\n@@ -10,7 +10,7 @@\n l10\n l11\n l12\n-l13\n+y\n l14\n l15\n l16\n"},
		{"insert at the top", t20, "top\n" + t20, "@@ -1,3 +1,4 @@\n+top\n l1\n l2\n l3\n"},
		{"append at the end", t20, t20 + "end\n", "@@ -18,3 +18,4 @@\n l18\n l19\n l20\n+end\n"},
		{"block replaced by more lines", t20, edited(8, "p\nq\nr\n"), "@@ -5,7 +5,9 @@\n l5\n l6\n l7\n-l8\n+p\n+q\n+r\n l9\n l10\n l11\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := Diff(c.a, c.b)
			if r.Bounded {
				t.Error("bounded")
			}
			if got := unified(Hunks(r.Lines, 3)); got != c.want {
				t.Errorf("got\n%s\nwant (diff -u)\n%s", got, c.want)
			}
		})
	}
}

// TestHunks_Context: the context asked for decides which changes share a
// hunk (at most 2·context unchanged lines between them) and how many
// unchanged lines surround each; the headers are diff -U0 to -U100's.
func TestHunks_Context(t *testing.T) {
	lines := Diff(strings.Join(numbered(20), ""), edited(5, "x\n", 9, "y\n")).Lines // 3 unchanged lines between
	for _, c := range []struct {
		context int
		want    []string
	}{
		{0, []string{"@@ -5 +5 @@", "@@ -9 +9 @@"}},
		{1, []string{"@@ -4,3 +4,3 @@", "@@ -8,3 +8,3 @@"}}, // 3 lines apart > 2·1
		{2, []string{"@@ -3,9 +3,9 @@"}},
		{3, []string{"@@ -2,11 +2,11 @@"}},
		{-1, []string{"@@ -5 +5 @@", "@@ -9 +9 @@"}}, // taken as 0
		{100, []string{"@@ -1,20 +1,20 @@"}},
		{math.MaxInt, []string{"@@ -1,20 +1,20 @@"}}, // "all of it", without overflowing
	} {
		var got []string
		for _, h := range Hunks(lines, c.context) {
			got = append(got, h.Header())
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("context %d: %v, want %v", c.context, got, c.want)
		}
	}
}
