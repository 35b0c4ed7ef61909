package export_test

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/crmem/crmem/export"
	"github.com/crmem/crmem/store"
)

// normAliases turns nil alias lists into empty ones for comparison.
func normAliases(es []store.Entry) []store.Entry {
	out := make([]store.Entry, len(es))
	for i, e := range es {
		if e.Aliases == nil {
			e.Aliases = []string{}
		}
		out[i] = e
	}
	return out
}

func TestJSONL_RoundTripIsLossless(t *testing.T) {
	orig := smallEntries(t)
	orig = append(orig, store.Entry{ID: 40, Name: "topic", Kind: store.Topic, CreatedAt: 0x1122334455667788,
		Aliases: []string{"<a&b>"}, Content: "\n  spaces kept  \n\n"})
	var buf bytes.Buffer
	if err := export.WriteJSONL(&buf, orig); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), "\n"); n != len(orig) {
		t.Errorf("%d lines for %d entries", n, len(orig))
	}
	if !strings.Contains(buf.String(), `"aliases":[]`) || strings.Contains(buf.String(), "null") {
		t.Errorf("empty aliases not written as []")
	}
	if !strings.Contains(buf.String(), `"<a&b>"`) {
		t.Errorf("HTML characters escaped")
	}
	got, err := export.ReadJSONL("x.jsonl", &buf, fixedNow)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(normAliases(got), normAliases(orig)) {
		t.Errorf("round trip differs:\n got %+v\nwant %+v", got, orig)
	}
}

