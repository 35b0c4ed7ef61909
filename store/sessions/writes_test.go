package sessions

import (
	"slices"
	"testing"
	"time"
)

// TestWrites_FromSteps reads remember and forget calls as crabtalk writes
// them: two calls in one message answered in call order, an OpenAI-shaped
// round with Gemini's repeated ids, failures, a forget of nothing, a call
// with no result, arguments crabtalk kept as {}, and the times of a
// tool_start event or of the step file.
func TestWrites_FromSteps(t *testing.T) {
	ts := "2026-03-02T09:00:00+00:00"
	steps := []string{
		`{"message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"remember","input":{"name":"a","content":"one","aliases":["x"]}},{"type":"tool_use","id":"t2","name":"forget","input":{"name":"b"}}]}}`,
		`{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","name":"remember","content":"remembered: a"},{"type":"tool_result","tool_use_id":"t2","name":"forget","content":"forgot: b"}]}}`,
		`{"event":"tool_start","calls":[{"id":"t1","name":"remember","arguments":"{}"},{"id":"t2","name":"forget","arguments":"{}"}],"ts":"` + ts + `"}`,
		`{"message":{"role":"assistant","tool_calls":[{"id":"call_0","function":{"name":"remember","arguments":"{\"name\":\"c\",\"content\":\"two\"}"}}]}}`,
		`{"message":{"role":"tool","tool_call_id":"call_0","content":"failed to save entry: disk full"}}`,
		`{"message":{"role":"assistant","tool_calls":[{"id":"call_0","function":{"name":"forget","arguments":"{\"name\":\"zz\"}"}}]}}`,
		`{"message":{"role":"tool","tool_call_id":"call_0","content":"no entry named: zz"}}`,
		`{"message":{"role":"assistant","content":[{"type":"tool_use","id":"t3","name":"remember","input":{}}]}}`,
		`{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t3","name":"remember","content":"invalid arguments: missing field name"}]}}`,
		`{"agent":"scout","message":{"role":"assistant","content":[{"type":"tool_use","id":"t4","name":"remember","input":{"name":"d","content":"three"}}]}}`,
	}
	stepAt := time.Date(2026, 3, 3, 0, 0, 0, 0, time.UTC)
	b := NewRecallBuilder("s1", "crab", 5, time.Time{})
	b.SetMeta("deploy pipeline", "alice", ts)
	for i, s := range steps {
		b.AddStep("step-"+string(rune('a'+i)), []byte(s), func() (time.Time, bool) { return stepAt, true })
	}
	got := b.Finish()
	if got.Title != "deploy pipeline" || got.CreatedBy != "alice" || got.Created != ts {
		t.Errorf("meta = %q %q %q", got.Title, got.CreatedBy, got.Created)
	}
	type w struct {
		tool, name, content string
		aliases             []string
		step, id, outcome   string
		agent, timeFrom     string
	}
	want := []w{
		{"remember", "a", "one", []string{"x"}, "step-a", "t1", WriteDone, "crab", TimeEvent},
		{"forget", "b", "", []string{}, "step-a", "t2", WriteDone, "crab", TimeEvent},
		{"remember", "c", "two", []string{}, "step-d", "call_0", WriteFailed, "crab", TimeStep},
		{"forget", "zz", "", []string{}, "step-f", "call_0", WriteNoEntry, "crab", TimeStep},
		{"remember", "", "", []string{}, "step-h", "t3", WriteFailed, "crab", TimeStep},
		{"remember", "d", "three", []string{}, "step-j", "t4", WriteMissing, "scout", TimeStep},
	}
	if len(got.Writes) != len(want) {
		t.Fatalf("got %d writes, want %d: %+v", len(got.Writes), len(want), got.Writes)
	}
	for i, g := range got.Writes {
		e := want[i]
		if g.Tool != e.tool || g.Name != e.name || g.Content != e.content || !slices.Equal(g.Aliases, e.aliases) ||
			g.Step != e.step || g.ID != e.id || g.Outcome != e.outcome || g.Agent != e.agent || g.TimeFrom != e.timeFrom || g.Session != "s1" {
			t.Errorf("write %d = %+v, want %+v", i, g, e)
		}
	}
	if got.Writes[0].Time.Format(time.RFC3339) != "2026-03-02T09:00:00Z" {
		t.Errorf("event time = %v", got.Writes[0].Time)
	}
	if !got.Writes[4].BadArguments {
		t.Error("{} arguments not marked bad")
	}
}

// TestWrites_OutcomeNamesTheEntry: a result naming another entry than the
// call's is not taken as done.
func TestWrites_OutcomeNamesTheEntry(t *testing.T) {
	for _, c := range []struct {
		tool, name, text, want string
	}{
		{RememberTool, "a", "remembered: a", WriteDone},
		{RememberTool, "a", "remembered: b", WriteUnknown},
		{RememberTool, "a", "failed to save entry: x", WriteFailed},
		{ForgetTool, "a", "forgot: a", WriteDone},
		{ForgetTool, "a", "forgot: a ", WriteUnknown},
		{ForgetTool, "a", "no entry named: a", WriteNoEntry},
		{ForgetTool, "a", "failed to forget a: io", WriteFailed},
		{ForgetTool, "a", "something else", WriteUnknown},
	} {
		w := Write{Tool: c.tool, Name: c.name}
		if got := w.outcome(c.text); got != c.want {
			t.Errorf("%s %q → %q: %s, want %s", c.tool, c.name, c.text, got, c.want)
		}
	}
}
