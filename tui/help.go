package tui

import (
	"charm.land/bubbles/v2/key"

	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/tui/dialog"
)

// The help line and the `?` help are put together from what each part of
// the screen says of its own keys (shortHelp, fullHelp, as bubbles'
// ShortHelp and FullHelp): the help line from the part on top, the `?`
// help from every part installed.

// partHelp is the short help of the part that has the screen (top); nil
// for a prompt, a dialog or the findings view, which name their own keys
// in the help line's place (overlay).
func (m *Model) partHelp() []key.Binding {
	k := &m.c.keys
	switch m.top() {
	case layerHelp:
		return m.hp.ShortHelp(k)
	case layerLog:
		return m.chg.shortHelp(k)
	case layerStats:
		return m.sp.ShortHelp(k)
	case layerWhy:
		return m.why.ShortHelp(k)
	case layerSearch:
		return m.searchBar.shortHelp(k)
	case layerPanes:
		if m.focus == focusPreview {
			return m.pv.shortHelp(k)
		}
		return m.list.shortHelp(k)
	}
	return nil
}

// helpGroups is the `?` help's columns with every binding it lists
// enabled: the bindings as configured, not as narrowed while the help is
// open.
func (m *Model) helpGroups() [][]key.Binding {
	keys := m.c.keys
	keys.SetReferenceMode(m.c.editing)
	return m.fullHelp(&keys)
}

// fullHelp is the `?` help's columns, from every part installed: the
// list's, the search line's with the application's, the preview's, the
// editing part's, the dialogs'. k is the key map with the bindings to
// list enabled.
func (m *Model) fullHelp(k *keymap.KeyMap) [][]key.Binding {
	groups := m.list.fullHelp(k)
	groups = append(groups, append(m.searchBar.fullHelp(k), k.AppKeys()...))
	groups = append(groups, m.pv.fullHelp(k)...)
	if m.c.editing { // the editing part's keys are wired
		groups = append(groups, editingHelp(k)...)
	}
	return append(groups, dialog.Help(k)...)
}
