package demo

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// demoWrite is one remember or forget call found in the demo's written
// sessions, read with encoding/json alone (not with store/sessions or
// store/history, which this test must not depend on).
type demoWrite struct {
	session, step string
	tool, id      string
	name, content string
	aliases       []string
	result        string
	at            time.Time // the tool_start event's ts; zero when none
}

// demoMeta is a session's meta file (crabtalk's ConversationMeta).
type demoMeta struct {
	Agent     string `json:"agent"`
	CreatedBy string `json:"created_by"`
	CreatedAt string `json:"created_at"`
	Title     string `json:"title"`
	UpdatedAt string `json:"updated_at"`
}

// readDemoWrites reads every remember and forget call of the sessions
// under dir, in session then step order, with its result and event time,
// and each session's meta.
func readDemoWrites(t *testing.T, dir string) ([]demoWrite, map[string]demoMeta) {
	t.Helper()
	sessions, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []demoWrite
	metas := map[string]demoMeta{}
	for _, s := range sessions {
		sdir := filepath.Join(dir, s.Name())
		if b, err := os.ReadFile(filepath.Join(sdir, "meta")); err == nil {
			if strings.Contains(string(b), `"@`) {
				t.Errorf("%s/meta: a relative time left unstamped: %s", s.Name(), b)
			}
			var m demoMeta
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatalf("%s/meta: %v", s.Name(), err)
			}
			metas[s.Name()] = m
		}
		steps, err := filepath.Glob(filepath.Join(sdir, "step-*"))
		if err != nil {
			t.Fatal(err)
		}
		sort.Strings(steps)
		byID := map[string]int{}
		for _, p := range steps {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(b), `"@`) {
				t.Errorf("%s: a relative time left unstamped: %s", p, b)
			}
			var doc struct {
				Event string `json:"event"`
				Calls []struct {
					ID, Name, Arguments string
				} `json:"calls"`
				TS      string `json:"ts"`
				Message *struct {
					Content json.RawMessage `json:"content"`
				} `json:"message"`
			}
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			if doc.Event == "tool_start" {
				ts, err := time.Parse(time.RFC3339, doc.TS)
				if err != nil {
					t.Errorf("%s: ts: %v", p, err)
				}
				for _, c := range doc.Calls {
					if i, ok := byID[c.ID]; ok {
						out[i].at = ts
					}
				}
				continue
			}
			var blocks []struct {
				Type      string          `json:"type"`
				ID        string          `json:"id"`
				Name      string          `json:"name"`
				Input     json.RawMessage `json:"input"`
				ToolUseID string          `json:"tool_use_id"`
				Content   string          `json:"content"`
			}
			if doc.Message == nil || json.Unmarshal(doc.Message.Content, &blocks) != nil {
				continue // a message whose content is a string
			}
			for _, bl := range blocks {
				switch {
				case bl.Type == "tool_use" && (bl.Name == "remember" || bl.Name == "forget"):
					var args struct {
						Name    string   `json:"name"`
						Content string   `json:"content"`
						Aliases []string `json:"aliases"`
					}
					if err := json.Unmarshal(bl.Input, &args); err != nil {
						t.Fatalf("%s: %s arguments: %v", p, bl.Name, err)
					}
					if _, dup := byID[bl.ID]; dup {
						t.Fatalf("%s: call id %s used twice in %s", p, bl.ID, s.Name())
					}
					byID[bl.ID] = len(out)
					out = append(out, demoWrite{session: s.Name(), step: filepath.Base(p), tool: bl.Name, id: bl.ID,
						name: args.Name, content: args.Content, aliases: args.Aliases})
				case bl.Type == "tool_result" && (bl.Name == "remember" || bl.Name == "forget"):
					i, ok := byID[bl.ToolUseID]
					if !ok {
						t.Fatalf("%s: result for unknown call %s", p, bl.ToolUseID)
					}
					out[i].result = bl.Content
				}
			}
		}
	}
	return out, metas
}

