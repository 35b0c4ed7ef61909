package crabdb

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/crmem/crmem/store/sessions"
)

// Sessions in the store (column 1, crates/store/src/interface/session.rs
// at 72fbe605): "local/session/{handle}/meta" is the SessionMeta (its agent
// is an AgentId, a ULID), "/msg/{idx:012}" each HistoryEntry in order,
// "/evt/{idx:012}" each EventLine, "/archive" the compaction marker. A
// compaction deletes the messages it covers, so only the recalls since a
// session's last compaction are still in the store. Messages carry no time:
// a recall takes the time of the tool_start event naming it, else the
// session's updated_at.

// storeMeta is the part of a session's SessionMeta that matters here.
type storeMeta struct {
	Agent     string `json:"agent"`
	UpdatedAt string `json:"updated_at"`
	Title     string `json:"title"`
	CreatedBy string `json:"created_by"`
	CreatedAt string `json:"created_at"`
}

// storeAgent is the part of an agent record (column 0,
// "local/agent/{id}") that matters here.
type storeAgent struct {
	Name  string `json:"name"`
	Hooks struct {
		Memory struct {
			RecallLimit *int `json:"recall_limit"`
		} `json:"memory"`
	} `json:"hooks"`
}

// sessionHandles lists the handles of the sessions that have a key in
// column 1, in order.
func (s *Store) sessionHandles() []string {
	var out []string
	s.scan(ColSession, sessionPrefix, func(k string, _ []byte) {
		h, _, ok := strings.Cut(k[len(sessionPrefix):], "/")
		if ok && h != "" && (len(out) == 0 || out[len(out)-1] != h) {
			out = append(out, h)
		}
	})
	return out
}

// sessionRecalls reads one session's recalls: its agent from its meta and
// the agent's record, its events and messages in key order.
func (s *Store) sessionRecalls(h string, opt sessions.RecallOptions) sessions.SessionRecalls {
	prefix := sessionPrefix + h + "/"
	meta, _ := s.Get(ColSession, prefix+"meta")
	b := NewSessionBuilder(h, meta, func(id string) (string, int) { return s.agent(id, opt) })
	for _, part := range []string{"evt/", "msg/"} {
		s.scan(ColSession, prefix+part, func(k string, v []byte) { b.AddStep(k[len(prefix):], v, nil) })
	}
	return b.Finish()
}

// NewSessionBuilder starts reading one session of a store: handle, its
// meta's value (nil: none; one that is not JSON is skipped and counted)
// and agentOf, which names the agent with an id
// and gives its recall_limit. The session's time is its updated_at (the
// store keeps none per message). Its steps are then added in key order,
// events ("evt/…") before messages ("msg/…"), each named by its key after
// the session's prefix.
func NewSessionBuilder(handle string, meta []byte, agentOf func(id string) (string, int)) *sessions.RecallBuilder {
	var m storeMeta
	bad := meta != nil && json.Unmarshal(meta, &m) != nil
	if bad {
		m = storeMeta{}
	}
	agent, limit := agentOf(m.Agent)
	at, err := time.Parse(time.RFC3339Nano, m.UpdatedAt)
	if err != nil {
		at = time.Time{}
	}
	b := sessions.NewRecallBuilder(handle, agent, limit, at)
	b.SetMeta(m.Title, m.CreatedBy, m.CreatedAt)
	if bad {
		b.BadMeta() // skipped, and said: the problems line counts it
	}
	return b
}

// agent names the agent with id and its recall_limit (opt's when its
// record has none); "" when the store has no record of it.
func (s *Store) agent(id string, opt sessions.RecallOptions) (string, int) {
	limit := opt.Limit
	if limit <= 0 {
		limit = sessions.DefaultRecallLimit
	}
	if id == "" {
		return "", limit
	}
	v, ok := s.Get(ColAgent, "local/agent/"+id)
	if !ok {
		return "", limit
	}
	var a storeAgent
	if json.Unmarshal(v, &a) != nil || a.Name == "" {
		return "", limit
	}
	if l := a.Hooks.Memory.RecallLimit; l != nil && *l >= 0 { // the agent's own, as crabtalk's recall_limit reads it
		limit = *l
	}
	return a.Name, limit
}

// Recalls streams the recalls of the store's sessions, one session at a
// time in handle order. The lock is held while a session is read, not
// while fn runs, so fn may recall on the same source.
func (r sessionsReader) Recalls(opt sessions.RecallOptions, fn func(sessions.SessionRecalls) error) (sessions.RecallProblems, error) {
	r.s.mu.Lock()
	handles := r.s.f.Store().sessionHandles()
	r.s.mu.Unlock()
	var p sessions.RecallProblems
	for _, h := range handles {
		r.s.mu.Lock()
		sr := r.s.f.Store().sessionRecalls(h, opt)
		r.s.mu.Unlock()
		p.Add(sr.Problems)
		if err := fn(sr); err != nil {
			return p, err
		}
	}
	return p, nil
}
