package sessions

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"
)

// This file reads the recall tool calls out of crabtalk's session steps.
// The shapes, from crabtalk's code (testdata/recalls/README.md has the
// commits and lines):
//
//   - A step is one StepLine (v0.0.22 crates/crabtalk/src/storage/fs/
//     sessions.rs), serde-untagged: a compact marker, a legacy marker, an
//     EventLine ({"event": "tool_start", "calls": [{"id", "name",
//     "arguments"}], "ts": RFC 3339}, …) or a HistoryEntry ({"agent"?:
//     guest agent, "message": Message}).
//   - A Message is {"role", "content"} where content is a string or a list
//     of blocks tagged by "type": "text", "thinking", "tool_use" {"id",
//     "name", "input"} and "tool_result" {"tool_use_id", "name"?,
//     "content"}. The OpenAI-shaped message of crabllm's chat types
//     ({"tool_calls": [{"id", "function": {"name", "arguments"}}]} and a
//     "tool" message with "tool_call_id") is read too.
//   - The recall tool's arguments are {"query": string, "limit"?: integer}
//     (crates/crabtalk/src/hooks/memory/recall.rs); its result is
//     "## name\ncontent" blocks joined by "\n---\n", or "no memories found".

// RecallTool is the name of crabtalk's recall tool.
const RecallTool = "recall"

// Result states of a recall.
const (
	ResultNames      = "names"      // the result listed entries
	ResultNone       = "none"       // "no memories found"
	ResultUnparsable = "unparsable" // a result that cannot be read as names
	ResultMissing    = "missing"    // no result step for the call
)

// Where a recall's time comes from.
const (
	TimeEvent   = "event"   // the tool_start event naming the call
	TimeStep    = "step"    // the step file's modification time
	TimeSession = "session" // the session's updated_at (crabtalk's store keeps no time per message)
)

// noMemories is the recall tool's result when nothing matched.
const noMemories = "no memories found"

// stepDoc is the part of a step that matters here, any StepLine variant.
type stepDoc struct {
	Agent   string          `json:"agent"`
	Message *message        `json:"message"`
	Event   string          `json:"event"`
	Calls   []traceCall     `json:"calls"`
	TS      string          `json:"ts"`
	Archive *string         `json:"archive_name"`
	Compact json.RawMessage `json:"compact"`
}

// traceCall is one call of a tool_start event.
type traceCall struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// message is a HistoryEntry's wire message.
type message struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCalls  []openAICall    `json:"tool_calls"`
	ToolCallID string          `json:"tool_call_id"`
}

// openAICall is a tool call of an OpenAI-shaped message.
type openAICall struct {
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// block is one content block.
type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
}

// stepKind is what a step holds for the recall reader.
type stepKind int

const (
	stepOther      stepKind = iota // parsable, nothing about recalls
	stepUnparsable                 // not a StepLine crabtalk would read
	stepRecalls                    // decoded: calls, results or events
)

// step is a decoded step: the tool calls it makes (every tool's, in
// order: results are paired with them by position), the tool results it
// carries, and for a tool_start event the calls it names and its time.
type step struct {
	agent   string // the guest agent of a HistoryEntry, "" for the session's
	calls   []call
	results []result
	event   []traceCall // a tool_start event's calls, in call order
	at      time.Time   // its time
	isEvent bool
}

// call is one tool call; for a recall (recall set) its arguments.
type call struct {
	id     string
	name   string
	recall bool
	query  string
	limit  int  // -1: not given
	badArg bool // arguments are not {"query": string, "limit"?: integer}
	// write is a remember or forget call's arguments (nil for any other
	// tool).
	write *Write
}

// result is one tool result.
type result struct {
	id   string
	text string
	ok   bool // the content is one text
}

// stepKeys are the keys of StepLine's variants; a step with none of them is
// not one crabtalk reads.
var stepKeys = [][]byte{[]byte(`"message"`), []byte(`"event"`), []byte(`"archive_name"`), []byte(`"compact"`)}

// recallHints are bytes a step must contain to matter to the recall
// reader (a recall or memory write call, a result, an event); other steps
// are only checked, never decoded.
var recallHints = [][]byte{[]byte(`"recall"`), []byte(`"tool_result"`), []byte(`"tool_call_id"`), []byte(`"tool_start"`), []byte(`"remember"`), []byte(`"forget"`)}

// parseRecallStep classifies one step and, when it may hold recall calls,
// results or call times, decodes them.
func parseRecallStep(data []byte) (step, stepKind) { return parseStepIn(data, true, nil, nil) }