// TestWrite_History: the demo's sessions tell deploy-steps' story in
// several versions (the last exactly the entry the demo memory holds), an
// entry edited by hand since the agent last remembered it, one the agent
// forgot, and two calls that are no versions (a failed remember, a forget
// of a name that never was), every call timed by its event within its
// session's meta times.
func TestWrite_History(t *testing.T) {
	now := time.Date(2030, 6, 1, 12, 0, 0, 0, time.UTC)
	path, cleanup, err := Write(now)
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	writes, metas := readDemoWrites(t, filepath.Join(filepath.Dir(path), "sessions"))
	entries, err := Entries(now)
	if err != nil {
		t.Fatal(err)
	}
	current := map[string]int{}
	for i, e := range entries {
		current[e.Name] = i
	}

	for _, m := range metas {
		if m.Agent == "" || m.CreatedBy == "" || m.Title == "" {
			t.Errorf("meta %+v: want agent, created_by and title", m)
		}
	}
	for _, w := range writes {
		m, ok := metas[w.session]
		if !ok {
			t.Fatalf("%s has no meta", w.session)
		}
		from, err1 := time.Parse(time.RFC3339, m.CreatedAt)
		to, err2 := time.Parse(time.RFC3339, m.UpdatedAt)
		if err1 != nil || err2 != nil || w.at.IsZero() || w.at.Before(from) || w.at.After(to) {
			t.Errorf("%s %s %s: time %v, want an event time within the session's %q..%q", w.session, w.step, w.tool, w.at, m.CreatedAt, m.UpdatedAt)
		}
		if w.result == "" {
			t.Errorf("%s %s: %s %s has no result", w.session, w.step, w.tool, w.name)
		}
	}
	// A version is a successful call; in time order per name.
	versions := map[string][]demoWrite{}
	for _, w := range writes {
		if w.result == "remembered: "+w.name || w.result == "forgot: "+w.name {
			versions[w.name] = append(versions[w.name], w)
		}
	}
	for _, vs := range versions {
		sort.SliceStable(vs, func(i, j int) bool { return vs[i].at.Before(vs[j].at) })
	}

	ds := versions["deploy-steps"]
	sessions := map[string]bool{}
	for i, v := range ds {
		sessions[v.session] = true
		if v.tool != "remember" {
			t.Errorf("deploy-steps: a %s in %s", v.tool, v.session)
		}
		if i > 0 && v.content == ds[i-1].content {
			t.Errorf("deploy-steps: %s %s repeats the content before it: not a new version", v.session, v.step)
		}
	}
	if len(ds) < 3 || len(ds) > 4 || len(sessions) < 2 || !sessions["deploy-pipeline"] {
		t.Fatalf("deploy-steps: %d remembers in %v, want 3–4 across deploy-pipeline and another session", len(ds), sessions)
	}
	e := entries[current["deploy-steps"]]
	last := ds[len(ds)-1]
	if last.content != e.Content || !slices.Equal(last.aliases, e.Aliases) {
		t.Errorf("deploy-steps: last remember (%s %s) is not the demo entry:\ncontent %q\naliases %q\nwant\ncontent %q\naliases %q",
			last.session, last.step, last.content, last.aliases, e.Content, e.Aliases)
	}
	// remember keeps the first write's created_at: an entry's age is
	// when the agent first remembered it.
	for name, vs := range versions {
		if i, ok := current[name]; ok && uint64(vs[0].at.Unix()) != entries[i].CreatedAt {
			t.Errorf("%s: first remembered at %v, but created_at (age) says %v", name, vs[0].at, time.Unix(int64(entries[i].CreatedAt), 0).UTC())
		}
	}

	// Hand-edited: remembered, then changed outside any session.
	rc := versions["release-checklist"]
	if len(rc) == 0 {
		t.Fatal("release-checklist: no remember")
	}
	if c := entries[current["release-checklist"]]; rc[len(rc)-1].content == c.Content {
		t.Error("release-checklist: its last remember is its current content; want one edited by hand since")
	}
	// Every other entry the agent remembered is as its last call left it.
	for name, vs := range versions {
		i, ok := current[name]
		if !ok || name == "release-checklist" {
			continue
		}
		if l := vs[len(vs)-1]; l.tool != "remember" || l.content != entries[i].Content || !slices.Equal(l.aliases, entries[i].Aliases) {
			t.Errorf("%s: in memory, but not as its last call (%s %s) left it", name, l.session, l.step)
		}
	}

	// Forgotten: remembered, then forgot, and not in memory.
	var forgotten []string
	for name, vs := range versions {
		if l := vs[len(vs)-1]; l.tool == "forget" {
			forgotten = append(forgotten, name)
			if _, ok := current[name]; ok {
				t.Errorf("%s: forgotten (%s %s) but in the demo memory", name, l.session, l.step)
			}
			if len(vs) < 2 || vs[0].tool != "remember" {
				t.Errorf("%s: forgotten without being remembered first", name)
			}
		}
	}
	if len(forgotten) != 1 {
		t.Errorf("forgotten entries %v, want one", forgotten)
	}

	// Calls that are no versions: a failed remember, a forget of a name
	// that never was.
	var failed, noSuch int
	for _, w := range writes {
		switch {
		case w.tool == "remember" && strings.HasPrefix(w.result, "failed to save entry: "):
			failed++
			if _, ok := current[w.name]; ok || len(versions[w.name]) > 0 {
				t.Errorf("%s: its remember failed, but the name has versions or is in memory", w.name)
			}
		case w.tool == "forget" && w.result == "no entry named: "+w.name:
			noSuch++
			if _, ok := current[w.name]; ok || len(versions[w.name]) > 0 {
				t.Errorf("%s: no entry by that name, but it has versions or is in memory", w.name)
			}
		}
	}
	if failed != 1 || noSuch != 1 {
		t.Errorf("%d failed remembers and %d forgets of no entry, want 1 and 1", failed, noSuch)
	}
}
