package tui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// The open builds no index: the first frame's snapshot and layout have the
// cores to themselves (issue 40 §2); the open's commands start the build,
// and recall answers once it is done.
func TestOpen_IndexStartsAfterTheFirstFrame(t *testing.T) {
	path := copyFixture(t, "crmem/small.db")
	m := newModel(config{path: path, style: "dark", noColor: true, now: func() time.Time { return testNow }, loc: time.UTC, after: noTimer})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	msg := openCmd(path, "")().(loadedMsg)
	if msg.db.Memory().IndexReady() {
		t.Fatal("the open built the index before the first frame")
	}
	_, cmd := m.Update(msg)
	if m.indexed || len(m.list.rows) == 0 {
		t.Fatalf("first frame: indexed %v, %d rows", m.indexed, len(m.list.rows))
	}
	drive(m, cmd)
	if !m.indexed || !msg.db.Memory().IndexReady() {
		t.Fatal("the open's commands left the index unbuilt")
	}
	press(m, "/")
	typeText(m, "release")
	if m.result == nil || m.result.indexing || len(m.result.exact) == 0 {
		t.Errorf("no ranked hits once indexed: %+v", m.result)
	}
}