// parseStepAs is parseRecallStep; fast false decodes every step as a
// stepDoc (for the test that both read alike).
func parseStepAs(data []byte, fast bool) (step, stepKind) { return parseStepIn(data, fast, nil, nil) }

// parseStepIn is parseStepAs reading the tool results' text into arena
// when it is not nil (scanFastDocIn): the step's results are then views
// of it, valid until it is read over; blocks, when not nil, is where its
// message's blocks are read (read over by the next step).
func parseStepIn(data []byte, fast bool, arena *[]byte, blocks *[]fastBlock) (step, stepKind) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return step{}, stepUnparsable
	}
	key, hint := quotedWords(data)
	if !key {
		return step{}, stepUnparsable
	}
	if !hint {
		return step{}, checkStep(data)
	}
	if fast {
		if f, ok := scanFastDocIn(data, arena, blocks); ok {
			return classify(f.Message, f.Agent, f.Event, f.Calls, f.TS, f.Archive, f.Compact)
		}
	}
	var f fastDoc
	if fast && json.Unmarshal(data, &f) == nil {
		return classify(f.Message, f.Agent, f.Event, f.Calls, f.TS, f.Archive, f.Compact)
	}
	var d stepDoc
	if err := json.Unmarshal(data, &d); err != nil {
		return step{}, stepUnparsable
	}
	return classify(d.Message, d.Agent, d.Event, d.Calls, d.TS, d.Archive, d.Compact)
}

// classify is what a decoded step holds, the same for either decoding.
func classify[M interface{ decode() (step, bool) }](m *M, agent, event string, calls []traceCall, ts string, archive *string, compact json.RawMessage) (step, stepKind) {
	switch {
	case m != nil:
		s, ok := (*m).decode()
		if !ok {
			return step{}, stepUnparsable
		}
		s.agent = agent
		return s, stepRecalls
	case event == "tool_start":
		return eventStep(calls, ts), stepRecalls
	case event != "" || archive != nil || compact != nil:
		return step{}, stepOther
	}
	return step{}, stepUnparsable
}

// fastDoc is stepDoc with every content typed as crabtalk writes it (a
// message's content a list of blocks, a tool result's content a string),
// so a step is decoded in one pass: the text of a tool result, often most
// of the step, is scanned once rather than three times. A step of any
// other shape fails to decode into it and is decoded as a stepDoc; one
// that decodes reads exactly as it would as a stepDoc (pinned by
// TestParseRecallStep_FastSameAsSlow and the fuzz target).
type fastDoc struct {
	Agent   string          `json:"agent"`
	Message *fastMessage    `json:"message"`
	Event   string          `json:"event"`
	Calls   []traceCall     `json:"calls"`
	TS      string          `json:"ts"`
	Archive *string         `json:"archive_name"`
	Compact json.RawMessage `json:"compact"`
}

// fastMessage is message with its content a list of blocks (null or
// absent: none; a string fails, and the step is decoded as a stepDoc).
type fastMessage struct {
	Role       string       `json:"role"`
	Content    []fastBlock  `json:"content"`
	ToolCalls  []openAICall `json:"tool_calls"`
	ToolCallID string       `json:"tool_call_id"`
}

// fastBlock is block with a tool result's content a string (null or
// absent: nil, not a text).
type fastBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   *string         `json:"content"`
}

// stepHead is what tells a StepLine crabtalk reads from one it skips,
// decoded without keeping the rest.
type stepHead struct {
	Message *struct {
		Role *string `json:"role"`
	} `json:"message"`
	Event   *string         `json:"event"`
	Archive *string         `json:"archive_name"`
	Compact json.RawMessage `json:"compact"`
}

// checkStep classifies a step that holds nothing about recalls: a message
// with a role, an event, or a marker is read by crabtalk; anything else is
// not.
func checkStep(data []byte) stepKind {
	if kind, ok := scanStepKind(data); ok {
		return kind
	}
	return decodeStepKind(data)
}

// decodeStepKind is checkStep by encoding/json.
func decodeStepKind(data []byte) stepKind {
	var h stepHead
	if json.Unmarshal(data, &h) != nil {
		return stepUnparsable
	}
	switch {
	case h.Message != nil && h.Message.Role != nil, h.Event != nil, h.Archive != nil, h.Compact != nil:
		return stepOther
	}
	return stepUnparsable
}

