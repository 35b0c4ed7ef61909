package tui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/face/cellwidth"
	"github.com/crmem/crmem/tui/list"
	"github.com/crmem/crmem/tui/part"
	"github.com/crmem/crmem/tui/preview"
	"github.com/crmem/crmem/tui/searchbar"
)

// View draws the screen: search line, panes, status line, help line.
func (m *Model) View() tea.View {
	v := tea.NewView(m.screen())
	v.AltScreen = true
	if m.mouse {
		v.MouseMode = tea.MouseModeCellMotion
	}
	return v
}

// screen renders the whole screen as text.
func (m *Model) screen() string {
	if !m.c.sized {
		return ""
	}
	r := m.rows()
	var lines []string
	if r.search {
		lines = append(lines, m.searchLine())
	}
	if r.body > 0 {
		body := m.layerBody(m.c.width, r.body)
		if body == "" {
			body = m.body()
		}
		lines = append(lines, body)
	}
	lines = append(append(lines, r.status...), r.help...)
	lines = strings.Split(strings.Join(lines, "\n"), "\n")
	if n := len(lines); n > m.c.height { // shorter than the fewest lines that matter: keep the bottom ones
		lines = lines[n-max(m.c.height, 1):]
	}
	for i, l := range lines {
		lines[i] = m.c.fitLine(l, m.c.width)
	}
	return strings.Join(lines, "\n")
}

// fitLine fits a line laid out by grapheme clusters to w cells as the
// renderer measures them (common.cells): a line laid out to the full
// width is made exactly w wide, a shorter one only kept within w. Per
// code point, an emoji ZWJ sequence is then drawn as its emoji, unjoined
// (unjoinEmoji: as wide per code point, with nothing else moved), and
// decomposed Hangul composed (composeJamo), its padding making up the
// cells the syllables take fewer.
func (c *common) fitLine(l string, w int) string {
	gw := ansi.StringWidth(l)
	if c.cells == ansi.GraphemeWidth && gw <= w {
		return l
	}
	if gw == w || c.cells.StringWidth(l) > w {
		l = cellwidth.Fit(c.cells, l, w)
	}
	l, lost := composeJamo(unjoinEmoji(l))
	return cellwidth.Pad(l, lost)
}

// body renders the panes side by side, or the focused one alone.
func (m *Model) body() string {
	h := m.bodyHeight()
	if m.read.zoom {
		return m.pv.View(m.c.partContext(h), m.c.width, h)
	}
	if m.welcoming() { // the welcome across the screen: beside it the preview is empty
		return m.listPane(m.c.width, h)
	}
	if !m.c.twoPanes() {
		if m.focus == focusPreview {
			return m.pv.View(m.c.partContext(h), m.c.width, h)
		}
		return m.listPane(m.c.width, h)
	}
	line := "┃" // a heavy edge marks the list as the focused pane; the card's border marks the preview
	if m.focus == focusPreview {
		line = "│"
	}
	sep := m.c.styles.border.Render(line)
	lw, pw := m.c.listWidth(), m.previewWidth()
	left, right := strings.Split(m.listPane(lw, h), "\n"), strings.Split(m.pv.View(m.c.partContext(h), pw, h), "\n")
	rows := make([]string, h)
	for i := range rows {
		// each pane's line fitted as the renderer measures, so the
		// separator stays in its column whatever the text
		rows[i] = m.c.fitLine(left[i], lw) + sep + m.c.fitLine(right[i], pw)
	}
	return strings.Join(rows, "\n")
}

// listPane renders the list at w×h.
func (m *Model) listPane(w, h int) string {
	ls := list.Style{
		Now: m.c.now(), Focused: m.focus == focusList,
		Marks: m.marks.ByID(), Searched: m.result != nil, Fresh: m.chg.freshSign,
	}
	if m.ed != nil {
		ls.Badge = m.rowBadge
	}
	if len(m.list.Rows()) == 0 && m.blankMemory() {
		return box(m.welcomePane(w), w, h)
	}
	if m.loaded && m.c.db == nil {
		return box(paneText(m.c.styles, w, m.unopenedText()), w, h)
	}
	if len(m.list.Rows()) == 0 {
		return box(m.c.styles.dim.Render(" "+m.emptyText()), w, h)
	}
	return m.list.View(m.c.partContext(h), ls, w, h)
}

