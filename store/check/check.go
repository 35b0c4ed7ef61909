// Package check validates a memory file, either format, without writing
// it, and reports what it holds and the oddities its reader tolerates
// (crmem check). The report is built here and printed by the command line.
package check

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/crabdb"
	"github.com/crmem/crmem/store/sessions"
)

// Formats as a Report names them.
const (
	FormatV1    = "crmem-v1"
	FormatStore = "crabdb"
)

// The file names the formats are known by (SPEC §10), store.FileName and
// crabdb.FileName: a name that suggests the other format is reported.

// Report is what Run finds in a memory file; its JSON form is check
// --json's output. The parts only one format has are embedded pointers,
// nil (and so absent from the JSON) for the other.
type Report struct {
	Path   string `json:"path"`
	Format string `json:"format"` // FormatV1 or FormatStore
	Valid  bool   `json:"valid"`
	Error  string `json:"error,omitempty"`
	Bytes  int    `json:"bytes"`
	*V1Header
	*StoreLayout
	Entries      int                `json:"entries"`
	Kinds        map[string]int     `json:"kinds"`
	Aliases      int                `json:"aliases"`
	ContentBytes int                `json:"content_bytes"`
	Largest      *Largest           `json:"largest,omitempty"`
	Index        *store.RecallStats `json:"index,omitempty"` // a store's memory index stats, as stored
	Anomalies    []Anomaly          `json:"anomalies"`
	Sessions     *Sessions          `json:"sessions,omitempty"`
}

// V1Header is a CRMEM v1 file's header, as a report shows it.
type V1Header struct {
	NextID uint64 `json:"next_id"`
}

// StoreLayout is a crabtalk store's layout and what reading it noticed.
type StoreLayout struct {
	IndexAt  uint64   `json:"index_at"`  // the snapshot's offset (0: none)
	IndexLen uint64   `json:"index_len"` // the snapshot's length
	LiveKeys int      `json:"live_keys"` // live keys in all columns
	Warnings []string `json:"warnings"`  // a torn tail, say
}

// Largest names the entry with the most content.
type Largest struct {
	Name  string `json:"name"`
	Bytes int    `json:"bytes"`
}

// Anomaly is an oddity the reader accepts but a user should know about.
type Anomaly struct {
	// Kind is one of trailing_bytes, duplicate_name, duplicate_id,
	// stale_next_id, reserved_id, no_ids_left, shared_alias,
	// alias_is_name, unsafe_name, misleading_name (v1); name_mismatch,
	// unreadable_entry, unreadable_index, misleading_name (store).
	Kind    string   `json:"kind"`
	Detail  string   `json:"detail"`
	Entries []string `json:"entries,omitempty"` // every entry concerned, when there are several
}

// Sessions is what a report finds in crabtalk's sessions: the sessions
// folder beside a v1 file, or the sessions a store holds.
type Sessions struct {
	Dir      string `json:"dir"`   // the folder, or "(in the store)"
	Found    bool   `json:"found"` // the folder exists (always, in a store)
	Sessions int    `json:"sessions"`
	Markers  int    `json:"markers"`
	// Unreadable counts steps that could not be read (a FIFO, a device,
	// over the cap, a link out of the folder): their markers are unknown.
	Unreadable int             `json:"unreadable_steps"`
	Missing    []MissingMarker `json:"missing_archives"`
	Error      string          `json:"error,omitempty"`
}

// InStore is Sessions.Dir for the sessions a store holds.
const InStore = "(in the store)"

// MissingMarker is a compact marker naming an archive the memory lacks.
type MissingMarker struct {
	Session string `json:"session"`
	Archive string `json:"archive"`
	Resume  bool   `json:"resume"` // the session resumes from it
}

// ListShown is how many names a detail line lists before summarising the
// rest (the entries field has them all).
const ListShown = 5

// Run checks the memory file at path whose bytes are data: crabtalk's
// store when it is one by structure (SPEC §10), else a CRMEM v1 file whose
// sessions are in sessionsDir. The error is the reader's refusal, if any;
// the report then says only that (Valid false, Error its reason).
func Run(path string, data []byte, sessionsDir string) (*Report, error) {
	format, f, err := crabdb.DetectDecoded(data)
	if format == crabdb.FormatStore {
		return runStore(path, data)
	}
	return runV1(path, data, f, err, sessionsDir)
}

// newReport is an empty report on path's data in format.
func newReport(path, format string, data []byte) *Report {
	return &Report{Path: path, Format: format, Bytes: len(data), Kinds: map[string]int{}, Anomalies: []Anomaly{}}
}

// count adds an entry's numbers to r.
func (r *Report) count(kind, name string, aliases int, content int) {
	r.Entries++
	r.Kinds[kind]++
	r.Aliases += aliases
	r.ContentBytes += content
	if r.Largest == nil || content > r.Largest.Bytes {
		r.Largest = &Largest{Name: name, Bytes: content}
	}
}

