package preview

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/part"
)

// Pane is the right pane, a part of the screen in a package of its own:
// a header card over the rendered content (or the score explanation the
// root words) in a scrolling viewport. It owns the renderings (made off
// the loop, cached per entry, width and style), the scroll position,
// whether the explanation is shown, its keys and its help; it reads the
// part.Context it is lent and cannot reach the root, which tells it which
// entry to show (Show) and hands it the renderings that arrive
// (Rendered).
type Pane struct {
	vp      viewport.Model
	id      uint64 // entry shown
	shown   bool   // an entry is shown (not why none is)
	key     RenderKey
	pending bool // the rendering for key has not arrived yet
	explain bool // show the score explanation instead of the content
	tokens  map[tokenKey]int
	cache   renderCache // renderings by key, only touched by the update loop
	rs      *renderers  // the renderers, shared with the renderings off the loop
	// lastCard is the card last drawn (card): the same card is drawn
	// once however often the entry is shown again; lastText its lines
	// (cardTextOf), likewise.
	lastCard cardMemo
	lastText cardTextMemo
	// content is what setContent last gave the viewport ("" once
	// something else was): the root shows the selection again at most
	// messages (an index built, a summary read, a key), most often
	// unchanged, and the viewport would split and measure it each time.
	content string
}

// New is an empty preview.
func New() Pane {
	vp := viewport.New()
	vp.KeyMap = viewport.KeyMap{} // keys come from crmem's key map
	vp.MouseWheelEnabled = false
	return Pane{vp: vp, tokens: map[tokenKey]int{}, rs: &renderers{}}
}

// Entry is what the preview is asked to show: the selected entry and
// what the rest of the screen knows about it, as data.
type Entry struct {
	E       store.Entry
	Extra   []string // lines the root adds to the card (history, references, recalls)
	IDs     bool     // the format shows ids (Features.ShowsIDs)
	Focused bool     // the preview has the focus: a thick card border
	// Terms are the search's terms, highlighted in the content.
	Terms []string
	// Explain is the score's explanation the root words for the entry,
	// shown in place of the content while Explaining.
	Explain string
}

// setSize sizes the viewport to the pane.
func (p *Pane) setSize(w, h int) {
	p.vp.SetWidth(w)
	p.vp.SetHeight(h)
}

// ShowText shows text (why nothing is selected) in place of an entry.
func (p *Pane) ShowText(c *part.Context, text string, w, h int) {
	p.setSize(w, h)
	p.id, p.shown, p.pending, p.content = 0, false, false, ""
	p.vp.SetContent(emptyPreview(c.Styles, w, text))
}

// Show fills the preview at w×h with s.E: from the render cache, or the
// plain text while a rendering is made off the loop (the command).
func (p *Pane) Show(c *part.Context, s Entry, w, h int) tea.Cmd {
	p.setSize(w, h)
	p.shown = true
	e := s.E
	key := RenderKey{id: e.ID, hash: contentHash(e.Content), width: max(w-2, 10), style: c.Markdown, cells: c.Cells}
	r, cached := p.cache.get(key)
	extra := s.Extra
	st := c.Styles
	if cached && r.plain != "" && !p.explain {
		extra = append(slices.Clone(extra), st.Label.Render("plain text: ")+r.plain)
	}
	head := p.card(cardFrom{st, p.cardTextOf(cardTextFrom{st, e, s.IDs, p.tokenCount(key, e), w, c.Now(), c.Loc, extra}), w, s.Focused})
	p.rs.wantOnly(key)
	if p.explain {
		p.key, p.pending = key, false
		p.setContent(e.ID, head+"\n"+s.Explain)
		return nil
	}
	body := r.out
	var cmd tea.Cmd
	if !cached {
		body = rewrapCells(placeholder(e.Content, key.width), key.width, key.cells)
		if !p.pending || p.key != key {
			cmd = renderCmd(p.rs, key, e.Content)
		}
	}
	p.key, p.pending = key, !cached
	p.setContent(e.ID, head+"\n"+highlight(body, s.Terms, st.Highlight))
	return cmd
}

