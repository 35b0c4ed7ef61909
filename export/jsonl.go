package export

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/crmem/crmem/store"
)

// LineError is a problem at one line of an input file. It prints as
// "<file>:<line>: <reason>".
type LineError struct {
	File string
	Line int
	Err  error
}

// Error implements error.
func (e *LineError) Error() string { return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err) }

// Unwrap returns the reason.
func (e *LineError) Unwrap() error { return e.Err }

// JSONEntry is an entry in the JSON shape of SPEC §6, used by export and by
// every --json output: aliases are always an array (never null).
type JSONEntry struct {
	ID        uint64   `json:"id"`
	Name      string   `json:"name"`
	Kind      string   `json:"kind"`
	CreatedAt uint64   `json:"created_at"`
	Aliases   []string `json:"aliases"`
	Content   string   `json:"content"`
}

// NewJSONEntry converts an entry to its JSON shape.
func NewJSONEntry(e store.Entry) JSONEntry {
	aliases := e.Aliases
	if aliases == nil {
		aliases = []string{}
	}
	return JSONEntry{ID: e.ID, Name: e.Name, Kind: e.Kind.String(), CreatedAt: e.CreatedAt, Aliases: aliases, Content: e.Content}
}

// WriteJSONL writes entries as JSON lines (SPEC §6 entry shape, aliases []
// rather than null), one entry per line in ascending id order.
func WriteJSONL(w io.Writer, entries []store.Entry) error {
	sorted := slices.Clone(entries)
	slices.SortStableFunc(sorted, func(a, b store.Entry) int { return cmp.Compare(a.ID, b.ID) })
	return WriteLines(w, sorted, NewJSONEntry)
}

// WriteLines writes items as JSON lines, each as shape gives it: HTML
// characters as they are, DEL, C1 controls and format characters escaped
// (EscapeJSON), one item per line. It is the one JSON-lines writer: export
// of either format goes through it.
func WriteLines[T, J any](w io.Writer, items []T, shape func(T) J) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	var line bytes.Buffer
	enc := json.NewEncoder(&line)
	enc.SetEscapeHTML(false)
	for _, it := range items {
		line.Reset()
		if err := enc.Encode(shape(it)); err != nil {
			return fmt.Errorf("write json lines: %w", err)
		}
		if _, err := bw.Write(EscapeJSON(line.Bytes())); err != nil {
			return fmt.Errorf("write json lines: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write json lines: %w", err)
	}
	return nil
}

// inEntry is one input line; pointers tell a missing field from a zero one.
type inEntry struct {
	ID        *uint64    `json:"id"`
	Name      *string    `json:"name"`
	Kind      *string    `json:"kind"`
	CreatedAt *createdAt `json:"created_at"`
	Aliases   []string   `json:"aliases"`
	Content   *string    `json:"content"`
}

// ReadJSONL reads JSON lines as written by WriteJSONL (file names the input
// in errors). Blank lines are skipped. Each line must be one object with a
// valid, unique "name", a "kind" and a "content"; "aliases" may be absent
// or null (none) but every alias must be non-empty; "created_at" is unix
// seconds or an RFC 3339 string (a store's export; sub-second part
// dropped), absent or null meaning now; "id" absent or 0 means the next id above every id in the
// file, assigned in line order; ids must be unique. Unknown fields and
// bytes that are not UTF-8 are rejected. The first problem fails the whole read with a *LineError.
func ReadJSONL(file string, r io.Reader, now time.Time) ([]store.Entry, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var (
		out   []store.Entry
		names = map[string]int{}
		ids   = map[uint64]int{}
	)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return nil, err // names its file already (a capped stream)
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("read %s: %w", file, err)
		}
		if n == 1 {
			line = bytes.TrimPrefix(line, []byte(bom))
		}
		if len(bytes.TrimSpace(line)) > 0 {
			e, perr := parseLine(line, now)
			if perr == nil {
				perr = checkUnique(e, n, names, ids)
			}
			if perr != nil {
				return nil, &LineError{File: file, Line: n, Err: perr}
			}
			out = append(out, e)
		}
		if err != nil {
			break
		}
	}
	if err := assignIDs(out); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return out, nil
}

// parseLine decodes and checks one JSON line.
func parseLine(line []byte, now time.Time) (store.Entry, error) {
	if !utf8.Valid(line) {
		// encoding/json would silently turn the bad bytes into U+FFFD.
		return store.Entry{}, errors.New("not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	var in inEntry
	if err := dec.Decode(&in); err != nil {
		return store.Entry{}, jsonReason(err)
	}
	if dec.More() {
		return store.Entry{}, errors.New("more than one JSON value on the line")
	}
	return in.entry(now)
}

// jsonReason shortens encoding/json's messages.
func jsonReason(err error) error {
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if strings.Contains(msg, "cannot unmarshal array into Go value") || strings.Contains(msg, "into Go value of type export.inEntry") {
		msg = "not a JSON object"
	}
	return errors.New(msg)
}

// entry checks the decoded fields and builds the entry.
func (in inEntry) entry(now time.Time) (store.Entry, error) {
	switch {
	case in.Name == nil:
		return store.Entry{}, errors.New(`missing "name"`)
	case in.Kind == nil:
		return store.Entry{}, errors.New(`missing "kind"`)
	case in.Content == nil:
		return store.Entry{}, errors.New(`missing "content"`)
	}
	if err := store.ValidName(*in.Name); err != nil {
		return store.Entry{}, err
	}
	kind, err := store.ParseKind(*in.Kind)
	if err != nil {
		return store.Entry{}, err
	}
	for _, a := range in.Aliases {
		if a == "" {
			return store.Entry{}, errors.New("empty alias")
		}
	}
	e := store.Entry{Name: *in.Name, Kind: kind, Content: *in.Content, Aliases: in.Aliases, CreatedAt: unixNow(now)}
	if in.ID != nil {
		e.ID = *in.ID
	}
	if e.ID == store.ReservedID {
		return store.Entry{}, fmt.Errorf("id %d is reserved: no id is left above it (ids go up to %d)", e.ID, store.ReservedID-1)
	}
	if in.CreatedAt != nil {
		e.CreatedAt = uint64(*in.CreatedAt)
	}
	return e, nil
}

// checkUnique records the entry's name and id, failing on a repeat.
func checkUnique(e store.Entry, line int, names map[string]int, ids map[uint64]int) error {
	if prev, ok := names[e.Name]; ok {
		return fmt.Errorf("name %q already used on line %d", e.Name, prev)
	}
	names[e.Name] = line
	if e.ID == 0 {
		return nil
	}
	if prev, ok := ids[e.ID]; ok {
		return fmt.Errorf("id %d already used on line %d", e.ID, prev)
	}
	ids[e.ID] = line
	return nil
}

// assignIDs gives every entry with id 0 the next id above all ids, in
// order, counting as an add does (store.NextIDFor).
func assignIDs(entries []store.Entry) error {
	next := store.NextIDFor(0, entries)
	for i := range entries {
		if entries[i].ID != 0 {
			continue
		}
		if next == store.ReservedID {
			return fmt.Errorf("no ids left for %q", entries[i].Name)
		}
		entries[i].ID = next
		next++
	}
	return nil
}
