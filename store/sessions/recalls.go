package sessions

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode"
	"unsafe"

	"github.com/crmem/crmem/internal/safefile"
)

// Recall is one recall tool call the agent made, and what it returned.
type Recall struct {
	Time     time.Time // when, as TimeFrom says; zero when unknown
	TimeFrom string    // TimeEvent, TimeStep or TimeSession
	Session  string
	Agent    string // "" when unknown
	Query    string
	Limit    int  // the call's limit, else the agent's recall_limit
	LimitSet bool // the call gave its limit
	Names    []string
	Result   string // ResultNames, ResultNone, ResultUnparsable or ResultMissing
	// pieces are the result's pieces when it has more than one, for
	// Resolve to read against the memory's entries.
	pieces []piece
}

// RecallProblems counts what reading recalls could not use. Every count is
// of things skipped or shown as such, never guessed.
type RecallProblems struct {
	// NoFolder is the sessions folder when it does not exist.
	NoFolder          string `json:"no_folder,omitempty"`
	Sessions          int    `json:"sessions"`
	Steps             int    `json:"steps"`
	UnparsableSteps   int    `json:"unparsable_steps"`
	UnreadableSteps   int    `json:"unreadable_steps"`
	BadArguments      int    `json:"bad_arguments"`
	UnknownAgents     int    `json:"unknown_agent_sessions"`
	UnparsableResults int    `json:"unparsable_results"`
	MissingResults    int    `json:"missing_results"`
	// BadMeta counts sessions whose meta could not be read as JSON: the
	// meta is skipped (no agent, title or time from it), the session's
	// steps are read.
	BadMeta int `json:"bad_meta"`
}

// Add adds q's counts to p.
func (p *RecallProblems) Add(q RecallProblems) {
	if q.NoFolder != "" {
		p.NoFolder = q.NoFolder
	}
	p.Sessions += q.Sessions
	p.Steps += q.Steps
	p.UnparsableSteps += q.UnparsableSteps
	p.UnreadableSteps += q.UnreadableSteps
	p.BadArguments += q.BadArguments
	p.UnknownAgents += q.UnknownAgents
	p.UnparsableResults += q.UnparsableResults
	p.MissingResults += q.MissingResults
	p.BadMeta += q.BadMeta
}

// SessionRecalls is one session's recalls and memory writes, in call
// order.
type SessionRecalls struct {
	Session string
	Agent   string // "" when unknown
	// Title, CreatedBy and Created are the session's meta ("" when it
	// has none): its title, who started it, and when (RFC 3339 as
	// stored).
	Title, CreatedBy, Created string
	Recalls                   []Recall
	// Writes are its remember and forget calls, whatever their outcome.
	Writes   []Write
	Problems RecallProblems
}

// RecallOptions say how to read recalls.
type RecallOptions struct {
	// Limit is the recall_limit of a call that gave none when the agent's
	// own is not recorded beside the sessions; 0 means crabtalk's default.
	Limit int
	// Settings is crabtalk's local/settings.toml (SettingsPath), whose
	// [agents.NAME.hooks.memory] recall_limit is each agent's own limit
	// (crabtalk v0.0.22 crates/core/src/paths.rs SETTINGS_FILE,
	// config/hooks.rs MemoryConfig); "" or a missing file: none.
	Settings string
	// Entries, when not nil, are the memory's entries each result is
	// read against as it is read (Recall.Resolve), its blocks compared
	// with their entries' text rather than hashed and their starts kept
	// for a Resolve later (which then has nothing to do). The readers
	// call it from several goroutines at once.
	Entries *EntryLookup
	// MaxName, when above 0, is the length of the longest name the
	// lookup the recalls are read against (Recall.Resolve's known) can
	// find: of the start of each block of a result only so much past its
	// first line is kept (and never more than maxHead bytes), a tenth as
	// much for a memory of short names. 0 keeps maxHead bytes.
	MaxName int
}

// EntryLookup is a memory's entries by exact name (RecallOptions.Entries).
type EntryLookup struct {
	// Content is the content of the entry named name (the last of
	// them), as Recall.Resolve's known gives it.
	Content func(name string) (content string, ok bool)
}

// DefaultRecallLimit is crabtalk's recall_limit default (MemoryConfig).
const DefaultRecallLimit = 5

func (o RecallOptions) limit() int {
	if o.Limit > 0 {
		return o.Limit
	}
	return DefaultRecallLimit
}

