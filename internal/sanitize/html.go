package sanitize

import (
	"slices"
	"strings"
	"sync"

	"github.com/crmem/crmem/internal/glamour/extension"
	"github.com/crmem/crmem/internal/glamour/goldmark"
	"github.com/crmem/crmem/internal/glamour/goldmark/ast"
	"github.com/crmem/crmem/internal/glamour/goldmark/parser"
	"github.com/crmem/crmem/internal/glamour/goldmark/text"
)

// The markdown renderer drops raw HTML (its sanitizer keeps no tag), so
// `<script>`, `<img onerror=…>` or a `<details>` block would vanish from
// the preview although search finds the entry by those words. Memory is
// inspected, not published: escapeHTML finds raw HTML with the parser the
// renderer uses (goldmark, with glamour's extensions, so code spans and
// code blocks, where HTML is already literal, are left alone) and escapes
// it (writeEscaped), so it renders as the text it is.
// An HTML block keeps its lines (each ends in a hard line break).

// mdParser is goldmark configured as glamour configures it, built on first
// use: every command links this package, few render markdown.
var mdParser = sync.OnceValue(func() parser.Parser {
	return goldmark.New(goldmark.WithExtensions(extension.GFM, extension.DefinitionList)).Parser()
})

// span is a byte range of the source holding raw HTML; block marks the
// lines of an HTML block.
type span struct {
	start, stop int
	block       bool
}

// escapeHTML returns md with its raw HTML escaped.
func escapeHTML(md string) string {
	if !strings.Contains(md, "<") {
		return md
	}
	src := []byte(md)
	spans := htmlSpans(mdParser().Parse(text.NewReader(src)), src)
	if len(spans) == 0 {
		return md
	}
	slices.SortFunc(spans, func(a, b span) int { return a.start - b.start })
	var b strings.Builder
	b.Grow(len(md) + len(md)/8)
	at := 0
	for i, sp := range spans {
		if sp.start < at { // nested or repeated: already escaped
			continue
		}
		// A block line breaks hard only before the block's next line: a
		// backslash ending the block would show.
		more := sp.block && i+1 < len(spans) && spans[i+1].block && spans[i+1].start == sp.stop &&
			strings.TrimSpace(md[spans[i+1].start:spans[i+1].stop]) != ""
		b.WriteString(md[at:sp.start])
		writeEscaped(&b, md[sp.start:sp.stop], more)
		at = sp.stop
	}
	b.WriteString(md[at:])
	return b.String()
}

// htmlSpans lists the source ranges of every raw HTML node under root.
func htmlSpans(root ast.Node, src []byte) []span {
	var out []span
	ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.HTMLBlock:
			lines := n.Lines()
			for i := range lines.Len() {
				seg := lines.At(i)
				out = append(out, span{seg.Start, seg.Stop, true})
			}
			if n.HasClosure() {
				seg := n.ClosureLine
				out = append(out, span{seg.Start, seg.Stop, true})
			}
		case *ast.RawHTML:
			for i := range n.Segments.Len() {
				seg := n.Segments.At(i)
				out = append(out, span{seg.Start, seg.Stop, false})
			}
		}
		return ast.WalkContinue, nil
	})
	return out
}

// writeEscaped writes raw HTML with the characters markdown would act on
// backslash-escaped and "&" as "&amp;" (an entity inside it stays as
// written); hard makes its line break a hard one.
func writeEscaped(b *strings.Builder, s string, hard bool) {
	body, nl := strings.CutSuffix(s, "\n")
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c == '\r':
			continue
		case c == '&':
			b.WriteString("&amp;")
			continue
		case strings.IndexByte(mdActive, c) >= 0:
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	if hard && nl {
		b.WriteString("\\\n")
	} else if nl {
		b.WriteByte('\n')
	}
}

// mdActive are the characters that start markdown syntax inside a line
// (and that the renderer unescapes after a backslash; it leaves "\=" or
// "\"" as written, so only these are escaped).
const mdActive = "\\`*_[]<>!#-()"
