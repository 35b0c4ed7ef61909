package store

import (
	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/store/sessions"
)

// Source is an open memory as the faces (TUI, command line) see it,
// whatever its format: a CRMEM v1 file (*DB) or crabtalk's store (the
// adapter in store/crabdb). What a format can and cannot do is in its
// Features, so callers never look at the concrete type.
type Source interface {
	// Path is the file's path.
	Path() string
	// Memory is the entries, kept current by Reload.
	Memory() *Memory
	// Reload reads the file again and syncs Memory.
	Reload() (Diff, error)
	// Exists reports whether the file is on disk.
	Exists() bool
	// Features says what the source can do, as of now.
	Features() Features
}

// FormatV1 is the name of the CRMEM v1 format, as Features say it.
const FormatV1 = "CRMEM v1"

// Features are a source's capabilities. A nil field is a capability the
// source lacks; the zero Features is a read-only source searched by BM25
// over Memory's index, its sessions in the folder beside it.
type Features struct {
	// Format names the file's format for the user ("CRMEM v1",
	// "crabtalk store").
	Format string
	// Writer is the file writes go to; nil when the source is read-only.
	Writer *DB
	// Recall is the source's own recall, ranking as its owner does; nil
	// means recall is v1 BM25 over Memory().Index().
	Recall Recaller
	// Sessions reads the sessions the source holds itself; nil means they
	// are in the sessions folder beside the file.
	Sessions SessionsReader
	// Warnings are what the last read noticed (a torn tail, say).
	Warnings []string
	// Stored gives entries as the format wrote them; nil when they are v1
	// entries (ids shown, created_at in unix seconds).
	Stored StoredReader
}

// ReadOnly reports whether every write is refused.
func (f Features) ReadOnly() bool { return f.Writer == nil }

// ShowsIDs reports whether entries carry ids of their own, which the faces
// show and take (a v1 file's). Where entries are as their format wrote
// them (Stored; crabtalk's store keys its entries), the ids Memory gives
// them are internal and never shown.
func (f Features) ShowsIDs() bool { return f.Stored == nil }

// Recaller is a source's own recall.
type Recaller interface {
	// Recall ranks the entries for query as the source's owner does: at
	// most limit hits, as Memory's entry ids with their scores, and the
	// same hits explained (parts by term), in the same order.
	Recall(query string, limit int) ([]bm25.Hit, []RecallHit, error)
	// RecallStats are the stored numbers the recall ranks by.
	RecallStats() RecallStats
}

// SessionsReader reads sessions: the sessions folder's *sessions.Reader,
// or a source that holds its own.
type SessionsReader interface {
	// Read returns every session's use of archives.
	Read() ([]sessions.Session, error)
	// Recalls calls fn with each session's recall tool calls, one session
	// at a time in session order (never all sessions at once), and
	// returns what it could not read. An error from fn stops it.
	Recalls(opt sessions.RecallOptions, fn func(sessions.SessionRecalls) error) (sessions.RecallProblems, error)
}

// RecallTerm is one term of a recall query: its text and whether it was
// written with a trailing `*` (then it matches every index term it
// prefixes).
type RecallTerm struct {
	Text   string
	Prefix bool
}

// String shows the term as it would be typed.
func (t RecallTerm) String() string {
	if t.Prefix {
		return t.Text + "*"
	}
	return t.Text
}

// RecallStats are a recall index's stored document count and total length.
type RecallStats struct {
	Docs     uint64 `json:"docs"`
	TotalLen uint64 `json:"total_len"`
}

// RecallHit is one recall result: the entry's key, its name (the key's
// last segment, as the store names hits) and its score.
type RecallHit struct {
	Key   string
	Name  string
	Score float64
	// Parts explains the score when asked for.
	Parts []RecallPart
}

// RecallPart is one posting row's share of a hit's score.
type RecallPart struct {
	Query   RecallTerm // the query term
	Term    string     // the index term the row belongs to
	TF      uint32
	DF      int // rows of the query term
	IDF     float64
	DocLen  uint32
	Weight  float64
	Contrib float64
}

// Features of a v1 memory file: writable, searched by BM25 over its index,
// its sessions in the folder beside it.
func (db *DB) Features() Features {
	return Features{Format: FormatV1, Writer: db}
}

// Stored is an entry as its format wrote it, where that says more than a
// v1 entry does: crabtalk's store keys its entries, writes created_at as
// text and names kinds freely.
type Stored struct {
	Key       string // the entry's key in the store
	Kind      string // the kind as written
	CreatedAt string // created_at as written; "" when there is none
}

// StoredReader gives entries as their format wrote them, by id.
type StoredReader interface {
	Stored(id uint64) (Stored, bool)
}

// Contents is a memory file read once, whatever its format, for a process
// that reads it once (a subcommand): its entries as a decoded file, with
// no index and no lookup maps built, and what its format can do.
type Contents struct {
	Path     string
	File     *File
	Features Features
	// Notices say what converting the format's entries to v1 entries
	// changed (an unreadable created_at kept as 0, an unknown kind taken
	// as a note); commands that write the entries elsewhere print them.
	Notices []string
}
