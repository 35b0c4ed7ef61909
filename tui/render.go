package tui

import (
	"hash/fnv"
	"strings"
	"sync"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	crmemconfig "github.com/crmem/crmem/internal/config"
	"github.com/crmem/crmem/internal/glamour"
	"github.com/crmem/crmem/internal/sanitize"
)

// renderKey identifies one rendering of one entry's content.
type renderKey struct {
	id    uint64
	hash  uint64 // of the raw content
	width int
	style string
}

// contentHash hashes raw content for the render cache key.
func contentHash(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// renderers holds one glamour renderer per (style, width). A renderer is not
// safe for concurrent use, so each carries its own lock.
type renderers struct {
	mu sync.Mutex
	m  map[rendererKey]*lockedRenderer
}

type rendererKey struct {
	style string
	width int
}

type lockedRenderer struct {
	mu  sync.Mutex
	tr  *glamour.TermRenderer
	err error
}

// get returns the renderer for style and width, building it once.
func (rs *renderers) get(style string, width int) *lockedRenderer {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.m == nil {
		rs.m = map[rendererKey]*lockedRenderer{}
	}
	k := rendererKey{style, width}
	if r, ok := rs.m[k]; ok {
		return r
	}
	r := &lockedRenderer{}
	r.tr, r.err = newRenderer(style, width)
	rs.m[k] = r
	return r
}

// newRenderer builds a glamour renderer for a style name or a style file.
// A style file is read as the configuration checked it (a regular file,
// capped, never blocking), not by glamour, which would read /dev/zero or
// a FIFO forever.
func newRenderer(style string, width int) (*glamour.TermRenderer, error) {
	opt := glamour.WithStylePath(style)
	if !crmemconfig.IsStyle(style) {
		data, err := crmemconfig.ReadStyleFile(style)
		if err != nil {
			return nil, err
		}
		opt = glamour.WithStylesFromJSONBytes(data)
	}
	return glamour.NewTermRenderer(opt, glamour.WithWordWrap(width))
}

// render turns sanitized markdown into terminal text.
func (r *lockedRenderer) render(md string) (string, error) {
	if r.err != nil {
		return "", r.err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.tr.Render(md)
}

// renderedMsg carries a finished rendering.
type renderedMsg struct {
	key renderKey
	out string
}

// renderCmd renders content off the update loop. Nothing from the file
// reaches glamour unsanitized, and glamour's output is filtered again (it
// decodes character references into real control characters).
func renderCmd(rs *renderers, key renderKey, content string) tea.Cmd {
	return func() tea.Msg {
		return renderedMsg{key: key, out: renderMarkdown(rs, key, content)}
	}
}

// renderMarkdown renders content at key's width and style, falling back to
// the sanitized text if glamour fails.
func renderMarkdown(rs *renderers, key renderKey, content string) string {
	md, blocks := protectBlocks(sanitize.Markdown(content))
	md, blocks = protectWideTables(md, blocks, max(key.width, 10))
	out, err := rs.get(key.style, max(key.width, 10)).render(md)
	if err != nil {
		return plainText(content, key.width)
	}
	out = strings.Trim(sanitize.Output(out), "\n")
	return dimMarkers(fitLines(restoreBlocks(out, blocks, key.width), key.width), key.style)
}

// plainText is the sanitized raw text wrapped at width: shown until the
// rendering arrives, and when rendering fails.
func plainText(content string, width int) string {
	text := strings.ReplaceAll(sanitize.Text(content), "\t", "    ")
	return ansi.Wrap(text, max(width-2, 10), "")
}

// placeholderBytes bounds the plain text shown while a rendering is made, so
// moving over a huge entry never stalls the update loop.
const placeholderBytes = 8 << 10

// placeholder is the start of the plain text, shown until the rendering
// arrives.
func placeholder(content string, width int) string {
	if len(content) <= placeholderBytes {
		return plainText(content, width)
	}
	cut := placeholderBytes
	for cut > 0 && !utf8.RuneStart(content[cut]) {
		cut--
	}
	return plainText(content[:cut], width) + "\n…"
}

// fitLines truncates every line to width (glamour can overflow on tables).
func fitLines(s string, width int) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if ansi.StringWidth(l) > width {
			lines[i] = ansi.Truncate(l, width, "…")
		}
	}
	return strings.Join(lines, "\n")
}

// renderCache keeps renderings per key. It is only touched by the update
// loop; it is cleared when it grows past its bound.
type renderCache struct {
	m map[renderKey]string
}

const maxCachedRenders = 512

func (c *renderCache) get(k renderKey) (string, bool) {
	s, ok := c.m[k]
	return s, ok
}

func (c *renderCache) put(k renderKey, s string) {
	if c.m == nil || len(c.m) >= maxCachedRenders {
		c.m = map[renderKey]string{}
	}
	c.m[k] = s
}
