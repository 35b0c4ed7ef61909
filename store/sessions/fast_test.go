package sessions

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

// sameStepCases are steps of every shape the recall reader meets, and
// near misses: each must read the same decoded in one pass (fastDoc) as
// decoded as a stepDoc.
var sameStepCases = []string{
	`{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_0","name":"recall","content":"## a\nx\n---\n## b\ny"}]}}`,
	`{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_0","content":[{"type":"text","text":"## a\nx"}]}]}}`,
	`{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_0","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}]}}`,
	`{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_0","content":null}]}}`,
	`{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_0"}]}}`,
	`{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_0","content":5}]}}`,
	`{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_0","content":{"a":1}}]}}`,
	`{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_0","content":"a","content":["x"]}]}}`,
	`{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_0","content":["x"],"content":"a"}]}}`,
	`{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_0","Content":"upper"}]}}`,
	`{"message":{"role":"user","content":[null,{"type":"tool_result","tool_use_id":"call_0","content":"no memories found"}]}}`,
	`{"message":{"role":"user","content":[1]}}`,
	`{"message":{"role":"user","content":"recall"}}`,
	`{"message":{"role":"user","content":5,"tool_call_id":"x"}}`,
	`{"message":{"role":"user","content":null,"tool_call_id":"x"}}`,
	`{"message":{"role":"user","tool_call_id":"x"}}`,
	`{"message":{"role":"tool","content":[],"tool_call_id":"x"}}`,
	`{"message":{"role":"tool","content":"## a\nb","tool_call_id":"call_1"}}`,
	`{"message":{"role":"tool","content":[{"type":"text","text":"## a\nb"}],"tool_call_id":"call_1"}}`,
	`{"message":{"role":"tool","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}],"tool_call_id":"call_1"}}`,
	`{"message":{"role":"assistant","content":[{"type":"text","text":"x"},{"type":"tool_use","id":"call_0","name":"recall","input":{"query":"q","limit":2}},{"type":"tool_use","id":"call_1","name":"bash","input":{}}]}}`,
	`{"message":{"role":"assistant","content":[{"type":"tool_use","id":"call_0","name":"recall","input":"not an object"}]}}`,
	`{"message":{"role":"assistant","content":[{"type":"tool_use","id":5,"name":"recall","input":{"query":"q"}}]}}`,
	`{"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c","function":{"name":"recall","arguments":"{\"query\":\"q\"}"}}]}}`,
	`{"message":{"content":[{"type":"tool_use","id":"call_0","name":"recall","input":{"query":"q"}}]}}`,
	`{"message":null,"event":"tool_start","calls":[{"id":"call_0","name":"recall"}],"ts":"2026-01-05T09:00:01+00:00"}`,
	`{"event":"tool_start","calls":[{"id":"call_0","name":"recall","arguments":"{}"}],"ts":"bad"}`,
	`{"event":"tool_start","calls":"x"}`,
	`{"agent":"guest","message":{"role":"assistant","content":[{"type":"tool_use","id":"call_0","name":"recall","input":{"query":"q"}}]}}`,
	`{"archive_name":"a","archived_at":"t","x":"recall"}`,
	`{"compact":"recall"}`,
	`{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_0","content":"x"}]}`,
	`{"message":"recall"}`,
	`{"Message":{"Role":"user","Content":[{"Type":"tool_result","Tool_Use_ID":"c","Content":"## a\nb"}]}}`,
}

// TestParseRecallStep_FastSameAsSlow pins that a step decoded in one pass
// (fastDoc) reads exactly as decoded as a stepDoc, on crafted shapes and
// on every step of the repository's session fixtures.
func TestParseRecallStep_FastSameAsSlow(t *testing.T) {
	cases := append([]string(nil), sameStepCases...)
	for _, glob := range []string{"testdata/*/sessions/*/step-*", "../../testdata/recalls/sessions/*/step-*", "../../face/demo/data/sessions/*/step-*"} {
		files, _ := filepath.Glob(glob)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			cases = append(cases, string(data))
		}
	}
	if len(cases) < len(sameStepCases)+50 {
		t.Fatalf("only %d cases: the fixtures moved", len(cases))
	}
	fast := 0
	for _, c := range cases {
		sameStep(t, []byte(c))
		var f fastDoc
		if json.Unmarshal([]byte(c), &f) == nil {
			fast++
		}
	}
	if fast < len(cases)/2 {
		t.Fatalf("only %d of %d steps take the one-pass decoding", fast, len(cases))
	}
}

// FuzzParseRecallStep_FastSameAsSlow: for any bytes, the one-pass decoding
// and the stepDoc decoding read a step alike.
func FuzzParseRecallStep_FastSameAsSlow(f *testing.F) {
	for _, c := range sameStepCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) { sameStep(t, data) })
}

func sameStep(t *testing.T, data []byte) {
	t.Helper()
	fs, fk := parseStepAs(data, true)
	ss, sk := parseStepAs(data, false)
	if fk != sk || !reflect.DeepEqual(fs, ss) {
		t.Fatalf("%s:\n one pass %v %+v\n stepDoc  %v %+v", data, fk, fs, sk, ss)
	}
	// Into an arena and a list of blocks a step before left behind
	// (RecallBuilder.AddStep), alike.
	arena := []byte(`## left "behind"`)[:3]
	blocks := []fastBlock{{Type: "tool_use", ID: "old", Name: "recall", Input: []byte(`{"query":"old"}`)}, {Type: "tool_result"}}
	as, ak := parseStepIn(data, true, &arena, &blocks)
	if ak != sk || !reflect.DeepEqual(as, ss) {
		t.Fatalf("%s:\n into scratch %v %+v\n stepDoc      %v %+v", data, ak, as, sk, ss)
	}
}

