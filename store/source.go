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

// FileName is the name crabtalk gives a CRMEM v1 memory file in its home
// folder (tagged crabtalk releases).
const FileName = "memory.db"

// Features are a source's capabilities. Writer and Stored are nil where
// the source lacks them; Recall and Sessions are never nil on a source
// (the zero Features, a read-only source with neither, is what a face
// holds before a memory is open).
type Features struct {
	// Format names the file's format for the user ("CRMEM v1",
	// "crabtalk store").
	Format string
	// Writer is the file writes go to; nil when the source is read-only.
	Writer *DB
	// Recall is the agent's recall of the source, ranking as its owner
	// does: BM25 over the entries for a v1 file, the store's own recall
	// over its stored index for crabtalk's store.
	Recall Recaller
	// Sessions reads the agent's sessions: the sessions folder of a v1
	// file (beside it unless configured), those crabtalk's store holds.
	Sessions SessionsReader
	// Warnings are what the last read noticed (a torn tail, say).
	Warnings []string
	// Stored gives entries as the format wrote them; nil when they are v1
	// entries (ids shown, created_at in unix seconds).
	Stored StoredReader
	// Caps are what the format can do that another cannot: where its
	// history is, how its sessions are laid out, how its recall orders
	// ties, what bytes after its last entry mean. The faces and the
	// libraries ask it, never Format, which is only shown.
	Caps Capabilities
}

// Capabilities are what a memory's format can do, as the adapter that
// reads it says: what differs between formats. The zero Capabilities (no
// memory open) has no history, no sessions and no trailing bytes.
type Capabilities struct {
	// History is where the entries' history is read from.
	History HistorySource
	// Sessions is how the agent's sessions are laid out beside or inside
	// the memory.
	Sessions SessionsLayout
	// RandomTies reports whether the agent's recall breaks ties on score
	// at random (a v1 file's), rather than in an order of its own.
	RandomTies bool
	// Trailing reports whether the reader takes bytes after the last
	// entry (File.Trailing), which a file named like another format's may
	// hold because it is that format, unreadable.
	Trailing bool
	// Log reads the format's own log when History is HistoryFromLog; nil
	// otherwise.
	Log Log
}

// HistorySource is where a memory's history is read from.
type HistorySource int

const (
	// NoHistory is a source with no history (no memory open).
	NoHistory HistorySource = iota
	// HistoryFromSessions is the entries now and the write calls the
	// agent's sessions recorded (a v1 file, which keeps no old versions).
	HistoryFromSessions
	// HistoryFromLog is the file's own append-only log, every version
	// and the sessions that wrote it inside (crabtalk's store), read
	// again from the source's path.
	HistoryFromLog
)

// SessionsLayout is how a memory's sessions are kept.
type SessionsLayout int

const (
	// NoSessions is a source with no sessions (no memory open).
	NoSessions SessionsLayout = iota
	// SessionsFolder is a sessions folder beside the memory file (or
	// configured), whose calls take the agent's recall limit from the
	// settings file beside the memory (sessions.SettingsPath).
	SessionsFolder
	// SessionsInside is sessions the memory file holds, which record
	// their agents' own recall limits.
	SessionsInside
)

// V1Capabilities are what a CRMEM v1 file can do.
var V1Capabilities = Capabilities{History: HistoryFromSessions, Sessions: SessionsFolder, RandomTies: true, Trailing: true}

// ReadOnly reports whether every write is refused.
func (f Features) ReadOnly() bool { return f.Writer == nil }

// ShowsIDs reports whether entries carry ids of their own, which the faces
// show and take (a v1 file's). Where entries are as their format wrote
// them (Stored; crabtalk's store keys its entries), the ids Memory gives
// them are internal and never shown.
func (f Features) ShowsIDs() bool { return f.Stored == nil }

// Recaller is the agent's recall of a memory, whatever its format.
type Recaller interface {
	// Rank ranks the entries for query as the agent's recall does: at
	// most limit hits (limit <= 0: none, as the agent's recall), as
	// Memory's entry ids with their scores, best first.
	Rank(query string, limit int) ([]bm25.Hit, error)
	// Recall is Rank with the same hits explained (parts by term), in
	// the same order.
	Recall(query string, limit int) ([]bm25.Hit, []RecallHit, error)
	// Stand ranks every entry for query as Rank does and says where each
	// of ids stands in that ranking (store/why): the hits inside limit
	// (limit <= 0: every hit) and, per id, its rank, score, length and a
	// part per query term (none for an id the recall has no answer for).
	Stand(query string, limit int, ids []uint64) (Ranking, error)
	// Hits ranks every entry for query as Rank does, for a view that
	// lists every hit in an order of its own (the TUI's search): the
	// first limit hits in rank order (limit <= 0: none), explained as
	// Recall explains them when explain asks, and every hit, however
	// many.
	Hits(query string, limit int, explain bool) (Hits, error)
	// Terms are query's terms as the recall splits it, each with whether
	// it is a prefix: only a recall with an index of its own (Stored)
	// takes a trailing `*` as one; BM25 over a v1 file's entries matches
	// whole words only.
	Terms(query string) []RecallTerm
	// Words are query's words the recall does not take whole, each with
	// the terms it keeps and the pieces it drops and why (store/why's
	// "the tokenizer drops …"): BM25 tokenizes the query as one text;
	// crabtalk's store keeps one token per word.
	Words(query string) []QueryWord
	// RecallStats are the numbers the recall ranks by: the index's
	// document count and total length (crabtalk's store: as stored).
	RecallStats() RecallStats
	// Stored reports whether the recall ranks by an index of its own,
	// stored beside the entries (crabtalk's store): its query terms take
	// a trailing `*` as a prefix, its stats and lengths are as stored and
	// each document has a weight; its parts are the posting rows that
	// scored. Otherwise (a v1 file) it is BM25 over the entries as they
	// are, and every query term has a part, scoring or not.
	Stored() bool
}

