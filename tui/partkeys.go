package tui

import "github.com/crmem/crmem/keymap"

// The keys live while a part of the root has the screen, decided by the
// part (the parts in packages of their own decide theirs beside them:
// SetKeys). They sit together here until the reload log, the findings
// view, the history view and the forgotten list are packages of their
// own, which take theirs along.

// setKeys enables the date prompt's keys: accept and cancel; the
// printable keys are text.
func (d *dateState) setKeys(k *keymap.KeyMap) { k.Only(true, k.PromptKeys()...) }

// setKeys enables the reload log's keys: the movement keys move its
// cursor, accept goes to the entry, its key, quit and cancel close it.
func (c *changeState) setKeys(k *keymap.KeyMap) { k.Only(false, k.LogKeys()...) }

// setKeys enables the findings view's keys: moving, the actions on a
// finding (merge, not duplicates, reveal, edit, delete, undo), the pane
// switch, and its key, quit and cancel to close it.
func (v *findingsView) setKeys(k *keymap.KeyMap) {
	k.Only(false, append(k.ScrollKeys(), &k.Quit, &k.Findings, &k.Accept, &k.Focus, &k.Merge, &k.NotDuplicate, &k.Reveal,
		&k.Edit, &k.Delete, &k.Undo)...)
}

// setKeys enables an entry's history's keys (keymap.KeyMap.HistoryKeys).
func (v *historyView) setKeys(k *keymap.KeyMap) { k.Only(false, k.HistoryKeys()...) }

// setKeys enables the forgotten list's keys, the history view's.
func (v *forgottenView) setKeys(k *keymap.KeyMap) { k.Only(false, k.HistoryKeys()...) }
