package histfixture

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
	"time"
)

// TestSessions_SetsEveryFilesTime: the copy holds every fixture file, each
// with the modification time expected.json gives it, and expected.json
// names no file the folder lacks.
func TestSessions_SetsEveryFilesTime(t *testing.T) {
	e := Load(t)
	dir := Sessions(t)
	seen := map[string]bool{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		seen[rel] = true
		want, ok := e.MTimes[rel]
		if !ok {
			t.Errorf("%s: no mtime in expected.json", rel)
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if got := fi.ModTime().UTC().Format(time.RFC3339); got != want {
			t.Errorf("%s: mtime %s, want %s", rel, got, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for rel := range e.MTimes {
		if !seen[rel] {
			t.Errorf("expected.json gives a time to %s, which the fixtures lack", rel)
		}
	}
	if len(seen) == 0 {
		t.Fatal("no fixture files")
	}
}

// TestExpected_MatchesTheSteps reads the copied sessions with a reader of
// its own (encoding/json; results paired with the calls of the last
// message with calls by position, a tool_start event timing the oldest
// untimed message whose calls it names, else the step file's time) and
// finds exactly the writes expected.json lists, so the hand-written file
// and the step files agree.
func TestExpected_MatchesTheSteps(t *testing.T) {
	e := Load(t)
	got := readWrites(t, Sessions(t))
	versions := map[string][]Write{}
	var not []Write
	for _, w := range got {
		if w.Name != "" && (w.Result == "remembered: "+w.Name && w.Tool == "remember" || w.Result == "forgot: "+w.Name && w.Tool == "forget") {
			versions[w.Name] = append(versions[w.Name], w)
		} else {
			not = append(not, w)
		}
	}
	for name, vs := range versions {
		sort.SliceStable(vs, func(i, j int) bool { return at(t, vs[i]).Before(at(t, vs[j])) })
		if !reflect.DeepEqual(vs, e.Versions[name]) {
			t.Errorf("%s: the steps hold\n%+v\nexpected.json says\n%+v", name, vs, e.Versions[name])
		}
	}
	for name := range e.Versions {
		if _, ok := versions[name]; !ok {
			t.Errorf("%s: in expected.json, no version in the steps", name)
		}
	}
	for i := range e.NotVersions {
		e.NotVersions[i].Why = "" // a note for the reader, not in the steps
	}
	if !reflect.DeepEqual(not, e.NotVersions) {
		t.Errorf("calls that are no versions: the steps hold\n%+v\nexpected.json says\n%+v", not, e.NotVersions)
	}
}

func at(t *testing.T, w Write) time.Time {
	t.Helper()
	tm, err := w.Time()
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

// readWrites is every remember and forget call of the sessions under dir,
// in session then step order.
func readWrites(t *testing.T, dir string) []Write {
	t.Helper()
	sessions, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []Write
	for _, s := range sessions {
		out = append(out, readSession(t, filepath.Join(dir, s.Name()))...)
	}
	return out
}

// stepDoc is a step: a HistoryEntry (either message shape) or an event.
type stepDoc struct {
	Agent   string `json:"agent"`
	Message *struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"tool_call_id"`
		ToolCalls  []struct {
			ID       string `json:"id"`
			Function struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
	} `json:"message"`
	Event string `json:"event"`
	Calls []struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"calls"`
	TS string `json:"ts"`
}

// call is one call of any tool, while its session is read.
type call struct {
	w     Write
	write bool // a remember or forget
	timed bool
}

func readSession(t *testing.T, dir string) []Write {
	t.Helper()
	var meta struct{ Agent, CreatedBy, Title string }
	if b, err := os.ReadFile(filepath.Join(dir, "meta")); err == nil {
		var m struct {
			Agent     string `json:"agent"`
			CreatedBy string `json:"created_by"`
			Title     string `json:"title"`
		}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		meta.Agent, meta.CreatedBy, meta.Title = m.Agent, m.CreatedBy, m.Title
	}
	steps, _ := filepath.Glob(filepath.Join(dir, "step-*"))
	sort.Strings(steps)
	var all []*call
	var pending []*call   // the last message's calls, for their results
	var untimed [][]*call // messages with calls not yet timed by an event
	for _, p := range steps {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var d stepDoc
		if err := json.Unmarshal(b, &d); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if d.Event == "tool_start" {
			for i, batch := range untimed {
				if sameCalls(d, batch) {
					for _, c := range batch {
						c.w.TimeFrom, c.w.TS, c.w.MTime, c.timed = "event", d.TS, "", true
					}
					untimed = untimed[i+1:]
					break
				}
			}
			continue
		}
		if d.Message == nil {
			continue
		}
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		newCall := func(id, tool string, input []byte) *call {
			c := &call{write: tool == "remember" || tool == "forget"}
			c.w = Write{Session: filepath.Base(dir), Step: filepath.Base(p), ID: id, Tool: tool,
				Agent: meta.Agent, CreatedBy: meta.CreatedBy, Title: meta.Title,
				TimeFrom: "step", MTime: fi.ModTime().UTC().Format(time.RFC3339)}
			if d.Agent != "" {
				c.w.Agent = d.Agent
			}
			var a struct {
				Name    string   `json:"name"`
				Content string   `json:"content"`
				Aliases []string `json:"aliases"`
			}
			json.Unmarshal(input, &a) // not JSON: as {}
			c.w.Name = a.Name
			if tool == "remember" && a.Name != "" {
				c.w.Content, c.w.Aliases = a.Content, a.Aliases
				if c.w.Aliases == nil {
					c.w.Aliases = []string{}
				}
			}
			return c
		}
		var batch []*call
		for _, tc := range d.Message.ToolCalls {
			batch = append(batch, newCall(tc.ID, tc.Function.Name, []byte(tc.Function.Arguments)))
		}
		var blocks []struct {
			Type    string          `json:"type"`
			ID      string          `json:"id"`
			Name    string          `json:"name"`
			Input   json.RawMessage `json:"input"`
			Content string          `json:"content"`
		}
		var results []string
		if json.Unmarshal(d.Message.Content, &blocks) == nil {
			for _, bl := range blocks {
				switch bl.Type {
				case "tool_use":
					batch = append(batch, newCall(bl.ID, bl.Name, bl.Input))
				case "tool_result":
					results = append(results, bl.Content)
				}
			}
		} else if d.Message.ToolCallID != "" {
			var text string
			json.Unmarshal(d.Message.Content, &text)
			results = append(results, text)
		}
		if len(batch) > 0 {
			all = append(all, batch...)
			pending = batch
			untimed = append(untimed, batch)
		}
		for _, r := range results {
			if len(pending) == 0 {
				t.Fatalf("%s: a result with no call waiting", p)
			}
			pending[0].w.Result = r
			pending = pending[1:]
		}
	}
	var out []Write
	for _, c := range all {
		if c.write {
			out = append(out, c.w)
		}
	}
	return out
}

// sameCalls: the event names the calls of batch, in order, by id and tool.
func sameCalls(d stepDoc, batch []*call) bool {
	if len(d.Calls) != len(batch) {
		return false
	}
	for i, c := range d.Calls {
		if c.ID != batch[i].w.ID || c.Name != batch[i].w.Tool {
			return false
		}
	}
	return true
}