// RecallBuilder collects one session's recalls from its steps, in order.
// Make one with NewRecallBuilder.
//
// Results are paired with calls by position, as crabtalk writes them
// (v0.0.22 crates/core/src/agent/mod.rs: the outputs of one assistant
// message's calls are appended in call order, whatever order they finished
// in): the n-th tool result after a message with tool calls is its n-th
// call's. Ids are not unique (crabllm's Gemini provider names every call
// call_0), so an id is used only to place a result whose position a
// matching id contradicts. Likewise a run's tool_start events, written
// after its messages (crates/runtime/src/engine/conversation.rs,
// persist_messages), give their times to its tool-call messages in order.
type RecallBuilder struct {
	out   SessionRecalls
	limit int
	at    time.Time // the session's time, for a store that keeps none per step
	// pending are the calls of the last message with tool calls, in call
	// order, each its recall's index (-1: another tool's) and whether it
	// has its result.
	pending []pendingCall
	// batches are the run's messages with tool calls not yet given a
	// tool_start event's time, oldest first; afterEvents says the last
	// step was an event (a message after it begins a new run).
	batches     [][]pendingCall
	afterEvents bool
	// events are tool_start events read before any message they could
	// time (crabtalk's store lists a session's events before its
	// messages), oldest first.
	events []step
	// limits are the agents' own recall_limits, for a guest agent's call.
	limits map[string]int
	// arena holds the text of the results of the step being added
	// (parseStepIn), read over by the next: what a result leaves is
	// copied out (addResult).
	arena []byte
	// blocks holds the blocks of the step being added, read over by the
	// next (stepScanner.blocks).
	blocks []fastBlock
	// maxName is RecallOptions.MaxName, known its Entries' lookup (nil:
	// none).
	maxName int
	known   func(name string) (string, bool)
	// stepTimes are the calls whose time is their step file's until an
	// event gives theirs: the file is stat'ed only at Finish, for those
	// no event timed (in crabtalk's sessions a round's event follows its
	// calls: a stat per call, mostly for nothing).
	stepTimes []byStep
}

// byStep is a call whose time is its step's: its recall's or write's
// index (-1 for none) and how to read the step's time.
type byStep struct {
	recall, write int
	at            func() (time.Time, bool)
}

// pendingCall is one call of a message, waiting for its result.
type pendingCall struct {
	id       string
	name     string
	recall   int // index in out.Recalls, -1 for another tool
	write    int // index in out.Writes, -1 for another tool
	answered bool
}

// NewRecallBuilder starts a session: its name, its agent ("" when unknown:
// counted), the recall_limit of its agent, and, for a store that keeps no
// time per step, the session's time (zero otherwise).
func NewRecallBuilder(session, agent string, limit int, at time.Time) *RecallBuilder {
	b := &RecallBuilder{limit: limit, at: at}
	b.out = SessionRecalls{Session: session, Agent: agent}
	b.out.Problems.Sessions = 1
	if agent == "" {
		b.out.Problems.UnknownAgents = 1
	}
	return b
}

// BadMeta records that the session's meta could not be read (it is
// skipped, and counted: RecallProblems.BadMeta).
func (b *RecallBuilder) BadMeta() { b.out.Problems.BadMeta = 1 }

// SetMeta sets the session's title, creator and start time.
func (b *RecallBuilder) SetMeta(title, createdBy, created string) {
	b.out.Title, b.out.CreatedBy, b.out.Created = title, createdBy, created
}

// AddStep is Add for a step with a name (a step file's, a store message's
// key), which the memory writes it holds keep.
func (b *RecallBuilder) AddStep(name string, data []byte, stepTime func() (time.Time, bool)) {
	b.out.Problems.Steps++
	b.arena = b.arena[:0]
	s, kind := parseStepIn(data, true, &b.arena, &b.blocks)
	switch kind {
	case stepUnparsable:
		b.out.Problems.UnparsableSteps++
		return
	case stepOther:
		return
	}
	if s.isEvent {
		b.addEvent(s)
		return
	}
	if len(s.calls) > 0 {
		if b.afterEvents {
			b.batches = nil // a new run: the last one's events are all in
		}
		b.afterEvents = false
		b.pending = make([]pendingCall, len(s.calls))
		for i, c := range s.calls {
			b.pending[i] = pendingCall{id: c.id, name: c.name, recall: -1, write: -1}
			switch {
			case c.recall:
				b.pending[i].recall = b.addCall(c, s.agent, stepTime)
			case c.write != nil:
				b.pending[i].write = b.addWrite(c, name, s.agent, stepTime)
			}
		}
		if k := matchEvent(b.events, b.pending); k >= 0 {
			b.timeBatch(b.pending, b.events[k])
			b.events = b.events[k+1:]
		} else {
			b.batches = append(b.batches, b.pending)
		}
	}
	for _, r := range s.results {
		b.addResult(r, name)
	}
}

