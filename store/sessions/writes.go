package sessions

import (
	"encoding/json"
	"strings"
	"time"
)

// This file reads the memory writes out of crabtalk's session steps: the
// `remember` and `forget` tool calls (72fbe605 crates/crabtalk/src/harness/
// memory/remember.rs and forget.rs; v0.0.22's hooks/memory has the same
// tools and texts). remember's arguments are {"name", "content",
// "aliases"?} (serde: unknown keys ignored, aliases defaults to []), its
// result "remembered: NAME" or "failed to save entry: …"; forget's are
// {"name"}, its result "forgot: NAME", "no entry named: NAME" or "failed
// to forget NAME: …". Arguments that do not parse give "invalid
// arguments: …" and write nothing.

// The memory tools.
const (
	RememberTool = "remember"
	ForgetTool   = "forget"
)

// Outcomes of a memory write call, read from its result.
const (
	// WriteDone: the tool says it wrote ("remembered: NAME", "forgot:
	// NAME"). Only these calls changed memory.
	WriteDone = "done"
	// WriteNoEntry: forget found no entry of that name; nothing changed.
	WriteNoEntry = "no-entry"
	// WriteFailed: the tool says it failed, or its arguments were
	// invalid; nothing changed.
	WriteFailed = "failed"
	// WriteUnknown: the result is not one the tool writes (or names
	// another entry); whether memory changed is not known.
	WriteUnknown = "unknown"
	// WriteMissing: no result step for the call; whether memory changed is
	// not known.
	WriteMissing = "missing"
)

// Write is one remember or forget call the agent made.
type Write struct {
	Tool    string // RememberTool or ForgetTool
	Name    string
	Content string   // remember's content
	Aliases []string // remember's aliases ([] when not given)
	// BadArguments says the arguments were not the tool's (then Name and
	// Content are empty): crabtalk answered "invalid arguments".
	BadArguments bool
	Session      string
	Agent        string // "" when unknown
	// Step names the step holding the call: the step file's name, or the
	// store's message key after the session's prefix ("msg/000000000012").
	Step     string
	ID       string    // the call's id as the model gave it
	Time     time.Time // as TimeFrom says; zero when unknown
	TimeFrom string    // TimeEvent, TimeStep or TimeSession
	Result   string    // the result's text ("" when missing)
	// ResultStep names the step holding the result ("" when missing).
	ResultStep string
	Outcome    string // WriteDone, WriteNoEntry, WriteFailed, WriteUnknown or WriteMissing
}

// writeArgs are remember's and forget's arguments as serde reads them.
type writeArgs struct {
	Name    *string   `json:"name"`
	Content *string   `json:"content"`
	Aliases *[]string `json:"aliases"`
}

// parseWrite reads a memory tool call's arguments. crabtalk keeps
// arguments that were not JSON as {} (HistoryEntry::assistant), so they
// show up as a call without a name.
func parseWrite(tool string, input []byte) *Write {
	w := &Write{Tool: tool, Aliases: []string{}}
	var a writeArgs
	if err := json.Unmarshal(input, &a); err != nil || a.Name == nil || (tool == RememberTool && a.Content == nil) {
		w.BadArguments = true
		return w
	}
	w.Name = *a.Name
	if tool == RememberTool {
		w.Content = *a.Content
		if a.Aliases != nil {
			w.Aliases = *a.Aliases
		}
	}
	return w
}

// outcome reads a write's result text as its tool writes it.
func (w *Write) outcome(text string) string {
	if w.BadArguments {
		return WriteFailed
	}
	switch w.Tool {
	case RememberTool:
		switch {
		case text == "remembered: "+w.Name:
			return WriteDone
		case strings.HasPrefix(text, "failed to save entry: "), strings.HasPrefix(text, "invalid arguments: "):
			return WriteFailed
		}
	case ForgetTool:
		switch {
		case text == "forgot: "+w.Name:
			return WriteDone
		case text == "no entry named: "+w.Name:
			return WriteNoEntry
		case strings.HasPrefix(text, "failed to forget "), strings.HasPrefix(text, "invalid arguments: "):
			return WriteFailed
		}
	}
	return WriteUnknown
}

// isWriteTool reports whether name is one of the memory tools.
func isWriteTool(name string) bool { return name == RememberTool || name == ForgetTool }