// quotedWords reports whether data holds one of stepKeys (key) and one of
// recallHints (hint), in one pass over its quotes: each of them begins
// with one.
func quotedWords(data []byte) (key, hint bool) {
	for i := 0; ; i++ {
		k := bytes.IndexByte(data[i:], '"')
		if k < 0 {
			return key, hint
		}
		i += k
		if i+1 == len(data) {
			return key, hint
		}
		for _, w := range wordsAt[data[i+1]] { // only the words that begin so
			switch {
			case w.key && !key:
				key = bytes.HasPrefix(data[i:], w.word)
			case !w.key && !hint:
				hint = bytes.HasPrefix(data[i:], w.word)
			}
		}
		if key && hint {
			return true, true
		}
	}
}

// quotedWord is a word of stepKeys (key) or recallHints.
type quotedWord struct {
	word []byte
	key  bool
}

// wordsAt is the words of stepKeys and recallHints by the byte after
// their quote.
var wordsAt = func() (t [256][]quotedWord) {
	for _, w := range stepKeys {
		t[w[1]] = append(t[w[1]], quotedWord{w, true})
	}
	for _, w := range recallHints {
		t[w[1]] = append(t[w[1]], quotedWord{w, false})
	}
	return t
}()

// eventStep reads a tool_start event: the calls it names, in call order,
// and its time. An event without a readable time still takes its place in
// the run's order (its calls get no time from it).
func eventStep(calls []traceCall, ts string) step {
	s := step{isEvent: true, event: calls}
	if t, err := time.Parse(time.RFC3339Nano, ts); err == nil {
		s.at = t
	}
	return s
}

// decode reads a message's recall calls and tool results. ok is false
// when the message is not a Message crabtalk would read (no role, content
// neither a string nor a list of blocks).
func (m message) decode() (step, bool) {
	var s step
	if m.Role == "" {
		return s, false
	}
	for _, c := range m.ToolCalls {
		s.addCall(c.ID, c.Function.Name, []byte(c.Function.Arguments))
	}
	content := bytes.TrimSpace(m.Content)
	switch {
	case len(content) == 0 || string(content) == "null":
	case content[0] == '"':
		if m.ToolCallID != "" {
			var text string
			json.Unmarshal(content, &text)
			s.results = append(s.results, result{id: m.ToolCallID, text: text, ok: true})
		}
	case content[0] == '[':
		var blocks []block
		if err := json.Unmarshal(content, &blocks); err != nil {
			return step{}, false
		}
		addBlocks(&s, blocks, m.ToolCallID)
	default:
		return step{}, false
	}
	return s, true
}

// addBlocks collects the recall calls and tool results of a block list.
// In an OpenAI-shaped tool message (toolCallID set) the text blocks are the
// result.
func addBlocks[B block | fastBlock](s *step, blocks []B, toolCallID string) {
	for i := range blocks {
		b := blockOf(&blocks[i])
		switch b.Type {
		case "tool_use":
			s.addCall(b.ID, b.Name, b.Input)
		case "tool_result":
			text, ok := b.result()
			s.results = append(s.results, result{id: b.ToolUseID, text: text, ok: ok})
		}
	}
	if toolCallID != "" {
		text, ok := "", false
		if len(blocks) == 1 {
			if b := blockOf(&blocks[0]); b.Type == "text" {
				text, ok = b.Text, true
			}
		}
		s.results = append(s.results, result{id: toolCallID, text: text, ok: ok})
	}
}

// anyBlock is a block or a fastBlock, with its result's text read.
type anyBlock struct {
	fastBlock
	raw json.RawMessage // a block's content, when not read yet
}

// result is the block's tool result content as one text (resultText).
func (b anyBlock) result() (string, bool) {
	if b.raw != nil || b.Content == nil {
		return resultText(b.raw)
	}
	return *b.Content, true
}

func blockOf[B block | fastBlock](p *B) anyBlock {
	switch b := any(p).(type) {
	case *fastBlock:
		return anyBlock{fastBlock: *b}
	case *block:
		return anyBlock{fastBlock: fastBlock{Type: b.Type, Text: b.Text, ID: b.ID, Name: b.Name, Input: b.Input, ToolUseID: b.ToolUseID}, raw: b.Content}
	}
	panic("unreachable")
}

// decode is message.decode for a message decoded as crabtalk writes it.
func (m fastMessage) decode() (step, bool) {
	var s step
	if m.Role == "" {
		return s, false
	}
	for _, c := range m.ToolCalls {
		s.addCall(c.ID, c.Function.Name, []byte(c.Function.Arguments))
	}
	if m.Content != nil {
		addBlocks(&s, m.Content, m.ToolCallID)
	}
	return s, true
}

