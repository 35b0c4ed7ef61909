package tui

import (
	"charm.land/bubbles/v2/key"

	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/tui/dialog"
	"github.com/crmem/crmem/tui/editing"
)

// The help line and the `?` help are put together from what each part of
// the screen says of its own keys (shortHelp, fullHelp, as bubbles'
// ShortHelp and FullHelp): the help line from the part on top, the `?`
// help from every part installed.

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
	groups := m.list.FullHelp(k)
	groups = append(groups, append(m.bar.FullHelp(k), k.AppKeys()...))
	groups = append(groups, m.pv.FullHelp(k)...)
	if m.c.editing { // the editing part's keys are wired
		groups = append(groups, editing.FullHelp(k)...)
	}
	return append(groups, dialog.Help(k)...)
}
