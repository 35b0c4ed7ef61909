// Package history tells an entry's story: every version of it the agent's
// memory still has evidence of, oldest first, and where each came from.
//
// The evidence is kept twice. crabtalk's store (SPEC §10) is append-only:
// every Put and Delete of an entry's record stays in the file, in order,
// until crabdb compacts it (older snapshots stay as dead bytes and are
// skipped). Records carry no time. And every write the agent makes is a
// `remember` tool call {name, content, aliases} (a delete a `forget` call)
// in a session step, with its result ("remembered: NAME", "forgot: NAME",
// or a failure); the session's meta names its agent and title. A v1 memory
// file is rewritten whole and keeps no history: its versions come from
// the sessions alone, and the entry as the file holds it now.
//
// A version is matched to the call that wrote it only when the call's
// arguments are exactly the version's name, content and aliases (and, for
// a delete, the call removed that name); nothing is guessed. A store
// version no call explains says "unknown source"; a call whose version the
// log does not hold is marked as known only from the sessions.
package history

import "time"

// Action is what a version did to the entry.
type Action string

// The actions a version can have.
const (
	// Write put the entry: created it or replaced its content, aliases or
	// kind.
	Write Action = "write"
	// Delete removed it (forget, crmem rm).
	Delete Action = "delete"
	// RenameIn put it under this name (Name) with the content, aliases,
	// kind and created_at another name (From) held, which was removed at
	// once: one version, the rename. The versions before it may be under
	// From.
	RenameIn Action = "rename"
	// RenameOut ended a life of the name asked about: the entry went on
	// under another name (To), which a rename gave it ("" and nil, as a
	// delete's). What it did under To is To's story, not this name's.
	RenameOut Action = "rename_away"
)

// Origin says where a version is known from.
type Origin string

// The origins a version can have.
const (
	// FromLogAndSession: a store record that a session's call explains.
	FromLogAndSession Origin = "log+session"
	// FromLog: a store record no session explains (written by hand, by
	// crmem, by another tool, or by a session the store no longer holds):
	// "unknown source".
	FromLog Origin = "log"
	// FromSession: a call whose version the log does not hold (a v1
	// memory file keeps no log; a store may have been compacted since).
	FromSession Origin = "session"
	// FromMemory: the entry as a v1 memory file holds it now, which no
	// session's call explains.
	FromMemory Origin = "memory"
	// FromMemoryAndSession: the entry as a v1 memory file holds it now,
	// exactly as a session's call wrote it.
	FromMemoryAndSession Origin = "memory+session"
)

// Version is one state of the entry, or its removal.
type Version struct {
	// N numbers the versions from 1, oldest first.
	N      int    `json:"n"`
	Action Action `json:"action"`
	// Name is the entry's name in this version.
	Name string `json:"name"`
	// From is the name a rename came from (RenameIn).
	From string `json:"from,omitempty"`
	// To is the name a rename away went to (RenameOut).
	To string `json:"to,omitempty"`
	// Life is the life of the name asked about this version belongs to
	// (History.Lives), from 1, oldest first: versions under the names an
	// entry had before a rename into the name belong to that entry's life.
	Life int `json:"life"`
	// Kind, Content, Aliases and CreatedAt are the entry as this version
	// left it ("" and nil for a delete). CreatedAt is the string as
	// stored (a store's RFC 3339 string; a v1 file's time printed in
	// RFC 3339); "" when the version does not say (a session's call
	// carries none).
	Kind      string   `json:"kind,omitempty"`
	Content   string   `json:"content"`
	Aliases   []string `json:"aliases"`
	CreatedAt string   `json:"created_at,omitempty"`
	Origin    Origin   `json:"origin"`
	// Log is where the store's record of this version is; nil for a
	// version known only from sessions or from a v1 file.
	Log *LogPos `json:"log,omitempty"`
	// Call is the session's call that wrote it; nil when no call did.
	Call *Call `json:"call,omitempty"`
	// Current marks the version memory holds now.
	Current bool `json:"current"`
}

