//go:build !unix

package tui

import tea "charm.land/bubbletea/v2"

// suspendCmd is Bubble Tea's own suspend where job control is not Unix's.
func suspendCmd() tea.Cmd { return tea.Suspend }