// addEvent gives a tool_start event's time to the calls of the run's
// oldest message not yet given one, by position.
func (b *RecallBuilder) addEvent(s step) {
	b.afterEvents = true
	k := -1
	for i, batch := range b.batches {
		if sameCalls(s.event, batch) {
			k = i // the oldest message whose calls the event names
			break
		}
	}
	if k < 0 {
		b.events = append(b.events, s)
		return
	}
	b.timeBatch(b.batches[k], s)
	b.batches = b.batches[k+1:] // the older ones had no event (crabtalk writes one per round)
}

// matchEvent is the index of the oldest of events that names the calls of
// batch, or -1.
func matchEvent(events []step, batch []pendingCall) int {
	for i, e := range events {
		if sameCalls(e.event, batch) {
			return i
		}
	}
	return -1
}

// sameCalls reports whether a tool_start event names the calls of one
// message, in order, by id and tool (ids repeat across messages, call_0,
// so a run's rounds are still taken in order).
func sameCalls(event []traceCall, batch []pendingCall) bool {
	if len(event) != len(batch) {
		return false
	}
	for i, c := range event {
		if c.ID != batch[i].id || c.Name != batch[i].name {
			return false
		}
	}
	return true
}

// timeBatch gives the time of event s to the recalls among batch, the calls
// of one message, by position.
func (b *RecallBuilder) timeBatch(batch []pendingCall, s step) {
	if s.at.IsZero() {
		return
	}
	for k, c := range s.event {
		if k >= len(batch) || c.Name != batch[k].name {
			continue
		}
		if batch[k].recall >= 0 {
			r := &b.out.Recalls[batch[k].recall]
			r.Time, r.TimeFrom = s.at, TimeEvent
		}
		if batch[k].write >= 0 {
			w := &b.out.Writes[batch[k].write]
			w.Time, w.TimeFrom = s.at, TimeEvent
		}
	}
}

// Unreadable counts a step that could not be read.
func (b *RecallBuilder) Unreadable() {
	b.out.Problems.Steps++
	b.out.Problems.UnreadableSteps++
}

// addCall records a recall call and returns its index, or -1 when its
// arguments are malformed (counted, not listed).
func (b *RecallBuilder) addCall(c call, guest string, stepTime func() (time.Time, bool)) int {
	if c.badArg {
		b.out.Problems.BadArguments++
		return -1
	}
	r := Recall{Session: b.out.Session, Agent: b.out.Agent, Query: c.query, Limit: b.limit, Result: ResultMissing}
	if guest != "" {
		r.Agent = guest // a guest agent's own recall, with its own limit
		if l, ok := b.limits[guest]; ok {
			r.Limit = l
		}
	}
	if c.limit >= 0 {
		r.Limit, r.LimitSet = c.limit, true
	}
	r.Time, r.TimeFrom = b.callTime(stepTime)
	b.out.Recalls = append(b.out.Recalls, r)
	if r.TimeFrom == TimeStep {
		b.stepTimes = append(b.stepTimes, byStep{recall: len(b.out.Recalls) - 1, write: -1, at: stepTime})
	}
	return len(b.out.Recalls) - 1
}

// addWrite records a remember or forget call, from the step named step,
// and returns its index.
func (b *RecallBuilder) addWrite(c call, step, guest string, stepTime func() (time.Time, bool)) int {
	w := *c.write
	w.Session, w.Agent, w.Step, w.ID, w.Outcome = b.out.Session, b.out.Agent, step, c.id, WriteMissing
	if guest != "" {
		w.Agent = guest
	}
	w.Time, w.TimeFrom = b.callTime(stepTime)
	b.out.Writes = append(b.out.Writes, w)
	if w.TimeFrom == TimeStep {
		b.stepTimes = append(b.stepTimes, byStep{recall: -1, write: len(b.out.Writes) - 1, at: stepTime})
	}
	return len(b.out.Writes) - 1
}

