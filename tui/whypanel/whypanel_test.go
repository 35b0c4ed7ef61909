package whypanel

import (
	"errors"
	"testing"

	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"

	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store/why"
	"github.com/crmem/crmem/tui/part"
)

// TestPanel_AnswersWithRequests: with no root model, the panel asks the
// root to say what it cannot do (no memory open, a failed explanation)
// as requests, drops an answer older than the last asked for, and shows
// the last.
func TestPanel_AnswersWithRequests(t *testing.T) {
	keys := keymap.DefaultKeyMap()
	st := lipgloss.NewStyle()
	c := &part.Context{Width: 80, Height: 20, Body: 18, Keys: &keys, Help: help.New(),
		Styles: &part.Styles{PaneTitle: st, GroupHeader: st, Dim: st}}
	var p Panel
	reqs, cmd := p.Explain(c, "q", "a", 10)
	if cmd != nil || len(reqs) != 1 || reqs[0] != part.Request(part.Message{Text: "no memory open"}) {
		t.Fatalf("without a memory: %v, cmd %v", reqs, cmd != nil)
	}
	boom := errors.New("boom")
	p.seq = 2
	if reqs := p.Done(DoneMsg{seq: 1, err: boom}); reqs != nil || p.Open() {
		t.Fatalf("a stale answer: %v, open %v", reqs, p.Open())
	}
	if reqs := p.Done(DoneMsg{seq: 2, err: boom}); len(reqs) != 1 || reqs[0] != part.Request(part.Failed{What: "why", Err: boom}) {
		t.Fatalf("a failure: %v", reqs)
	}
	rep := why.Report{Query: "q", Entries: []why.Entry{{Name: "a", Detail: "not found"}}}
	if reqs := p.Done(DoneMsg{seq: 2, rep: rep}); reqs != nil || !p.Open() {
		t.Fatalf("the answer: %v, open %v", reqs, p.Open())
	}
	if v := p.View(c, 80, 18); v == "" {
		t.Fatal("no view")
	}
}