// addCall adds a tool call: a recall or a memory write with its arguments
// read, any other tool by its id and name only.
func (s *step) addCall(id, name string, input []byte) {
	if isWriteTool(name) {
		s.calls = append(s.calls, call{id: id, name: name, limit: -1, write: parseWrite(name, input)})
		return
	}
	if name != RecallTool {
		s.calls = append(s.calls, call{id: id, name: name, limit: -1})
		return
	}
	c := parseArgs(id, input)
	c.name, c.recall = name, true
	s.calls = append(s.calls, c)
}

// blocksText is a list of blocks as one text: exactly one text block.
func blocksText(blocks []block) (string, bool) {
	if len(blocks) != 1 || blocks[0].Type != "text" {
		return "", false
	}
	return blocks[0].Text, true
}

// resultText is a tool result's content as one text: a string, or a list
// holding exactly one text block. Anything else is not the text crabtalk's
// recall writes, and ok is false.
func resultText(content json.RawMessage) (string, bool) {
	content = bytes.TrimSpace(content)
	if len(content) == 0 {
		return "", false
	}
	var text string
	if content[0] == '"' {
		return text, json.Unmarshal(content, &text) == nil
	}
	var blocks []block
	if json.Unmarshal(content, &blocks) != nil {
		return "", false
	}
	return blocksText(blocks)
}

// recallArgs are the recall tool's arguments as serde reads them: unknown
// keys are ignored, query must be a string and limit, when present and
// not null, a non-negative integer.
type recallArgs struct {
	Query *string         `json:"query"`
	Limit json.RawMessage `json:"limit"`
}

// parseArgs reads a recall call's arguments. crabtalk keeps arguments that
// were not JSON as {} (HistoryEntry::assistant), so they show up here as a
// call without a query.
func parseArgs(id string, input []byte) call {
	if query, limit, ok := scanRecallArgs(input); ok {
		return argsCall(id, &query, limit)
	}
	return parseArgsSlow(id, input)
}

// parseArgsSlow is parseArgs by encoding/json.
func parseArgsSlow(id string, input []byte) call {
	var a recallArgs
	if err := json.Unmarshal(input, &a); err != nil || a.Query == nil {
		return call{id: id, limit: -1, badArg: true}
	}
	return argsCall(id, a.Query, strings.TrimSpace(string(a.Limit)))
}

// argsCall is a recall call of query (nil: none, a bad argument) and
// limit, its JSON as given ("" or null: none).
func argsCall(id string, query *string, limit string) call {
	c := call{id: id, limit: -1}
	if query == nil {
		c.badArg = true
		return c
	}
	c.query = *query
	if limit == "" || limit == "null" {
		return c
	}
	n, ok := parseLimit(limit)
	if !ok {
		c.badArg = true
		return c
	}
	c.limit = n
	return c
}

// scanRecallArgs reads a recall's arguments as crabtalk writes them,
// {"query": string, "limit"?: number}, in one pass, as json.Unmarshal into
// recallArgs reads them (encoding/json's Unmarshal was a tenth of
// decoding the steps): the query, and the limit's JSON ("" when absent).
// ok is false for anything it does not read exactly so (a key repeated or
// in another case, a query that is not a string, a limit that is not a
// number, a string scanFastDoc leaves to encoding/json, what is not JSON):
// parseArgsSlow reads those. Pinned by TestScanRecallArgs_AsUnmarshal.
func scanRecallArgs(input []byte) (query, limit string, ok bool) {
	s := stepScanner{data: input}
	s.ws()
	var seen uint8
	ok = s.object(func(key string) bool {
		switch key {
		case "query":
			if seen&1 != 0 {
				return false
			}
			seen |= 1
			return s.str(&query)
		case "limit":
			if seen&2 != 0 {
				return false
			}
			seen |= 2
			start := s.i
			if !s.number() {
				return false
			}
			limit = string(input[start:s.i])
			return true
		}
		return !foldsTo(key, "query", "limit") && s.skip(0)
	})
	s.ws()
	return query, limit, ok && seen&1 != 0 && s.i == len(s.data)
}

// parseLimit reads a usize as serde_json does on a 64-bit machine: digits
// only (no sign, fraction or exponent), at most 2⁶⁴−1. A limit beyond any
// index is valid (crabtalk returns every hit); it is kept as the largest
// int at most.
func parseLimit(s string) (int, bool) {
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, false
	}
	return int(min(n, math.MaxInt)), true
}

