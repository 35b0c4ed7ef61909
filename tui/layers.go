package tui

import (
	"sync"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/tui/part"
)

// layer is one part of the screen that can have the keyboard, by the
// name it is registered under. Layers stack: a prompt or dialog above the
// panels, the panels above the search line, the search line above the
// panes, in the order of the one list of them (registered). top() is the
// one decision of which layer has the screen; the key routing (layerKey),
// the keys enabled (setMode, as the part on top decides them), the mouse
// and the drawing (layerBody, overlay, partHelp, rows) all read it, so
// what the screen shows is what the keys do.
type layer string

// The layers the root or its tests name, topmost first; a panel nobody
// names needs no constant: its registration's name is its layer.
const (
	layerDatePrompt layer = "date prompt" // the date filter's prompt
	layerWhyPrompt  layer = "why prompt"  // the why prompt (an entry's name)
	layerDialog     layer = "dialog"      // an editing prompt, question or choice
	layerHelp       layer = "help"        // the full help
	layerLog        layer = "reload log"  // the reload log
	layerStats      layer = "stats"       // the stats panel
	layerWhy        layer = "why panel"   // the why panel
	layerHistory    layer = "history"     // an entry's history
	layerForgotten  layer = "forgotten"   // the forgotten entries
	layerFindings   layer = "findings"    // the findings view
	layerSearch     layer = "search"      // the search line being typed
	layerPanes      layer = "panes"       // the list and the preview
)

