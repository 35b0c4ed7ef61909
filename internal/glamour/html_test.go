package glamour

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/crmem/crmem/internal/glamour/goldmark/ast"
	"github.com/crmem/crmem/internal/glamour/goldmark/text"

	"github.com/crmem/crmem/internal/sanitize"
)

// htmlDocs hold raw HTML as goldmark reads it: blocks, inline tags,
// comments, script and style, entities inside tags.
var htmlDocs = []string{
	"<div>block html</div>\n\ninline <b>html</b> here",
	"<!-- c --><script>x()</script><title>t</title>\n\ntext <span>&amp; &lt;tag&gt;</span> <style>p{}</style> end\n\n<iframe>i</iframe>",
	"<?php echo 1; ?>\n\n<!DOCTYPE html>\n\n<![CDATA[x]]>\n\na <a href=\"x\">link</a> and <img src=x onerror=alert(1)>",
	"<table><tr><td>cell</td></tr></table>\n\n</div>\n\n<pre>\n  kept\n</pre>",
	"- item <kbd>k</kbd>\n\n> quote <em>x</em>\n\n| t |\n|---|\n| <i>c</i> |",
}

// TestRawHTMLShownAsText: should raw HTML reach the renderer, it shows as
// written, never as upstream's stripped and unescaped text (the HTML
// stripping is gone from the copy).
func TestRawHTMLShownAsText(t *testing.T) {
	r, err := NewTermRenderer(WithStylePath("notty"), WithWordWrap(200))
	if err != nil {
		t.Fatal(err)
	}
	out, err := r.Render(htmlDocs[0] + "\n\n" + "x <span>y</span>")
	if err != nil {
		t.Fatal(err)
	}
	got := ansi.Strip(out)
	for _, want := range []string{"<div>block html</div>", "<b>", "</b>", "<span>", "</span>"} {
		if !strings.Contains(got, want) {
			t.Errorf("rendered raw HTML lacks %q:\n%s", want, got)
		}
	}
}

// htmlNodes returns the kinds of the HTML nodes goldmark, configured as
// the renderer's, finds in md.
func htmlNodes(t *testing.T, md string) []string {
	t.Helper()
	r, err := NewTermRenderer()
	if err != nil {
		t.Fatal(err)
	}
	src := []byte(md)
	doc := r.md.Parser().Parse(text.NewReader(src))
	var found []string
	err = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering && (n.Kind() == ast.KindHTMLBlock || n.Kind() == ast.KindRawHTML) {
			found = append(found, n.Kind().String())
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// TestHTMLDocsHoldHTML: the seeds of FuzzNoHTMLNode are HTML to goldmark
// as written, so the fuzz test starts from inputs that would reach the
// renderer's HTML path without internal/sanitize.
func TestHTMLDocsHoldHTML(t *testing.T) {
	for _, md := range htmlDocs {
		if len(htmlNodes(t, md)) == 0 {
			t.Errorf("no HTML node in seed %q", md)
		}
	}
}

// FuzzNoHTMLNode pins the invariant the copy relies on to carry no HTML
// stripping: after internal/sanitize.Markdown, the renderer's parser
// finds no HTML node (block or inline) in any text.
func FuzzNoHTMLNode(f *testing.F) {
	for _, md := range htmlDocs {
		f.Add(md)
	}
	f.Add("&lt;b&gt; &#60;b&#62; \\<b> `<b>` <http://x.org> <a@b.org>")
	f.Add("```\n<b>\n```\n\n    <div>\n\n<b\n>x</b\n>")
	f.Fuzz(func(t *testing.T, s string) {
		md := sanitize.Markdown(s)
		if kinds := htmlNodes(t, md); len(kinds) > 0 {
			t.Errorf("sanitize.Markdown(%q) = %q: the renderer sees %v", s, md, kinds)
		}
	})
}