// box forces s to exactly w×h cells (part.Box).
func box(s string, w, h int) string { return part.Box(s, w, h) }

// cardInner is the cells a line of the preview's card has at width
// (preview.CardInner): the card's lines the root words are fitted to it.
func cardInner(width int) int { return preview.CardInner(width) }

// searchLine renders the search line (searchbar.Bar.View) with the filter,
// order and index state on the right, each with how telling it is.
func (m *Model) searchLine() string {
	parts := []searchbar.Part{{Text: m.list.Filter.String(), Keep: 3}, {Text: m.list.Order.String(), Keep: 2}, {Text: m.list.Position(), Keep: 4}}
	if lines := m.pv.Lines(); lines != "" {
		parts = append(parts, searchbar.Part{Text: "preview " + lines, Keep: 1})
	}
	if m.dates.r.on() {
		parts = append([]searchbar.Part{{Text: "created " + m.dates.r.text, Keep: 5}}, parts...)
	}
	if m.pv.Explaining() {
		parts = append([]searchbar.Part{{Text: "explain" + paren(keyName(m.c.keys.Explain)), Keep: 6}}, parts...)
	}
	if m.loaded && !m.indexed && m.c.db != nil {
		parts = append([]searchbar.Part{{Text: "indexing… (name matches only)", Keep: 7}}, parts...)
	}
	return m.bar.View(m.c.styles.part, m.c.width, m.c.searchPrompt(), m.c.searchPlaceholder(), parts)
}

// helpLinesOf is the help lines with o the top layer's overlay.
func (m *Model) helpLinesOf(o string) []string {
	if o != "" {
		lines := strings.Split(o, "\n")
		for i, l := range lines {
			lines[i] = ansi.Truncate(l, m.c.width, "…")
		}
		return lines
	}
	return []string{m.shortHelp()}
}

// shortHelp is the one-line help at the screen's width: its last binding
// (? help) always stays, the ones before it give way from the end.
func (m *Model) shortHelp() string {
	short := m.partHelp()
	switch {
	case m.loaded && m.c.db == nil && !m.bar.Typing(): // nothing open: only what acts
		short = []key.Binding{m.c.keys.Reload, m.c.keys.Quit, m.c.keys.Help}
	case m.blankMemory() && !m.bar.Typing():
		short = m.welcomeKeys()
	}
	var bs []key.Binding
	for _, b := range m.chg.withChangeHint(&m.c.keys, short) {
		if b.Enabled() {
			bs = append(bs, b)
		}
	}
	if len(bs) == 0 {
		return ""
	}
	from := helpLineFrom(bs, m.c.width, m.c.dark, m.c.noColor)
	if m.helpLine.valid && m.helpLine.from == from {
		return m.helpLine.line
	}
	h := m.c.help
	h.SetWidth(0)
	last := bs[len(bs)-1]
	line := ""
	for n := len(bs) - 1; n > 0 && line == ""; n-- {
		if v := h.ShortHelpView(append(slices.Clone(bs[:n]), last)); lipgloss.Width(v) <= m.c.width {
			line = v
		}
	}
	if line == "" {
		line = ansi.Truncate(h.ShortHelpView([]key.Binding{last}), m.c.width, "…")
	}
	m.helpLine = helpLineMemo{valid: true, from: from, line: line}
	return line
}

// helpLineMemo is the help line last fitted and what it was fitted from.
// Every update lays the screen out (bodyHeight) and so draws the help
// line, most often from the same bindings at the same width: fitting it
// (drawing it with fewer and fewer bindings and measuring each) took
// more than half of the layout's time.
type helpLineMemo struct {
	valid bool
	from  string // helpLineFrom's key of the bindings, width and palette
	line  string
}

// helpLineFrom is everything the fitted help line depends on: the
// enabled bindings' keys and words as the help draws them, in order, the
// width, and the palette (applyStyles: the help's styles follow dark and
// noColor).
func helpLineFrom(bs []key.Binding, width int, dark, noColor bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d %t %t", width, dark, noColor)
	for _, k := range bs {
		h := k.Help()
		b.WriteString("\x00")
		b.WriteString(h.Key)
		b.WriteString("\x01")
		b.WriteString(h.Desc)
	}
	return b.String()
}
