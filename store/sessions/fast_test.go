package sessions

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
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
}
