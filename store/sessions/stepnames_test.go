package sessions

import (
	"encoding/json"
	"testing"
)

// TestStepNamesAny: the step filter of one entry's history finds the entry's
// name wherever a memory write's step holds it, escaped once or twice, as
// serde writes it or as a model wrote its arguments (\u escapes), and a
// step that only holds the name elsewhere, or another name, is not taken.
func TestStepNamesAny(t *testing.T) {
	args := func(name string) string { // an arguments string holding {"name": name}
		inner, _ := json.Marshal(map[string]string{"name": name, "content": "x"})
		outer, _ := json.Marshal(string(inner))
		return string(outer)
	}
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	for _, c := range []struct {
		name, step string
		want       bool
	}{
		{"deploy-steps", `{"message":{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"remember","input":{"aliases":[],"content":"x","name":"deploy-steps"}}]}}`, true},
		{"deploy-steps", `{"message":{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"remember","input":{"name" : "deploy-steps"}}]}}`, true},
		{"deploy-steps", `{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","name":"remember","content":"remembered: deploy-steps"}]}}`, true},
		{"deploy-steps", `{"message":{"role":"tool","tool_call_id":"call_0","content":"forgot: deploy-steps"}}`, true},
		{"deploy-steps", `{"event":"tool_start","calls":[{"id":"t","name":"remember","arguments":` + args("deploy-steps") + `}],"ts":"2026-01-01T00:00:00Z"}`, true},
		{`say "hi" \ now`, `{"message":{"role":"assistant","tool_calls":[{"id":"call_0","function":{"name":"remember","arguments":` + args(`say "hi" \ now`) + `}}]}}`, true},
		{`say "hi" \ now`, `{"input":{"name":` + q(`say "hi" \ now`) + `}}`, true},
		{"café ☕", `{"arguments":"{\"name\":\"caf\\u00e9 \\u2615\"}"}`, true},
		{"café ☕", `{"input":{"name":"caf\u00e9 \u2615"}}`, true},
		{"deploy-steps", `{"message":{"role":"user","content":"please look at deploy-steps"}}`, false},
		{"deploy-steps", `{"input":{"name":"deploy-steps-2"}}`, false},
		{"deploy", `{"message":{"role":"user","content":[{"type":"tool_result","name":"remember","content":"remembered: deploy-steps"}]}}`, false},
		{"remember", `{"type":"tool_use","name":"recall","input":{"query":"remember"}}`, false},
	} {
		if got := StepNamesAny([]byte(c.step), map[string]bool{c.name: true}); got != c.want {
			t.Errorf("%q in %s: %v, want %v", c.name, c.step, got, c.want)
		}
	}
}
