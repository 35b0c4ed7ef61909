// Package whypanel is the why panel: where an entry stands in the
// agent's recall of a query and why (store/why, as `crmem search --why`),
// computed off the update loop and shown in place of the panes. It is a
// part (part.Part): it reads the root's part.Context and cannot import
// the root. The prompt that names the entry is one of the root's dialogs
// (tui/why.go), which asks the panel to Explain.
package whypanel

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store/hygiene"
	"github.com/crmem/crmem/store/why"
	"github.com/crmem/crmem/tui/part"
)

// Panel is the why panel, closed until an explanation arrives.
type Panel struct {
	shown *shown
	seq   int // the last explanation asked for; older answers are dropped
}

var _ part.Part = (*Panel)(nil)

// shown is an explanation on screen and how far it is scrolled.
type shown struct {
	rep why.Report
	sc  part.Scroller
	// lines is rep drawn at width with style, every secret masked (a
	// report never prints one whole, as search --why does not): drawn once,
	// not on every frame, and again when the width or the styles change.
	lines []string
	width int
	style *part.Styles
}

// drawn is the panel's report drawn at width w, masked (see lines).
func (s *shown) drawn(c *part.Context, w int) []string {
	if s.lines == nil || s.width != w || s.style != c.Styles {
		s.lines = Lines(c, s.rep, w)
		for i, l := range s.lines {
			s.lines[i] = hygiene.Mask(l)
		}
		s.width, s.style = w, c.Styles
	}
	return s.lines
}

// DoneMsg carries an explanation computed off the update loop; the root
// hands it to Done.
type DoneMsg struct {
	seq int
	rep why.Report
	err error
}

// Open reports whether an explanation is on screen.
func (p *Panel) Open() bool { return p.shown != nil }

// Report is the explanation on screen, if any.
func (p *Panel) Report() (why.Report, bool) {
	if p.shown == nil {
		return why.Report{}, false
	}
	return p.shown.rep, true
}

// Top is the first line of the report shown below its title.
func (p *Panel) Top() int {
	if p.shown == nil {
		return 0
	}
	return p.shown.sc.Top
}

// Explain computes, off the update loop, where the entry name stands in
// the agent's recall of query at limit, in the memory the context holds.
func (p *Panel) Explain(c *part.Context, query, name string, limit int) ([]part.Request, tea.Cmd) {
	src := c.Memory
	if src == nil {
		return []part.Request{part.Message{Text: "no memory open"}}, nil
	}
	p.seq++
	seq := p.seq
	return nil, func() tea.Msg {
		rep, err := why.Explain(src, query, []string{name}, limit)
		return DoneMsg{seq: seq, rep: rep, err: err}
	}
}

// Done takes an explanation computed off the update loop, unless a later
// one was asked for; a failure is the root's to say.
func (p *Panel) Done(msg DoneMsg) []part.Request {
	if msg.seq != p.seq {
		return nil
	}
	if msg.err != nil {
		return []part.Request{part.Failed{What: "why", Err: msg.err}}
	}
	p.shown = &shown{rep: msg.rep}
	return nil
}

// Key closes the panel (cancel, quit, accept) or scrolls it.
func (p *Panel) Key(c *part.Context, k tea.KeyPressMsg) ([]part.Request, tea.Cmd) {
	if p.shown == nil {
		return nil, nil
	}
	keys := c.Keys
	if key.Matches(k, keys.Cancel) || key.Matches(k, keys.Quit) || key.Matches(k, keys.Accept) {
		p.shown = nil
	} else {
		p.shown.sc.Key(keys, k, len(p.shown.drawn(c, c.Width))-1, c.Body)
	}
	return nil, nil
}

// View draws the panel in place of the panes.
func (p *Panel) View(c *part.Context, w, h int) string {
	if p.shown == nil {
		return ""
	}
	lines := p.shown.drawn(c, w)
	title, body := lines[0], lines[1:] // the title stays; the rest scrolls
	return part.Box(title+"\n"+strings.Join(p.shown.sc.Window(body, h), "\n"), w, h)
}

// Lines renders a report at width w, each line fitting it: the title,
// where the entry stands and why, the query's dropped words, its terms'
// parts, and the hits the recall returns. Sentences wrap; table rows are
// cut.
func Lines(c *part.Context, rep why.Report, w int) []string {
	st, keys := c.Styles, c.Keys
	e := rep.Entries[0]
	name := sanitize.Name(e.Name)
	if e.Entry != "" {
		name += " (alias of " + sanitize.Name(e.Entry) + ")"
	}
	title := st.PaneTitle.Render("WHY "+name) + st.Dim.Render("  ("+part.Hints(" · ", part.Hints(": ", part.KeyName(keys.Cancel), "close"), part.Hints(": ", keys.ScrollLabel(), "scroll"))+")")
	out := []string{ansi.Truncate(title, w, "…")}
	text := func(s string) {
		wrapped := ansi.Hardwrap(ansi.Wordwrap(s, max(w-part.ExplainIndent, 10), " ,"), max(w-part.ExplainIndent, 10), true)
		out = append(out, strings.Split(part.FitLines(part.Indent(wrapped, "  "), w), "\n")...)
	}
	row := func(s string) { out = append(out, part.FitLines("  "+s, w)) }
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
		termW := part.TermColumn(w - shareWidth)
		wide := w >= part.ExplainIndent+minTermWidth+part.NumbersWidth+shareWidth
		if wide {
			row(strings.TrimSuffix(part.TermHeader(termW), "\n") + "  share")
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
			line := part.TermLine(sanitize.Name(term), termW, t.TF, t.DF, t.IDF, t.Contrib)
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

// SetKeys enables the why panel's keys: the movement keys scroll it, and
// accept, quit and cancel close it (Key).
func (p *Panel) SetKeys(k *keymap.KeyMap) {
	k.Only(false, append(k.ScrollKeys(), &k.Accept, &k.Quit)...)
}

// ShortHelp is the why panel's line of keys (the prompt names its own).
func (p *Panel) ShortHelp(k *keymap.KeyMap) []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Accept, k.Cancel}
}
