package crabdb

import (
	"encoding/hex"
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

// FuzzRecoverNote: whatever the note beside a store holds, recoverAppend never
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
		if _, err := recoverAppend(path); err != nil {
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
			t.Fatalf("after recoverAppend: %v", err)
		}
		if _, err := os.Stat(IntentPath(path)); !os.IsNotExist(err) {
			t.Fatal("note left")
		}
	})
}

// FuzzBatchOnAnyStore: on any store the reader takes, a put and a remove
// of memory entries never panic, and when they succeed their records
// appended to the store read back to what the batch meant: the entry put
// is there, the one removed is not, and nothing else in column 2 moved.
func FuzzBatchOnAnyStore(f *testing.F) {
	for _, name := range []string{"empty.crmem", "small.crmem", "bad/ok-tiny-log.crmem", "bad/ok-tiny-snapshot.crmem"} {
		data, err := os.ReadFile(refDir + "/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, "deploy-steps", "fresh words", "scratch")
	}
	f.Fuzz(func(t *testing.T, data []byte, name, content, remove string) {
		s, err := Read(data)
		if err != nil || s.Size() != s.End() || name == "" || name == remove || !utf8.ValidString(name) || !utf8.ValidString(content) {
			return
		}
		before := s.Keys(ColMemory, MemoryPrefix)
		b := s.NewBatch()
		if err := b.PutMemory(Entry{Name: name, Kind: "note", Content: content, Aliases: []string{}}); err != nil {
			return // an index record the store cannot read
		}
		if _, err := b.RemoveMemory(remove); err != nil {
			return
		}
		g, err := Read(append(slices.Clone(data), b.Bytes()...))
		if err != nil {
			t.Fatalf("the store with the batch does not read: %v", err)
		}
		v, ok := g.Get(ColMemory, MemoryKey(name))
		if !ok || string(v) != string(EntryJSON(Entry{Name: name, Kind: "note", Content: content, Aliases: []string{}})) {
			t.Fatalf("entry %q: %q", name, v)
		}
		if _, ok := g.Get(ColMemory, MemoryKey(remove)); ok {
			t.Fatalf("%q is still there", remove)
		}
		after := g.Keys(ColMemory, MemoryPrefix)
		for _, k := range before {
			if k != MemoryKey(name) && k != MemoryKey(remove) && !slices.Contains(after, k) {
				t.Fatalf("%q went missing", k)
			}
		}
	})
}

// FuzzAssess: whatever a note says and whatever bytes follow its offset,
// assess never panics, and a cut it decides is never before the note's
// offset, never past the file's end, and only of bytes inside crmem's
// room (nothing of the file lies past it).
func FuzzAssess(f *testing.F) {
	head := make([]byte, HeaderLen)
	f.Add(int64(100), int64(20), "reserve", append(reserveRecord(20), 1, 2, 3), int64(0))
	f.Add(int64(100), int64(20), "", make([]byte, 15), int64(0))
	f.Add(int64(100), int64(20), "reserve", []byte{1, 0, 20}, int64(0))
	f.Add(int64(100), int64(30), "", []byte{0, 2, 3, 0, 0, 0, 'a', 'b', 'c', 0, 0, 0, 0, 7, 7}, int64(0))
	f.Fuzz(func(t *testing.T, off, length int64, scheme string, tail []byte, extra int64) {
		if off < HeaderLen || off > 1<<40 || length <= 0 || length > 1<<20 || extra < 0 || extra > 1<<20 {
			return
		}
		n := intent{Offset: off, Length: length, SHA256: "00", Header: hex.EncodeToString(head), Scheme: scheme}
		room := off + length
		if scheme == schemeReserve {
			room = off + int64(reserveLen(int(length)))
		}
		size := off + int64(len(tail)) + extra
		if int64(len(tail)) > room-off+1 {
			tail = tail[:room-off+1]
		}
		if extra > 0 && int64(len(tail)) < min(size-off, room-off+1) {
			return // assessFile reads up to a byte past the room
		}
		r := assess(n, head, tail, size)
		if r.CutAt >= 0 && (r.CutAt < off || r.CutAt > size || size > room) {
			t.Fatalf("cut at %d: offset %d, size %d, room ends at %d (%+v)", r.CutAt, off, size, room, r)
		}
	})
}
