// Package glamour lets you render markdown documents & templates on ANSI
// compatible terminals. You can create your own stylesheet or simply use one of
// the stylish defaults
//
// This is a copy of charm.land/glamour/v2 v2.0.1 (MIT, see LICENSE) made for
// crmem's start-up time, holding only what crmem runs, with three changes:
// code blocks are drawn in the code block's own style instead of being
// highlighted with chroma (ansi/codeblock.go; WithChromaFormatter is gone
// with it); raw HTML is shown as written instead of stripped with
// bluemonday, whose init builds CSS tables (ansi/context.go: crmem escapes
// every HTML node before rendering, so none reaches the renderer, which
// FuzzNoHTMLNode pins); and the GitHub link patterns are compiled on first
// use (internal/autolink). Upstream imports chroma unconditionally, and
// chroma registers every lexer and style in its package init (~60k
// allocations, 20-25 ms), which every crmem command paid although crmem
// draws fenced code blocks itself (tui/render_blocks.go). The options and
// functions crmem never calls are left out. upstream_test.go pins the copy
// to upstream's output for everything else; scripts/glamour-sync.sh prints
// the copy's changes against upstream and merges a new release into it
// (README.md).
package glamour

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/crmem/crmem/internal/glamour/extension"
	"github.com/crmem/crmem/internal/glamour/goldmark"
	"github.com/crmem/crmem/internal/glamour/goldmark/parser"
	"github.com/crmem/crmem/internal/glamour/goldmark/renderer"
	"github.com/crmem/crmem/internal/glamour/goldmark/util"

	"github.com/crmem/crmem/internal/glamour/ansi"
	styles "github.com/crmem/crmem/internal/glamour/styles"
)

const (
	defaultWidth = 80
	highPriority = 1000
)

// A TermRendererOption sets an option on a TermRenderer.
type TermRendererOption func(*TermRenderer) error

// TermRenderer can be used to render markdown content, posing a depth of
// customization and styles to fit your needs.
type TermRenderer struct {
	md          goldmark.Markdown
	ansiOptions ansi.Options
	buf         bytes.Buffer
	renderBuf   bytes.Buffer
	ar          *ansi.ANSIRenderer
}

// NewTermRenderer returns a new TermRenderer the given options.
func NewTermRenderer(options ...TermRendererOption) (*TermRenderer, error) {
	tr := &TermRenderer{
		md: goldmark.New(
			goldmark.WithExtensions(
				extension.GFM,
				extension.DefinitionList,
			),
			goldmark.WithParserOptions(
				parser.WithAutoHeadingID(),
			),
		),
		ansiOptions: ansi.Options{
			WordWrap: defaultWidth,
		},
	}
	for _, o := range options {
		if err := o(tr); err != nil {
			return nil, err
		}
	}
	ar := ansi.NewRenderer(tr.ansiOptions)
	tr.ar = ar
	tr.md.SetRenderer(
		renderer.NewRenderer(
			renderer.WithNodeRenderers(
				util.Prioritized(ar, highPriority),
			),
		),
	)
	return tr, nil
}

// WithStylePath sets a TermRenderer's style from stylePath. stylePath is first
// interpreted as a filename. If no such file exists, it is re-interpreted as a
// standard style.
func WithStylePath(stylePath string) TermRendererOption {
	return func(tr *TermRenderer) error {
		styles, err := getDefaultStyle(stylePath)
		if err != nil {
			jsonBytes, err := os.ReadFile(stylePath)
			if err != nil {
				return fmt.Errorf("glamour: error reading file: %w", err)
			}

			return json.Unmarshal(jsonBytes, &tr.ansiOptions.Styles)
		}
		tr.ansiOptions.Styles = *styles
		return nil
	}
}

// WithStylesFromJSONBytes sets a TermRenderer's styles by parsing styles from
// jsonBytes.
func WithStylesFromJSONBytes(jsonBytes []byte) TermRendererOption {
	return func(tr *TermRenderer) error {
		return json.Unmarshal(jsonBytes, &tr.ansiOptions.Styles)
	}
}

// WithWordWrap sets a TermRenderer's word wrap.
func WithWordWrap(wordWrap int) TermRendererOption {
	return func(tr *TermRenderer) error {
		tr.ansiOptions.WordWrap = wordWrap
		return nil
	}
}

func (tr *TermRenderer) Read(b []byte) (int, error) {
	n, err := tr.renderBuf.Read(b)
	if err == io.EOF {
		return n, io.EOF
	}
	if err != nil {
		return 0, fmt.Errorf("glamour: error reading from buffer: %w", err)
	}
	return n, nil
}

func (tr *TermRenderer) Write(b []byte) (int, error) {
	n, err := tr.buf.Write(b)
	if err != nil {
		return 0, fmt.Errorf("glamour: error writing bytes: %w", err)
	}
	return n, nil
}

// Close must be called after writing to TermRenderer. You can then retrieve
// the rendered markdown by calling Read.
func (tr *TermRenderer) Close() error {
	err := tr.md.Convert(tr.buf.Bytes(), &tr.renderBuf)
	if err != nil {
		return fmt.Errorf("glamour: error converting markdown: %w", err)
	}

	tr.buf.Reset()
	return nil
}

// Render returns the markdown rendered into a string.
func (tr *TermRenderer) Render(in string) (string, error) {
	b, err := tr.RenderBytes([]byte(in))
	return string(b), err
}

// RenderStop is Render that calls stop before each node it renders and
// gives up with stop's error if it returns one (crmem: a render nobody
// waits for any more, or one that takes too long, ends within one node).
func (tr *TermRenderer) RenderStop(in string, stop func() error) (string, error) {
	tr.ar.SetStop(stop)
	defer tr.ar.SetStop(nil)
	return tr.Render(in)
}

// RenderBytes returns the markdown rendered into a byte slice.
func (tr *TermRenderer) RenderBytes(in []byte) ([]byte, error) {
	var buf bytes.Buffer
	err := tr.md.Convert(in, &buf)
	return buf.Bytes(), err
}

func getDefaultStyle(style string) (*ansi.StyleConfig, error) {
	styles, ok := styles.DefaultStyles()[style]
	if !ok {
		return nil, fmt.Errorf("%s: style not found", style)
	}
	return styles, nil
}