// callTime is a call's time until a tool_start event gives its own: the
// session's, for a store that keeps none per step, else the step file's
// modification time (TimeStep: read at Finish, if no event gives one);
// zero when there is neither.
func (b *RecallBuilder) callTime(stepTime func() (time.Time, bool)) (time.Time, string) {
	switch {
	case !b.at.IsZero():
		return b.at, TimeSession
	case stepTime != nil:
		return time.Time{}, TimeStep
	}
	return time.Time{}, ""
}

// stepTimesIn gives the calls still timed by their step that time, or
// none when it cannot be read.
func (b *RecallBuilder) stepTimesIn() {
	for _, st := range b.stepTimes {
		var at *time.Time
		var from *string
		if st.recall >= 0 {
			at, from = &b.out.Recalls[st.recall].Time, &b.out.Recalls[st.recall].TimeFrom
		} else {
			at, from = &b.out.Writes[st.write].Time, &b.out.Writes[st.write].TimeFrom
		}
		if *from != TimeStep {
			continue // an event's
		}
		if t, ok := st.at(); ok {
			*at = t
		} else {
			*from = ""
		}
	}
	b.stepTimes = nil
}

// addResult pairs a tool result with the next unanswered call of the last
// message with tool calls (by position), unless its id names another
// unanswered call of that message and not this one.
func (b *RecallBuilder) addResult(res result, step string) {
	k := -1
	for i := range b.pending {
		if !b.pending[i].answered {
			k = i
			break
		}
	}
	if k < 0 {
		return // no call waits: a result crabtalk would not have written
	}
	if res.id != "" && res.id != b.pending[k].id {
		for i := k + 1; i < len(b.pending); i++ {
			if !b.pending[i].answered && b.pending[i].id == res.id {
				k = i
				break
			}
		}
	}
	b.pending[k].answered = true
	if i := b.pending[k].write; i >= 0 {
		w := &b.out.Writes[i]
		w.ResultStep = step
		if !res.ok {
			w.Outcome = WriteUnknown
			return
		}
		w.Result, w.Outcome = strings.Clone(res.text), w.outcome(res.text) // the text may be the arena's
		return
	}
	if b.pending[k].recall < 0 {
		return // another tool's result
	}
	r := &b.out.Recalls[b.pending[k].recall]
	if !res.ok {
		r.Result = ResultUnparsable
		return
	}
	rest, ok := strings.CutPrefix(res.text, "## ")
	if ok && b.known != nil && strings.Contains(rest, blockSep) {
		// Blocks read against the entries now: Resolve gives every
		// such result its names and state, whatever its shape says.
		if r.pieces = pieces(rest, b.maxName, false); r.pieces != nil {
			r.resolve(b.known, rest, true)
			r.pieces = nil
			keepResult(r.Names, nil)
			return
		}
	}
	r.Names, r.Result = ParseResult(res.text, r.Limit)
	if ok {
		if strings.Contains(rest, blockSep) {
			r.pieces = pieces(rest, b.maxName, b.known == nil)
		} else if r.Result == ResultNames {
			// One block: only its beginning, for a name holding a
			// newline (Resolve); nothing to hash.
			r.pieces = []piece{{head: rest[:headLen(rest, b.maxName)], n: -1}}
		}
	}
	if b.known != nil {
		// Read against the entries now, with the text: nothing is
		// kept for a Resolve later.
		r.resolve(b.known, rest, true)
		r.pieces = nil
	}
	keepResult(r.Names, r.pieces)
}

// keepResult copies a result's names, then the heads of its pieces,
// views of a text the next step reads over (the arena), each into one
// text of their own (a copy for each was two allocations a block of every
// result). The names' text is apart from the heads', which a name kept
// (Then) would keep too.
func keepResult(names []string, ps []piece) {
	keepAll(len(names), func(i int) *string { return &names[i] })
	keepAll(len(ps), func(i int) *string { return &ps[i].head })
}

// keepAll copies the n strings at(0)…at(n-1) into one text.
func keepAll(n int, at func(int) *string) {
	size := 0
	for i := range n {
		size += len(*at(i))
	}
	if size == 0 {
		return
	}
	buf := make([]byte, 0, size)
	for i := range n {
		if p := at(i); *p != "" {
			start := len(buf)
			buf = append(buf, *p...) // never past size: no move
			*p = unsafe.String(&buf[start], len(*p))
		}
	}
}

