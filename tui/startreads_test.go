package tui

import (
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/face/editor"
	"github.com/crmem/crmem/store"
)

// TestSessionsReadOnceAtStart: the open reads the sessions folder (the
// archives' references and the recalls); the look at the file once the
// watch began reads it again only when the file changed meanwhile. It was
// read twice at every start, which with thousands of sessions is seconds
// of work. A reload the watcher or the user asks for still reads it
// (TestRecalled_RereadOnReload).
func TestSessionsReadOnceAtStart(t *testing.T) {
	for _, tt := range []struct {
		name    string
		between bool // a write between the open and the watch
		reads   int
	}{
		{"file unchanged", false, 1},
		{"file written before the watch began", true, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := copyFixture(t, "crmem/small.db")
			f := newEditing(Options{Path: path, SessionsDir: t.TempDir()}, editor.Options{TempDir: t.TempDir()}, nil)
			m := newModel(config{path: path, style: "dark", noColor: true, now: func() time.Time { return testNow },
				loc: time.UTC, after: noTimer, ed: f})
			drive(m, func() tea.Msg { return tea.WindowSizeMsg{Width: 120, Height: 40} })
			var write func()
			if tt.between {
				write = func() { apply(t, path, store.Add{Name: "between", Content: "written before the watch began"}) }
			}
			openThenWatch(t, m, path, write)
			if m.refs.seq != tt.reads || m.recalled.Reads() != tt.reads {
				t.Errorf("sessions read %d times for references, %d for recalls; want %d", m.refs.seq, m.recalled.Reads(), tt.reads)
			}
			if got := slices.Contains(listNames(m), "between"); got != tt.between {
				t.Errorf("the write between the open and the watch shown: %v, want %v", got, tt.between)
			}
			// Once open, the look after a restarted watch works the same.
			drive(m, m.checkAfterWatch())
			if m.refs.seq != tt.reads {
				t.Errorf("a look that found the file unchanged read the sessions again (%d reads)", m.refs.seq)
			}
			drive(m, m.reloadNow()) // R: the user asks, the sessions are read
			if m.refs.seq != tt.reads+1 || m.recalled.Reads() != tt.reads+1 {
				t.Errorf("after R: %d and %d reads, want %d", m.refs.seq, m.recalled.Reads(), tt.reads+1)
			}
		})
	}
}
