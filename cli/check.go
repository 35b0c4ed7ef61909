package cli

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/crabdb"
	"github.com/crmem/crmem/store/sessions"
)

// checkReport is what check finds; its JSON form is check --json's output.
type checkReport struct {
	Path         string         `json:"path"`
	Format       string         `json:"format"` // "crmem-v1" (a store's report says "crabdb")
	Valid        bool           `json:"valid"`
	Error        string         `json:"error,omitempty"`
	Bytes        int            `json:"bytes"`
	NextID       uint64         `json:"next_id"`
	Entries      int            `json:"entries"`
	Kinds        map[string]int `json:"kinds"`
	Aliases      int            `json:"aliases"`
	ContentBytes int            `json:"content_bytes"`
	Largest      *largest       `json:"largest,omitempty"`
	Anomalies    []anomaly      `json:"anomalies"`
	Sessions     *sessionReport `json:"sessions,omitempty"`
}

// largest names the entry with the most content.
type largest struct {
	Name  string `json:"name"`
	Bytes int    `json:"bytes"`
}

// anomaly is an oddity the reader accepts but a user should know about.
type anomaly struct {
	Kind    string   `json:"kind"` // trailing_bytes, duplicate_name, duplicate_id, stale_next_id, reserved_id, no_ids_left, shared_alias, alias_is_name, unsafe_name, misleading_name
	Detail  string   `json:"detail"`
	Entries []string `json:"entries,omitempty"` // every entry concerned, when there are several
}

// listShown is how many names a detail line or a human report lists before
// summarising the rest (--json has them all).
const listShown = 5

// someQuoted quotes the first listShown names and counts the rest.
func someQuoted(names []string) string {
	if len(names) <= listShown {
		return strings.Join(quoteAll(names), ", ")
	}
	return fmt.Sprintf("%s, … and %s more", strings.Join(quoteAll(names[:listShown]), ", "), humanize.Count(len(names)-listShown))
}

// sessionReport is what check finds in the sessions folder.
type sessionReport struct {
	Dir      string          `json:"dir"`
	Found    bool            `json:"found"` // the folder exists
	Sessions int             `json:"sessions"`
	Markers  int             `json:"markers"`
	Missing  []missingMarker `json:"missing_archives"`
	Error    string          `json:"error,omitempty"`
}

// missingMarker is a compact marker naming an archive the memory lacks.
type missingMarker struct {
	Session string `json:"session"`
	Archive string `json:"archive"`
	Resume  bool   `json:"resume"` // the session resumes from it
}

// checkCommand validates the memory file and reports its anomalies.
func (a *app) checkCommand() *cobra.Command {
	var js jsonOutput
	c := &cobra.Command{
		Use:   "check [--json|--pretty] [--sessions DIR]",
		Short: "Validate the memory file; counts, sizes, anomalies, dangling archive markers",
		Long: `Read and validate the memory file without changing it. A file the reader
rejects exits 1 with the reason. Otherwise print entry counts per kind, aliases,
content sizes and the oddities the reader tolerates: trailing bytes, duplicate
names or ids, a stale next_id, aliases shared by several entries, aliases equal
to another entry's name, names that are not safe as file names. It also reads
crabtalk's sessions folder (--sessions, default sessions/ next to the memory
file) and reports compact markers naming archives that no longer exist: such a
session resumes with a placeholder instead of its context.`,
		Example: `  crmem check
  crmem check --json --sessions ~/.crabtalk/sessions`,
		Args: args(0, 0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			path, data, err := a.readMemoryFile()
			if err != nil {
				return err
			}
			r, decodeErr := checkFile(path, data, a.sessionsDir(path))
			if js.enabled() {
				if err := a.output(func(w *bufio.Writer) error { return js.write(w, r) }); err != nil {
					return err
				}
			} else if decodeErr == nil {
				if err := a.output(func(w *bufio.Writer) error { return writeCheck(w, r) }); err != nil {
					return err
				}
			}
			if decodeErr != nil {
				return fileError{path, decodeErr}
			}
			return nil
		},
	}
	js.register(c, "print the report")
	c.Flags().StringVar(&a.sessions, "sessions", "", "crabtalk sessions folder (default: sessions/ next to the memory file)") // resolved by the configuration loader
	return c
}

// checkFile decodes data and builds the report; the error is the decode
// failure, if any (the report then says only that).
func checkFile(path string, data []byte, sessionsDir string) (*checkReport, error) {
	r := &checkReport{Path: path, Format: "crmem-v1", Bytes: len(data), Kinds: map[string]int{}, Anomalies: []anomaly{}}
	f, err := store.Decode(data)
	if err != nil {
		r.Error = reason(path, err)
		return r, err
	}
	r.Valid = true
	r.NextID = f.NextID
	r.Entries = len(f.Entries)
	for _, k := range store.Kinds {
		r.Kinds[k.String()] = 0
	}
	for _, e := range f.Entries {
		r.Kinds[e.Kind.String()]++
		r.Aliases += len(e.Aliases)
		r.ContentBytes += len(e.Content)
		if r.Largest == nil || len(e.Content) > r.Largest.Bytes {
			r.Largest = &largest{Name: e.Name, Bytes: len(e.Content)}
		}
	}
	r.Anomalies = anomalies(f)
	if msg := misleadingName(path, crabdb.FormatV1); msg != "" {
		r.Anomalies = append(r.Anomalies, anomaly{Kind: "misleading_name", Detail: msg})
	}
	r.Sessions = checkSessions(sessionsDir, f.Entries)
	return r, nil
}