// Finish returns the session's recalls with the event times applied and
// the results counted.
func (b *RecallBuilder) Finish() SessionRecalls {
	b.stepTimesIn()
	for _, r := range b.out.Recalls {
		switch r.Result {
		case ResultUnparsable:
			b.out.Problems.UnparsableResults++
		case ResultMissing:
			b.out.Problems.MissingResults++
		}
	}
	return b.out
}

// WalkRecalls reads the recalls of every session under dir and calls fn
// with each session's, in folder-name order. Sessions are read in
// parallel but at most a few are held at once, however many there are. A
// missing dir is no error: the problems say so (NoFolder). An error from
// fn stops the walk and is returned.
func WalkRecalls(dir string, opt RecallOptions, fn func(SessionRecalls) error) (RecallProblems, error) {
	return walkRecalls(dir, opt, nil, func(_ sessionDir, s SessionRecalls) error { return fn(s) })
}

// readRecalls is one session folder's recalls, with the folder as listed
// before it was read.
type readRecalls struct {
	d sessionDir
	s SessionRecalls
}

// walkRecalls is WalkRecalls taking from reuse the sessions it already
// knows; fn gets each session's folder too.
func walkRecalls(dir string, opt RecallOptions, reuse func(sessionDir) (SessionRecalls, bool), fn func(sessionDir, SessionRecalls) error) (RecallProblems, error) {
	var p RecallProblems
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		p.NoFolder = dir
		return p, nil
	}
	dirs, err := listSessions(dir)
	if err != nil {
		return p, err
	}
	limits := agentLimits(opt.Settings)
	err = inOrder(len(dirs), readers, func(i int) readRecalls {
		if reuse != nil {
			if s, ok := reuse(dirs[i]); ok {
				return readRecalls{dirs[i], s}
			}
		}
		return readRecalls{dirs[i], readSessionRecalls(dirs[i], opt.limit(), limits, opt)}
	}, func(r readRecalls) error {
		p.Add(r.s.Problems)
		return fn(r.d, r.s)
	})
	return p, err
}

// inOrder runs work(0..n-1) on up to workers goroutines and hands the
// results to emit in index order; at most 2×workers results wait at once.
// The first error from emit stops it.
func inOrder[T any](n, workers int, work func(int) T, emit func(T) error) error {
	type done struct {
		i int
		v T
	}
	window := 2 * workers
	tokens := make(chan struct{}, window)
	jobs := make(chan int)
	results := make(chan done, window)
	stop := make(chan struct{})
	go func() {
		defer close(jobs)
		for i := range n {
			select {
			case tokens <- struct{}{}:
			case <-stop:
				return
			}
			jobs <- i
		}
	}()
	for range min(workers, n) {
		go func() {
			for i := range jobs {
				results <- done{i, work(i)}
			}
		}()
	}
	// In flight are at most window jobs, so a worker never blocks on
	// results; after a stop they finish theirs and end.
	pending := map[int]T{}
	for next := 0; next < n; {
		d := <-results
		pending[d.i] = d.v
		for v, ok := pending[next]; ok; v, ok = pending[next] {
			delete(pending, next)
			next++
			if err := emit(v); err != nil {
				close(stop)
				return err
			}
			<-tokens
		}
	}
	return nil
}

// The caps on what is read of a session folder: a larger step is
// counted unreadable rather than held whole; a meta file (crabtalk's
// ConversationMeta: a title, an agent, a few times) is a few hundred bytes.
const (
	maxStepBytes = 64 << 20
	maxMetaBytes = 1 << 20
)

// stepOptions are how a step is read, as safefile reads a file crmem did
// not write: a regular file of at most maxStepBytes, a link only to one
// inside the sessions folder root.
func stepOptions(root string) safefile.Options {
	return safefile.Options{Limit: maxStepBytes, What: "session step", Within: root}
}

// stepReader reads a session's steps by name as readStep does, opened
// relative to the session's folder (one path element for the kernel to
// resolve per step, not the whole path), or by path if the folder cannot
// be opened.
type stepReader struct {
	dir  *safefile.Dir // nil: by path
	path string
	opt  safefile.Options
}