// Rendered keeps a rendering that arrived and reports whether it is the
// one on screen waits for (then the root shows the entry again with it).
func (p *Pane) Rendered(msg RenderedMsg) bool {
	if msg.dropped {
		return false // superseded: the wanted rendering has its own command
	}
	p.cache.put(msg.key, msg.rendering)
	if msg.key != p.key {
		return false // the selection, width or style moved on
	}
	p.pending = false
	return true
}

// ToggleExplain turns the explain view on or off; it reports it on.
func (p *Pane) ToggleExplain() bool {
	p.explain = !p.explain
	return p.explain
}

// Explaining reports whether the explain view is on: the root words the
// explanation (Entry.Explain) only then.
func (p *Pane) Explaining() bool { return p.explain }

// ExplainOff turns the explain view off (the search cleared, esc).
func (p *Pane) ExplainOff() { p.explain = false }

// Key scrolls the preview at c.Body rows on the navigation keys; it
// reports whether k was one.
func (p *Pane) Key(c *part.Context, k tea.KeyPressMsg) bool {
	switch {
	case key.Matches(k, c.Keys.Top):
		p.vp.GotoTop()
		return true
	case key.Matches(k, c.Keys.Bottom):
		p.vp.GotoBottom()
		return true
	}
	d, ok := part.NavDelta(c.Keys, k, c.Body, 0)
	if ok {
		p.Scroll(d)
	}
	return ok
}

// Scroll moves the view d lines down (up when d < 0): the wheel.
func (p *Pane) Scroll(d int) {
	if d < 0 {
		p.vp.ScrollUp(-d)
	} else {
		p.vp.ScrollDown(d)
	}
}

// View is the preview at exactly w×h.
func (p *Pane) View(_ *part.Context, w, h int) string { return part.Box(p.vp.View(), w, h) }

// Lines is the scroll position as less shows it: the lines on screen and
// the total, "lines 1-24/100"; "" when no entry is shown.
func (p *Pane) Lines() string {
	vp := &p.vp
	total := vp.TotalLineCount()
	if !p.shown || total == 0 {
		return ""
	}
	if p.pending {
		return "rendering…" // the placeholder's lines are not the entry's
	}
	first := vp.YOffset() + 1
	last := min(vp.YOffset()+vp.Height(), total)
	return fmt.Sprintf("lines %d-%d/%d", first, last, total)
}

// matchLines are the lines holding a match highlighted with on.
func (p *Pane) matchLines(on string) []int {
	if on == "" {
		return nil
	}
	var out []int
	for i, l := range strings.Split(p.vp.GetContent(), "\n") {
		if strings.Contains(l, on) {
			out = append(out, i)
		}
	}
	return out
}

// JumpMatch scrolls to the next (dir 1) or previous (dir -1) line with a
// match highlighted (none are when !highlighted: no search is shown),
// counting from the top of the view, and says where it went (or why it
// did not move).
func (p *Pane) JumpMatch(c *part.Context, dir int, highlighted bool) []part.Request {
	on := c.Styles.Highlight
	if !highlighted {
		on = ""
	}
	return []part.Request{part.Message{Text: p.jumpMatch(on, dir)}}
}

// jumpMatch is JumpMatch's move with the highlight's SGR on.
func (p *Pane) jumpMatch(on string, dir int) string {
	lines := p.matchLines(on)
	if len(lines) == 0 {
		return "no highlighted matches in this entry"
	}
	y := p.vp.YOffset()
	target := -1
	for i := range lines {
		l := lines[i]
		if dir < 0 {
			l = lines[len(lines)-1-i]
		}
		if dir > 0 && l > y || dir < 0 && l < y {
			target = l
			break
		}
	}
	if target < 0 {
		return map[bool]string{true: "no more matches below", false: "no more matches above"}[dir > 0]
	}
	p.vp.SetYOffset(target)
	n := 0
	for _, l := range lines {
		if l <= target {
			n++
		}
	}
	return fmt.Sprintf("match line %s of %s", humanize.Count(n), humanize.Count(len(lines)))
}

// tokenKey identifies an entry's document for the token count cache: its
// content (by hash) and its aliases.
type tokenKey struct {
	id, hash uint64
	aliases  string
}

