package recalled

import (
	"testing"
	"time"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/recalls"
	"github.com/crmem/crmem/tui/part"
)

// TestState_AlonePartOfItsOwn: with no root model, a read answered after
// a newer one started is dropped; the never-recalled filter waits for a
// read; the card says how many of the recorded recalls returned an
// entry, and a failed read shows nothing.
func TestState_AlonePartOfItsOwn(t *testing.T) {
	var s State
	if s.ToggleNever() || s.Never() {
		t.Fatal("the filter turned on before the recalls were read")
	}
	s.seq = 2 // two reads started
	then := &recalls.Then{Recalls: 4}
	if s.Take(ReadMsg{seq: 1, then: then}) || s.History() != nil {
		t.Fatal("a stale read was taken")
	}
	if !s.Take(ReadMsg{seq: 2, then: then}) || s.History() != then || s.Recalls() != 4 {
		t.Fatalf("the current read was not taken: history %p", s.History())
	}
	c := &part.Context{Styles: &part.Styles{}, Now: func() time.Time { return time.Unix(1e9, 0) }}
	e := store.Entry{Name: "deploy-steps"}
	if got := s.Card(c, e); len(got) != 1 || got[0] != "recalled never, by none of 4 recorded recalls" {
		t.Errorf("card %q", got)
	}
	if s.Badge(c.Styles, e) != "" {
		t.Errorf("a badge on an entry no recall returned")
	}
	if !s.ToggleNever() || !s.Never() {
		t.Error("the filter did not turn on once read")
	}
	s.seq++
	s.Take(ReadMsg{seq: s.seq, err: errTest{}})
	if s.History() != nil || s.Card(c, e) != nil {
		t.Error("a failed read still shows its recalls")
	}
}

type errTest struct{}

func (errTest) Error() string { return "broken" }
