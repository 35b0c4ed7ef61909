package tui

import (
	"sync"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/tui/part"
)

// layer is one part of the screen that can have the keyboard. Layers
// stack: a prompt or dialog above the panels, the panels above the search
// line, the search line above the panes. top() is the one decision of
// which layer has the screen; the key routing (layerKey), the keys
// enabled (setMode, as the part on top decides them), the mouse and the drawing (layerBody, overlay,
// partHelp, rows) all read it, so what the screen shows is what the keys
// do.
type layer int

// The layers, topmost first: layers registers them in this order.
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

// layerSpec is a layer's one registration: everything the root asks of
// a layer, given in one place (layers) rather than in a switch per
// question. Every field must be given (TestLayers_EachGivesAll): a layer
// without a body, paste, overlay, short help or mouse says so with the
// none* values below, so that a new layer cannot forget one.
type layerSpec struct {
	name string // in test failures
	// open reports whether the layer is open now; the panes always are.
	open func(m *Model) bool
	// keys enables the bindings live while the layer has the screen, as
	// the part decides them (its SetKeys), and no other.
	keys func(m *Model, k *keymap.KeyMap)
	// key handles a key press while the layer has the screen, and it alone.
	key func(m *Model, k tea.KeyPressMsg) tea.Cmd
	// paste takes pasted text while the layer has the screen.
	paste func(m *Model, p tea.PasteMsg) tea.Cmd
	// body is what the layer draws in place of the panes at w×h; "" shows
	// the layer below through (a prompt, a dialog without a body, the
	// search line).
	body func(m *Model, w, h int) string
	// overlay is the layer's text in place of the help line (a prompt, a
	// question, a view's keys); "" for the short help.
	overlay func(m *Model) string
	// help is the layer's short help (the help line), nil when its
	// overlay names its keys.
	help func(m *Model) []key.Binding
	// mouse handles a mouse event while the layer has the screen.
	mouse func(m *Model, msg tea.MouseMsg) tea.Cmd
	// message takes a message the layer's commands brought back, open or
	// not, and reports whether it was one of its own; c is lent for it
	// (built once per message, its Body 0).
	message func(m *Model, c *part.Context, msg tea.Msg) (tea.Cmd, bool)
	// least is the rows the layer's body keeps when the screen is short:
	// a panel its title and a line of it (2), the panes a row (1).
	least int
}

// What a layer that has none of a thing gives for it.
func noPaste(*Model, tea.PasteMsg) tea.Cmd                     { return nil }
func noBody(*Model, int, int) string                           { return "" }
func noOverlay(*Model) string                                  { return "" }
func noHelp(*Model) []key.Binding                              { return nil }
func noMessage(*Model, *part.Context, tea.Msg) (tea.Cmd, bool) { return nil, false } // its messages are the root's
func noMouse(*Model, tea.MouseMsg) tea.Cmd                     { return nil }        // nothing moves behind it

// panelRows is what a panel keeps of the screen's height: its title and
// a line of it (at 80×3 the history once kept only its title).
const panelRows = 2

// panel registers a part of its own package (tui/<part>) shown in place
// of the panes: get finds it in the model; its Open, SetKeys, Key, View
// and ShortHelp are the layer's, lent the screen's context, its Overlay
// if it is a part.Overlayer and its Update if it is a part.Updater.
func panel(name string, get func(m *Model) part.Part) layerSpec {
	return layerSpec{
		name: name,
		open: func(m *Model) bool { return get(m).Open() },
		keys: func(m *Model, k *keymap.KeyMap) { get(m).SetKeys(k) },
		key: func(m *Model, k tea.KeyPressMsg) tea.Cmd {
			reqs, cmd := get(m).Key(m.ctx(), k)
			return tea.Batch(cmd, m.do(reqs))
		},
		paste: noPaste,
		body:  func(m *Model, w, h int) string { return get(m).View(m.partContext(h), w, h) },
		overlay: func(m *Model) string {
			if o, ok := get(m).(part.Overlayer); ok {
				return o.Overlay(m.partContext(0))
			}
			return ""
		},
		help:  func(m *Model) []key.Binding { return get(m).ShortHelp(&m.c.keys) },
		mouse: noMouse,
		message: func(m *Model, c *part.Context, msg tea.Msg) (tea.Cmd, bool) {
			u, ok := get(m).(part.Updater)
			if !ok {
				return nil, false
			}
			handled, reqs, cmd := u.Update(c, msg)
			if !handled {
				return nil, false
			}
			return tea.Batch(cmd, m.do(reqs)), true
		},
		least: panelRows,
	}
}