// ParseResult reads the names out of a recall tool result by its shape
// alone: "## name\ncontent" blocks joined by "\n---\n" give their names
// in order, "no memories found" gives none. Every "\n---\n## " is taken
// for a block's start, so a content holding one would seem to add a name:
// Recall.Resolve reads the result against the memory's entries instead.
// limit is the call's effective limit: a result with more blocks than
// that cannot be split without guessing, and is unparsable, as is any
// text not of that form.
func ParseResult(text string, limit int) (names []string, state string) {
	if text == noMemories {
		return nil, ResultNone
	}
	rest, found := strings.CutPrefix(text, "## ")
	if !found {
		return nil, ResultUnparsable
	}
	for more := true; more; { // the parts strings.Split gives, none made
		var part string
		part, rest, more = strings.Cut(rest, blockSep)
		name, _, _ := strings.Cut(part, "\n")
		if name == "" {
			return nil, ResultUnparsable
		}
		names = append(names, name)
	}
	if limit >= 0 && len(names) > limit {
		return nil, ResultUnparsable
	}
	return names, ResultNames
}

// blockSep is what joins the recall tool's blocks, with the next block's
// "## ".
const blockSep = "\n---\n## "

// maxHead bounds the start of a piece kept to read a name from: a name
// longer than that is read as its first line.
const maxHead = 512

// maxPieces bounds the pieces of one result kept for Resolve; a result cut
// into more is left as its shape reads it.
const maxPieces = 1024

// headLen is how much of the start of a piece p Resolve reads: its first
// line (the name of a block whose entry is gone) and any longer name it
// can find (knownName), up to maxHead bytes. With maxName above 0 no name
// the lookup finds is longer than that: the head ends at its first line
// or maxName+1 bytes in, whichever is further, a prefix ending there or
// later being longer than any name found (knownName tries each line end,
// and the head's end, and the lookup refuses each of those).
func headLen(p string, maxName int) int {
	n := min(len(p), maxHead)
	if maxName <= 0 {
		return n
	}
	first := strings.IndexByte(p[:n], '\n')
	if first < 0 {
		return n
	}
	return min(n, max(first, maxName+1))
}

// piece is one piece of a recall result cut at every blockSep: its start
// (for its name), its length and its hash (hashText), so that Resolve can
// tell whether pieces joined are an entry's block without the text.
type piece struct {
	head string
	n    int
	h    uint64
	off  int // where it starts in the result, after its "## "
}

// pieces cuts a result (after its leading "## ") at every blockSep; the
// heads are views of rest (keepResult copies them), as long as headLen
// says for maxName, and each piece is hashed when hash is set (for a
// Resolve without the text).
func pieces(rest string, maxName int, hash bool) []piece {
	var out []piece
	off := 0
	for len(out) < maxPieces {
		p, next, more := strings.Cut(rest[off:], blockSep)
		pc := piece{head: p[:headLen(p, maxName)], n: len(p), off: off}
		if hash {
			pc.h = hashText(p)
		}
		out = append(out, pc)
		if !more {
			return out
		}
		off = len(rest) - len(next)
	}
	return nil
}

// hashBase is the base of hashText's polynomial hash (modulo 2⁶⁴).
const hashBase = 1099511628211

// hashText is a polynomial hash whose value for a joined text follows from
// its parts' (hashJoin).
func hashText(s string) uint64 {
	var h uint64
	i := 0
	// Eight bytes a step, h·B⁸ + Σ s[i+k]·B⁷⁻ᵏ: the same sum, its
	// products independent of each other (the text of every result
	// block is hashed).
	p := &hashPow
	for ; i+8 <= len(s); i += 8 {
		h = h*p[8] + uint64(s[i])*p[7] + uint64(s[i+1])*p[6] + uint64(s[i+2])*p[5] +
			uint64(s[i+3])*p[4] + uint64(s[i+4])*p[3] + uint64(s[i+5])*p[2] + uint64(s[i+6])*p[1] + uint64(s[i+7])
	}
	for ; i < len(s); i++ {
		h = h*hashBase + uint64(s[i])
	}
	return h
}

// hashPow holds hashBase⁰…hashBase⁸ (modulo 2⁶⁴), for hashText's steps
// of eight bytes.
var hashPow = func() (p [9]uint64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * hashBase
	}
	return p
}()

