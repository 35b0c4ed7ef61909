package store

import (
	"fmt"
)

// Kind is the immutable category of an entry. The values are the on-disk
// numbers of the CRMEM v1 format.
type Kind uint32

// The kinds CRMEM v1 knows. Topic is written by later crabtalk releases
// without a format version change and is treated as a third ordinary kind.
const (
	Note    Kind = 0
	Archive Kind = 1
	Topic   Kind = 2
)

// Kinds lists every kind in on-disk order.
var Kinds = [...]Kind{Note, Archive, Topic}

// String returns the lower-case name used on the command line and in JSON.
func (k Kind) String() string {
	switch k {
	case Note:
		return "note"
	case Archive:
		return "archive"
	case Topic:
		return "topic"
	}
	return fmt.Sprintf("kind(%d)", uint32(k))
}

// ParseKind accepts "note", "archive" or "topic" (and their plurals).
func ParseKind(s string) (Kind, error) {
	switch s {
	case "note", "notes":
		return Note, nil
	case "archive", "archives":
		return Archive, nil
	case "topic", "topics":
		return Topic, nil
	}
	return 0, fmt.Errorf("unknown kind %q (want note, archive or topic)", s)
}

// MarshalText encodes the kind as its name.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText decodes a kind name.
func (k *Kind) UnmarshalText(b []byte) error {
	v, err := ParseKind(string(b))
	if err != nil {
		return err
	}
	*k = v
	return nil
}

// Entry is one memory entry. Its JSON form is the one SPEC §6 fixes:
// {"id","name","kind","created_at","aliases","content"}.
type Entry struct {
	ID        uint64   `json:"id"`
	Name      string   `json:"name"`
	Kind      Kind     `json:"kind"`
	CreatedAt uint64   `json:"created_at"` // unix seconds
	Aliases   []string `json:"aliases"`
	Content   string   `json:"content"`
}

// Tokens returns the number of bm25 tokens of the entry's document, its
// content and its aliases, as recall indexes it (bm25.Doc.Len).
func (e *Entry) Tokens() int {
	d := docOf(e)
	return d.Len()
}
