package crabdb

import (
	"fmt"
	"time"

	"github.com/crmem/crmem/store"
)

// V1 is e as a v1 entry with the given id: its kind as a v1 kind (an
// unknown kind is a note), its created_at as unix seconds. A created_at
// that is missing, not RFC 3339 or before 1970 becomes 0, the unknown time,
// rather than a made-up one. The notices say what had to be changed.
func (e Entry) V1(id uint64) (store.Entry, []string) {
	var notices []string
	created, ok := e.Created()
	if !ok {
		notices = append(notices, fmt.Sprintf("entry %q: created_at %q is not an RFC 3339 time after 1970; kept as unknown (0)", e.Name, e.CreatedAt))
	}
	kind, ok := e.V1Kind()
	if !ok {
		notices = append(notices, fmt.Sprintf("entry %q: unknown kind %q; taken as a note", e.Name, e.Kind))
	}
	aliases := e.Aliases
	if aliases == nil {
		aliases = []string{}
	}
	return store.Entry{ID: id, Name: e.Name, Kind: kind, CreatedAt: created, Aliases: aliases, Content: e.Content}, notices
}

// Created is e's created_at as unix seconds; ok is false (and seconds 0)
// when it is missing, not RFC 3339, or before 1970.
func (e Entry) Created() (seconds uint64, ok bool) {
	t, err := time.Parse(time.RFC3339Nano, e.CreatedAt)
	if err != nil || t.Unix() < 0 {
		return 0, false
	}
	return uint64(t.Unix()), true
}

// V1Kind maps e's kind to a v1 kind by its exact name; ok is false (and
// the kind a note) for any other, plurals included.
func (e Entry) V1Kind() (store.Kind, bool) {
	for _, k := range store.Kinds {
		if e.Kind == k.String() {
			return k, true
		}
	}
	return store.Note, false
}
