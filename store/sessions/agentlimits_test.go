package sessions

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestWalkRecalls_AgentLimits reads each agent's recall_limit from
// crabtalk's settings file: a call without a limit has its agent's, a
// guest agent's call the guest's, an agent not listed the default.
func TestWalkRecalls_AgentLimits(t *testing.T) {
	root := t.TempDir()
	settings := filepath.Join(root, "local", "settings.toml")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	// [agents.NAME] is an AgentConfig (crabtalk v0.0.22 crates/core/src/agent/config.rs), its hooks.memory a MemoryConfig (config/hooks.rs).
	if err := os.WriteFile(settings, []byte("[agents.crab]\nmodel = \"m\"\n[agents.crab.hooks.memory]\nrecall_limit = 3\n\n[agents.scout.hooks.memory]\nrecall_limit = 10000000000\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	write := func(session string, steps ...string) {
		dir := filepath.Join(root, "sessions", session)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for i, s := range steps {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("step-%06d", i)), []byte(s), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	call := `{"message":{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"recall","input":{"query":"q"}}]}}`
	write("crab_eve_1", call, `{"agent":"scout","message":{"role":"assistant","content":[{"type":"tool_use","id":"b","name":"recall","input":{"query":"g"}}]}}`)
	write("other_eve_1", call)
	var got []string
	_, err := WalkRecalls(filepath.Join(root, "sessions"), RecallOptions{Settings: SettingsPath(filepath.Join(root, "memory.db"))}, func(s SessionRecalls) error {
		for _, r := range s.Recalls {
			got = append(got, fmt.Sprintf("%s/%s:%d", s.Session, r.Agent, r.Limit))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "[crab_eve_1/crab:3 crab_eve_1/scout:10000000000 other_eve_1/other:5]"
	if fmt.Sprint(got) != want {
		t.Errorf("limits %v, want %s", got, want)
	}
}

// TestAgentLimits_Unreadable gives every agent the default limit when the
// settings file cannot be used: missing, a folder, over the cap, not TOML.
func TestAgentLimits_Unreadable(t *testing.T) {
	dir := t.TempDir()
	file := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	big := make([]byte, maxSettingsBytes+1)
	for i := range big {
		big[i] = '\n'
	}
	tests := []struct{ name, path string }{
		{"none", ""},
		{"missing", filepath.Join(dir, "missing.toml")},
		{"folder", dir},
		{"over the cap", file("big.toml", big)},
		{"not TOML", file("bad.toml", []byte("[agents.crab\n"))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := agentLimits(tt.path); got != nil {
				t.Errorf("agentLimits = %v, want nil", got)
			}
		})
	}
	if got := agentLimits(file("ok.toml", []byte("[agents.crab.hooks.memory]\nrecall_limit = 7\n"))); got["crab"] != 7 {
		t.Errorf("agentLimits = %v, want crab:7", got)
	}
}