// layerSpec is a layer's one registration: everything the root asks of
// a layer, given in one place (registered) rather than in a switch per
// question. Every field but fresh must be given (TestLayers_EachGivesAll):
// a layer without a body, paste, overlay, short help, mouse or key that
// opens it says so with the no* values below, so that a new layer cannot
// forget one.
type layerSpec struct {
	name layer // its place in the stack is its place in the list
	// fresh makes the part of a panel the model holds for the layer
	// (Model.parts, by name), nil for a layer whose state the root keeps
	// in fields of its own.
	fresh func() part.Part
	// open reports whether the layer is open now; the panes always are.
	open func(m *Model) bool
	// opener takes a key of the panes that opens the layer, and reports
	// whether it was that key (appKey asks every layer).
	opener func(m *Model, k tea.KeyPressMsg) (tea.Cmd, bool)
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
func openedElsewhere(*Model, tea.KeyPressMsg) (tea.Cmd, bool)  { return nil, false } // by a part's action, a prompt, a request

// opensWith is the opener of a layer that binding (of the key map) opens
// from the panes, by show.
func opensWith(binding func(k *keymap.KeyMap) *key.Binding, show func(m *Model) tea.Cmd) func(*Model, tea.KeyPressMsg) (tea.Cmd, bool) {
	return func(m *Model, k tea.KeyPressMsg) (tea.Cmd, bool) {
		if !key.Matches(k, *binding(&m.c.keys)) {
			return nil, false
		}
		return show(m), true
	}
}

// panelRows is what a panel keeps of the screen's height: its title and
// a line of it (at 80×3 the history once kept only its title).
const panelRows = 2

// panel registers a part of its own package (tui/<part>) shown in place
// of the panes: get finds it in the model; its Open, SetKeys, Key, View
// and ShortHelp are the layer's, lent the screen's context, its Overlay
// if it is a part.Overlayer, its Update if it is a part.Updater and its
// Wheel if it is a part.Wheeler. Another part or the root opens it.
func panel(name layer, get func(m *Model) part.Part) layerSpec {
	return layerSpec{
		name:   name,
		open:   func(m *Model) bool { return get(m).Open() },
		opener: openedElsewhere,
		keys:   func(m *Model, k *keymap.KeyMap) { get(m).SetKeys(k) },
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
		help: func(m *Model) []key.Binding { return get(m).ShortHelp(&m.c.keys) },
		mouse: func(m *Model, msg tea.MouseMsg) tea.Cmd {
			if w, ok := get(m).(part.Wheeler); ok {
				if _, wheel := msg.(tea.MouseWheelMsg); wheel {
					w.Wheel(m.ctx(), msg.Mouse().Button == tea.MouseWheelUp)
				}
			}
			return nil
		},
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

// panelOpenedBy registers a panel whose part the model holds for it,
// made by fresh (the root names it nowhere else), opened from the panes
// by binding (a key of the key map, or any binding) through its Show:
// the one line a new panel takes in the root, say
//
//	panelOpenedBy("sessions", func(k *keymap.KeyMap) *key.Binding { return &k.Sessions }, sessions.New),
func panelOpenedBy[P interface {
	part.Part
	part.Shower
}](name layer, binding func(k *keymap.KeyMap) *key.Binding, fresh func() P) layerSpec {
	get := func(m *Model) part.Part { return m.parts[name] }
	l := panel(name, get)
	l.fresh = func() part.Part { return fresh() }
	l.opener = opensWith(binding, func(m *Model) tea.Cmd { return get(m).(part.Shower).Show(m.ctx()) })
	return l
}

// registry is the one list of layers, topmost first (the panes last).
type registry struct {
	list []layerSpec
}

// newRegistry is the registry of list, topmost first.
func newRegistry(list []layerSpec) *registry { return &registry{list: list} }

// The screen's registry, built on first use (layers) rather than by an
// init every command pays before main, crmem version included (59
// allocations); not a variable's initializer, as its entries reach back
// to top through the model's methods.
var (
	screenLayers *registry
	layerOnce    sync.Once
)

// layers is the screen's one list of layers, built the first time it is
// asked.
func layers() *registry {
	layerOnce.Do(func() { screenLayers = newRegistry(registered()) })
	return screenLayers
}

// registered is every layer's registration, topmost first: the order
// of the list is the stack, the panes last.
func registered() []layerSpec {
	return []layerSpec{
		{
			name:    layerDatePrompt,
			opener:  openedElsewhere,
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
		{
			name:   layerWhyPrompt,
			opener: openedElsewhere,
			open:   func(m *Model) bool { return m.why != nil && m.why.prompt != nil },
			keys:   func(m *Model, k *keymap.KeyMap) { m.why.prompt.SetKeys(k) },
			key:    whyLayerKey,
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
		{
			name:   layerDialog,
			opener: openedElsewhere,
			open:   func(m *Model) bool { return m.ed != nil && m.ed.Dialog() != nil },
			keys:   func(m *Model, k *keymap.KeyMap) { m.ed.Dialog().SetKeys(k) },
			key:    editingLayerKey,
			paste: func(m *Model, p tea.PasteMsg) tea.Cmd {
				m.ed.Dialog().Paste(p.Content)
				return nil
			},
			body:    func(m *Model, w, h int) string { return m.ed.DialogBody(m.c.partContext(h), w, h) },
			overlay: func(m *Model) string { return m.ed.Dialog().View(m.lineCtx()) },
			help:    noHelp,
			mouse:   noMouse,
			message: noMessage,
			least:   1,
		},
		{
			name: layerHelp,
			opener: opensWith(func(k *keymap.KeyMap) *key.Binding { return &k.Help }, func(m *Model) tea.Cmd {
				m.hp.Show()
				return nil
			}),
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
		func() layerSpec {
			l := panel(layerLog, func(m *Model) part.Part { return &m.chg.log })
			l.opener = opensWith(func(k *keymap.KeyMap) *key.Binding { return &k.ChangeLog }, (*Model).openLog)
			return l
		}(),
		func() layerSpec { // the wheel scrolls it (a part.Wheeler)
			l := panel(layerStats, func(m *Model) part.Part { return &m.sp })
			l.opener = opensWith(func(k *keymap.KeyMap) *key.Binding { return &k.Stats }, func(m *Model) tea.Cmd {
				return m.sp.Show(m.ctx(), m.statsOfNow())
			})
			return l
		}(),
		func() layerSpec {
			l := panel(layerWhy, func(m *Model) part.Part { return m.why })
			l.open = func(m *Model) bool { return m.why != nil && m.why.Open() }
			l.key = whyLayerKey // the why part's keys, its prompt's included
			return l
		}(),
		func() layerSpec {
			l := panel(layerHistory, func(m *Model) part.Part { return &m.hv })
			l.mouse = func(m *Model, msg tea.MouseMsg) tea.Cmd { // the wheel picks a version over the versions, scrolls the diff over it
				if _, wheel := msg.(tea.MouseWheelMsg); wheel {
					mo := msg.Mouse()
					m.hv.Wheel(mo.X, m.c.width, mo.Button == tea.MouseWheelUp)
				}
				return nil
			}
			return l
		}(),
		panel(layerForgotten, func(m *Model) part.Part { return &m.fg }),
		panel(layerFindings, func(m *Model) part.Part { return &m.fv }),
		{
			name:    layerSearch,
			opener:  openedElsewhere,
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
		{
			name:   layerPanes,
			opener: openedElsewhere,
			open:   func(*Model) bool { return true },
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

// topSpec is the registration of the layer that has the screen: the
// highest one open.
func (m *Model) topSpec() *layerSpec {
	list := m.layers.list
	for i := range list[:len(list)-1] {
		if list[i].open(m) {
			return &list[i]
		}
	}
	return &list[len(list)-1]
}

// setMode enables the key bindings of the layer on top, as its part
// decides them.
func (m *Model) setMode() { m.topSpec().keys(m, &m.c.keys) }

// layerKey gives a key press to the layer on top, and to that layer only.
func (m *Model) layerKey(k tea.KeyPressMsg) tea.Cmd { return m.topSpec().key(m, k) }

// layerPaste gives pasted text to the prompt or search line on top.
func (m *Model) layerPaste(p tea.PasteMsg) tea.Cmd { return m.topSpec().paste(m, p) }

// layerMouse gives a mouse event to the layer on top (when the mouse is
// captured).
func (m *Model) layerMouse(msg tea.MouseMsg) tea.Cmd { return m.topSpec().mouse(m, msg) }

// layerOpen gives a key of the panes to the layer it opens, if it opens
// one: the registrations say which key opens what.
func (m *Model) layerOpen(k tea.KeyPressMsg) (tea.Cmd, bool) {
	for i := range m.layers.list {
		if cmd, ok := m.layers.list[i].opener(m, k); ok {
			return cmd, true
		}
	}
	return nil, false
}

// layerMessage offers a message to every layer, open or not (a read off
// the loop may come back after its part closed), and reports whether
// one took it.
func (m *Model) layerMessage(msg tea.Msg) (tea.Cmd, bool) {
	c := m.partContext(0) // what a part takes off the loop needs no height
	for i := range m.layers.list {
		if cmd, ok := m.layers.list[i].message(m, c, msg); ok {
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
	list := m.layers.list
	for i := range list[:len(list)-1] {
		if !list[i].open(m) {
			continue
		}
		if body := list[i].body(m, w, h); body != "" {
			return body
		}
	}
	return ""
}

// overlay is the top layer's text in place of the help line (a prompt, a
// question, the findings view's keys), "" for the short help.
func (m *Model) overlay() string { return m.topSpec().overlay(m) }

// partHelp is the short help of the layer that has the screen; nil for
// a prompt, a dialog or a view that names its own keys in the help
// line's place (overlay).
func (m *Model) partHelp() []key.Binding { return m.topSpec().help(m) }

// freshParts makes the parts of the panels the model holds for them
// (Model.parts), by their layers' names.
func freshParts(r *registry) map[layer]part.Part {
	ps := map[layer]part.Part{}
	for _, l := range r.list {
		if l.fresh != nil {
			ps[l.name] = l.fresh()
		}
	}
	return ps
}

// whyLayerKey gives a key to the why part (its prompt or its panel).
func whyLayerKey(m *Model, k tea.KeyPressMsg) tea.Cmd {
	_, cmd := m.whyKey(k)
	return cmd
}

// editingLayerKey gives a key to the editing part's layer on top (a
// dialog, the findings view, the history, the forgotten entries).
func editingLayerKey(m *Model, k tea.KeyPressMsg) tea.Cmd {
	_, cmd := m.editKey(k)
	return cmd
}

// paneLayerKey gives a key of the panes or the search line to the
// editing part, then the why part, then the panes' own keys.
func (m *Model) paneLayerKey(k tea.KeyPressMsg) tea.Cmd {
	if m.ed != nil {
		if handled, cmd := m.editKey(k); handled {
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
