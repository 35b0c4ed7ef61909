package tui

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
)

// preview is the right pane, a sub-model: a header card over the rendered
// content (or the score explanation) in a scrolling viewport. It owns the
// renderings (made off the loop, cached per entry, width and style), the
// scroll position, its keys and its help; the root tells it which entry to
// show (show) and hands it the renderings that arrive (rendered).
type preview struct {
	vp      viewport.Model
	id      uint64 // entry shown
	shown   bool   // an entry is shown (not why none is)
	key     renderKey
	pending bool // the rendering for key has not arrived yet
	explain bool // show the score explanation instead of the content
	tokens  map[tokenKey]int
	cache   renderCache // renderings by key, only touched by the update loop
	rs      *renderers  // the renderers, shared with the renderings off the loop
}

func newPreview() preview {
	vp := viewport.New()
	vp.KeyMap = viewport.KeyMap{} // keys come from crmem's key map
	vp.MouseWheelEnabled = false
	return preview{vp: vp, tokens: map[tokenKey]int{}, rs: &renderers{}}
}

// shownEntry is what the preview is asked to show: the selected entry and
// what the rest of the screen knows about it.
type shownEntry struct {
	e       store.Entry
	row     row           // its row in the list (how it was found)
	extra   []string      // lines the editing part adds to the card
	ids     bool          // the format shows ids (Features.ShowsIDs)
	focused bool          // the preview has the focus: a thick card border
	result  *searchResult // the search the list shows; nil: none (the explain view reads its parts)
	hints   explainHints
}

// setSize sizes the viewport to the pane.
func (p *preview) setSize(w, h int) {
	p.vp.SetWidth(w)
	p.vp.SetHeight(h)
}

// showText shows text (why nothing is selected) in place of an entry.
func (p *preview) showText(c *common, text string, w, h int) {
	p.setSize(w, h)
	p.id, p.shown, p.pending = 0, false, false
	p.vp.SetContent(emptyPreview(c.styles, w, text))
}