func openSteps(d sessionDir) stepReader {
	dir, _ := safefile.OpenDir(d.path)
	return stepReader{dir: dir, path: d.path, opt: stepOptions(d.root)}
}

// read reads the step name into buf (reused across steps).
func (r stepReader) read(name string, buf []byte) ([]byte, error) {
	if r.dir == nil {
		return safefile.ReadInto(filepath.Join(r.path, name), buf, r.opt)
	}
	return r.dir.ReadInto(name, buf, r.opt)
}

func (r stepReader) close() {
	if r.dir != nil {
		r.dir.Close()
	}
}

// sessionMeta is the part of a session's meta file (ConversationMeta)
// that names its agent.
type sessionMeta struct {
	Agent     string `json:"agent"`
	Title     string `json:"title"`
	CreatedBy string `json:"created_by"`
	CreatedAt string `json:"created_at"`
}

// slugAgent is the agent part of crabtalk's session folder name,
// {agent}_{sender}_{seq} (create_session), agent and sender each a
// sender_slug (isSlug; the agent not empty), seq [0-9]+; ok is false for
// any other name. (Parsed by hand: a package-level regexp was compiled at
// the start of every command.)
func slugAgent(name string) (agent string, ok bool) {
	rest, seq, found := cutLast(name, '_')
	if !found || seq == "" || strings.Trim(seq, "0123456789") != "" {
		return "", false
	}
	agent, sender, found := cutLast(rest, '_')
	if !found || agent == "" || !isSlug(agent) || !isSlug(sender) {
		return "", false
	}
	return agent, true
}

// cutLast splits s around its last sep.
func cutLast(s string, sep byte) (before, after string, found bool) {
	i := strings.LastIndexByte(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+1:], true
}

// isSlug reports whether s can be a part crabtalk's sender_slug made
// (v0.0.22 crates/core/src/storage.rs): alphanumeric characters, any
// script's, with ASCII letters lowered (others keep their case), and '-'.
func isSlug(s string) bool {
	for _, r := range s {
		if !(r == '-' || (unicode.IsLetter(r) || unicode.IsNumber(r)) && !('A' <= r && r <= 'Z')) {
			return false
		}
	}
	return true
}

// sessionAgent is the agent of a session folder: its meta file's agent,
// else the agent part of the folder's name, else ""; the meta file as read
// (zero when there is none or it does not parse); and whether there was
// one that does not parse (bad). The meta file is read as a step is (a
// regular file, capped, a link only inside the sessions folder root): one
// that cannot be read is as none.
func sessionAgent(root, path string) (agent string, m sessionMeta, bad bool) {
	data, err := safefile.ReadFile(filepath.Join(path, "meta"), metaOptions(root))
	return agentOf(path, data, err)
}

// metaOptions are how a session's meta file is read: as a step is, but
// capped at maxMetaBytes.
func metaOptions(root string) safefile.Options {
	return safefile.Options{Limit: maxMetaBytes, What: "session meta file", Within: root}
}

// sessionAgentIn is sessionAgent for a session whose folder is open
// (sr) and listed: meta says it holds a file or a link named meta (a
// folder, FIFO, socket or device so named is not opened, as safefile's
// ReadFile would refuse it before opening it), read through the
// folder's descriptor as its steps are (a link judged by its path), into
// buf; the folder's path is resolved again only for a link.
func sessionAgentIn(sr stepReader, path string, meta bool, buf []byte) (agent string, m sessionMeta, bad bool) {
	if !meta {
		return agentOf(path, nil, fs.ErrNotExist)
	}
	data, err := sr.dir.ReadInto("meta", buf, metaOptions(sr.opt.Within))
	return agentOf(path, data, err)
}

// agentOf is sessionAgent of the session folder path whose meta file
// read as data, or could not be read (err).
func agentOf(path string, data []byte, err error) (agent string, m sessionMeta, bad bool) {
	if err == nil {
		if json.Unmarshal(data, &m) != nil {
			m, bad = sessionMeta{}, true
		}
		if m.Agent != "" {
			return m.Agent, m, bad
		}
	}
	if agent, ok := slugAgent(filepath.Base(path)); ok {
		return agent, m, bad
	}
	return "", m, bad
}

// scratch is what reading a session's steps reads over, kept for the
// next session a reader reads: the step file's bytes and the arena its
// tool results are read into (RecallBuilder.arena). Nothing read is left
// pointing into either once a session is read (its strings are copied
// out), and each session made both anew, from fresh pages, a tenth of
// recalls --report's page faults.
type scratch struct{ step, arena []byte }

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// maxScratch bounds a scratch buffer kept for the next session: one
// outsize step is not held after its session.
const maxScratch = 4 << 20

