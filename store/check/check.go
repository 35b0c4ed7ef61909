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
	"github.com/crmem/crmem/store/sessions"
)

// FormatV1 is the CRMEM v1 format as a Report names it; crabtalk's store
// names itself (its adapter's check).
const FormatV1 = "crmem-v1"

// Look is how a format's files look by name (SPEC §10): the name crabtalk
// gives the file, its extension, and what the user calls the format. A
// name that suggests another format than the one the file holds is
// reported (Misnamed).
type Look struct{ FileName, Ext, Says string }

// V1Look is how a CRMEM v1 file looks.
var V1Look = Look{FileName: store.FileName, Ext: ".db", Says: "CRMEM v1 memory file"}

// Report is what Run finds in a memory file; its JSON form is check
// --json's output. The parts only one format has are embedded pointers,
// nil (and so absent from the JSON) for the other.
type Report struct {
	Path   string `json:"path"`
	Format string `json:"format"` // FormatV1 or the store's own name
	// Caps are what the format checked can do (its trailing-bytes rule,
	// say), for the command line's messages; not in the JSON.
	Caps  store.Capabilities `json:"-"`
	Valid bool               `json:"valid"`
	Error string             `json:"error,omitempty"`
	Bytes int                `json:"bytes"`
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

// New is an empty report on path's data in format, which caps can do.
func New(path, format string, data []byte, caps store.Capabilities) *Report {
	return &Report{Path: path, Format: format, Caps: caps, Bytes: len(data), Kinds: map[string]int{}, Anomalies: []Anomaly{}}
}

// Count adds an entry's numbers to r.
func (r *Report) Count(kind, name string, aliases int, content int) {
	r.Entries++
	r.Kinds[kind]++
	r.Aliases += aliases
	r.ContentBytes += content
	if r.Largest == nil || content > r.Largest.Bytes {
		r.Largest = &Largest{Name: name, Bytes: content}
	}
}

// Misnamed reports, as an anomaly, a file name that suggests the format
// other looks like rather than the one the file holds, holds (nothing when
// the name fits or says nothing).
func (r *Report) Misnamed(holds, other Look) {
	base := filepath.Base(r.Path)
	if base == other.FileName || filepath.Ext(base) == other.Ext {
		r.Anomalies = append(r.Anomalies, Anomaly{Kind: "misleading_name",
			Detail: fmt.Sprintf("the name %q suggests a %s, but this is a %s", base, other.Says, holds.Says)})
	}
}

// V1 checks the CRMEM v1 file at path whose bytes are data, decoded as f
// (or failing with err), its sessions in sessionsDir; other is how the
// other format's files look. The error is the reader's refusal, if any;
// the report then says only that (Valid false, Error its reason).
func V1(path string, data []byte, f *store.File, err error, sessionsDir string, other Look) (*Report, error) {
	r := New(path, FormatV1, data, store.V1Capabilities)
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
		r.Count(e.Kind.String(), e.Name, len(e.Aliases), len(e.Content))
	}
	r.Anomalies = v1Anomalies(f)
	r.Misnamed(V1Look, other)
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
