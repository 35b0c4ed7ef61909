package editor

import (
	"reflect"
	"strings"
	"testing"
)

func TestLineDiff(t *testing.T) {
	tests := []struct {
		name, theirs, mine string
		want               []DiffLine
	}{
		{"same", "a\nb", "a\nb", []DiffLine{{DiffSkip, ""}}},
		{"one line changed, context 1", "a\nb\nc\nd\ne", "a\nb\nC\nd\ne", []DiffLine{
			{DiffSkip, ""}, {DiffSame, "b"}, {DiffTheirs, "c"}, {DiffMine, "C"}, {DiffSame, "d"}, {DiffSkip, ""}}},
		{"appended", "a", "a\nMine.", []DiffLine{{DiffSame, "a"}, {DiffMine, "Mine."}}},
		{"theirs emptied", "x\ny", "", []DiffLine{{DiffTheirs, "x"}, {DiffTheirs, "y"}, {DiffMine, ""}}},
		{"two hunks", "1\n2\n3\n4\n5\n6\n7", "1\nX\n3\n4\n5\nY\n7", []DiffLine{
			{DiffSame, "1"}, {DiffTheirs, "2"}, {DiffMine, "X"}, {DiffSame, "3"}, {DiffSkip, ""},
			{DiffSame, "5"}, {DiffTheirs, "6"}, {DiffMine, "Y"}, {DiffSame, "7"}}},
		{"moved middle", "a\nb\nc\nd", "a\nc\nb\nd", []DiffLine{
			{DiffSame, "a"}, {DiffTheirs, "b"}, {DiffSame, "c"}, {DiffMine, "b"}, {DiffSame, "d"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := LineDiff(tt.theirs, tt.mine, 1); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("LineDiff =\n%v\nwant\n%v", got, tt.want)
			}
		})
	}
}

// TestLineDiff_LargeStaysCorrect: past the LCS bound the middle is shown
// replaced whole; every line of both texts is still accounted for.
func TestLineDiff_LargeStaysCorrect(t *testing.T) {
	var a, b []string
	for i := range 3000 {
		a = append(a, "a"+strings.Repeat("a", i%7))
		b = append(b, "b"+strings.Repeat("b", i%5))
	}
	got := LineDiff(strings.Join(a, "\n"), strings.Join(b, "\n"), 0)
	var theirs, mine int
	for _, l := range got {
		switch l.Op {
		case DiffTheirs:
			theirs++
		case DiffMine:
			mine++
		}
	}
	if theirs != len(a) || mine != len(b) {
		t.Errorf("%d theirs, %d mine lines, want %d and %d", theirs, mine, len(a), len(b))
	}
}
