package ansi

import "strings"

// RenderContext holds the current rendering options and state.
type RenderContext struct {
	options Options

	blockStack *BlockStack
	table      *TableElement
}

// NewRenderContext returns a new RenderContext.
func NewRenderContext(options Options) RenderContext {
	return RenderContext{
		options:    options,
		blockStack: &BlockStack{},
		table:      &TableElement{},
	}
}

// SanitizeHTML returns raw HTML as the text it is (crmem: upstream strips
// its tags with bluemonday and unescapes the rest). crmem escapes every
// HTML node before rendering (internal/sanitize.Markdown; FuzzNoHTMLNode
// pins it), so nothing reaches this; should something, it shows as
// written, never interpreted, as internal/sanitize shows raw HTML.
func (ctx RenderContext) SanitizeHTML(s string, trimSpaces bool) string {
	if trimSpaces {
		s = strings.TrimSpace(s)
	}
	return s
}
