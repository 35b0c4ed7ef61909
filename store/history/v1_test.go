package history

import (
	"slices"
	"testing"

	"github.com/crmem/crmem/internal/histfixture"
	"github.com/crmem/crmem/store/sessions"
)

// TestV1History_SessionsFixtures: a v1 memory's history is its sessions'
// remember and forget calls that did something, oldest first, each with
// its session, title, agent, creator, step, id, result and time (the
// tool_start event's, else the step file's), exactly as
// testdata/history/expected.json (written by hand) lists them; calls that
// failed, had malformed arguments, no result or found no entry are no
// versions. The entry as memory holds it is the last call's version when
// it holds exactly what that call wrote, else a version of unknown source.
func TestV1History_SessionsFixtures(t *testing.T) {
	want := histfixture.Load(t)
	dir := histfixture.Sessions(t)
	last := want.Versions["deploy-steps"][len(want.Versions["deploy-steps"])-1]
	current := map[string]Current{
		"deploy-steps": {Name: "deploy-steps", Kind: "note", Content: last.Content, Aliases: last.Aliases, CreatedAt: "2026-01-05T09:00:04Z"},
		"oncall-rota":  {Name: "oncall-rota", Kind: "note", Content: "edited by hand", Aliases: []string{}, CreatedAt: "2026-01-05T09:00:04Z"},
	}
	ix, err := FromV1(current, sessions.Folder(dir), nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, ws := range want.Versions {
		h := ix.History(name)
		got := h.Versions
		if _, ok := current[name]; ok && got[len(got)-1].Origin == FromMemory {
			got = got[:len(got)-1]
		}
		if len(got) != len(ws) {
			t.Errorf("%q: %d versions from sessions, want %d: %+v", name, len(got), len(ws), got)
			continue
		}
		for i, w := range ws {
			v := got[i]
			c := v.Call
			if c == nil {
				t.Errorf("%q #%d: no call", name, i+1)
				continue
			}
			wantAction := map[string]Action{"remember": Write, "forget": Delete}[w.Tool]
			at, err := w.Time()
			if err != nil {
				t.Fatal(err)
			}
			if v.Action != wantAction || c.Tool != w.Tool || c.Session != w.Session || c.Step != w.Step || c.ID != w.ID ||
				c.Agent != w.Agent || c.CreatedBy != w.CreatedBy || c.Title != w.Title || c.Result != w.Result ||
				c.TimeFrom != w.TimeFrom || !c.Time.Equal(at) {
				t.Errorf("%q #%d:\n got %s %+v\nwant %+v", name, i+1, v.Action, *c, w)
			}
			if w.Tool == "remember" && (v.Content != w.Content || !slices.Equal(v.Aliases, nonNil(w.Aliases))) {
				t.Errorf("%q #%d: content %q aliases %q, want %q %q", name, i+1, v.Content, v.Aliases, w.Content, w.Aliases)
			}
		}
	}
	for _, nv := range want.NotVersions {
		for _, v := range ix.History(nv.Name).Versions {
			if v.Call != nil && v.Call.Session == nv.Session && v.Call.ID == nv.ID && v.Call.Step == nv.Step {
				t.Errorf("%s %s %s (%s) is a version: %+v", nv.Session, nv.Step, nv.ID, nv.Why, v)
			}
		}
	}
	d := ix.History("deploy-steps")
	if end := d.Versions[len(d.Versions)-1]; !end.Current || end.Origin != FromMemoryAndSession || end.CreatedAt == "" || !d.Exists {
		t.Errorf("deploy-steps now: %+v", end)
	}
	o := ix.History("oncall-rota")
	if end := o.Versions[len(o.Versions)-1]; !end.Current || end.Origin != FromMemory || end.Call != nil || end.Content != "edited by hand" {
		t.Errorf("oncall-rota now: %+v", end)
	}
	// Forgotten: every name the sessions wrote that memory does not hold
	// and whose last content is known, most recently removed first.
	var names []string
	for _, f := range ix.Forgotten() {
		names = append(names, f.Name)
		if f.Last.Content == "" && f.Last.Action != Write {
			t.Errorf("%q: last %+v", f.Name, f.Last)
		}
	}
	for name, ws := range want.Versions {
		if _, ok := current[name]; ok {
			continue
		}
		if !slices.Contains(names, name) {
			t.Errorf("%q (last call %s) not among the forgotten %q", name, ws[len(ws)-1].Tool, names)
		}
	}
}

func nonNil(a []string) []string {
	if a == nil {
		return []string{}
	}
	return a
}
