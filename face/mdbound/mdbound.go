// Package mdbound decides, before markdown is rendered, whether rendering it
// stays within bounds of time and output size.
//
// The renderer's cost grows with how deeply blocks nest: every blockquote
// or list level re-wraps and re-indents all it holds, so a 150-byte entry of
// seventy nested quotes took a minute and gigabytes to render. Check parses
// the markdown as the renderer does (goldmark with GitHub's extensions and
// definition lists, which parses in time linear in its input) and measures
// its nesting, its number of nodes and its size; markdown past any of the
// limits is shown as plain text instead.
package mdbound

import (
	"fmt"
	"strings"

	"github.com/crmem/crmem/internal/glamour/goldmark"
	"github.com/crmem/crmem/internal/glamour/goldmark/ast"
	"github.com/crmem/crmem/internal/glamour/goldmark/text"

	"github.com/crmem/crmem/internal/glamour/extension"
	"github.com/crmem/crmem/internal/humanize"
)

// Limits bound what is rendered as markdown.
type Limits struct {
	Depth int // nesting of blocks (quotes, lists, items) and inlines
	Nodes int // nodes of the parsed document
	Bytes int // bytes of markdown
	// Work bounds the bytes of text, and blockWork for each block,
	// weighted by how deeply quotes and lists hold them: each quote level
	// re-wraps and re-pads all it holds, so text under q quotes costs
	// (1+q)² its bytes, and each list level as much again: (1+q)²·(1+l).
	Work int
}

// Default returns what the preview renders: nine nested quotes or four nested
// lists (each list level is a list and an item), 200,000 nodes, 256 KiB,
// and as much text as takes about a second on a loaded machine (glamour
// renders some 3 µs a byte at the top level).
func Default() Limits {
	return Limits{Depth: 10, Nodes: 200_000, Bytes: 256 << 10, Work: 512 << 10}
}

// Report is what Check measured.
type Report struct {
	Depth int // the deepest nesting seen (counting stops past the limit)
	Nodes int // nodes seen (counting stops past the limit)
	Work  int // text bytes weighted by their quotes and lists (see Limits.Work)
	// Reason says why the markdown is not rendered, "" when it is within
	// bounds: "blocks nest 71 deep (limit 10)".
	Reason string

	stopped bool // the walk stopped early, at maxWalk or the node limit
	quotes  int  // the deepest quote
	lists   int  // the deepest list
	blocks  int  // blocks seen
}

// OK reports whether the markdown is within bounds.
func (r Report) OK() bool { return r.Reason == "" }

// Check measures md against l.
func Check(md string, l Limits) Report {
	if len(md) > l.Bytes {
		return Report{Reason: fmt.Sprintf("%s of text (limit %s)", humanize.Size(len(md)), humanize.Size(l.Bytes))}
	}
	if r, ok := prescan(md, l); !ok {
		return r
	}
	doc := parser().Parser().Parse(text.NewReader([]byte(md)))
	var r Report
	walk(doc, 0, 0, 0, l, &r)
	switch {
	case r.Depth > l.Depth:
		r.Reason = fmt.Sprintf("blocks nest %s deep (limit %d)", atLeast(r.Depth, r.stopped || r.Nodes > l.Nodes), l.Depth)
	case r.Nodes > l.Nodes:
		r.Reason = fmt.Sprintf("over %s parts (limit %s)", humanize.Count(l.Nodes), humanize.Count(l.Nodes))
	case r.Work > l.Work:
		r.Reason = fmt.Sprintf("%s in %s blocks, quotes %d and lists %d deep: too much to render", humanize.Size(len(md)), humanize.Count(r.blocks), r.quotes, r.lists)
	}
	return r
}

// atLeast is n, or "over n" when counting stopped early.
func atLeast(n int, stopped bool) string {
	if stopped {
		return "over " + humanize.Count(n)
	}
	return humanize.Count(n)
}

// blockWork is what a block costs besides its text: glamour draws it as
// at least one line as wide as the pane, every cell styled (8 KiB of
// random small blocks rendered to 1.4 MB).
const blockWork = 512

// maxWalk is how deep walk follows the tree; deeper nesting is reported
// as "over" it (an input of 512 KiB can nest 256 Ki quotes).
const maxWalk = 1000

// walk counts n's descendants and their depth, stopping once the node
// count passes its limit or the depth passes maxWalk.
func walk(n ast.Node, depth, quotes, lists int, l Limits, r *Report) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		r.Nodes++
		if r.Nodes > l.Nodes {
			return
		}
		d := depth + 1
		if _, ok := c.(*ast.Text); ok {
			d = depth // text is a leaf of its paragraph, not a level
		}
		r.Depth = max(r.Depth, d)
		if d > maxWalk {
			r.stopped = true
			return
		}
		q, li := quotes, lists
		switch c.Kind() {
		case ast.KindBlockquote:
			q++
			r.quotes = max(r.quotes, q)
		case ast.KindList:
			li++
			r.lists = max(r.lists, li)
		}
		if c.Type() == ast.TypeBlock {
			// a block is at least a line the width of the pane, padded
			// and styled cell by cell: hundreds of bytes out
			r.Work += blockWork * (1 + q) * (1 + q) * (1 + li)
			r.blocks++
			lines := c.Lines()
			for i := range lines.Len() {
				seg := lines.At(i)
				n := seg.Stop - seg.Start + 1 // the line's end counts too
				r.Work += n * (1 + q) * (1 + q) * (1 + li)
			}
		}
		walk(c, d, q, li, l, r)
	}
}

// maxBrackets bounds the square brackets parsed: goldmark matches each
// against the ones open before it, 25 µs a pair at 20,000 (half a second
// before the render begins, and a parse cannot be stopped).
const maxBrackets = 10_000

// prescan refuses, without parsing, markdown the parse itself would be
// slow on: a line that opens more quotes than the depth limit (the parser
// opens every one; 10,000 took a third of a second) and more brackets
// than maxBrackets.
func prescan(md string, l Limits) (Report, bool) {
	brackets := strings.Count(md, "[")
	if brackets > maxBrackets {
		return Report{Reason: fmt.Sprintf("%s brackets (limit %s)", humanize.Count(brackets), humanize.Count(maxBrackets))}, false
	}
	for line := range strings.Lines(md) {
		quotes := 0
		for _, c := range []byte(line) {
			if c == '>' {
				quotes++
			} else if c != ' ' && c != '\t' {
				break
			}
		}
		if quotes > l.Depth {
			return Report{Depth: quotes, Reason: fmt.Sprintf("quotes nest %s deep (limit %d)", humanize.Count(quotes), l.Depth)}, false
		}
	}
	return Report{}, true
}

// parser is the goldmark the renderer uses, for its parser only.
func parser() goldmark.Markdown {
	return goldmark.New(goldmark.WithExtensions(extension.GFM, extension.DefinitionList))
}