// tokenCount returns store.Entry.Tokens, the number of bm25 tokens of the
// entry's document (its content and aliases, as recall indexes them),
// cached per document: the card is drawn on every selection.
func (p *Pane) tokenCount(k RenderKey, e store.Entry) int {
	tk := tokenKey{id: k.id, hash: k.hash, aliases: strings.Join(e.Aliases, "\x00")}
	n, ok := p.tokens[tk]
	if !ok {
		if len(p.tokens) > maxCachedRenders {
			p.tokens = map[tokenKey]int{}
		}
		n = e.Tokens()
		p.tokens[tk] = n
	}
	return n
}

// card renders the header card for e at width, with its id when ids (the
// format shows ids).
// A thick border marks the preview as the focused pane.
func card(st *part.Styles, e store.Entry, ids bool, tokens, width int, now time.Time, loc *time.Location, extra []string, focused bool) string {
	return cardFrom{st, cardText(st, e, ids, tokens, width, now, loc, extra), width, focused}.draw()
}

// cardText is the card's lines for e at width, each cut to the box's
// inner width.
func cardText(st *part.Styles, e store.Entry, ids bool, tokens, width int, now time.Time, loc *time.Location, extra []string) string {
	created := fmt.Sprintf("@%d", e.CreatedAt) // raw beyond year 9999, as the CLI
	if e.CreatedAt <= humanize.MaxDisplayTime {
		created = time.Unix(int64(e.CreatedAt), 0).In(loc).Format("2006-01-02 15:04 MST") +
			st.Label.Render(" ("+humanize.Ago(now, e.CreatedAt)+")")
	}
	lines := []string{
		st.CardTitle.Render(ansi.Truncate(sanitize.Name(e.Name), CardInner(width), "…")),
	}
	if note := part.MixedNote(e.Name); note != "" {
		lines = append(lines, st.Warning.Render("⚠ "+note))
	}
	lines = append(lines,
		st.KindMarker(e.Kind)+" "+e.Kind.String()+st.Label.Render(idLabel(e.ID, ids)),
		st.Label.Render("created ")+created,
	)
	if len(e.Aliases) > 0 {
		as := make([]string, len(e.Aliases))
		for i, a := range e.Aliases {
			as[i] = sanitize.Name(a)
		}
		lines = append(lines, st.Label.Render("aliases ")+strings.Join(as, ", "))
	}
	lines = append(lines, st.Label.Render("size ")+humanize.Plural(len(e.Content), "byte")+" · "+humanize.Plural(tokens, "token"))
	lines = append(lines, extra...)
	inner := CardInner(width)
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, inner, "…")
	}
	return strings.Join(lines, "\n")
}

// cardTextFrom is what cardText writes a card's lines from.
type cardTextFrom struct {
	st     *part.Styles // never changed once made: new styles are a new value
	e      store.Entry
	ids    bool
	tokens int
	width  int
	now    time.Time
	loc    *time.Location
	extra  []string
}

// same reports whether f and g give the same lines: the same fields, the
// content's length for the content (the card shows its size).
func (f cardTextFrom) same(g cardTextFrom) bool {
	a, b := f.e, g.e
	return f.st == g.st && f.ids == g.ids && f.tokens == g.tokens && f.width == g.width && f.now.Equal(g.now) &&
		f.now.Location() == g.now.Location() && f.loc == g.loc && slices.Equal(f.extra, g.extra) &&
		a.ID == b.ID && a.Name == b.Name && a.Kind == b.Kind && a.CreatedAt == b.CreatedAt &&
		slices.Equal(a.Aliases, b.Aliases) && len(a.Content) == len(b.Content)
}

// cardTextMemo is the card's lines last written and what they were
// written from.
type cardTextMemo struct {
	written bool
	from    cardTextFrom
	out     string
}

// cardTextOf is cardText of f, written again only when f is not the same
// as last time (TestCard_KeptOnlyWhileItsSourcesStay): the root shows the
// selection again at most messages, and lipgloss drew the same lines.
func (p *Pane) cardTextOf(f cardTextFrom) string {
	if m := &p.lastText; m.written && m.from.same(f) {
		return m.out
	}
	f.extra, f.e.Aliases = slices.Clone(f.extra), slices.Clone(f.e.Aliases) // kept: the caller's may change
	p.lastText = cardTextMemo{written: true, from: f, out: cardText(f.st, f.e, f.ids, f.tokens, f.width, f.now, f.loc, f.extra)}
	return p.lastText.out
}

