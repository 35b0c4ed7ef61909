package preview

import (
	"errors"
	"fmt"
	"hash/fnv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	crmemconfig "github.com/crmem/crmem/face/config"
	"github.com/crmem/crmem/face/mdbound"
	"github.com/crmem/crmem/internal/glamour"
	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/tui/part"
)

// RenderKey identifies one rendering of one entry's content.
type RenderKey struct {
	id    uint64
	hash  uint64 // of the raw content
	width int
	style string
	cells ansi.Method // how the renderer measures (part.Context.Cells)
}

// Width is the cells the content is rendered to.
func (k RenderKey) Width() int { return k.width }

// Cells is how the rendering measures what it lays out.
func (k RenderKey) Cells() ansi.Method { return k.cells }

// contentHash hashes raw content for the render cache key.
func contentHash(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// renderers holds one glamour renderer per (style, width). A renderer is not
// safe for concurrent use, so each carries its own lock. Renders run one at
// a time (one, not one per resize step, competes with the screen for the
// CPU), and the latest request supersedes the others: one that has not
// started is dropped, one under way ends at its next node.
type renderers struct {
	mu   sync.Mutex
	m    map[rendererKey]*lockedRenderer
	want RenderKey // the rendering the screen waits for; under mu

	one sync.Mutex // held by the render under way
}

// wantOnly records k as the one rendering the screen waits for.
func (rs *renderers) wantOnly(k RenderKey) {
	rs.mu.Lock()
	rs.want = k
	rs.mu.Unlock()
}

// superseded reports whether the screen no longer waits for k.
func (rs *renderers) superseded(k RenderKey) bool {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.want != k
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

// render turns sanitized markdown into terminal text, asking stop before
// each node. A render that stopped leaves the renderer's state half way, so
// the renderer is built afresh for the next one.
func (r *lockedRenderer) render(md string, stop func() error, style string, width int) (string, error) {
	if r.err != nil {
		return "", r.err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	out, err := r.tr.RenderStop(md, stop)
	if err != nil {
		if tr, berr := newRenderer(style, width); berr == nil {
			r.tr = tr
		}
	}
	return out, err
}

// renderBudget bounds a render's time. The markdown's nesting and size
// are checked before (mdbound), so only content near those limits on a
// busy machine comes close.
const renderBudget = 3 * time.Second

// maxRenderedBytes bounds what one rendering keeps: past it, the plain text
// is shown (a rendering is cached per width).
const maxRenderedBytes = 8 << 20

var (
	errSuperseded = errors.New("no longer shown")
	errTooSlow    = fmt.Errorf("rendering took over %v", renderBudget)
)

// rendering is an entry's content as the preview shows it.
type rendering struct {
	out string
	// plain says why the content shows as plain text rather than rendered
	// markdown ("" when rendered): "blocks nest 71 deep (limit 10)".
	plain   string
	dropped bool // superseded before it finished: out is empty
}

// RenderedMsg carries a finished rendering, for the root to hand back
// (Pane.Rendered).
type RenderedMsg struct {
	key RenderKey
	rendering
}

// Dropped reports whether the rendering was superseded before it
// finished (then it holds nothing).
func (m RenderedMsg) Dropped() bool { return m.dropped }

// renderCmd renders content off the update loop. Nothing from the file
// reaches glamour unsanitized, and glamour's output is filtered again (it
// decodes character references into real control characters). The caller
// has made key the wanted rendering (renderers.wantOnly).
func renderCmd(rs *renderers, key RenderKey, content string) tea.Cmd {
	return func() tea.Msg {
		return RenderedMsg{key: key, rendering: renderEntry(rs, key, content, func() bool { return rs.superseded(key) })}
	}
}

// renderEntry renders content at key's width and style, one render at a
// time. Markdown past mdbound's limits, a render that fails, takes longer
// than renderBudget or makes more than maxRenderedBytes shows as the
// sanitized plain text, saying why; a render superseded comes back
// dropped, before it starts or at its next node.
func renderEntry(rs *renderers, key RenderKey, content string, superseded func() bool) rendering {
	r := renderWithin(rs, key, content, superseded)
	if tooLargeToRender(len(content)) == "" { // plainText wrapped a huge one as drawn already
		r.out = rewrapCells(r.out, key.width, key.cells)
	}
	return r
}

// rewrapCells wraps again, as the renderer measures (cells), the lines of
// s laid out by grapheme clusters that are wider than width that way:
// text with "👩🏽‍💻" is six cells a picture on a terminal that draws per
// code point, and would otherwise be cut at the pane's edge. A line too
// wide even by clusters (a table) is left to be cut as before.
func rewrapCells(s string, width int, cells ansi.Method) string {
	if cells == ansi.GraphemeWidth || isASCII(s) {
		return s
	}
	lines := strings.Split(s, "\n")
	out := lines[:0:0]
	for _, l := range lines {
		if cells.StringWidth(l) > width && ansi.StringWidth(l) <= width {
			parts := strings.Split(cells.Wrap(l, width, ""), "\n")
			out = append(out, parts[0])
			plain := ansi.Strip(l)
			indent := len(plain) - len(strings.TrimLeft(plain, " "))
			if indent >= width/2 {
				indent = 0
			}
			rest := cells.Wrap(strings.TrimLeft(strings.Join(parts[1:], " "), " "), width-indent, "")
			for _, r := range strings.Split(rest, "\n") {
				out = append(out, strings.Repeat(" ", indent)+r)
			}
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// isASCII reports whether s is all ASCII: both measures agree on it.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// renderWithin is renderEntry before the lines are wrapped again for the
// renderer's measure.
func renderWithin(rs *renderers, key RenderKey, content string, superseded func() bool) rendering {
	if reason := tooLargeToRender(len(content)); reason != "" { // decided by size: nothing reads the text as markdown
		return rendering{out: plainText(content, key.width), plain: reason}
	}
	rs.one.Lock()
	defer rs.one.Unlock()
	if superseded() {
		return rendering{dropped: true}
	}
	md, blocks := protectBlocks(sanitize.Markdown(content))
	if rep := mdbound.Check(md, mdbound.Default()); !rep.OK() {
		return rendering{out: plainText(content, key.width), plain: rep.Reason}
	}
	md, blocks = protectWideTables(md, blocks, max(key.width, 10))
	start := time.Now()
	stop := func() error {
		switch {
		case superseded():
			return errSuperseded
		case time.Since(start) > renderBudget:
			return errTooSlow
		}
		return nil
	}
	out, err := rs.get(key.style, max(key.width, 10)).render(md, stop, key.style, max(key.width, 10))
	switch {
	case errors.Is(err, errSuperseded):
		return rendering{dropped: true}
	case errors.Is(err, errTooSlow):
		return rendering{out: plainText(content, key.width), plain: errTooSlow.Error()}
	case err != nil:
		return rendering{out: plainText(content, key.width), plain: "it could not be rendered"}
	case len(out) > maxRenderedBytes:
		return rendering{out: plainText(content, key.width), plain: "rendered, it is over " + humanize.Size(maxRenderedBytes)}
	}
	out = strings.Trim(sanitize.Output(out), "\n")
	return rendering{out: dimMarkers(fitLines(restoreBlocks(out, blocks, key.width), key.width), key.style)}
}

// maxMarkdownBytes is the largest content rendered as markdown, mdbound's
// Bytes limit: mdbound refused more only after the content had been
// sanitized, escaped and parsed, which for one 95 MB entry took 707 MB and
// 12 s of CPU before the plain text showed (issue 42 item 6).
const maxMarkdownBytes = 256 << 10

// tooLargeToRender says why content of n bytes is shown as plain text
// without being read as markdown at all, or "": decided by size alone,
// before any work on the text.
func tooLargeToRender(n int) string {
	if n <= maxMarkdownBytes {
		return ""
	}
	return humanize.Size(n) + " of text (limit " + humanize.Size(maxMarkdownBytes) + ")"
}

// plainText is the sanitized raw text wrapped at width: shown until the
// rendering arrives, and when rendering fails. A line that fits (ASCII
// within the width, the common case) is kept as it is; only the others
// are wrapped, and in content too large to render (tooLargeToRender) by
// wrapPlain, which allocates nothing of its own (ansi.Wrap took ten
// times a line's size), so a huge entry costs about its own size.
func plainText(content string, width int) string {
	huge := tooLargeToRender(len(content)) != ""
	text := sanitize.Text(content)
	w := max(width-2, 10)
	var b strings.Builder
	if huge {
		b.Grow(len(text) + len(text)/8) // tabs widened and lines broken: seldom more
	}
	first := true
	for l := range strings.SplitSeq(text, "\n") {
		if !first {
			b.WriteByte('\n')
		}
		first = false
		switch tabs := strings.Count(l, "\t"); {
		case len(l)+3*tabs <= w && isASCII(l):
			writeTabs(&b, l)
		case huge:
			wrapPlain(&b, l, w)
		default:
			b.WriteString(ansi.Wrap(strings.ReplaceAll(l, "\t", "    "), w, ""))
		}
	}
	return b.String()
}

// writeTabs writes s to b with each tab as four spaces.
func writeTabs(b *strings.Builder, s string) {
	for {
		i := strings.IndexByte(s, '\t')
		if i < 0 {
			b.WriteString(s)
			return
		}
		b.WriteString(s[:i])
		b.WriteString("    ")
		s = s[i+1:]
	}
}

// wrapPlain writes one line of plain text to b wrapped to w cells as
// drawn (drawnWidth), breaking after its last space that fits, else
// between grapheme clusters; a tab is four spaces.
func wrapPlain(b *strings.Builder, l string, w int) {
	start, cells := 0, 0       // the line being filled: where it starts in l, its cells
	space, spaceCells := -1, 0 // just after its last space, and its cells up to there
	for i := 0; i < len(l); {
		c, gw := ansi.FirstGraphemeCluster(l[i:], ansi.GraphemeWidth)
		if c == "" {
			break
		}
		cw := max(gw, ansi.WcWidth.StringWidth(c))
		if c == "\t" {
			cw = 4
		}
		for cells > 0 && cells+cw > w {
			if space > start {
				writeTabs(b, l[start:space])
				start, cells = space, cells-spaceCells
			} else {
				writeTabs(b, l[start:i])
				start, cells = i, 0
			}
			b.WriteByte('\n')
			space = -1
		}
		cells += cw
		i += len(c)
		if c == " " || c == "\t" {
			space, spaceCells = i, cells
		}
	}
	writeTabs(b, l[start:])
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

// fitLines truncates every line to width (glamour can overflow on
// tables): part.FitLines.
func fitLines(s string, width int) string { return part.FitLines(s, width) }

// renderCache keeps renderings per key. It is only touched by the update
// loop; it is cleared when it grows past its bound.
type renderCache struct {
	m map[RenderKey]rendering
}

const maxCachedRenders = 512

func (c *renderCache) get(k RenderKey) (rendering, bool) {
	s, ok := c.m[k]
	return s, ok
}

func (c *renderCache) put(k RenderKey, s rendering) {
	if c.m == nil || len(c.m) >= maxCachedRenders {
		c.m = map[RenderKey]rendering{}
	}
	c.m[k] = s
}
