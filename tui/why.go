package tui

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/dialog"
	"github.com/crmem/crmem/tui/whypanel"
)

// whyView is the part behind the why key: during a search, where any
// entry stands in the agent's recall of the query and why (store/why, as
// `crmem search --why`), the selected entry's or one named in a prompt
// that completes names, shown in a panel in place of the panes. The
// panel is a part of its own (tui/whypanel); the prompt is one of the
// root's dialogs (dialog.go), so it and its completion stay here, and
// the root carries out what the prompt asks (whyKey, whyDo).
type whyView struct {
	prompt *dialog.Prompt
	comp   nameCompletion
	whypanel.Panel
}

// newWhyView builds the why part, closed.
func newWhyView() *whyView { return &whyView{} }

// whyKey handles a key press for the prompt, the panel, or the why key.
func (m *Model) whyKey(k tea.KeyPressMsg) (bool, tea.Cmd) {
	f, keys := m.why, &m.c.keys
	switch {
	case f.prompt != nil && key.Matches(k, keys.Complete):
		return true, m.whyComplete()
	case f.prompt != nil:
		p := f.prompt
		req, done, note := p.Key(m.lineCtx(), k)
		if done && f.prompt == p {
			f.prompt = nil
		}
		var cmd tea.Cmd
		if note != "" {
			cmd = m.setMessage(note)
		}
		if r, ok := req.(reqWhy); ok {
			cmd = tea.Batch(cmd, m.whyDo(r))
		}
		return true, cmd
	case f.Open():
		reqs, cmd := f.Key(m.ctx(), k)
		return true, tea.Batch(cmd, m.do(reqs))
	case key.Matches(k, keys.Why):
		return true, m.openWhy()
	}
	return false, nil
}

// openWhy asks which entry to explain, the selected one proposed; without
// a search there is no recall to explain.
func (m *Model) openWhy() tea.Cmd {
	query := m.applied
	if strings.TrimSpace(query) == "" {
		return m.setMessage(hints(" ", keyName(m.c.keys.Why), "explains a search's recall: search first") + paren(keyName(m.c.keys.Search)))
	}
	name := ""
	if e, ok := m.list.SelectedEntry(m.c.snap); ok {
		name = e.Name
	}
	m.why.comp = nameCompletion{}
	m.why.prompt = dialog.NewPrompt("why", name, nil, reqWhy{query: query})
	return m.setMessage("why: an entry's place in the agent's recall" + paren(keyHint(m.c.keys.Complete, "completes a name")))
}

// whyDo carries out the prompt's request: an entry named, or none.
func (m *Model) whyDo(r reqWhy) tea.Cmd {
	if r.name == "" {
		return m.setMessage("cancelled")
	}
	return m.whyExplain(r.query, r.name)
}

// whyExplain asks the panel where the entry name stands in the agent's
// recall of query at the recall view's limit.
func (m *Model) whyExplain(query, name string) tea.Cmd {
	reqs, cmd := m.why.Explain(m.ctx(), query, name, m.lim.recallLimit)
	return tea.Batch(m.do(reqs), cmd)
}

// whyComplete completes the prompt's name: to the one name it begins, to
// the longest start several names share, then through those names in
// turn.
func (m *Model) whyComplete() tea.Cmd {
	f := m.why
	v := f.prompt.In.Value()
	next, cands := f.comp.next(v, m.c.snap.entries)
	if next != v {
		f.prompt.In.Reset()
		f.prompt.In.Insert(next)
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