// cardFrom is what a card's box is drawn from: the styles, the lines
// (cardText), the width and the focus.
type cardFrom struct {
	st      *part.Styles // never changed once made: new styles are a new value
	text    string
	width   int
	focused bool
}

// draw draws the card: its lines in a box width-1 wide, thick when
// focused.
func (f cardFrom) draw() string {
	box := f.st.Card
	if f.focused {
		box = f.st.CardFocus
	}
	return box.Width(max(f.width-1, 6)).Render(f.text)
}

// card draws the card from f, or returns the one last drawn from the same
// f. The root shows the selected entry again at each of the reads that
// end off the loop (its history, references, recalls, the index) and at
// each resize; drawing the box (measuring every line, padding it,
// bordering it) was most of a show's time.
func (p *Pane) card(f cardFrom) string {
	if p.lastCard.drawn && p.lastCard.from == f {
		return p.lastCard.out
	}
	p.lastCard = cardMemo{drawn: true, from: f, out: f.draw()}
	return p.lastCard.out
}

// cardMemo is the card last drawn and what it was drawn from.
type cardMemo struct {
	drawn bool
	from  cardFrom
	out   string
}

// CardInner is the cells a card line has at width: the box is width-1
// wide, its border and padding included, leaving width-5 (a longer line
// would wrap inside the box).
func CardInner(width int) int { return max(width-5, 1) }

// setContent fills the viewport with card and body, keeping the scroll
// position when the same entry is re-shown; content the viewport holds
// already is not handed to it again (TestPreview_ShownAgainAsAFreshPaneScrolledThere).
func (p *Pane) setContent(id uint64, content string) {
	y := p.vp.YOffset()
	if id != p.id || content != p.content || content == "" {
		p.vp.SetContent(content)
		p.content = content
	}
	if id == p.id {
		p.vp.SetYOffset(y)
	} else {
		p.vp.GotoTop()
	}
	p.id = id
}

// emptyPreview is shown when nothing is selected.
func emptyPreview(st *part.Styles, width int, msg string) string {
	return lipgloss.NewStyle().Width(max(width, 1)).Render(st.Dim.Render(msg))
}

// idLabel shows an entry's id on the card, when the format shows ids
// (crabtalk's store's entries have none).
func idLabel(id uint64, ids bool) string {
	if !ids {
		return ""
	}
	return fmt.Sprintf(" · id %d", id)
}

// SetKeys enables the preview's keys and no other (keymap.KeyMap.Pane):
// editing says the editing part is wired.
func (p *Pane) SetKeys(k *keymap.KeyMap, editing bool) {
	k.Pane(false, k.PreviewKeys(editing)...)
}

// ShortHelp is the preview's line of keys.
func (p *Pane) ShortHelp(k *keymap.KeyMap) []key.Binding {
	return []key.Binding{k.Back, k.Search, k.Focus, k.Explain, k.Edit, k.QuitHint(), k.Help}
}

// FullHelp is the preview's column of the `?` help: reading the entry.
func (p *Pane) FullHelp(k *keymap.KeyMap) [][]key.Binding {
	return [][]key.Binding{k.ReadingKeys()}
}

// What the root's tests and status line read of the pane.

// Offset is the first line of the content on screen.
func (p *Pane) Offset() int { return p.vp.YOffset() }

// AtBottom reports whether the content's last line is on screen.
func (p *Pane) AtBottom() bool { return p.vp.AtBottom() }

// Content is what the viewport holds: the card and the content.
func (p *Pane) Content() string { return p.vp.GetContent() }

// TotalLines is the content's lines; Height the pane's.
func (p *Pane) TotalLines() int { return p.vp.TotalLineCount() }

// Height is the pane's rows.
func (p *Pane) Height() int { return p.vp.Height() }

// Pending reports whether the entry shown waits for its rendering.
func (p *Pane) Pending() bool { return p.pending }

// RenderKey is the rendering the entry shown is (or will be) drawn with.
func (p *Pane) RenderKey() RenderKey { return p.key }

// Cached reports whether the rendering k is in the cache.
func (p *Pane) Cached(k RenderKey) bool {
	_, ok := p.cache.get(k)
	return ok
}

// ForgetRenderings empties the render cache: the next Show renders again.
func (p *Pane) ForgetRenderings() { p.cache = renderCache{} }
