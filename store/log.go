package store

import "github.com/crmem/crmem/store/sessions"

// Log reads the append-only log of a memory whose history is its own log
// (Capabilities.History is HistoryFromLog): its adapter's, given as
// Capabilities.Log, so that store/history walks any such format's log
// without knowing the format. What a record's bytes are, how its keys
// name entries, sessions and agents, and how a session's steps decode
// are the adapter's; store/history keeps which records hold what.
type Log interface {
	// HeadLen is the length of the log's header: the bytes a walk of the
	// same file, appended to, needs unchanged (Continues).
	HeadLen() int
	// Walk calls fn with every record of the log data holds, in file
	// order, from where an earlier walk of the same log, shorter then,
	// ended (from: its LogEnd.At; the zero LogPos walks the whole log),
	// skipping what is not a record (snapshots). fn returning false stops
	// the walk.
	Walk(data []byte, from LogPos, fn func(LogRecord) bool) LogEnd
	// At is the record at offset off (one Walk gave), if it decodes.
	At(data []byte, off int64) (LogRecord, bool)
	// Each calls fn with the record at each of offs (offsets Walk gave,
	// ascending), skipping any that no longer decode.
	Each(data []byte, offs []int64, fn func(LogRecord))
	// Continues reports whether a walk that ended at end in bytes whose
	// header was before may go on at end in a longer copy whose header is
	// head (HeadLen bytes each): the same header, and nothing the walk
	// read as records turned out to be something else.
	Continues(before, head []byte, end int64) bool
	// SessionRecalls decodes one session's recalls and memory writes from
	// its meta and steps (keys in ascending byte order, as Walk's
	// LogSessionStep records named them), as the agent's own reader
	// does; agentOf names an agent by id and gives its recall limit.
	SessionRecalls(handle string, meta []byte, keys []string, steps map[string][]byte, agentOf func(id string) (string, int)) sessions.SessionRecalls
}

// LogKind is what a log record holds.
type LogKind uint8

const (
	// LogOther is a record no history reads.
	LogOther LogKind = iota
	// LogMemory is an entry's record: Key is its name, Value (of a put)
	// the entry as stored.
	LogMemory
	// LogSessionMeta is a session's meta (Session names the session).
	LogSessionMeta
	// LogSessionStep is one of a session's messages or events: Key
	// names it within the session.
	LogSessionStep
	// LogSessionOther is any other record of a session.
	LogSessionOther
	// LogAgent is an agent's record: Key is the agent's id.
	LogAgent
)

// LogRecord is one record of a memory's log, where it lies in the file.
// Key, Session and Value alias the bytes walked.
type LogRecord struct {
	Offset int64 // where the record starts
	Kind   LogKind
	Delete bool // a deletion; else a put
	// Key is what the record is of within its kind (LogKind); KeyAt is
	// where it lies, at most 64 KiB after Offset.
	Key   []byte
	KeyAt int64
	// Session is the session a LogSession* record belongs to.
	Session []byte
	Value   []byte
}

// LogPos is where a walk of a log is: the offset it reached (0: not
// begun) and the puts it walked, which a walk that goes on needs.
type LogPos struct {
	Offset int64
	Puts   int
}

// LogEnd says how a walk of a log ended.
type LogEnd struct {
	// At is where the walk stopped: the end of the data, or the start of
	// the bytes it could not read.
	At LogPos
	// Torn says the data ends inside a record.
	Torn bool
	// Stopped says a record does not decode, for Reason: the log cannot
	// be read past At.
	Stopped bool
	Reason  string
}
