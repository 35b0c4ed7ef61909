// Package histfixture gives tests the session fixtures of testdata/history
// (crabtalk session folders holding remember and forget calls) and what a
// correct reader finds in them (testdata/history/expected.json).
//
// git keeps no modification times, and a call without a tool_start event
// takes its time from its step file's: Sessions copies the folder to a
// test's temporary folder and sets every file's time as expected.json
// says, so a test never reads the checked-out files themselves.
package histfixture

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Dir is the fixtures' folder, testdata/history of the module: found by
// going up from the working folder (a test's is its package's) to the
// folder holding go.mod, so it holds under -trimpath too.
func Dir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatalf("history fixtures: %v", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "testdata", "history")
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatalf("history fixtures: no go.mod above the working folder")
		}
		dir = up
	}
}

// Write is one remember or forget call as expected.json lists it.
type Write struct {
	Session   string `json:"session"`    // the session folder's name
	Step      string `json:"step"`       // the step file holding the call
	ID        string `json:"id"`         // the call's id
	Tool      string `json:"tool"`       // "remember" or "forget"
	Agent     string `json:"agent"`      // the agent that made it ("" when unknown)
	CreatedBy string `json:"created_by"` // the session meta's created_by ("" without a meta)
	Title     string `json:"title"`      // the session meta's title ("" without a meta)
	Name      string `json:"name"`       // the entry's name ("" when the arguments hold none)
	// Content and Aliases are a remember's arguments ("" and nil for a
	// forget; an empty list when a remember gave none).
	Content string   `json:"content"`
	Aliases []string `json:"aliases"`
	Result  string   `json:"result"` // the tool's result text ("" when it has none)
	// TimeFrom is where the call's time comes from: "event" (TS, the
	// tool_start event's ts as written) or "step" (MTime, the step file's
	// modification time).
	TimeFrom string `json:"time_from"`
	TS       string `json:"ts"`
	MTime    string `json:"mtime"`
	// Why says why a call is not a version (NotVersions only).
	Why string `json:"why"`
}

// Time is the call's time, from its event or its step file.
func (w Write) Time() (time.Time, error) {
	s := w.TS
	if w.TimeFrom == "step" {
		s = w.MTime
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%s %s: time: %w", w.Session, w.Step, err)
	}
	return t, nil
}

// Expected is expected.json: the calls that are versions, per entry name
// and oldest first; those that are not; and every file's modification
// time ("session/file" → RFC 3339).
type Expected struct {
	Versions    map[string][]Write `json:"versions"`
	NotVersions []Write            `json:"not_versions"`
	MTimes      map[string]string  `json:"mtimes"`
}

// Load reads expected.json, failing t if it cannot.
func Load(t testing.TB) Expected {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(Dir(t), "expected.json"))
	if err != nil {
		t.Fatalf("history fixtures: %v", err)
	}
	var e Expected
	if err := json.Unmarshal(data, &e); err != nil {
		t.Fatalf("history fixtures: expected.json: %v", err)
	}
	return e
}

// Sessions copies the fixtures' sessions folder into a fresh temporary
// folder of t, sets every file's modification time from expected.json,
// and returns the copy's path.
func Sessions(t testing.TB) string {
	t.Helper()
	e := Load(t)
	dir := filepath.Join(t.TempDir(), "sessions")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(Dir(t), "sessions"))); err != nil {
		t.Fatalf("history fixtures: copy sessions: %v", err)
	}
	for rel, s := range e.MTimes {
		at, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatalf("history fixtures: mtime of %s: %v", rel, err)
		}
		if err := os.Chtimes(filepath.Join(dir, filepath.FromSlash(rel)), at, at); err != nil {
			t.Fatalf("history fixtures: %v", err)
		}
	}
	return dir
}
