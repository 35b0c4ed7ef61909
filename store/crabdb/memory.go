package crabdb

import (
	"encoding/json"
	"fmt"
	"strings"
)

// MemoryPrefix starts every memory entry's key in column 2.
const MemoryPrefix = "local/memory/"

// Entry is a memory entry as the store holds it: column 2, key
// "local/memory/{name}", value compact JSON. Entries have no id.
type Entry struct {
	Key     string // "local/memory/{name}"
	Name    string
	Kind    string // "note" or "archive" as written
	Content string
	Aliases []string
	// CreatedAt is the RFC 3339 string as stored ("" when missing).
	CreatedAt string
	// Raw is the stored JSON value, byte for byte.
	Raw []byte
}

// cachedEntry is an entry decoded from the record at off; a reload that
// only appended keeps it while the key's record stays the same.
type cachedEntry struct {
	off int64
	e   Entry
	err error
}

// storedEntry is the value's JSON; pointers tell missing fields.
type storedEntry struct {
	Name      *string  `json:"name"`
	Kind      *string  `json:"kind"`
	Content   *string  `json:"content"`
	Aliases   []string `json:"aliases"`
	CreatedAt string   `json:"created_at"`
}

// Problem is something wrong with one memory entry's record.
type Problem struct {
	Key     string
	Skipped bool   // the value could not be read: the entry is left out
	Reason  string // what is wrong, naming the entry
}

// String is the reason.
func (p Problem) String() string { return p.Reason }

// Entries returns the memory entries in key order. An entry whose value
// the store itself could not read (not UTF-8 JSON, a required field
// missing) is left out and described in problems (Skipped), as is, while
// listed, one whose value names another entry than its key.
func (s *Store) Entries() (entries []Entry, problems []Problem) {
	for _, k := range s.Keys(ColMemory, MemoryPrefix) {
		e, p, _ := s.entry(k)
		if p != nil {
			problems = append(problems, *p)
		}
		if p == nil || !p.Skipped {
			entries = append(entries, e)
		}
	}
	return entries, problems
}

// Entry is the memory entry under key as Entries gives it: live says the
// store holds the key, p what is wrong with its value (nil: nothing; an
// entry p.Skipped is left out of Entries).
func (s *Store) Entry(key string) (e Entry, p *Problem, live bool) { return s.entry(key) }

// entry is Entry, decoding the value once per record (s.entries).
func (s *Store) entry(k string) (Entry, *Problem, bool) {
	v, ok := s.live[Key{ColMemory, k}]
	if !ok {
		return Entry{}, nil, false
	}
	if s.entries == nil {
		s.entries = map[string]cachedEntry{}
	}
	c, ok := s.entries[k]
	if !ok || c.off != v.off {
		c.e, c.err = decodeEntry(k, v.val)
		c.off = v.off
		s.entries[k] = c
	}
	if c.err != nil {
		return Entry{}, &Problem{Key: k, Skipped: true, Reason: c.err.Error()}, true
	}
	if name := strings.TrimPrefix(k, MemoryPrefix); c.e.Name != name {
		return c.e, &Problem{Key: k, Reason: fmt.Sprintf("memory entry %q: its value names %q", name, c.e.Name)}, true
	}
	return c.e, nil, true
}

// decodeEntry parses one stored entry.
func decodeEntry(key string, v []byte) (Entry, error) {
	name := strings.TrimPrefix(key, MemoryPrefix)
	bad := func(why string) (Entry, error) {
		return Entry{}, fmt.Errorf("memory entry %q: %s", name, why)
	}
	if !isUTF8(v) {
		return bad("value is not valid UTF-8")
	}
	var se storedEntry
	if err := json.Unmarshal(v, &se); err != nil {
		return bad("value is not an entry: " + err.Error())
	}
	switch {
	case se.Name == nil:
		return bad(`value has no "name"`)
	case se.Kind == nil:
		return bad(`value has no "kind"`)
	case se.Content == nil:
		return bad(`value has no "content"`)
	}
	return Entry{Key: key, Name: *se.Name, Kind: *se.Kind, Content: *se.Content,
		Aliases: se.Aliases, CreatedAt: se.CreatedAt, Raw: v}, nil
}

// Session is a crabtalk session in the store and the archive its
// compaction marker names (column 1, "local/session/{handle}/archive").
type Session struct {
	Handle  string
	Archive string // "" when the session has no marker
}

// sessionPrefix starts every session key in column 1.
const sessionPrefix = "local/session/"

// Sessions returns every session that has a key in column 1, in handle
// order, with the archive its marker names. A marker that is not a JSON
// string is ignored (the session is listed without an archive).
func (s *Store) Sessions() []Session {
	var out []Session
	for _, k := range s.Keys(ColSession, sessionPrefix) {
		rest := k[len(sessionPrefix):]
		i := strings.IndexByte(rest, '/')
		if i <= 0 {
			continue
		}
		h := rest[:i]
		if len(out) == 0 || out[len(out)-1].Handle != h {
			out = append(out, Session{Handle: h})
		}
		if rest[i+1:] == "archive" {
			v, _ := s.Get(ColSession, k)
			var name string
			if json.Unmarshal(v, &name) == nil {
				out[len(out)-1].Archive = name
			}
		}
	}
	return out
}