func keepScratch(b []byte) []byte {
	if cap(b) > maxScratch {
		return nil
	}
	return b[:0]
}

// readSessionRecalls reads one session folder's recalls: a call without
// a limit has its agent's (limits), else limit.
func readSessionRecalls(d sessionDir, limit int, limits map[string]int, opt RecallOptions) SessionRecalls {
	path := d.path
	sr := openSteps(d)
	defer sr.close()
	steps, odd, hasMeta, listErr := listSteps(path, sr.dir)
	sc := scratchPool.Get().(*scratch)
	buf := sc.step
	var agent string
	var meta sessionMeta
	var bad bool
	if listErr == nil && sr.dir != nil {
		agent, meta, bad = sessionAgentIn(sr, path, hasMeta, buf)
	} else {
		agent, meta, bad = sessionAgent(d.root, path)
	}
	if l, ok := limits[agent]; ok && agent != "" {
		limit = l
	}
	b := NewRecallBuilder(filepath.Base(path), agent, limit, time.Time{})
	b.SetMeta(meta.Title, meta.CreatedBy, meta.CreatedAt)
	if bad {
		b.BadMeta()
	}
	b.limits, b.maxName = limits, opt.MaxName
	if opt.Entries != nil {
		b.known = opt.Entries.Content
	}
	b.arena = sc.arena[:0]
	defer func() {
		sc.step, sc.arena, b.arena = keepScratch(buf), keepScratch(b.arena), nil
		scratchPool.Put(sc)
	}()
	if listErr != nil {
		b.Unreadable()
		return b.Finish()
	}
	for range odd {
		b.Unreadable() // a FIFO, socket or device named like a step
	}
	for _, name := range steps {
		data, err := sr.read(name, buf)
		buf = data[:0]
		if err != nil {
			b.Unreadable()
			continue
		}
		b.AddStep(name, data, func() (time.Time, bool) {
			fi, err := os.Stat(filepath.Join(path, name))
			if err != nil {
				return time.Time{}, false
			}
			return fi.ModTime(), true
		})
	}
	return b.Finish()
}

// Recalls is WalkRecalls over the reader's folder for a screen that
// reads it again and again: a session whose folder did not change since
// the last call (by the rule Read follows) is not read again. The cache
// holds each session's recalls, not its steps; a Folder reads without one.
func (r *Reader) Recalls(opt RecallOptions, fn func(SessionRecalls) error) (RecallProblems, error) {
	r.recallMu.Lock()
	defer r.recallMu.Unlock()
	old := r.recallCache
	if r.recallOpt != opt {
		old = nil // another limit gives other recalls
	}
	now := time.Now()
	next := map[string]cachedRecalls{}
	p, err := walkRecalls(r.dir, opt, func(d sessionDir) (SessionRecalls, bool) {
		c, ok := old[d.path]
		return c.s, ok && c.mod.Equal(d.mod) && now.Sub(d.mod) > racyWindow
	}, func(d sessionDir, s SessionRecalls) error {
		next[d.path] = cachedRecalls{d.mod, s}
		return fn(s)
	})
	if err != nil {
		return p, fmt.Errorf("recalls in %s: %w", r.dir, err)
	}
	r.recallCache, r.recallOpt = next, opt // vanished sessions drop out
	return p, nil
}

// cachedRecalls is a session's recalls as read when its folder had time
// mod.
type cachedRecalls struct {
	mod time.Time
	s   SessionRecalls
}

// Folder is a sessions folder read once, streaming: no session or recall
// is kept after it is handed on (a command line's read, where Reader's
// cache would hold every recall).
type Folder string

// Read is Read(string(f)).
func (f Folder) Read() ([]Session, error) { return Read(string(f)) }

// Where is the folder.
func (f Folder) Where() string { return string(f) }

// Recalls is WalkRecalls(string(f), …).
func (f Folder) Recalls(opt RecallOptions, fn func(SessionRecalls) error) (RecallProblems, error) {
	p, err := WalkRecalls(string(f), opt, fn)
	if err != nil {
		return p, fmt.Errorf("recalls in %s: %w", string(f), err)
	}
	return p, nil
}
