package ansi

import (
	"io"
)

// A CodeBlockElement is used to render code blocks.
//
// crmem: upstream highlights code blocks with chroma when the style has a
// theme or chroma settings. This copy always takes upstream's fallback path
// (the code in the code block's own style), so chroma's lexer and style
// registries, built at package init, are not linked into crmem at all.
type CodeBlockElement struct {
	Code     string
	Language string
}

// Render renders a CodeBlockElement.
func (e *CodeBlockElement) Render(w io.Writer, ctx RenderContext) error {
	bs := ctx.blockStack

	var indentation uint
	var margin uint
	rules := ctx.options.Styles.CodeBlock
	if rules.Indent != nil {
		indentation = *rules.Indent
	}
	if rules.Margin != nil {
		margin = *rules.Margin
	}

	iw := NewIndentWriter(w, int(indentation+margin), func(_ io.Writer) {
		_, _ = renderText(w, bs.Current().Style.StylePrimitive, " ")
	})
	defer iw.Close() //nolint:errcheck

	el := &BaseElement{
		Token: e.Code,
		Style: rules.StylePrimitive,
	}

	return el.Render(iw, ctx)
}