// misleadingName describes a file name that suggests the other format
// than the one the file holds ("" when the name fits or says nothing).
func misleadingName(path string, f crabdb.Format) string {
	base := filepath.Base(path)
	switch {
	case f == crabdb.FormatStore && (base == store.FileName || filepath.Ext(base) == ".db"):
		return fmt.Sprintf("the name %q suggests a CRMEM v1 memory file, but this is a crabtalk store (crabdb)", base)
	case f == crabdb.FormatV1 && (base == crabdb.FileName || filepath.Ext(base) == ".crmem"):
		return fmt.Sprintf("the name %q suggests a crabtalk store (crabdb), but this is a CRMEM v1 memory file", base)
	}
	return ""
}

// runV1 checks a CRMEM v1 file, decoded as f (or failing with err).
func runV1(path string, data []byte, f *store.File, err error, sessionsDir string) (*Report, error) {
	r := newReport(path, FormatV1, data)
	r.V1Header = &V1Header{}
	if err != nil {
		r.Error = err.Error()
		return r, err
	}
	r.Valid = true
	r.NextID = f.NextID
	for _, k := range store.Kinds {
		r.Kinds[k.String()] = 0
	}
	for _, e := range f.Entries {
		r.count(e.Kind.String(), e.Name, len(e.Aliases), len(e.Content))
	}
	r.Anomalies = v1Anomalies(f)
	if msg := misleadingName(path, crabdb.FormatV1); msg != "" {
		r.Anomalies = append(r.Anomalies, Anomaly{Kind: "misleading_name", Detail: msg})
	}
	r.Sessions = folderSessions(sessionsDir, f.Entries)
	return r, nil
}

// folderSessions reads the sessions folder and lists compact markers
// naming archives the memory does not hold (by name or alias).
func folderSessions(dir string, entries []store.Entry) *Sessions {
	r := &Sessions{Dir: dir, Missing: []MissingMarker{}}
	if _, err := os.Stat(dir); err == nil {
		r.Found = true
	}
	ss, err := sessions.Read(dir)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	known := map[string]bool{}
	for _, e := range entries {
		known[e.Name] = true
		for _, al := range e.Aliases {
			known[al] = true
		}
	}
	r.Sessions = len(ss)
	for _, s := range ss {
		r.Markers += len(s.Archives)
		r.Unreadable += s.Unreadable
		reported := map[string]bool{} // a session's markers may name one archive twice
		for _, arch := range s.Archives {
			if !known[arch] && !reported[arch] {
				reported[arch] = true
				r.Missing = append(r.Missing, MissingMarker{Session: s.Name, Archive: arch, Resume: arch == s.Resume})
			}
		}
	}
	return r
}

// runStore checks crabtalk's store.
func runStore(path string, data []byte) (*Report, error) {
	r := newReport(path, FormatStore, data)
	r.StoreLayout = &StoreLayout{Warnings: []string{}}
	if msg := misleadingName(path, crabdb.FormatStore); msg != "" {
		r.Anomalies = append(r.Anomalies, Anomaly{Kind: "misleading_name", Detail: msg})
	}
	s, err := crabdb.Read(data)
	if err != nil {
		r.Error = err.Error()
		return r, err
	}
	r.Valid = true
	h := s.Header()
	r.IndexAt, r.IndexLen, r.LiveKeys = h.IndexAt, h.IndexLen, s.Len()
	r.Warnings = append(r.Warnings, s.Warnings()...)
	entries, problems := s.Entries()
	for _, p := range problems {
		kind := "name_mismatch"
		if p.Skipped {
			kind = "unreadable_entry"
		}
		r.Anomalies = append(r.Anomalies, Anomaly{Kind: kind, Detail: p.Reason})
	}
	for _, k := range []string{"note", "archive"} {
		r.Kinds[k] = 0
	}
	known := map[string]bool{}
	for _, e := range entries {
		r.count(e.Kind, e.Name, len(e.Aliases), len(e.Content))
		known[e.Name] = true
		for _, al := range e.Aliases {
			known[al] = true
		}
	}
	if st, ok, err := s.Stats(); err != nil {
		r.Anomalies = append(r.Anomalies, Anomaly{Kind: "unreadable_index", Detail: err.Error()})
	} else if ok {
		r.Index = &st
	}
	r.Sessions = storeSessions(s, known)
	return r, nil
}

// storeSessions lists the store's sessions whose marker names an archive
// the memory does not hold.
func storeSessions(s *crabdb.Store, known map[string]bool) *Sessions {
	sr := &Sessions{Dir: InStore, Found: true, Missing: []MissingMarker{}}
	for _, ss := range s.Sessions() {
		sr.Sessions++
		if ss.Archive == "" {
			continue
		}
		sr.Markers++
		if !known[ss.Archive] {
			// A store keeps one marker per session: the one it resumes from.
			sr.Missing = append(sr.Missing, MissingMarker{Session: ss.Handle, Archive: ss.Archive, Resume: true})
		}
	}
	return sr
}

// someQuoted quotes the first ListShown names and counts the rest.
func someQuoted(names []string) string {
	quote := func(ss []string) string {
		q := make([]string, len(ss))
		for i, s := range ss {
			q[i] = fmt.Sprintf("%q", s)
		}
		return strings.Join(q, ", ")
	}
	if len(names) <= ListShown {
		return quote(names)
	}
	return fmt.Sprintf("%s, … and %s more", quote(names[:ListShown]), humanize.Count(len(names)-ListShown))
}