func TestWriteJSONL_AscendingIDAndShape(t *testing.T) {
	var buf bytes.Buffer
	export.WriteJSONL(&buf, []store.Entry{{ID: 9, Name: "b"}, {ID: 2, Name: "a", Kind: store.Archive, CreatedAt: 5, Aliases: []string{"x"}, Content: "c"}})
	want := `{"id":2,"name":"a","kind":"archive","created_at":5,"aliases":["x"],"content":"c"}` + "\n" +
		`{"id":9,"name":"b","kind":"note","created_at":0,"aliases":[],"content":""}` + "\n"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

func TestReadJSONL_Defaults(t *testing.T) {
	in := "\uFEFF\n" +
		`{"name":"a","kind":"note","content":"x"}` + "\r\n" +
		"   \n" +
		`{"id":7,"name":"b","kind":"topics","content":"y","aliases":null,"created_at":null}` + "\n" +
		`{"name":"c","kind":"archive","content":"z","created_at":3,"aliases":["q"]}`
	got, err := export.ReadJSONL("in", strings.NewReader(in), fixedNow)
	if err != nil {
		t.Fatal(err)
	}
	now := uint64(fixedNow.Unix())
	want := []store.Entry{
		{ID: 8, Name: "a", Kind: store.Note, CreatedAt: now, Content: "x"},
		{ID: 7, Name: "b", Kind: store.Topic, CreatedAt: now, Content: "y"},
		{ID: 9, Name: "c", Kind: store.Archive, CreatedAt: 3, Aliases: []string{"q"}, Content: "z"},
	}
	if !reflect.DeepEqual(normAliases(got), normAliases(want)) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

// TestReadJSONL_CreatedAtAsRFC3339: created_at may also be the RFC 3339
// string a crabtalk store's export writes (SPEC §10); its seconds are
// kept and a sub-second part is dropped.
func TestReadJSONL_CreatedAtAsRFC3339(t *testing.T) {
	tests := []struct {
		created string
		want    uint64
	}{
		{`1767265200`, 1767265200},
		{`"2026-01-01T11:00:00+00:00"`, 1767265200},
		{`"2026-01-01T11:00:00Z"`, 1767265200},
		{`"2026-01-01T13:00:00+02:00"`, 1767265200},
		{`"2026-01-01T11:00:00.999999999+00:00"`, 1767265200},
		{`"1970-01-01T00:00:00Z"`, 0},
		{`null`, uint64(fixedNow.Unix())},
	}
	for _, tt := range tests {
		in := `{"name":"a","kind":"note","content":"x","created_at":` + tt.created + `}`
		got, err := export.ReadJSONL("in", strings.NewReader(in), fixedNow)
		if err != nil {
			t.Errorf("created_at %s: %v", tt.created, err)
			continue
		}
		if got[0].CreatedAt != tt.want {
			t.Errorf("created_at %s: %d, want %d", tt.created, got[0].CreatedAt, tt.want)
		}
	}
	for _, bad := range []string{`"yesterday"`, `"2026-01-01"`, `"1969-12-31T23:59:59Z"`, `-1`, `1.5`, `true`} {
		in := `{"name":"a","kind":"note","content":"x","created_at":` + bad + `}`
		if _, err := export.ReadJSONL("in", strings.NewReader(in), fixedNow); err == nil || !strings.Contains(err.Error(), "created_at") {
			t.Errorf("created_at %s: error %v, want one naming created_at", bad, err)
		}
	}
}

// TestReadJSONL_NoIDsLeft: an entry without an id after one holding the
// largest id that can be assigned has no id left (before, it wrapped to 0).
func TestReadJSONL_NoIDsLeft(t *testing.T) {
	in := `{"id":18446744073709551614,"name":"a","kind":"note","content":"x"}` + "\n" + `{"name":"b","kind":"note","content":"y"}` + "\n"
	got, err := export.ReadJSONL("mem.jsonl", strings.NewReader(in), fixedNow)
	if err == nil || !strings.Contains(err.Error(), `mem.jsonl: no ids left for "b"`) {
		t.Fatalf("got %+v, %v; want no ids left", got, err)
	}
}

func TestReadJSONL_Malformed(t *testing.T) {
	good := `{"id":1,"name":"a","kind":"note","content":"x"}`
	tests := []struct {
		name, bad, want string
	}{
		{"not json", `{"name":`, "unexpected EOF"},
		{"garbage", `hello`, "invalid character"},
		{"array", `[1,2]`, "not a JSON object"},
		{"two values", good[:len(good)-1] + `,"id":2} {}`, "more than one JSON value"},
		{"missing name", `{"kind":"note","content":"x"}`, `missing "name"`},
		{"missing kind", `{"name":"b","content":"x"}`, `missing "kind"`},
		{"missing content", `{"name":"b","kind":"note"}`, `missing "content"`},
		{"unknown field", `{"name":"b","kind":"note","content":"x","score":1}`, `unknown field "score"`},
		{"bad kind", `{"name":"b","kind":"prompt","content":"x"}`, `unknown kind "prompt"`},
		{"invalid name", `{"name":"a/b","kind":"note","content":"x"}`, `invalid name "a/b"`},
		{"empty name", `{"name":"","kind":"note","content":"x"}`, `invalid name`},
		{"empty alias", `{"name":"b","kind":"note","content":"x","aliases":[""]}`, "empty alias"},
		{"duplicate name", `{"name":"a","kind":"note","content":"y"}`, `name "a" already used on line 1`},
		{"duplicate id", `{"id":1,"name":"b","kind":"note","content":"y"}`, "id 1 already used on line 1"},
		{"bad utf8", "{\"name\":\"b\xff\",\"kind\":\"note\",\"content\":\"y\"}", "not valid UTF-8"},
		{"negative id", `{"id":-1,"name":"b","kind":"note","content":"y"}`, "cannot unmarshal"},
		{"reserved id", `{"id":18446744073709551615,"name":"b","kind":"note","content":"y"}`, "id 18446744073709551615 is reserved: no id is left above it (ids go up to 18446744073709551614)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := good + "\n\n" + tt.bad + "\n" + `{"name":"z","kind":"note","content":""}` + "\n"
			got, err := export.ReadJSONL("mem.jsonl", strings.NewReader(in), fixedNow)
			if got != nil {
				t.Errorf("entries returned with the error: %+v", got)
			}
			var le *export.LineError
			if !errors.As(err, &le) || le.File != "mem.jsonl" || le.Line != 3 {
				t.Fatalf("err = %v, want a LineError at mem.jsonl:3", err)
			}
			if !strings.HasPrefix(err.Error(), "mem.jsonl:3: ") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %q, want it to mention %q", err, tt.want)
			}
		})
	}
}
