package tui

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/hygiene"
	"github.com/crmem/crmem/store/why"
)

// whyView is the part behind the why key: during a search, where
// any entry stands in the agent's recall of the query and why (store/why,
// as `crmem search --why`), the selected entry's or one named in a prompt
// that completes names, shown in a panel in place of the panes.
type whyView struct {
	prompt *promptDialog
	comp   nameCompletion
	panel  *whyPanel
	seq    int // the last explanation asked for; older answers are dropped
}

// newWhyView builds the why part, closed.
func newWhyView() *whyView { return &whyView{} }

// whyPanel is an explanation on screen and how far it is scrolled.
type whyPanel struct {
	rep why.Report
	sc  scroller
	// lines is rep drawn at width with style, every secret masked (a
	// report never prints one whole, as search --why does not): drawn once,
	// not on every frame, and again when the width or the styles change.
	lines []string
	width int
	style *styles
}

// drawn is the panel's report drawn at width w, masked (see lines).
func (p *whyPanel) drawn(c *common, w int) []string {
	if p.lines == nil || p.width != w || p.style != c.styles {
		p.lines = whyLines(c, p.rep, w)
		for i, l := range p.lines {
			p.lines[i] = hygiene.Mask(l)
		}
		p.width, p.style = w, c.styles
	}
	return p.lines
}

// whyDoneMsg carries an explanation computed off the update loop.
type whyDoneMsg struct {
	seq int
	rep why.Report
	err error
}

// done takes an explanation computed off the update loop, unless a later
// one was asked for.
func (f *whyView) done(m *Model, msg whyDoneMsg) tea.Cmd {
	if msg.seq != f.seq {
		return nil
	}
	if msg.err != nil {
		return m.setMessage("why: " + sanitize.Line(m.shortError(msg.err)))
	}
	f.panel = &whyPanel{rep: msg.rep}
	return nil
}

// key handles a key press for the prompt, the panel, or the why key.
func (f *whyView) key(m *Model, k tea.KeyPressMsg) (bool, tea.Cmd) {
	keys := &m.c.keys
	switch {
	case f.prompt != nil && key.Matches(k, keys.Complete):
		return true, f.complete(m)
	case f.prompt != nil:
		p := f.prompt
		req, done, note := p.key(keys, k)
		if done && f.prompt == p {
			f.prompt = nil
		}
		var cmd tea.Cmd
		if note != "" {
			cmd = m.setMessage(note)
		}
		if r, ok := req.(reqWhy); ok {
			cmd = tea.Batch(cmd, f.do(m, r))
		}
		return true, cmd
	case f.panel != nil:
		if key.Matches(k, keys.Cancel) || key.Matches(k, keys.Quit) || key.Matches(k, keys.Accept) {
			f.panel = nil
		} else {
			f.panel.sc.key(keys, k, len(f.panel.drawn(&m.c, m.c.width))-1, m.bodyHeight())
		}
		return true, nil
	case key.Matches(k, keys.Why):
		return true, f.open(m)
	}
	return false, nil
}

// open asks which entry to explain, the selected one proposed; without a
// search there is no recall to explain.
func (f *whyView) open(m *Model) tea.Cmd {
	query := m.applied
	if strings.TrimSpace(query) == "" {
		return m.setMessage(hints(" ", keyName(m.c.keys.Why), "explains a search's recall: search first") + paren(keyName(m.c.keys.Search)))
	}
	name := ""
	if e, ok := m.list.selectedEntry(m.c.snap); ok {
		name = e.Name
	}
	f.comp = nameCompletion{}
	f.prompt = newPrompt("why", name, nil, reqWhy{query: query})
	return m.setMessage("why: an entry's place in the agent's recall" + paren(keyHint(m.c.keys.Complete, "completes a name")))
}

// do carries out the prompt's request: an entry named, or none.
func (f *whyView) do(m *Model, r reqWhy) tea.Cmd {
	if r.name == "" {
		return m.setMessage("cancelled")
	}
	return f.explain(m, r.query, r.name)
}

// explain computes, off the update loop, where the entry name stands in
// the agent's recall of query at its limit.
func (f *whyView) explain(m *Model, query, name string) tea.Cmd {
	src := m.c.db
	if src == nil {
		return m.setMessage("no memory open")
	}
	f.seq++
	seq, limit := f.seq, m.lim.recallLimit
	return func() tea.Msg {
		rep, err := why.Explain(src, query, []string{name}, limit)
		return whyDoneMsg{seq: seq, rep: rep, err: err}
	}
}

// complete completes the prompt's name: to the one name it begins, to the
// longest start several names share, then through those names in turn.
func (f *whyView) complete(m *Model) tea.Cmd {
	v := f.prompt.in.Value()
	next, cands := f.comp.next(v, m.c.snap.entries)
	if next != v {
		f.prompt.in.Reset()
		f.prompt.in.insert(next)
	}
	switch {
	case len(cands) == 0:
		return m.setMessage("no entry name starts with " + fmt.Sprintf("%q", sanitize.Line(v)))
	case len(cands) > 1:
		shown := cands[:min(len(cands), 5)]
		names := make([]string, len(shown))
		for i, n := range shown {
			names[i] = sanitize.Name(n)
		}
		text := humanize.Count(len(cands)) + " names: " + strings.Join(names, ", ")
		if len(cands) > len(shown) {
			text += ", …"
		}
		return m.setMessage(text)
	}
	return nil
}

// nameCompletion is the state of completing a name: the candidates for
// the text typed and which one the last key press put in.
type nameCompletion struct {
	typed string   // the text the candidates were found for
	cands []string // entry names starting with typed, sorted
	at    int      // the candidate shown (-1: the common start)
	shown string   // the text completion last put in the prompt
}