// anomalies lists the SPEC §1 oddities of a decoded file.
func anomalies(f *store.File) []anomaly {
	out := []anomaly{}
	if f.Trailing > 0 {
		out = append(out, anomaly{Kind: "trailing_bytes", Detail: fmt.Sprintf("%s bytes after the last entry (ignored on read, dropped on the next write)", humanize.Count(f.Trailing))})
	}
	out = append(out, duplicates(f.Entries)...)
	out = append(out, nextIDAnomalies(f)...)
	out = append(out, aliasAnomalies(f.Entries)...)
	for _, e := range f.Entries {
		if err := store.ValidName(e.Name); err != nil {
			out = append(out, anomaly{Kind: "unsafe_name", Detail: fmt.Sprintf("entry %d %q: %v (dump cannot write it; rename it)", e.ID, e.Name, err)})
		}
	}
	return out
}

// nextIDAnomalies reports a next_id not above the ids (the next entry
// gets the id store.NextIDFor says, as add gives it), an entry holding the
// reserved id 2^64−1, and a memory with no id left.
func nextIDAnomalies(f *store.File) []anomaly {
	var out []anomaly
	next := store.NextIDFor(f.NextID, f.Entries)
	if next != max(f.NextID, 1) {
		out = append(out, anomaly{Kind: "stale_next_id", Detail: fmt.Sprintf("next_id %d is not above the largest id %d (the next entry still gets id %d)", f.NextID, next-1, next)})
	}
	for _, e := range f.Entries {
		if e.ID == store.ReservedID {
			out = append(out, anomaly{Kind: "reserved_id", Detail: fmt.Sprintf("entry %q has id %d, the largest there is: kept, but ids are counted below it (the next entry gets id %d) and import refuses it", e.Name, e.ID, next)})
		}
	}
	if next == store.ReservedID {
		out = append(out, anomaly{Kind: "no_ids_left", Detail: fmt.Sprintf("next_id is %d: add fails with \"no ids left\"", next)})
	}
	return out
}

// duplicates reports names and ids used by more than one entry, in the
// order each first appears, with the ids or names in file order. Entries
// are counted first, so only the repeated ones cost more than a map
// increment.
func duplicates(entries []store.Entry) []anomaly {
	names := make(map[string]int, len(entries))
	for _, e := range entries {
		names[e.Name]++
	}
	out := duplicateNames(entries, names)
	if idsAscend(entries) {
		return out // none repeats
	}
	ids := make(map[uint64]int, len(entries))
	for _, e := range entries {
		ids[e.ID]++
	}
	return append(out, duplicateIDs(entries, ids)...)
}

// idsAscend reports whether the entries' ids strictly ascend, as in every
// file crmem or the reference writes.
func idsAscend(entries []store.Entry) bool {
	for i := 1; i < len(entries); i++ {
		if entries[i].ID <= entries[i-1].ID {
			return false
		}
	}
	return true
}

// duplicateNames reports each name counted more than once.
func duplicateNames(entries []store.Entry, count map[string]int) []anomaly {
	var out []anomaly
	var ids map[string][]uint64
	var order []string
	for _, e := range entries {
		if count[e.Name] < 2 {
			continue
		}
		if ids == nil {
			ids = map[string][]uint64{}
		}
		if len(ids[e.Name]) == 0 {
			order = append(order, e.Name)
		}
		ids[e.Name] = append(ids[e.Name], e.ID)
	}
	for _, n := range order {
		out = append(out, anomaly{Kind: "duplicate_name", Detail: fmt.Sprintf("%q is the name of %d entries (ids %s); lookup finds the last in file order", n, len(ids[n]), joinIDs(ids[n]))})
	}
	return out
}

// duplicateIDs reports each id counted more than once.
func duplicateIDs(entries []store.Entry, count map[uint64]int) []anomaly {
	var out []anomaly
	namesOf := map[uint64][]string{}
	for _, e := range entries {
		if count[e.ID] > 1 {
			namesOf[e.ID] = append(namesOf[e.ID], fmt.Sprintf("%q", e.Name))
		}
	}
	for _, e := range entries {
		if count[e.ID] > 1 {
			out = append(out, anomaly{Kind: "duplicate_id", Detail: fmt.Sprintf("id %d is used by %s entries (%s); every write keeps them all", e.ID, humanize.Count(count[e.ID]), strings.Join(namesOf[e.ID], ", "))})
			count[e.ID] = 0
		}
	}
	return out
}

