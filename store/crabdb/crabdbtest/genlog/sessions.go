package genlog

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/crmem/crmem/store/crabdb"
)

// session is one session's state.
type session struct {
	handle    string
	agent     int
	createdAt string
	title     string
	msgs      int
	evts      int
	created   bool
}

// agent is one of the agents sessions belong to.
type agent struct{ id, name string }

// session chooses the session of an explained op: sessions follow one
// another through the log, a few open at once.
func (g *gen) session() *session {
	n := len(g.sessions)
	i := min(n-1, int(int64(g.stats.MemoryRecords)*int64(n)/int64(g.opt.MemoryRecords))+g.rng.IntN(3))
	s := &g.sessions[i]
	if !s.created {
		// create_session: the meta, then the session index's key.
		s.created = true
		s.createdAt = crabdb.RFC3339(g.now.Add(-time.Second))
		s.title = fmt.Sprintf("%s and %s", words[g.rng.IntN(len(words))], words[g.rng.IntN(len(words))])
		g.putMeta(s, "", s.createdAt)
		g.record(crabdb.OpPut, crabdb.ColSession, "local/idx/sess/"+g.agents[s.agent].id+"/gen/"+s.createdAt+"/"+s.handle, []byte(s.handle))
		g.stats.Sessions++
	}
	return s
}

// putMeta writes a session's SessionMeta.
func (g *gen) putMeta(s *session, title, updated string) {
	v, _ := marshal(struct {
		Agent        string `json:"agent"`
		CreatedBy    string `json:"created_by"`
		CreatedAt    string `json:"created_at"`
		Title        string `json:"title"`
		UpdatedAt    string `json:"updated_at"`
		MessageCount int    `json:"message_count"`
	}{g.agents[s.agent].id, "gen", s.createdAt, title, updated, s.msgs})
	g.record(crabdb.OpPut, crabdb.ColSession, "local/session/"+s.handle+"/meta", v)
}

// toolUse is the tool_use block of an assistant message.
type toolUse struct {
	Type  string          `json:"type"`
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// toolResult is the tool_result block of the user message after it.
type toolResult struct {
	Type      string `json:"type"`
	ToolUseID string `json:"tool_use_id"`
	Name      string `json:"name"`
	Content   string `json:"content"`
}

// message is a HistoryEntry.
type message struct {
	Message struct {
		Role    string `json:"role"`
		Content []any  `json:"content"`
	} `json:"message"`
}

// call writes the session records of the tool call that made a memory op,
// as crabtalk's finalize_run writes a run: the assistant message with the
// tool_use and the user message with its result, the meta, the
// tool_start and tool_result events, the meta again. It returns the
// assistant message's index.
func (g *gen) call(s *session, op string, e crabdb.Entry) int {
	g.calls++
	id := fmt.Sprintf("toolu_gen%09d", g.calls)
	tool, result, args, input := callOf(op, e)
	prefix := "local/session/" + s.handle + "/"
	var use, res message
	use.Message.Role, use.Message.Content = "assistant", []any{toolUse{"tool_use", id, tool, input}}
	res.Message.Role, res.Message.Content = "user", []any{toolResult{"tool_result", id, tool, result}}
	msg := s.msgs
	for _, m := range []message{use, res} {
		v, _ := marshal(m)
		g.record(crabdb.OpPut, crabdb.ColSession, fmt.Sprintf("%smsg/%012d", prefix, s.msgs), v)
		s.msgs++
	}
	ts := crabdb.RFC3339(g.now)
	g.putMeta(s, s.title, ts)
	for _, v := range g.events(id, tool, args, ts) {
		g.record(crabdb.OpPut, crabdb.ColSession, fmt.Sprintf("%sevt/%012d", prefix, s.evts), v)
		s.evts++
	}
	g.putMeta(s, s.title, ts)
	return msg
}

// callOf is the tool call that made a memory op (op "remove": forget,
// else remember), its result's text, its arguments as a model sends them,
// and its input as crabtalk keeps them (a serde_json Value: keys in
// order).
func callOf(op string, e crabdb.Entry) (tool, result string, args, input []byte) {
	if op == "remove" {
		args, _ = marshal(struct {
			Name string `json:"name"`
		}{e.Name})
		return "forget", "forgot: " + e.Name, args, args
	}
	args, _ = marshal(struct {
		Name    string   `json:"name"`
		Content string   `json:"content"`
		Aliases []string `json:"aliases"`
	}{e.Name, e.Content, nonNil(e.Aliases)})
	input, _ = marshal(struct {
		Aliases []string `json:"aliases"`
		Content string   `json:"content"`
		Name    string   `json:"name"`
	}{nonNil(e.Aliases), e.Content, e.Name})
	return "remember", "remembered: " + e.Name, args, input
}

// callArgs is a tool_start event's call.
type callArgs struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// events are the tool_start and tool_result events of the call id at ts,
// the result 1 to 40 ms later.
func (g *gen) events(id, tool string, args []byte, ts string) [][]byte {
	start, _ := marshal(struct {
		Event string     `json:"event"`
		Calls []callArgs `json:"calls"`
		TS    string     `json:"ts"`
	}{"tool_start", []callArgs{{id, tool, string(args)}}, ts})
	ms := 1 + g.rng.IntN(40)
	done, _ := marshal(struct {
		Event      string `json:"event"`
		CallID     string `json:"call_id"`
		DurationMS int    `json:"duration_ms"`
		TS         string `json:"ts"`
	}{"tool_result", id, ms, crabdb.RFC3339(g.now.Add(time.Duration(ms) * time.Millisecond))})
	return [][]byte{start, done}
}