// next returns the prompt's text after one completion key press on v, and
// the candidates. A new text finds the candidates and completes to their
// longest common start; pressing again (the text unchanged) steps through
// them.
func (c *nameCompletion) next(v string, entries []store.Entry) (string, []string) {
	if c.cands == nil || v != c.shown {
		c.typed, c.cands, c.at = v, []string{}, -1
		for _, e := range entries {
			if strings.HasPrefix(e.Name, v) {
				c.cands = append(c.cands, e.Name)
			}
		}
		slices.Sort(c.cands)
		c.cands = slices.Compact(c.cands)
		c.shown = v
		if len(c.cands) == 0 {
			return v, c.cands
		}
		if p := commonStart(c.cands); len(c.cands) > 1 && p != v {
			c.shown = p
			return p, c.cands
		}
	}
	switch len(c.cands) {
	case 0:
		return v, c.cands
	case 1:
		c.shown = c.cands[0]
		return c.shown, c.cands
	}
	c.at = (c.at + 1) % len(c.cands)
	c.shown = c.cands[c.at]
	return c.shown, c.cands
}

// commonStart is the longest start (whole characters) all of names share.
func commonStart(names []string) string {
	p := names[0]
	for _, n := range names[1:] {
		i := 0
		for i < len(p) && i < len(n) && p[i] == n[i] {
			i++
		}
		p = p[:i]
	}
	for !utf8.ValidString(p) {
		p = p[:len(p)-1]
	}
	return p
}

// bodyView draws the panel in place of the panes.
func (f *whyView) bodyView(c *common, w, h int) string {
	if f.panel == nil {
		return ""
	}
	lines := f.panel.drawn(c, w)
	title, body := lines[0], lines[1:] // the title stays; the rest scrolls
	return box(title+"\n"+strings.Join(f.panel.sc.window(body, h), "\n"), w, h)
}

// whyLines renders a report at width w, each line fitting it: the title,
// where the entry stands and why, the query's dropped words, its terms'
// parts, and the hits the recall returns. Sentences wrap; table rows are
// cut.
func whyLines(c *common, rep why.Report, w int) []string {
	st, keys := c.styles, &c.keys
	e := rep.Entries[0]
	name := sanitize.Name(e.Name)
	if e.Entry != "" {
		name += " (alias of " + sanitize.Name(e.Entry) + ")"
	}
	title := st.paneTitle.Render("WHY "+name) + st.dim.Render("  ("+hints(" · ", hints(": ", keyName(keys.Cancel), "close"), hints(": ", keys.ScrollLabel(), "scroll"))+")")
	out := []string{ansi.Truncate(title, w, "…")}
	text := func(s string) {
		wrapped := ansi.Hardwrap(ansi.Wordwrap(s, max(w-explainIndent, 10), " ,"), max(w-explainIndent, 10), true)
		out = append(out, strings.Split(fitLines(indent(wrapped, "  "), w), "\n")...)
	}
	row := func(s string) { out = append(out, fitLines("  "+s, w)) }
	limit := "no limit"
	if rep.Limit > 0 {
		limit = "limit " + humanize.Count(rep.Limit)
	}
	text(fmt.Sprintf("in the agent's recall of %q (%s, %s)", sanitize.Line(rep.Query), sanitize.Line(rep.Format), limit))
	row("")
	text(sanitize.Line(e.Detail))
	for _, wd := range rep.Words {
		text("query word " + sanitize.Line(wd.String()))
	}
	if e.Found && len(rep.Terms) > 0 {
		row("")
		termW := termColumn(w - shareWidth)
		wide := w >= explainIndent+minTermWidth+numbersWidth+shareWidth
		if wide {
			row(strings.TrimSuffix(termHeader(termW), "\n") + "  share")
		}
		for _, t := range e.Terms {
			term := t.Query
			if t.Term != "" && t.Term != t.Query {
				term += " → " + t.Term
			}
			if !wide { // too narrow for the table: a sentence per term
				text(fmt.Sprintf("%s: tf %s, df %s, idf %.4f → %.4f (%.0f%%)", sanitize.Name(term),
					humanize.Count(t.TF), humanize.Count(t.DF), t.IDF, t.Contrib, 100*t.Share))
				continue
			}
			line := termLine(sanitize.Name(term), termW, t.TF, t.DF, t.IDF, t.Contrib)
			row(fmt.Sprintf("%s %5.0f%%", strings.TrimSuffix(line, "\n"), 100*t.Share))
		}
		if len(e.Missing) > 0 {
			text("lacks " + sanitize.Line(strings.Join(e.Missing, ", ")))
		}
		text(fmt.Sprintf("doc length %s tokens, average %.2f over %s entries", humanize.Count(e.DocLen), rep.AvgDocLen, humanize.Count(rep.Docs)))
	}
	row("")
	text(fmt.Sprintf("the recall returns %s of %s scored:", humanize.Count(len(rep.Hits)), humanize.Count(rep.Ranked)))
	for _, h := range rep.Hits {
		row(fmt.Sprintf("%3s %8.4f  %s", humanize.Count(h.Rank), h.Score, sanitize.Name(h.Name)))
	}
	row("")
	text("The list shows more than the agent gets: name and alias matches, and the word being typed as a prefix.")
	return out
}

// The term table's share column and the narrowest term column the table
// is drawn with; a narrower panel gives a sentence per term.
const (
	shareWidth   = 7
	minTermWidth = 8
)

// shortHelp is the why panel's line of keys (the prompt names its own).
func (v *whyView) shortHelp(k *keymap.KeyMap) []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Accept, k.Cancel}
}