// aliasAnomalies reports aliases held by several entries and aliases equal
// to another entry's name.
func aliasAnomalies(entries []store.Entry) []anomaly {
	var out []anomaly
	names := map[string]bool{}
	holders := map[string][]string{}
	var order []string
	for _, e := range entries {
		names[e.Name] = true
		for _, al := range dedupe(e.Aliases) {
			if len(holders[al]) == 0 {
				order = append(order, al)
			}
			holders[al] = append(holders[al], e.Name)
		}
	}
	for _, al := range order {
		if hs := holders[al]; len(hs) > 1 {
			out = append(out, anomaly{Kind: "shared_alias", Detail: fmt.Sprintf("alias %q belongs to %d entries (%s); it resolves to the lowest id", al, len(hs), someQuoted(hs)), Entries: hs})
		}
		if names[al] && !slices.Equal(holders[al], []string{al}) {
			others := otherThan(holders[al], al)
			out = append(out, anomaly{Kind: "alias_is_name", Detail: fmt.Sprintf("alias %q of %s is also an entry's name; the name wins", al, someQuoted(others)), Entries: others})
		}
	}
	return out
}

// otherThan drops s from ss.
func otherThan(ss []string, s string) []string {
	return slices.DeleteFunc(slices.Clone(ss), func(x string) bool { return x == s })
}

// joinIDs formats ids as "1, 2".
func joinIDs(ids []uint64) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = fmt.Sprint(id)
	}
	return strings.Join(s, ", ")
}

// checkSessions reads the sessions folder and lists compact markers naming
// archives the memory does not hold (by name or alias).
func checkSessions(dir string, entries []store.Entry) *sessionReport {
	r := &sessionReport{Dir: dir, Missing: []missingMarker{}}
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
		for _, arch := range dedupe(s.Archives) {
			if !known[arch] {
				r.Missing = append(r.Missing, missingMarker{Session: s.Name, Archive: arch, Resume: arch == s.Resume})
			}
		}
	}
	return r
}

// writeCheck prints the human report.
func writeCheck(w *bufio.Writer, r *checkReport) error {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("%s: valid CRMEM v1 file, %s\n", sanitizeLine(r.Path), humanize.Size(r.Bytes))
	p("entries    %s (notes %s, archives %s, topics %s)\n", humanize.Count(r.Entries), humanize.Count(r.Kinds["note"]), humanize.Count(r.Kinds["archive"]), humanize.Count(r.Kinds["topic"]))
	p("aliases    %s\n", humanize.Count(r.Aliases))
	p("content    %s", humanize.Size(r.ContentBytes))
	if r.Largest != nil {
		p(", largest %s (%s)", humanize.Size(r.Largest.Bytes), nameText(r.Largest.Name))
	}
	p("\nnext_id    %d\n", r.NextID)
	if len(r.Anomalies) == 0 {
		p("anomalies  none\n")
	} else {
		p("anomalies  %s\n", humanize.Count(len(r.Anomalies)))
		writeAnomalies(p, r.Anomalies)
	}
	writeSessions(p, r.Sessions)
	return nil
}

// writeAnomalies prints up to listShown anomalies of each kind and counts
// the rest.
func writeAnomalies(p func(string, ...any), as []anomaly) {
	shown := map[string]int{}
	var kinds []string
	for _, an := range as {
		if shown[an.Kind] == 0 {
			kinds = append(kinds, an.Kind)
		}
		if shown[an.Kind]++; shown[an.Kind] <= listShown {
			p("  %s: %s\n", an.Kind, sanitizeLine(an.Detail))
		}
	}
	for _, k := range kinds {
		if n := shown[k] - listShown; n > 0 {
			p("  … and %s more %s (crmem check --json lists them all)\n", humanize.Count(n), k)
		}
	}
}

// writeSessions prints the sessions part of the human report.
func writeSessions(p func(string, ...any), s *sessionReport) {
	if s == nil {
		return
	}
	if s.Error != "" {
		p("sessions   %s: cannot read: %s\n", sanitizeLine(s.Dir), sanitizeLine(s.Error))
		return
	}
	if !s.Found {
		p("sessions   %s: none (no such folder)\n", sanitizeLine(s.Dir))
		return
	}
	p("sessions   %s in %s, %s compact markers, %s naming missing archives\n", humanize.Count(s.Sessions), sanitizeLine(s.Dir), humanize.Count(s.Markers), humanize.Count(len(s.Missing)))
	for _, m := range s.Missing {
		resume := ""
		if m.Resume {
			resume = " (its resume point: it resumes with a placeholder)"
		}
		p("  missing archive %q referenced by session %s%s\n", sanitizeLine(m.Archive), sanitizeLine(m.Session), resume)
	}
}
