package crabdb

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/crmem/crmem/store/crabdb/crabdbtest"
	"github.com/crmem/crmem/store/sessions"
)

// storeWithRecalls copies small.crmem (written by crabtalk's code) and
// appends two sessions as crabtalk's Sessions interface writes them at
// 72fbe605: meta, events and messages under "local/session/{handle}/".
// One session's agent is the fixture's agent "crab"; the other names an
// agent the store has no record of.
func storeWithRecalls(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(refDir, "small.crmem"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "store.crmem")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	put := func(k, v string) { crabdbtest.Append(t, path, crabdbtest.Record(OpPut, ColSession, k, v)) }
	meta := `{"agent":%q,"created_by":"dana","created_at":"2026-01-06T10:00:00+00:00","title":"","updated_at":"2026-01-06T10:05:00+00:00","message_count":4}`
	put("local/session/dana-1/meta", fmt.Sprintf(meta, "00000000000000000000000000"))
	put("local/session/dana-1/evt/000000000000", `{"event":"tool_start","calls":[{"id":"toolu_1","name":"recall","arguments":"{\"query\":\"deploy rollback\"}"}],"ts":"2026-01-06T10:01:00+00:00"}`)
	put("local/session/dana-1/msg/000000000000", `{"message":{"role":"user","content":"how do we roll back?"}}`)
	put("local/session/dana-1/msg/000000000001", `{"message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"recall","input":{"query":"deploy rollback"}}]}}`)
	put("local/session/dana-1/msg/000000000002", `{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","name":"recall","content":"## deploy-steps\nroll back with make rollback"}]}}`)
	put("local/session/dana-1/msg/000000000003", `{"message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_2","name":"recall","input":{"query":"nothing here","limit":2}}]}}`)
	put("local/session/dana-1/msg/000000000004", `{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_2","name":"recall","content":"no memories found"}]}}`)
	put("local/session/ghost-1/meta", fmt.Sprintf(meta, "01JZZZZZZZZZZZZZZZZZZZZZZZ"))
	put("local/session/ghost-1/msg/000000000000", `not json`)
	return path
}

func TestStoreRecalls(t *testing.T) {
	src, err := NewSource(storeWithRecalls(t))
	if err != nil {
		t.Fatal(err)
	}
	var got []sessions.Recall
	var order []string
	p, err := src.Features().Sessions.Recalls(sessions.RecallOptions{}, func(s sessions.SessionRecalls) error {
		order = append(order, s.Session+"/"+s.Agent)
		for _, r := range s.Recalls {
			// fn may recall on the same source: the lock is not held.
			if _, _, err := src.Features().Recall.Recall(r.Query, r.Limit); err != nil {
				t.Error(err)
			}
			r.Time = r.Time.UTC()
			// The exported fields: what Resolve keeps to read the result
			// against the entries is not compared.
			got = append(got, sessions.Recall{Time: r.Time, TimeFrom: r.TimeFrom, Session: r.Session, Agent: r.Agent, Query: r.Query,
				Limit: r.Limit, LimitSet: r.LimitSet, Names: r.Names, Result: r.Result})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []sessions.Recall{
		{Time: time.Date(2026, 1, 6, 10, 1, 0, 0, time.UTC), TimeFrom: sessions.TimeEvent, Session: "dana-1", Agent: "crab",
			Query: "deploy rollback", Limit: 5, Names: []string{"deploy-steps"}, Result: sessions.ResultNames},
		{Time: time.Date(2026, 1, 6, 10, 5, 0, 0, time.UTC), TimeFrom: sessions.TimeSession, Session: "dana-1", Agent: "crab",
			Query: "nothing here", Limit: 2, LimitSet: true, Result: sessions.ResultNone},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("recalls\n got %+v\nwant %+v", got, want)
	}
	// The fixture's own sessions come first (handle order), without recalls.
	wantOrder := []string{"alice-deploy/crab", "bob-db/crab", "carol-frontend/crab", "dana-1/crab", "erin-empty/crab", "ghost-1/"}
	if !reflect.DeepEqual(order, wantOrder) {
		t.Errorf("sessions %q, want %q", order, wantOrder)
	}
	wantP := sessions.RecallProblems{Sessions: 6, Steps: 10, UnparsableSteps: 1, UnknownAgents: 1}
	if p != wantP {
		t.Errorf("problems %+v, want %+v", p, wantP)
	}
}

// TestNewSessionBuilder_BadMeta: a session meta that is not JSON is
// skipped (no agent from it) and counted, so the problems line says so;
// no meta at all is no problem.
func TestNewSessionBuilder_BadMeta(t *testing.T) {
	agentOf := func(id string) (string, int) { return id, 5 }
	if p := NewSessionBuilder("h", []byte(`{"agent": "crab", `), agentOf).Finish().Problems; p.BadMeta != 1 || p.UnknownAgents != 1 {
		t.Errorf("bad meta: problems %+v, want one bad meta and an unknown agent", p)
	}
	if p := NewSessionBuilder("h", nil, agentOf).Finish().Problems; p.BadMeta != 0 {
		t.Errorf("no meta: problems %+v, want no bad meta", p)
	}
	if p := NewSessionBuilder("h", []byte(`{"agent": "crab"}`), agentOf).Finish().Problems; p.BadMeta != 0 || p.UnknownAgents != 0 {
		t.Errorf("good meta: problems %+v", p)
	}
}
