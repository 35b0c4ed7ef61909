package crabdb

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzEntryJSON: the value the writer stores for any entry of valid
// UTF-8 text decodes, by a JSON decoder and by the store's reader, to the
// same entry; only '"', '\\' and control characters are escaped (serde_json
// writes nothing else escaped), so a value without them is the text itself.
func FuzzEntryJSON(f *testing.F) {
	f.Add("deploy-steps", "note", "line\nwith \"quotes\" \\ and \x01 <b>&</b>\u2028", "a b", "2026-01-01T00:00:00+00:00")
	f.Add("Straße café ☕", "archive", "", "", "")
	f.Fuzz(func(t *testing.T, name, kind, content, aliases, created string) {
		for _, s := range []string{name, kind, content, aliases, created} {
			if !utf8.ValidString(s) {
				return // PutMemory refuses it (checkWritable)
			}
		}
		e := Entry{Name: name, Kind: kind, Content: content, Aliases: strings.Fields(aliases), CreatedAt: created}
		if e.Aliases == nil {
			e.Aliases = []string{}
		}
		v := EntryJSON(e)
		var se storedEntry
		if err := json.Unmarshal(v, &se); err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		if *se.Name != name || *se.Kind != kind || *se.Content != content || !slices.Equal(se.Aliases, e.Aliases) || se.CreatedAt != created {
			t.Fatalf("%s decodes to %+v", v, se)
		}
		got, err := decodeEntry(MemoryKey(name), v)
		if err != nil || got.Content != content {
			t.Fatalf("the reader: %v", err)
		}
		if plain := !strings.ContainsAny(content, "\"\\") && !strings.ContainsFunc(content, func(r rune) bool { return r < 0x20 }); plain &&
			!strings.Contains(string(v), `"content":"`+content+`"`) {
			t.Fatalf("%s: content escaped beyond serde_json's rules", v)
		}
	})
}

// FuzzRecoverNote: whatever the note beside a store holds, Recover never
// panics, never cuts the store below the length it had before the noted
// append's offset, leaves a store that reads, and removes the note.
func FuzzRecoverNote(f *testing.F) {
	f.Add([]byte(`{"offset":110751,"length":40,"sha256":"00","header":"00"}`))
	f.Add([]byte(`{"offset":5,"length":-1}`))
	f.Add([]byte(`not json`))
	before, err := os.ReadFile(writesDir + "/before.crmem")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, note []byte) {
		path := copyBefore(t, t.TempDir(), "store.crmem")
		if err := os.WriteFile(IntentPath(path), note, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := Recover(path); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(path)
		if len(data) != len(before) {
			// The note's header is never this file's unless it names it
			// byte for byte; a cut needs a whole header match.
			var n intent
			json.Unmarshal(note, &n)
			if n.Offset < HeaderLen || n.Offset >= int64(len(before)) {
				t.Fatalf("cut to %d bytes by note %q", len(data), note)
			}
		}
		if _, err := Read(data); err != nil {
			t.Fatalf("after Recover: %v", err)
		}
		if _, err := os.Stat(IntentPath(path)); !os.IsNotExist(err) {
			t.Fatal("note left")
		}
	})
}
