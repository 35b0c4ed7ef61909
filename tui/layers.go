package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/keymap"
)

// layer is one part of the screen that can have the keyboard. Layers
// stack: a prompt or dialog above the panels, the panels above the search
// line, the search line above the panes. top() is the one decision of
// which layer has the screen; the key routing (layerKey), the keys
// enabled (setMode, by the part on top) and the drawing (screen, helpLines) all read it, so what
// the screen shows is what the keys do.
type layer int

// The layers, topmost first: layerOrder lists them in this order.
const (
	layerDatePrompt layer = iota // the date filter's prompt
	layerWhyPrompt               // the why prompt (an entry's name)
	layerDialog                  // an editing prompt, question or choice
	layerHelp                    // the full help
	layerLog                     // the reload log
	layerStats                   // the stats panel
	layerWhy                     // the why panel
	layerHistory                 // an entry's history
	layerForgotten               // the forgotten entries
	layerFindings                // the findings view
	layerSearch                  // the search line being typed
	layerPanes                   // the list and the preview
	numLayers
)

// String names the layer (in test failures).
func (l layer) String() string {
	return [...]string{"date prompt", "why prompt", "dialog", "help", "reload log", "stats", "why panel", "history", "forgotten", "findings", "search", "panes"}[l]
}

// isOpen reports whether l is open now; the panes always are.
func (m *Model) isOpen(l layer) bool {
	switch l {
	case layerDatePrompt:
		return m.dates.prompting
	case layerWhyPrompt:
		return m.why != nil && m.why.prompt != nil
	case layerDialog:
		return m.ed != nil && m.ed.dlg != nil
	case layerHelp:
		return m.hp.Open()
	case layerLog:
		return m.chg.logOpen
	case layerStats:
		return m.sp.Open()
	case layerWhy:
		return m.why != nil && m.why.Open()
	case layerHistory:
		return m.ed != nil && m.ed.hv.open
	case layerForgotten:
		return m.ed != nil && m.ed.fg.open
	case layerFindings:
		return m.ed != nil && m.ed.fv.open
	case layerSearch:
		return m.typing
	}
	return true
}

// top is the layer that has the screen: the highest one open.
func (m *Model) top() layer {
	for l := layer(0); l < layerPanes; l++ {
		if m.isOpen(l) {
			return l
		}
	}
	return layerPanes
}

// setMode enables the key bindings of the layer on top, as the part on
// top decides them (its SetKeys); the panes' by which has the focus.
func (m *Model) setMode() {
	k := &m.c.keys
	switch m.top() {
	case layerDatePrompt:
		m.dates.setKeys(k)
	case layerWhyPrompt:
		m.why.prompt.SetKeys(k)
	case layerDialog:
		m.ed.dlg.SetKeys(k)
	case layerHelp:
		m.hp.SetKeys(k)
	case layerLog:
		m.chg.setKeys(k)
	case layerStats:
		m.sp.SetKeys(k)
	case layerWhy:
		m.why.SetKeys(k)
	case layerHistory:
		m.ed.hv.setKeys(k)
	case layerForgotten:
		m.ed.fg.setKeys(k)
	case layerFindings:
		m.ed.fv.setKeys(k)
	case layerSearch:
		k.SetMode(keymap.ModeSearch, m.c.editing, m.applied != "" || m.pv.explain)
	default:
		pane := keymap.ModeList
		if m.focus == focusPreview {
			pane = keymap.ModePreview
		}
		k.SetMode(pane, m.c.editing, m.applied != "" || m.pv.explain)
	}
}

// layerKey gives a key press to the layer on top, and to that layer only.
func (m *Model) layerKey(k tea.KeyPressMsg) tea.Cmd {
	switch m.top() {
	case layerDatePrompt:
		return m.dateKey(k)
	case layerWhyPrompt, layerWhy:
		_, cmd := m.whyKey(k)
		return cmd
	case layerDialog, layerFindings, layerHistory, layerForgotten:
		_, cmd := m.ed.keyPress(m, k)
		return cmd
	case layerHelp:
		return m.helpKey(k)
	case layerLog:
		return m.logKey(k)
	case layerStats:
		reqs, cmd := m.sp.Key(m.ctx(), k)
		return tea.Batch(cmd, m.do(reqs))
	}
	if m.ed != nil {
		if handled, cmd := m.ed.keyPress(m, k); handled {
			return cmd
		}
	}
	if m.why != nil {
		if handled, cmd := m.whyKey(k); handled {
			return cmd
		}
	}
	return m.handleKey(k)
}

// layerPaste gives pasted text to the prompt or search line on top.
func (m *Model) layerPaste(p tea.PasteMsg) tea.Cmd {
	switch m.top() {
	case layerWhyPrompt:
		m.why.prompt.Paste(p.Content)
	case layerDialog:
		m.ed.dlg.Paste(p.Content)
	case layerSearch:
		return m.handlePaste(p)
	}
	return nil
}

// layerBody is what is drawn in place of the panes: the body of the
// highest open layer that has one (a dialog without a body, a prompt or
// the search line show the layer below through), or "" for the panes.
//
// The parts are lent a context of this body's height (h), not
// bodyHeight's, which would lay the screen's rows out once more per
// frame.
func (m *Model) layerBody(w, h int) string {
	for l := layer(0); l < layerPanes; l++ {
		if !m.isOpen(l) {
			continue
		}
		var body string
		switch l {
		case layerDialog:
			body = m.ed.dialogBody(m.c.partContext(h), w, h)
		case layerHelp:
			m.hp.Groups = m.helpGroups()
			body = m.hp.View(m.c.partContext(h), w, h)
		case layerLog:
			body = m.chg.logView(&m.c, w, h)
		case layerStats:
			body = m.sp.View(m.c.partContext(h), w, h)
		case layerWhy:
			body = m.why.View(m.c.partContext(h), w, h)
		case layerHistory:
			body = m.ed.hv.view(&m.c, &m.ed.hist, w, h)
		case layerForgotten:
			body = m.ed.fg.view(&m.c, &m.ed.hist, w, h)
		case layerFindings:
			body = m.ed.fv.view(&m.c, m.caps().ShowsIDs(), w, h)
		}
		if body != "" {
			return body
		}
	}
	return ""
}

// overlay is the top layer's text in place of the help line (a prompt, a
// question, the findings view's keys), "" for the short help.
func (m *Model) overlay() string {
	switch m.top() {
	case layerDatePrompt:
		return m.dates.view(m.c.styles, m.c.width)
	case layerWhyPrompt:
		return m.why.prompt.View(m.lineCtx())
	case layerDialog:
		return m.ed.dlg.View(m.lineCtx())
	case layerFindings:
		return m.ed.fv.hints(&m.c.keys, m.readOnly())
	case layerHistory:
		return m.ed.hv.hints(&m.c.keys, m.readOnly())
	case layerForgotten:
		return m.ed.fg.hints(&m.c.keys, m.readOnly())
	}
	return ""
}
