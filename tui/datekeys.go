package tui

import "github.com/crmem/crmem/keymap"

// setKeys enables the date prompt's keys: accept and cancel; the
// printable keys are text.
func (d *dateState) setKeys(k *keymap.KeyMap) { k.Only(true, k.PromptKeys()...) }