// layerList is every layer's registration, topmost first: the one list
// of layers, built on first use (layers) rather than by an init every
// command pays before main, crmem version included (59 allocations); not
// a variable's initializer, as its entries reach back to top through the
// model's methods.
var (
	layerList [numLayers]layerSpec
	layerOnce sync.Once
)

// layers is the one list of layers, built the first time it is asked.
func layers() *[numLayers]layerSpec {
	layerOnce.Do(func() { layerList = registered() })
	return &layerList
}

// registered is every layer's registration, topmost first.
func registered() [numLayers]layerSpec {
	return [numLayers]layerSpec{
		layerDatePrompt: {
			name:    "date prompt",
			open:    func(m *Model) bool { return m.dates.prompting },
			keys:    func(m *Model, k *keymap.KeyMap) { m.dates.setKeys(k) },
			key:     (*Model).dateKey,
			paste:   noPaste,
			body:    noBody,
			overlay: func(m *Model) string { return m.dates.view(m.c.styles, m.c.width) },
			help:    noHelp,
			mouse:   noMouse,
			message: noMessage,
			least:   1,
		},
		layerWhyPrompt: {
			name: "why prompt",
			open: func(m *Model) bool { return m.why != nil && m.why.prompt != nil },
			keys: func(m *Model, k *keymap.KeyMap) { m.why.prompt.SetKeys(k) },
			key:  whyLayerKey,
			paste: func(m *Model, p tea.PasteMsg) tea.Cmd {
				m.why.prompt.Paste(p.Content)
				return nil
			},
			body:    noBody,
			overlay: func(m *Model) string { return m.why.prompt.View(m.lineCtx()) },
			help:    noHelp,
			mouse:   noMouse,
			message: noMessage,
			least:   1,
		},
		layerDialog: {
			name: "dialog",
			open: func(m *Model) bool { return m.ed != nil && m.ed.dlg != nil },
			keys: func(m *Model, k *keymap.KeyMap) { m.ed.dlg.SetKeys(k) },
			key:  editingLayerKey,
			paste: func(m *Model, p tea.PasteMsg) tea.Cmd {
				m.ed.dlg.Paste(p.Content)
				return nil
			},
			body:    func(m *Model, w, h int) string { return m.ed.dialogBody(m.c.partContext(h), w, h) },
			overlay: func(m *Model) string { return m.ed.dlg.View(m.lineCtx()) },
			help:    noHelp,
			mouse:   noMouse,
			message: noMessage,
			least:   1,
		},
		layerHelp: {
			name: "help",
			open: func(m *Model) bool { return m.hp.Open() },
			keys: func(m *Model, k *keymap.KeyMap) { m.hp.SetKeys(k) },
			key:  (*Model).helpKey,
			body: func(m *Model, w, h int) string {
				m.hp.Groups = m.helpGroups()
				return m.hp.View(m.partContext(h), w, h)
			},
			paste:   noPaste,
			overlay: noOverlay,
			help:    func(m *Model) []key.Binding { return m.hp.ShortHelp(&m.c.keys) },
			mouse:   noMouse,
			message: noMessage,
			least:   panelRows,
		},
		layerLog: panel("reload log", func(m *Model) part.Part { return &m.chg.log }),
		layerStats: func() layerSpec {
			l := panel("stats", func(m *Model) part.Part { return &m.sp })
			l.mouse = func(m *Model, msg tea.MouseMsg) tea.Cmd { // the wheel scrolls the panel
				if _, wheel := msg.(tea.MouseWheelMsg); wheel {
					m.sp.Wheel(m.ctx(), msg.Mouse().Button == tea.MouseWheelUp)
				}
				return nil
			}
			return l
		}(),
		layerWhy: func() layerSpec {
			l := panel("why panel", func(m *Model) part.Part { return m.why })
			l.open = func(m *Model) bool { return m.why != nil && m.why.Open() }
			l.key = whyLayerKey // the why part's keys, its prompt's included
			return l
		}(),
		layerHistory: func() layerSpec {
			l := panel("history", func(m *Model) part.Part { return &m.hv })
			l.mouse = func(m *Model, msg tea.MouseMsg) tea.Cmd { // the wheel picks a version over the versions, scrolls the diff over it
				if _, wheel := msg.(tea.MouseWheelMsg); wheel {
					mo := msg.Mouse()
					m.hv.Wheel(mo.X, m.c.width, mo.Button == tea.MouseWheelUp)
				}
				return nil
			}
			return l
		}(),
		layerForgotten: panel("forgotten", func(m *Model) part.Part { return &m.fg }),
		layerFindings:  panel("findings", func(m *Model) part.Part { return &m.fv }),
		layerSearch: {
			name:    "search",
			open:    func(m *Model) bool { return m.bar.Typing() },
			keys:    func(m *Model, k *keymap.KeyMap) { m.bar.SetKeys(k) },
			key:     (*Model).paneLayerKey,
			paste:   (*Model).handlePaste,
			body:    noBody,
			overlay: noOverlay,
			help:    func(m *Model) []key.Binding { return m.bar.ShortHelp(&m.c.keys) },
			mouse:   (*Model).paneMouse,
			message: noMessage,
			least:   1,
		},
		layerPanes: {
			name: "panes",
			open: func(*Model) bool { return true },
			keys: func(m *Model, k *keymap.KeyMap) { // the pane with the focus decides
				if m.focus == focusPreview {
					m.pv.SetKeys(k, m.c.editing)
					return
				}
				m.list.SetKeys(k, m.c.editing, m.applied != "" || m.pv.Explaining())
			},
			key:     (*Model).paneLayerKey,
			paste:   noPaste,
			body:    noBody,
			overlay: noOverlay,
			help: func(m *Model) []key.Binding {
				if m.focus == focusPreview {
					return m.pv.ShortHelp(&m.c.keys)
				}
				return m.list.ShortHelp(&m.c.keys)
			},
			mouse:   (*Model).paneMouse,
			message: noMessage,
			least:   1,
		},
	}
}

