package textdiff

import (
	"fmt"
	"strings"
	"testing"
)

// brief is a diff's lines as "op A B text" strings.
func brief(lines []Line) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = fmt.Sprintf("%c %d %d %s", l.Op, l.A, l.B, l.Text)
	}
	return out
}

func TestDiff_Lines(t *testing.T) {
	for _, c := range []struct {
		name, a, b string
		want       []string
	}{
		{"identical", "a\nb\n", "a\nb\n", []string{"  1 1 a", "  2 2 b"}},
		{"both empty", "", "", nil},
		{"empty to text", "", "a\nb", []string{"+ 0 1 a", "+ 0 2 b"}},
		{"text to empty", "a\nb\n", "", []string{"- 1 0 a", "- 2 0 b"}},
		{"one line changed", "a\nb\nc\n", "a\nB\nc\n", []string{"  1 1 a", "- 2 0 b", "+ 0 2 B", "  3 3 c"}},
		{"insert in the middle", "a\nc\n", "a\nb\nc\n", []string{"  1 1 a", "+ 0 2 b", "  2 3 c"}},
		{"removals before additions", "a\nx\ny\nd\n", "a\np\nq\nr\nd\n", []string{"  1 1 a", "- 2 0 x", "- 3 0 y", "+ 0 2 p", "+ 0 3 q", "+ 0 4 r", "  4 5 d"}},
		{"minimal: a line kept between changes", "a\nx\ny\nd\n", "a\np\nx\nq\nd\n", []string{"  1 1 a", "+ 0 2 p", "  2 3 x", "- 3 0 y", "+ 0 4 q", "  4 5 d"}},
		{"newline at the end added", "a", "a\n", []string{"- 1 0 a", "+ 0 1 a"}},
		{"an empty last line is a line", "a\n", "a\n\n", []string{"  1 1 a", "+ 0 2 "}},
		{"carriage returns stay", "a\r\nb\r\n", "a\r\nc\r\n", []string{"  1 1 a\r", "- 2 0 b\r", "+ 0 2 c\r"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := Diff(c.a, c.b)
			if got := brief(r.Lines); fmt.Sprintf("%q", got) != fmt.Sprintf("%q", c.want) {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
			checkRebuilds(t, c.a, c.b, r)
		})
	}
}

func TestDiff_NoEOL(t *testing.T) {
	r := Diff("a\nb", "a\nb\n")
	want := []bool{false, true, false}
	for i, l := range r.Lines {
		if l.NoEOL != want[i] {
			t.Errorf("line %d %q: NoEOL %v, want %v", i, l.Text, l.NoEOL, want[i])
		}
	}
	if r.Lines[1].Changed != nil || r.Lines[2].Changed != nil {
		t.Errorf("a pair differing only in the newline has spans: %v %v", r.Lines[1].Changed, r.Lines[2].Changed)
	}
}

// changedText is the text of each of the line's spans, nil for nil spans.
func changedText(l Line) []string {
	if l.Changed == nil {
		return nil
	}
	out := []string{}
	for _, s := range l.Changed {
		out = append(out, l.Text[s.Start:s.End])
	}
	return out
}

func TestDiff_Words(t *testing.T) {
	for _, c := range []struct {
		name, a, b     string
		wantA, wantB   []string // nil: no spans
		lineA, lineB   int      // the pair's lines in the diff, when not 0 and 1
		unpairedOthers bool
	}{
		{name: "a word", a: "port 8080 on host", b: "port 9090 on host", wantA: []string{"8080"}, wantB: []string{"9090"}},
		{name: "two words apart", a: "the quick brown fox", b: "the slow brown dog", wantA: []string{"quick", "fox"}, wantB: []string{"slow", "dog"}},
		{name: "neighbouring words merge", a: "deploy to staging-eu now", b: "deploy to prod/us now", wantA: []string{"staging-eu"}, wantB: []string{"prod/us"}},
		{name: "a word added", a: "run tests", b: "run all tests", wantA: []string{}, wantB: []string{"all "}},
		{name: "a word removed", a: "run all tests", b: "run tests", wantA: []string{"all "}, wantB: []string{}},
		{name: "punctuation", a: "use foo(x, y)", b: "use foo(x; y)", wantA: []string{","}, wantB: []string{";"}},
		{name: "nothing in common", a: "alpha beta", b: "gamma delta", wantA: nil, wantB: nil},
		{name: "only spaces in common", a: "alpha beta gamma", b: "one two three", wantA: nil, wantB: nil},
		// "x" in common: 6·1 < 13+13, too little to highlight.
		{name: "under a third in common", a: "x abcdef ghijkl", b: "x mnopqr stuvwx", wantA: nil, wantB: nil},
		// "keep" in common: 6·4 = 24 ≥ 9+9.
		{name: "a third in common", a: "keep alpha", b: "keep omega", wantA: []string{"alpha"}, wantB: []string{"omega"}},
		{name: "Japanese by character", a: "東京は晴れです", b: "東京は雨です", wantA: []string{"晴れ"}, wantB: []string{"雨"}},
		{name: "Chinese by character", a: "部署到生产环境", b: "部署到测试环境", wantA: []string{"生产"}, wantB: []string{"测试"}},
		{name: "Korean by words", a: "서버 배포 완료", b: "서버 배포 실패", wantA: []string{"완료"}, wantB: []string{"실패"}},
		{name: "emoji with a joiner", a: "owner 🚀 team", b: "owner 👩‍💻 team", wantA: []string{"🚀"}, wantB: []string{"👩‍💻"}},
		{name: "joined emoji whole", a: "made by 👩‍💻 now", b: "made by 👩‍🔬 now", wantA: []string{"👩‍💻"}, wantB: []string{"👩‍🔬"}},
		{name: "emoji with a skin tone", a: "ok 👍🏻 done", b: "ok 👍🏿 done", wantA: []string{"👍🏻"}, wantB: []string{"👍🏿"}},
		{name: "flag-like variation selector", a: "rate ❤️ high", b: "rate ✔️ high", wantA: []string{"❤️"}, wantB: []string{"✔️"}},
		{name: "combining mark stays in its word", a: "nai\u0308ve plan", b: "naive plan", wantA: []string{"nai\u0308ve"}, wantB: []string{"naive"}},
		{name: "a word with a combining mark", a: "cafe\u0301 open", b: "cafe open", wantA: []string{"cafe\u0301"}, wantB: []string{"cafe"}},
		{name: "combining mark after punctuation", a: "a -\u0301 b", b: "a + b", wantA: []string{"-\u0301"}, wantB: []string{"+"}},
		{name: "invalid UTF-8", a: "key a\xffb", b: "key a\xfeb", wantA: []string{"\xff"}, wantB: []string{"\xfe"}},
		{name: "identical but for the newline", a: "same", b: "same\n", wantA: nil, wantB: nil},
		{name: "second of two pairs, too little in common", a: "h\nx one\ny two\n", b: "h\nx one!\ny three\n", lineA: 2, lineB: 4, wantA: nil, wantB: nil}, // "y" is too little
		{name: "second of two pairs", a: "h\nx one\nsay two words\n", b: "h\nx one!\nsay three words\n", lineA: 2, lineB: 4, wantA: []string{"two"}, wantB: []string{"three"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := Diff(c.a, c.b)
			la, lb := c.lineA, c.lineB
			if la == 0 && lb == 0 {
				la, lb = 0, 1
			}
			a, b := r.Lines[la], r.Lines[lb]
			if a.Op != '-' || b.Op != '+' {
				t.Fatalf("lines %v", brief(r.Lines))
			}
			if got := changedText(a); fmt.Sprintf("%q", got) != fmt.Sprintf("%q", c.wantA) || (got == nil) != (c.wantA == nil) {
				t.Errorf("removed line %q: changed %q, want %q", a.Text, got, c.wantA)
			}
			if got := changedText(b); fmt.Sprintf("%q", got) != fmt.Sprintf("%q", c.wantB) || (got == nil) != (c.wantB == nil) {
				t.Errorf("added line %q: changed %q, want %q", b.Text, got, c.wantB)
			}
			checkRebuilds(t, c.a, c.b, r)
		})
	}
}

// TestDiff_UnpairedLines: in a block of two removed and three added
// lines, the third added line has no partner and no spans.
func TestDiff_UnpairedLines(t *testing.T) {
	r := Diff("h\nport 80\nhost a\n", "h\nport 81\nhost b\nuser c\n")
	got := make([][]string, len(r.Lines))
	for i, l := range r.Lines {
		got[i] = changedText(l)
	}
	want := "[[] [80] [a] [81] [b] []]"
	if fmt.Sprint(got) != want || got[5] != nil || got[0] != nil {
		t.Errorf("%q: %v, want %s (first and last nil)", brief(r.Lines), got, want)
	}
}

func TestSegments(t *testing.T) {
	for _, c := range []struct {
		l    Line
		want string
	}{
		{Line{Op: '+', Text: "whole"}, `[{"whole" false}]`},
		{Line{Op: ' ', Text: ""}, `[{"" false}]`},
		{Line{Op: '-', Text: "run tests", Changed: []Span{}}, `[{"run tests" false}]`},
		{Line{Op: '-', Text: "port 8080 on", Changed: []Span{{5, 9}}}, `[{"port " false} {"8080" true} {" on" false}]`},
		{Line{Op: '-', Text: "ab", Changed: []Span{{0, 2}}}, `[{"ab" true}]`},
		{Line{Op: '-', Text: "a b c", Changed: []Span{{0, 1}, {4, 5}}}, `[{"a" true} {" b " false} {"c" true}]`},
	} {
		var got []string
		for _, s := range c.l.Segments() {
			got = append(got, fmt.Sprintf("{%q %v}", s.Text, s.Changed))
		}
		if g := "[" + strings.Join(got, " ") + "]"; g != c.want {
			t.Errorf("%q %v: %s, want %s", c.l.Text, c.l.Changed, g, c.want)
		}
	}
}

// checkRebuilds fails t unless r's lines rebuild a and b, their numbers
// ascend without gaps, and every span is in range, ordered and apart.
func checkRebuilds(t *testing.T, a, b string, r Result) {
	t.Helper()
	if err := check(a, b, r); err != nil {
		t.Error(err)
	}
}

// TestDiff_PairsPastAnInsertedLine: a line inserted among changed lines
// does not pair every line after it with the wrong one: each removed line
// finds the added line it became.
func TestDiff_PairsPastAnInsertedLine(t *testing.T) {
	a := "# Deploy\n\n- staging runs on port 8080\n- deploys need approval from @ops\n- rollback: `make rollback ENV=staging`\n"
	b := "# Deploy\n\n- staging runs on port 9090\n- prod runs on port 443\n- deploys need approval from @sre-team\n- rollback: `make rollback ENV=prod`\n"
	r := Diff(a, b)
	var got []string
	for _, l := range r.Lines {
		switch {
		case l.Op == opSame:
		case l.Changed == nil:
			got = append(got, fmt.Sprintf("%cnil", l.Op))
		default:
			got = append(got, fmt.Sprintf("%c%q", l.Op, changedText(l)))
		}
	}
	want := `[-["8080"] -["ops"] -["staging"] +["9090"] +nil +["sre-team"] +["prod"]]`
	if fmt.Sprint(got) != want {
		t.Errorf("got  %v\nwant %s", got, want)
	}
}
