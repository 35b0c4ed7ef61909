package glamour_test

import (
	"fmt"
	"regexp"
	"testing"

	upstream "charm.land/glamour/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/internal/glamour"
)

// docs exercise every element the renderer draws.
var docs = map[string]string{
	"headings":  "# One\n\n## Two\n\n### Three\n\n#### Four\n\n##### Five\n\n###### Six\n\ntext under it",
	"inline":    "Some *emphasis*, **strong**, ~~struck~~, `code span`, a [link](https://example.com) and an ![image](x.png), https://autolink.example.org/x and owner/repo#12.",
	"lists":     "- one\n- two\n  - nested\n    - deeper\n- three\n\n1. first\n2. second\n\n- [x] done\n- [ ] to do",
	"quote":     "> quoted\n> more\n>\n> > nested quote",
	"table":     "| name | value | note |\n|:-----|------:|:----:|\n| a | 1 | left |\n| bb | 22 | [l](https://x.org) |",
	"rule":      "above\n\n---\n\nbelow",
	"defs":      "Term\n: its definition",
	"wrap":      "A paragraph long enough to be wrapped at the narrower of the widths this test renders at, and then some more words to be sure.",
	"entities":  "&amp; &lt; &copy; &#65;",
	"footnotes": "text[^1]\n\n[^1]: the note",
	"emoji":     "shortcodes stay text :smile: :+1: 🦀", // no WithEmoji: neither renderer turns them into emoji
	"github":    "[issue](https://github.com/a/b/issues/12), https://github.com/a/b/pull/3#discussion_r5 and https://github.com/a/b/commit/abcdef1234\n\n| l |\n|---|\n| [c](https://github.com/a/b/commit/abcdef1234) |",
}

// codeDocs hold code blocks: upstream highlights them with chroma, this
// copy renders them in the code block's own style.
var codeDocs = map[string]string{
	"fenced":   "before\n\n```go\nfunc main() { fmt.Println(\"hi\") }\n```\n\nafter",
	"indented": "before\n\n    x := 1\n    y := 2\n\nafter",
	"bare":     "```\nplain text\n```",
}

func render(t *testing.T, style string, width int, md string) (ours, theirs string) {
	t.Helper()
	r, err := glamour.NewTermRenderer(glamour.WithStylePath(style), glamour.WithWordWrap(width))
	if err != nil {
		t.Fatal(err)
	}
	u, err := upstream.NewTermRenderer(upstream.WithStylePath(style), upstream.WithWordWrap(width))
	if err != nil {
		t.Fatal(err)
	}
	ours, err = r.Render(md)
	if err != nil {
		t.Fatal(err)
	}
	theirs, err = u.Render(md)
	if err != nil {
		t.Fatal(err)
	}
	return ours, theirs
}

var styleNames = []string{"dark", "light", "notty", "ascii", "dracula", "pink", "tokyo-night"}

// TestMatchesUpstream pins the copy to the glamour release it was taken
// from: byte for byte the same output for everything but code blocks and
// raw HTML (which crmem never renders: html_test.go).
func TestMatchesUpstream(t *testing.T) {
	for _, style := range styleNames {
		for _, width := range []int{24, 80} {
			for name, md := range docs {
				t.Run(fmt.Sprintf("%s/%d/%s", style, width, name), func(t *testing.T) {
					if ours, theirs := render(t, style, width, md); ours != theirs {
						t.Errorf("output differs from upstream\nours:   %q\ntheirs: %q", ours, theirs)
					}
				})
			}
		}
	}
}

// TestCodeBlocksUnhighlighted: a code block shows the same text as
// upstream's, without chroma's token colours.
func TestCodeBlocksUnhighlighted(t *testing.T) {
	for _, style := range styleNames {
		for name, md := range codeDocs {
			t.Run(style+"/"+name, func(t *testing.T) {
				ours, theirs := render(t, style, 80, md)
				if got, want := ansi.Strip(ours), ansi.Strip(theirs); got != want {
					t.Errorf("text differs from upstream\nours:   %q\ntheirs: %q", got, want)
				}
			})
		}
	}
}

var sgr = regexp.MustCompile("\x1b\\[[0-9;]*m")

// TestCodeBlocksOneStyle: where upstream colours a Go block token by token,
// the copy draws it in one style.
func TestCodeBlocksOneStyle(t *testing.T) {
	ours, theirs := render(t, "dark", 80, codeDocs["fenced"])
	distinct := func(s string) int {
		seen := map[string]bool{}
		for _, m := range sgr.FindAllString(s, -1) {
			seen[m] = true
		}
		return len(seen)
	}
	if o, u := distinct(ours), distinct(theirs); o >= u {
		t.Errorf("%d distinct SGR sequences here, %d upstream: want fewer (no token colours)", o, u)
	}
}