// hashJoin is hashText(a + b) from hashText(a), hashText(b) and len(b).
func hashJoin(ha, hb uint64, nb int) uint64 {
	p, b := uint64(1), uint64(hashBase)
	for e := nb; e > 0; e >>= 1 {
		if e&1 == 1 {
			p *= b
		}
		b *= b
	}
	return ha*p + hb
}

var sepHash = hashText(blockSep)

// Resolve reads a recall's result against the memory's entries (known
// gives an entry's content by its exact name), as crabtalk wrote it: "##
// name\ncontent" blocks joined by "\n---\n". A block whose entry is
// unchanged is matched whole, so a content holding "\n---\n## Feeding"
// does not make "Feeding" a returned name; the piece after it starts the
// next block, whatever its name (its entry may be gone since: its first
// line is its name). A name may hold newlines. Where an entry changed
// since, the next block starts at the next piece beginning with an
// entry's name; if pieces beginning with no entry's name come between,
// they may be content or entries gone since, cannot be told apart, and
// the result is unparsable, as is one listing more names than the call's
// limit. A result of a single block is read the same way (its name may
// hold a newline); one not a list of names is left as it is; nil known
// leaves every result as its shape reads it.
func (r *Recall) Resolve(known func(name string) (content string, ok bool)) {
	r.resolve(known, "", false)
}

// resolve is Resolve; with inline set, rest is the result after its "##
// " (the text the pieces were cut from), and a block's text is compared
// with its entry's rather than its hash.
func (r *Recall) resolve(known func(name string) (content string, ok bool), rest string, inline bool) {
	if known == nil || len(r.pieces) < 1 {
		return
	}
	if len(r.pieces) == 1 && r.pieces[0].n < 0 { // one block, not hashed
		if name, _, ok := knownName(r.pieces[0].head, known); ok && r.Limit != 0 {
			r.Names, r.Result = []string{name}, ResultNames
		}
		return
	}
	ps := r.pieces
	var names []string
	for i := 0; i < len(ps); {
		name, content, ok := knownName(ps[i].head, known)
		if !ok {
			name, _, _ = strings.Cut(ps[i].head, "\n")
		}
		names = append(names, name)
		if ok {
			// hashText(name + "\n" + content), without making that text
			// (a copy of the entry for every name of every result); or,
			// with the text, the text itself.
			var target uint64
			if !inline {
				target = hashJoin(hashJoin(hashText(name), '\n', 1), hashText(content), len(content))
			}
			h, n := ps[i].h, ps[i].n
			end := -1
			for j := i; j < len(ps); j++ {
				if j > i {
					n += len(blockSep) + ps[j].n
					if !inline {
						h = hashJoin(hashJoin(h, sepHash, len(blockSep)), ps[j].h, ps[j].n)
					}
				}
				if n != len(name)+1+len(content) {
					continue
				}
				if inline && isBlock(rest[ps[i].off:ps[i].off+n], name, content) || !inline && h == target {
					end = j
					break
				}
			}
			if end >= 0 {
				i = end + 1 // the next piece surely starts a block
				continue
			}
		}
		j := i + 1
		for j < len(ps) {
			if _, _, ok := knownName(ps[j].head, known); ok {
				break
			}
			j++
		}
		if j > i+1 {
			r.Names, r.Result = nil, ResultUnparsable // content or gone entries: cannot be told apart
			return
		}
		i = j
	}
	if r.Limit >= 0 && len(names) > r.Limit {
		r.Names, r.Result = nil, ResultUnparsable
		return
	}
	r.Names, r.Result = names, ResultNames
}

// isBlock reports whether text is the block "name\ncontent" the recall
// tool writes for an entry.
func isBlock(text, name, content string) bool {
	return len(text) == len(name)+1+len(content) && text[:len(name)] == name && text[len(name)] == '\n' && text[len(name)+1:] == content
}

// knownName is the longest entry name that head begins with, followed by
// a newline (or ending the head), that known holds, and its content.
func knownName(head string, known func(string) (string, bool)) (name, content string, ok bool) {
	for i := 1; i <= len(head); i++ {
		// The next line end (or the head's), found a word at a time: a
		// head is up to maxHead bytes, of one block of every result.
		if k := strings.IndexByte(head[i:], '\n'); k >= 0 {
			i += k
		} else {
			i = len(head)
		}
		if c, found := known(head[:i]); found {
			name, content, ok = head[:i], c, true
		}
	}
	return name, content, ok
}