// Hits are a query's hits as Recaller.Hits gives them.
type Hits struct {
	Top   []bm25.Hit  // the first hits, best first, as Rank gives them
	Parts []RecallHit // Top explained, in the same order; nil unless asked for
	All   []bm25.Hit  // every hit, in no particular order: len(All) is the true count
}

// Expander is the capability of a recall that matches whole words only,
// ranking by the bm25 index of the memory's entries (a v1 file's): a
// face that searches as the user types expands the word being typed
// itself, over that index (bm25.Index.Expand), and breaks a row's score
// down by it, the expansions with the query's terms. A recall without it
// takes a prefix itself (`depl*`, Terms) and its Hits explain their own
// scores, prefixes included.
type Expander interface {
	// Index is the index the recall ranks by; it waits while the index
	// is being built (Memory.IndexReady says when it no longer would).
	Index() *bm25.Index
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

// SessionsWhere says where r reads the sessions from, for the user: the
// sessions folder's path, or "the store" (a reader's Where method); ""
// when r does not say.
func SessionsWhere(r SessionsReader) string {
	if w, ok := r.(interface{ Where() string }); ok {
		return w.Where()
	}
	return ""
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

// RecallHit is one recall result: the entry's key (crabtalk's store's;
// "" for a v1 entry), its name (the store names hits by the key's last
// segment) and its score.
type RecallHit struct {
	Key   string
	Name  string
	Score float64
	// DocLen is the entry's length in tokens as the recall ranks it
	// (crabtalk's store: as stored), and Weight its stored weight (1 for
	// a v1 entry, which has none).
	DocLen uint32
	Weight float64
	// Parts explains the score when asked for.
	Parts []Part
}

// Ranking is a query's whole ranking as Recaller.Stand gives it.
type Ranking struct {
	Ranked    int                 // entries scoring above zero
	Top       []bm25.Hit          // the hits inside the limit, in rank order
	Standings map[uint64]Standing // by entry id, for the ids asked about
}

// Standing is where one entry stands in a ranking: its 1-based rank among
// every entry scoring above zero (0: none), its score, its length in
// tokens as the recall counts it (0: the recall does not say) and its
// parts, a row per query term in the recall's order (a prefix term of
// crabtalk's store: a row per index term it matched).
type Standing struct {
	Rank   int
	Score  float64
	DocLen int
	Parts  []Part
}

// Part is one query term's part in an entry's score: for crabtalk's
// store, one posting row (a prefix term has a row per index term it
// matched), for a v1 file, one query term.
type Part struct {
	Query   string  `json:"query"` // the query term ("depl*" for a prefix)
	Term    string  `json:"term"`  // the index term (a prefix's match)
	TF      int     `json:"tf"`
	DF      int     `json:"df"` // documents (crabtalk's store: rows) holding the query term
	IDF     float64 `json:"idf"`
	Contrib float64 `json:"contrib"`
	Share   float64 `json:"share"` // Contrib / the entry's score, where a report fills it in
}

// Features of a v1 memory file: writable, recalled by BM25 over its index,
// its sessions in the sessions folder (Options.Sessions).
func (db *DB) Features() Features {
	if db.backend != nil {
		// No db.mu: a frame must not wait for a write (its guard, fsyncs).
		f := db.backend.Features()
		if db.backend.Writable() == nil {
			f.Writer = db
		}
		return f
	}
	return Features{Format: FormatV1, Writer: db, Recall: indexRecall{db.Memory}, Sessions: db.sessions, Caps: V1Capabilities}
}

// V1Contents is the v1 file f, read once from path, as Contents: recalled
// by BM25 over its entries (an index is built only for an explained
// recall), its sessions in the folder sessionsDir ("": the one beside
// path). The recall shares f's entries.
func V1Contents(path string, f *File, sessionsDir string) *Contents {
	return &Contents{Path: path, File: f, Features: Features{Format: FormatV1, Recall: &fileRecall{f: f},
		Sessions: sessions.Folder(SessionsDir(path, sessionsDir)), Caps: V1Capabilities}}
}

// SessionsDir is the sessions folder of the memory file at path: dir when
// one is configured, else sessions/ beside the file.
func SessionsDir(path, dir string) string {
	if dir != "" {
		return dir
	}
	return sessions.DefaultDir(path)
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