// LogPos is a record's place in a store's log.
type LogPos struct {
	// Offset is the record's byte offset in the file.
	Offset int64 `json:"offset"`
	// Seq numbers the memory records (column 2) of the log from 1, in
	// file order.
	Seq int `json:"seq"`
}

// Call is a remember or forget tool call in a session.
type Call struct {
	Tool      string `json:"tool"`                 // "remember" or "forget"
	Session   string `json:"session"`              // the session's folder name or the store's handle
	Title     string `json:"title,omitempty"`      // the session's title ("" when it has none)
	Agent     string `json:"agent,omitempty"`      // the agent that made the call ("" when unknown)
	CreatedBy string `json:"created_by,omitempty"` // who started the session ("" when unknown)
	// Step names the step holding the call: a step file's name
	// ("step-000012") or a store message's key ("msg/000000000012").
	Step string `json:"step"`
	ID   string `json:"id"` // the call's id as the model gave it
	// Time is when the call was made, as TimeFrom says; zero when
	// unknown.
	Time time.Time `json:"time,omitzero"`
	// TimeFrom is where Time comes from: sessions.TimeEvent (the
	// tool_start event's ts), sessions.TimeStep (the step file's
	// modification time) or sessions.TimeSession (the session's
	// updated_at: crabtalk's store keeps no time per message).
	TimeFrom string `json:"time_from,omitempty"`
	// Result is the tool's result text ("remembered: NAME").
	Result string `json:"result"`
}

// History is one entry's versions.
type History struct {
	// Name is the name asked for.
	Name string `json:"name"`
	// Versions are oldest first. The last is Current when the entry is
	// in memory now.
	Versions []Version `json:"versions"`
	// Log says the versions were read from a store's log (false: a v1
	// memory, which keeps no history of its own: its versions are the
	// sessions' calls and the entry now).
	Log bool `json:"log"`
	// Lives are the entries that held the name, oldest first, each
	// once: an entry's life runs from its creation (or, through renames
	// into the name, its creation under an earlier name) to its deletion,
	// its rename away or now. The last is this entry: the one memory holds
	// under the name now, or held last. Only its versions can be restored;
	// the earlier lives are other entries that had the name before.
	Lives []Life `json:"lives"`
	// Exists says an entry of this name is in memory now (the last life's
	// last version is Current).
	Exists bool `json:"exists"`
	// Stop is set when the store's log could not be read to its end: a
	// record that does not decode. History stops there.
	Stop *Stop `json:"stop,omitempty"`
	// Problems are what reading the sessions could not use (unreadable or
	// unparsable steps, calls with no result), each one line.
	Problems []string `json:"problems,omitempty"`
}

// Life is one entry that held the name asked about.
type Life struct {
	// N numbers the lives from 1, oldest first (Version.Life).
	N int `json:"n"`
	// First and Last are the numbers of its first and last versions.
	First int `json:"first"`
	Last  int `json:"last"`
	// Ended says how it ended: LifeDeleted, LifeRenamed (To names the
	// name it went on under) or LifeReplaced; "" while memory holds it.
	Ended string `json:"ended,omitempty"`
	To    string `json:"to,omitempty"`
}

// How a life ended (Life.Ended).
const (
	// LifeDeleted: a delete removed it.
	LifeDeleted = "deleted"
	// LifeRenamed: a rename gave it another name (Life.To).
	LifeRenamed = "renamed"
	// LifeReplaced: a memory.db's entry of the name now was created after
	// this life's last write, so that entry was removed or renamed away
	// by something no session recorded (crmem, by hand).
	LifeReplaced = "replaced"
)

// Stop is where a store's log stopped being readable, and why.
type Stop struct {
	Offset int64  `json:"offset"`
	Reason string `json:"reason"`
}

// Forgotten is an entry the log or the sessions know that memory does not
// hold now.
type Forgotten struct {
	Name string `json:"name"`
	// Last is its last version that held content: what a restore brings
	// back.
	Last Version `json:"last"`
	// Removed is the version that removed it (a Delete); nil when no
	// removal is recorded (a v1 file's entry a session remembered that is
	// gone now).
	Removed *Version `json:"removed"`
	// Versions counts its versions.
	Versions int `json:"versions"`
}