// TestScanFastDoc_AsUnmarshal pins that scanFastDoc reads a step exactly
// as json.Unmarshal decodes it into a fastDoc whenever it reads it at
// all, and that it reads the steps crabtalk writes: on crafted shapes,
// the fixtures' steps, and thousands of bytes changed in them (a fixed
// seed: deterministic).
func TestScanFastDoc_AsUnmarshal(t *testing.T) {
	cases := append([]string(nil), sameStepCases...)
	cases = append(cases,
		`{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"c","name":"recall","content":"## a\u00e9\n\"q\" \\ \/ \b\f\r\t\u0000 ☃ é"}]}}`,
		`{"message":{"role":"user","content":[{"type":"tool_result","content":"\ud83d\ude00"}]}}`,
		`{"message":{"role":"user","content":[{"type":"tool_result","content":"\xff"}]}}`,
		`{"message":{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"recall","input":{"query":"q","limit":-1.5e+3,"x":[true,false,null,{}],"y":""}}]}}`,
		`{"message":{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"recall","input":null}]}}`,
		`{"message":{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"recall","input":01}]}}`,
		` {"event":"tool_start","calls":[],"ts":"t","extra":{"a":[1,2,{"b":"c"}]}} `,
		`{"event":"tool_start","calls":[{"id":"a","name":"b","ID":"x"}]}`,
		`{"event":"tool_start","calls":[null]}`,
		`{"agent":"a","agent":"b","message":{"role":"user"}}`,
		`{"aGent":"a","message":{"role":"user"}}`,
		`{"\u0061gent":"a","message":{"role":"user"}}`,
		`{"message":{"role":"user","content":[]},"tail":1}x`,
		`{"message":{"role":"user","content":[{"type":"text","text":"a","type":"b"}]}}`,
		`{"message":{"role":"user","content":"plain"}}`,
		`{"message":{"content":"no role"},"other":1}`,
		`{"message":{"role":"a","role":"b"}}`,
		`{"message":{"Role":"a"}}`,
		`{"message":{"role":null}}`,
		`{"event":"compaction","x":[1]}`,
		`{"event":null}`,
		`{"nothing":"here"}`,
	)
	for _, glob := range []string{"testdata/*/sessions/*/step-*", "../../testdata/recalls/sessions/*/step-*", "../../face/demo/data/sessions/*/step-*"} {
		files, _ := filepath.Glob(glob)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			cases = append(cases, string(bytes.TrimSpace(data)))
		}
	}
	read, kinds := 0, 0
	check := func(data []byte) {
		t.Helper()
		if key, hint := quotedWords(data); key != containsAny(data, stepKeys) || hint != containsAny(data, recallHints) {
			t.Fatalf("%q: quotedWords %v %v", data, key, hint)
		}
		if kind, ok := scanStepKind(data); ok {
			kinds++
			if want := decodeStepKind(data); kind != want {
				t.Fatalf("%q: scanStepKind %v, json %v", data, kind, want)
			}
		}
		got, ok := scanFastDoc(data)
		if !ok {
			return
		}
		read++
		var want fastDoc
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatalf("%q: scanned, but json.Unmarshal: %v", data, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n scanned   %#v\n Unmarshal %#v", data, got, want)
		}
	}
	for _, c := range cases {
		check([]byte(c))
	}
	if read < len(cases)/2 || kinds < len(cases)/2 {
		t.Fatalf("only %d (kinds: %d) of %d steps scanned", read, kinds, len(cases))
	}
	rng := rand.New(rand.NewPCG(3, 9))
	alphabet := []byte(`{}[]":,\ 0aeEu-+.ntfl` + "\x00\x80\xff")
	for range 40_000 {
		data := []byte(cases[rng.IntN(len(cases))])
		for range 1 + rng.IntN(3) {
			i := rng.IntN(len(data) + 1)
			switch rng.IntN(3) {
			case 0: // insert
				data = append(data[:i], append([]byte{alphabet[rng.IntN(len(alphabet))]}, data[i:]...)...)
			case 1: // delete
				if i < len(data) {
					data = append(data[:i], data[i+1:]...)
				}
			default: // replace
				if i < len(data) {
					data[i] = alphabet[rng.IntN(len(alphabet))]
				}
			}
		}
		check(data)
	}
	t.Logf("scanned %d, kinds of %d, with the mutations", read, kinds)
}

// containsAny reports whether data holds one of keys.
func containsAny(data []byte, keys [][]byte) bool {
	for _, k := range keys {
		if bytes.Contains(data, k) {
			return true
		}
	}
	return false
}

// TestPlainEnd_AsByteLoop checks that plainEnd, eight bytes at a time,
// stops where a byte-by-byte scan of plainByte stops: every byte value at
// every place of a run longer than two words, and two such bytes.
func TestPlainEnd_AsByteLoop(t *testing.T) {
	byByte := func(data []byte, i int) int {
		for i < len(data) && plainByte[data[i]] {
			i++
		}
		return i
	}
	base := []byte("plain text, no escapes!")
	for c := range 256 {
		for at := range base {
			data := slices.Clone(base)
			data[at] = byte(c)
			for from := range 3 {
				if got, want := plainEnd(data, from), byByte(data, from); got != want {
					t.Fatalf("byte %#x at %d, from %d: plainEnd %d, byte by byte %d", c, at, from, got, want)
				}
			}
			data[len(data)-1-at/2] = 0x1f
			if got, want := plainEnd(data, 0), byByte(data, 0); got != want {
				t.Fatalf("byte %#x at %d and a control byte: plainEnd %d, byte by byte %d", c, at, got, want)
			}
		}
	}
}
