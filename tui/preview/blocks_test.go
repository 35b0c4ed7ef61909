package preview

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// Item 14: code blocks keep their lines and indentation (a long line is
// clipped with a marker, never re-wrapped); a hard line break breaks.
func TestRender_CodeBlocksAndHardBreaks(t *testing.T) {
	md := "# Deploy\n\n3. Roll out:\n\n   ```bash\n   kubectl --context staging -n billing set image deploy/api api=registry.internal/billing:v2.14.0\n       indented continuation\n   short\n   ```\n\nfirst line  \nsecond line\\\nthird line\n\n```\ntop level\n\tx\n```\n"
	rs := &renderers{}
	out := ansi.Strip(renderMarkdown(rs, RenderKey{width: 60, style: "notty"}, md))
	lines := strings.Split(out, "\n")
	find := func(sub string) (string, bool) {
		for _, l := range lines {
			if strings.Contains(l, sub) {
				return l, true
			}
		}
		return "", false
	}
	if _, ok := find("3. Roll out:"); !ok {
		t.Errorf("the list item holding the code block lost its text:\n%s", out)
	}
	k, ok := find("kubectl --context")
	if !ok || !strings.HasSuffix(strings.TrimRight(k, " "), clipMark) {
		t.Errorf("the long code line is not clipped with %q:\n%s", clipMark, out)
	}
	if _, ok := find("registry.internal"); ok {
		t.Errorf("the long code line was wrapped:\n%s", out)
	}
	ind, ok1 := find("indented continuation")
	sh, ok2 := find("short")
	if !ok1 || !ok2 || strings.Index(ind, "indented")-strings.Index(sh, "short") != 4 {
		t.Errorf("code indentation lost:\n%s", out)
	}
	for _, l := range []string{"first line", "second line", "third line"} {
		got, ok := find(l)
		if !ok || strings.Contains(got, "line s") || strings.Contains(got, "line t") {
			t.Errorf("hard line breaks ignored: %q in\n%s", got, out)
		}
	}
	if x, ok := find("    x"); !ok {
		t.Errorf("tab in a top-level code block not kept as indentation (%q):\n%s", x, out)
	}
	for _, l := range lines {
		if ansi.StringWidth(l) > 60 {
			t.Errorf("line wider than the pane: %q", l)
		}
		if strings.Contains(l, codeToken) || strings.Contains(l, breakToken) {
			t.Errorf("placeholder left in the output: %q", l)
		}
	}
}

// TestRender_WideTablesStayReadable pins issue 17 item 14: a table wider
// than the pane collapsed into "│ │ │" columns, glamour cutting its words
// apart. A table whose columns cannot each keep their longest word is
// shown as plain text, each row on one line with its columns aligned and
// clipped with the code blocks' marker; one that fits is left to glamour.
func TestRender_WideTablesStayReadable(t *testing.T) {
	wide := "Intro.\n\n| name | owner | description | status | region | notes |\n|---|:---|---:|---|---|---|\n" +
		"| deploy-rollout-production | alice | rolls the canary out to every region after checks | green | eu-west-1 | watch the error budget |\n" +
		"| db-migration | bob | runs migrations \\| locks | red | us-east-1 | needs a lock |\n\nAfter."
	narrow := "| a | b |\n|---|---|\n| short | a somewhat longer description that wraps |\n"
	rs := &renderers{}
	for _, w := range []int{40, 50, 60} {
		out := ansi.Strip(renderMarkdown(rs, RenderKey{width: w, style: "notty"}, wide))
		lines := strings.Split(out, "\n")
		var header, row string
		for _, l := range lines {
			if strings.Contains(l, "name") && header == "" {
				header = l
			}
			if strings.Contains(l, "db-migration") {
				row = l
			}
			if ansi.StringWidth(l) > w {
				t.Errorf("width %d: line %q is wider", w, l)
			}
		}
		if !strings.HasPrefix(strings.TrimSpace(header), "name ") || !strings.Contains(header, "│ owner") {
			t.Errorf("width %d: the header is not one line of aligned columns:\n%s", w, out)
		}
		if !strings.HasPrefix(strings.TrimSpace(row), "db-migration  ") || !strings.HasSuffix(strings.TrimRight(row, " "), clipMark) {
			t.Errorf("width %d: a row is not one clipped line:\n%s", w, out)
		}
		if strings.Contains(out, "│ │") || !strings.Contains(out, "Intro.") || !strings.Contains(out, "After.") {
			t.Errorf("width %d: the table collapsed or the text around it went:\n%s", w, out)
		}
	}
	// Zoomed wide enough, the whole table shows: the escaped pipe stays
	// in its cell.
	out := ansi.Strip(renderMarkdown(rs, RenderKey{width: 200, style: "notty"}, wide))
	if !strings.Contains(out, "runs migrations | locks") || !strings.Contains(out, "watch the error budget") {
		t.Errorf("at 200 columns the table lost text:\n%s", out)
	}
	// A table that fits is glamour's, its cells wrapped at words.
	out = ansi.Strip(renderMarkdown(rs, RenderKey{width: 40, style: "notty"}, narrow))
	if strings.Contains(out, clipMark) || !strings.Contains(squeeze(out), "|asomewhatlonger") {
		t.Errorf("a table that fits is not glamour's:\n%s", out)
	}
}

// TestTableCells splits rows at unescaped pipes.
func TestTableCells(t *testing.T) {
	for in, want := range map[string][]string{
		"| a | b |":          {"a", "b"},
		"a | b":              {"a", "b"},
		`| x \| y | z |`:     {`x \| y`, "z"},
		"|  | empty first |": {"", "empty first"},
		`| ends \|`:          {`ends \|`},
	} {
		if got := tableCells(in); !slices.Equal(got, want) {
			t.Errorf("tableCells(%q) = %q, want %q", in, got, want)
		}
	}
}
