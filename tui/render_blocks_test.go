package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// Item 14: code blocks keep their lines and indentation (a long line is
// clipped with a marker, never re-wrapped); a hard line break breaks.
func TestRender_CodeBlocksAndHardBreaks(t *testing.T) {
	md := "# Deploy\n\n3. Roll out:\n\n   ```bash\n   kubectl --context staging -n billing set image deploy/api api=registry.internal/billing:v2.14.0\n       indented continuation\n   short\n   ```\n\nfirst line  \nsecond line\\\nthird line\n\n```\ntop level\n\tx\n```\n"
	rs := &renderers{}
	out := ansi.Strip(renderMarkdown(rs, renderKey{width: 60, style: "notty"}, md))
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