// show fills the preview at w×h with s.e: from the render cache, or the
// plain text while a rendering is made off the loop (the command).
func (p *preview) show(c *common, s shownEntry, w, h int) tea.Cmd {
	p.setSize(w, h)
	p.shown = true
	e := s.e
	key := renderKey{id: e.ID, hash: contentHash(e.Content), width: max(w-2, 10), style: c.glamourStyle(), cells: c.cells}
	r, cached := p.cache.get(key)
	extra := s.extra
	if cached && r.plain != "" && !p.explain {
		extra = append(slices.Clone(extra), c.styles.label.Render("plain text: ")+r.plain)
	}
	head := card(c.styles, e, s.ids, p.tokenCount(key, e), w, c.now(), c.loc, extra, s.focused)
	p.rs.wantOnly(key)
	if p.explain {
		p.key, p.pending = key, false
		p.setContent(e.ID, head+"\n"+explainView(c.styles, s.result, s.row, e.ID, w, s.hints))
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
	p.setContent(e.ID, head+"\n"+highlight(body, s.result.highlightTerms(), c.styles.highlight))
	return cmd
}

// rendered keeps a rendering that arrived and reports whether it is the
// one on screen waits for (then the entry is shown again with it).
func (p *preview) rendered(msg renderedMsg) bool {
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

// toggleExplain turns the explain view on or off; it reports it on.
func (p *preview) toggleExplain() bool {
	p.explain = !p.explain
	return p.explain
}

// keyPress scrolls the preview at h rows on the navigation keys; it reports
// whether k was one.
func (p *preview) keyPress(keys *keymap.KeyMap, k tea.KeyPressMsg, h int) bool {
	switch {
	case key.Matches(k, keys.Top):
		p.vp.GotoTop()
		return true
	case key.Matches(k, keys.Bottom):
		p.vp.GotoBottom()
		return true
	}
	d, ok := navDelta(keys, k, h, 0)
	if ok {
		p.scroll(d)
	}
	return ok
}

// scroll moves the view d lines down (up when d < 0).
func (p *preview) scroll(d int) {
	if d < 0 {
		p.vp.ScrollUp(-d)
	} else {
		p.vp.ScrollDown(d)
	}
}

// view is the preview at exactly w×h.
func (p *preview) view(w, h int) string { return box(p.vp.View(), w, h) }

// lines is the scroll position as less shows it: the lines on screen and
// the total, "lines 1-24/100"; "" when no entry is shown.
func (p *preview) lines() string {
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
func (p *preview) matchLines(on string) []int {
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

// jumpMatch scrolls to the next (dir 1) or previous (dir -1) line with a
// match highlighted with on, counting from the top of the view, and says
// where it went (or why it did not move).
func (p *preview) jumpMatch(on string, dir int) string {
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
func (p *preview) tokenCount(k renderKey, e store.Entry) int {
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
func card(st *styles, e store.Entry, ids bool, tokens, width int, now time.Time, loc *time.Location, extra []string, focused bool) string {
	created := fmt.Sprintf("@%d", e.CreatedAt) // raw beyond year 9999, as the CLI
	if e.CreatedAt <= humanize.MaxDisplayTime {
		created = time.Unix(int64(e.CreatedAt), 0).In(loc).Format("2006-01-02 15:04 MST") +
			st.label.Render(" ("+humanize.Ago(now, e.CreatedAt)+")")
	}
	lines := []string{
		st.cardTitle.Render(ansi.Truncate(sanitize.Name(e.Name), cardInner(width), "…")),
	}
	if note := mixedNote(e.Name); note != "" {
		lines = append(lines, st.warning.Render("⚠ "+note))
	}
	lines = append(lines,
		st.kindMarker(e.Kind)+" "+e.Kind.String()+st.label.Render(idLabel(e.ID, ids)),
		st.label.Render("created ")+created,
	)
	if len(e.Aliases) > 0 {
		as := make([]string, len(e.Aliases))
		for i, a := range e.Aliases {
			as[i] = sanitize.Name(a)
		}
		lines = append(lines, st.label.Render("aliases ")+strings.Join(as, ", "))
	}
	lines = append(lines, st.label.Render("size ")+humanize.Plural(len(e.Content), "byte")+" · "+humanize.Plural(tokens, "token"))
	lines = append(lines, extra...)
	inner := cardInner(width)
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, inner, "…")
	}
	box := st.card
	if focused {
		box = st.cardFocus
	}
	return box.Width(max(width-1, 6)).Render(strings.Join(lines, "\n"))
}

// cardInner is the cells a card line has at width: the box is width-1
// wide, its border and padding included, leaving width-5 (a longer line
// would wrap inside the box).
func cardInner(width int) int { return max(width-5, 1) }

// setContent fills the viewport with card and body, keeping the scroll
// position when the same entry is re-shown.
func (p *preview) setContent(id uint64, content string) {
	y := p.vp.YOffset()
	p.vp.SetContent(content)
	if id == p.id {
		p.vp.SetYOffset(y)
	} else {
		p.vp.GotoTop()
	}
	p.id = id
}

// emptyPreview is shown when nothing is selected.
func emptyPreview(st *styles, width int, msg string) string {
	return lipgloss.NewStyle().Width(max(width, 1)).Render(st.dim.Render(msg))
}

// idLabel shows an entry's id on the card, when the format shows ids
// (crabtalk's store's entries have none).
func idLabel(id uint64, ids bool) string {
	if !ids {
		return ""
	}
	return fmt.Sprintf(" · id %d", id)
}

// setKeys enables the preview's keys and no other (keymap.KeyMap.Pane):
// editing says the editing part is wired.
func (p *preview) setKeys(k *keymap.KeyMap, editing bool) {
	k.Pane(false, k.PreviewKeys(editing)...)
}

// shortHelp is the preview's line of keys.
func (p *preview) shortHelp(k *keymap.KeyMap) []key.Binding {
	return []key.Binding{k.Back, k.Search, k.Focus, k.Explain, k.Edit, k.QuitHint(), k.Help}
}

// fullHelp is the preview's column of the `?` help: reading the entry.
func (p *preview) fullHelp(k *keymap.KeyMap) [][]key.Binding {
	return [][]key.Binding{k.ReadingKeys()}
}
