package part

import tea "charm.land/bubbletea/v2"

// What a panel may add so that the root needs nothing of it but its one
// registration (tui/layers.go, part.Part's Open, SetKeys, Key, View and
// ShortHelp besides):

// Shower is a panel a key opens from the panes: its registration names
// the key, and the root calls Show with the screen's context when that
// key is pressed there.
type Shower interface {
	Show(c *Context) tea.Cmd
}

// Wheeler is a panel the mouse wheel scrolls while it is on top (when
// the mouse is captured).
type Wheeler interface {
	Wheel(c *Context, up bool)
}