// String names the layer (in test failures).
func (l layer) String() string { return layers()[l].name }

// isOpen reports whether l is open now; the panes always are.
func (m *Model) isOpen(l layer) bool { return layers()[l].open(m) }

// top is the layer that has the screen: the highest one open.
func (m *Model) top() layer {
	for l := layer(0); l < layerPanes; l++ {
		if m.isOpen(l) {
			return l
		}
	}
	return layerPanes
}

// setMode enables the key bindings of the layer on top, as its part
// decides them.
func (m *Model) setMode() { layers()[m.top()].keys(m, &m.c.keys) }

// layerKey gives a key press to the layer on top, and to that layer only.
func (m *Model) layerKey(k tea.KeyPressMsg) tea.Cmd { return layers()[m.top()].key(m, k) }

// layerPaste gives pasted text to the prompt or search line on top.
func (m *Model) layerPaste(p tea.PasteMsg) tea.Cmd { return layers()[m.top()].paste(m, p) }

// layerMouse gives a mouse event to the layer on top (when the mouse is
// captured).
func (m *Model) layerMouse(msg tea.MouseMsg) tea.Cmd { return layers()[m.top()].mouse(m, msg) }

// layerMessage offers a message to every layer, open or not (a read off
// the loop may come back after its part closed), and reports whether
// one took it.
func (m *Model) layerMessage(msg tea.Msg) (tea.Cmd, bool) {
	c := m.partContext(0) // what a part takes off the loop needs no height
	for l := range layers() {
		if cmd, ok := layers()[l].message(m, c, msg); ok {
			return cmd, true
		}
	}
	return nil, false
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
		if body := layers()[l].body(m, w, h); body != "" {
			return body
		}
	}
	return ""
}

// overlay is the top layer's text in place of the help line (a prompt, a
// question, the findings view's keys), "" for the short help.
func (m *Model) overlay() string { return layers()[m.top()].overlay(m) }

// partHelp is the short help of the layer that has the screen; nil for
// a prompt, a dialog or a view that names its own keys in the help
// line's place (overlay).
func (m *Model) partHelp() []key.Binding { return layers()[m.top()].help(m) }

// whyLayerKey gives a key to the why part (its prompt or its panel).
func whyLayerKey(m *Model, k tea.KeyPressMsg) tea.Cmd {
	_, cmd := m.whyKey(k)
	return cmd
}

// editingLayerKey gives a key to the editing part's layer on top (a
// dialog, the findings view, the history, the forgotten entries).
func editingLayerKey(m *Model, k tea.KeyPressMsg) tea.Cmd {
	_, cmd := m.ed.keyPress(m, k)
	return cmd
}

// paneLayerKey gives a key of the panes or the search line to the
// editing part, then the why part, then the panes' own keys.
func (m *Model) paneLayerKey(k tea.KeyPressMsg) tea.Cmd {
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
