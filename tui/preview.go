package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/viewport"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/store"
)

// preview is the right pane: a header card over the rendered content (or
// the score explanation) in a scrolling viewport.
type preview struct {
	vp      viewport.Model
	id      uint64 // entry shown; 0 for none
	key     renderKey
	pending bool // the rendering for key has not arrived yet
	explain bool // show the score explanation instead of the content
	tokens  map[tokenKey]int
}

func newPreview() preview {
	vp := viewport.New()
	vp.KeyMap = viewport.KeyMap{} // keys come from crmem's key map
	vp.MouseWheelEnabled = false
	return preview{vp: vp, tokens: map[tokenKey]int{}}
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
		st.kindMarker(e.Kind) + " " + e.Kind.String() + st.label.Render(idLabel(e.ID, ids)),
		st.label.Render("created ") + created,
	}
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
