package sessions

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// fixtureCopy copies testdata/recalls/sessions (crabtalk v0.0.22 session
// folders, see its README) into a temporary folder.
func fixtureCopy(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "sessions")
	if err := os.CopyFS(dir, os.DirFS("../../testdata/recalls/sessions")); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestWalkRecallsFixtures(t *testing.T) {
	dir := fixtureCopy(t)
	stepAt := time.Date(2026, 1, 5, 9, 1, 0, 0, time.UTC)
	steps, _ := filepath.Glob(filepath.Join(dir, "*", "step-*"))
	for _, f := range steps {
		if err := os.Chtimes(f, stepAt, stepAt); err != nil {
			t.Fatal(err)
		}
	}
	var got []Recall
	var order []string
	p, err := WalkRecalls(dir, RecallOptions{}, func(s SessionRecalls) error {
		order = append(order, s.Session+"/"+s.Agent)
		for _, r := range s.Recalls {
			if r.TimeFrom == TimeStep && !r.Time.Equal(stepAt) {
				t.Errorf("%q: step time %v, want the file's %v", r.Query, r.Time, stepAt)
			}
			r.Time = r.Time.UTC()
			if r.TimeFrom == TimeStep {
				r.Time = time.Time{}
			}
			r.pieces = nil // Resolve's, tested by TestRecallResolve
			got = append(got, r)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	event := time.Date(2026, 1, 5, 9, 0, 5, 250_000_000, time.UTC)
	want := []Recall{
		{Time: event, TimeFrom: TimeEvent, Session: "crab_alice_1", Agent: "crab", Query: "deploy rollback", Limit: 5,
			Names: []string{"deploy-steps", "archive-sess-0001-1767300000000000000"}, Result: ResultNames},
		{TimeFrom: TimeStep, Session: "crab_alice_1", Agent: "crab", Query: "postgres pool deadlock", Limit: 2, LimitSet: true, Result: ResultNone},
		{TimeFrom: TimeStep, Session: "crab_bob_1", Agent: "crab", Query: "token rotation", Limit: 5, Result: ResultUnparsable},
		{TimeFrom: TimeStep, Session: "crab_bob_1", Agent: "crab", Query: "release checklist", Limit: 1, LimitSet: true, Result: ResultMissing},
		{TimeFrom: TimeStep, Session: "crab_bob_1", Agent: "scout", Query: "rust style", Limit: 5, Names: []string{"rust-style"}, Result: ResultNames},
		{TimeFrom: TimeStep, Session: "scratchpad", Agent: "", Query: "commit format", Limit: 3, LimitSet: true, Names: []string{"commit-format"}, Result: ResultNames},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("recalls:\n got %+v\nwant %+v", got, want)
	}
	if w := []string{"crab_alice_1/crab", "crab_bob_1/crab", "scratchpad/"}; !reflect.DeepEqual(order, w) {
		t.Errorf("sessions %q, want %q", order, w)
	}
	wantP := RecallProblems{Sessions: 3, Steps: 20, UnparsableSteps: 2, BadArguments: 2, UnknownAgents: 1, UnparsableResults: 1, MissingResults: 1}
	if p != wantP {
		t.Errorf("problems %+v, want %+v", p, wantP)
	}
}

func TestWalkRecallsFolder(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T) string
		want  RecallProblems
	}{
		{"missing folder", func(t *testing.T) string { return filepath.Join(t.TempDir(), "nope") }, RecallProblems{}},
		{"empty folder", func(t *testing.T) string { return t.TempDir() }, RecallProblems{}},
		{"limit option", func(t *testing.T) string {
			dir := t.TempDir()
			writeSteps(t, filepath.Join(dir, "s"), `{"message":{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"recall","input":{"query":"q"}}]}}`,
				`{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"## a\nx\n---\n## b\ny\n---\n## c\nz"}]}}`)
			return dir
		}, RecallProblems{Sessions: 1, Steps: 2, UnknownAgents: 1, UnparsableResults: 1}},
		{"meta that is not JSON: skipped and counted, the steps read", func(t *testing.T) string {
			dir := t.TempDir()
			writeSteps(t, filepath.Join(dir, "crab_eve_1"), `{"message":{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"recall","input":{"query":"q"}}]}}`,
				`{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"## a\nx"}]}}`)
			if err := os.WriteFile(filepath.Join(dir, "crab_eve_1", "meta"), []byte(`{"agent": "crab", "title": `), 0o644); err != nil {
				t.Fatal(err)
			}
			return dir
		}, RecallProblems{Sessions: 1, Steps: 2, BadMeta: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tt.setup(t)
			p, err := WalkRecalls(dir, RecallOptions{Limit: 2}, func(SessionRecalls) error { return nil })
			if err != nil {
				t.Fatal(err)
			}
			if tt.name == "missing folder" {
				tt.want.NoFolder = dir
			}
			if p != tt.want {
				t.Errorf("problems %+v, want %+v", p, tt.want)
			}
		})
	}
}

func writeSteps(t *testing.T, dir string, steps ...string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, s := range steps {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("step-%06d", i)), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestWalkRecallsStops checks that an error from fn ends the walk with that
// error, however many sessions are left.
func TestWalkRecallsStops(t *testing.T) {
	dir := t.TempDir()
	for i := range 50 {
		writeSteps(t, filepath.Join(dir, fmt.Sprintf("s%06d", i)), `{"message":{"role":"user","content":"hi"}}`)
	}
	stop := errors.New("stop")
	n := 0
	_, err := WalkRecalls(dir, RecallOptions{}, func(SessionRecalls) error {
		n++
		if n == 3 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || n != 3 {
		t.Errorf("err %v after %d sessions, want stop after 3", err, n)
	}
}

func TestParseResult(t *testing.T) {
	tests := []struct {
		text  string
		limit int
		names []string
		state string
	}{
		{"no memories found", 5, nil, ResultNone},
		{"## a\nx", 5, []string{"a"}, ResultNames},
		{"## a\n", 5, []string{"a"}, ResultNames},
		{"## a\nx\n---\n## b\ny", 5, []string{"a", "b"}, ResultNames},
		{"## a\n## not a block\n---\nstill a", 5, []string{"a"}, ResultNames},
		{"## a\nx\n---\n## b\ny", 1, nil, ResultUnparsable}, // more blocks than the limit
		{"recall failed: index busy", 5, nil, ResultUnparsable},
		{"", 5, nil, ResultUnparsable},
		{"## \nx", 5, nil, ResultUnparsable},
		{"no memories found\n", 5, nil, ResultUnparsable},
		{"## a\nx\n---\n## ", 5, nil, ResultUnparsable}, // an empty block after the last separator
		{"## a\n---\n## b", 5, []string{"a", "b"}, ResultNames},
		{"## a\n---\n## \n---\n## b", 5, nil, ResultUnparsable},
		{"## a\n---\n## b\n---\n## c\nz", 3, []string{"a", "b", "c"}, ResultNames},
	}
	for _, tt := range tests {
		names, state := ParseResult(tt.text, tt.limit)
		if !reflect.DeepEqual(names, tt.names) || state != tt.state {
			t.Errorf("ParseResult(%q, %d) = %q, %s; want %q, %s", tt.text, tt.limit, names, state, tt.names, tt.state)
		}
	}
}

func TestParseArgs(t *testing.T) {
	tests := []struct {
		in    string
		query string
		limit int
		bad   bool
	}{
		{`{"query":"q"}`, "q", -1, false},
		{`{"query":"q","limit":3}`, "q", 3, false},
		{`{"query":"q","limit":null}`, "q", -1, false},
		{`{"query":"q","limit":0}`, "q", 0, false},
		{`{"query":"q","extra":1}`, "q", -1, false},
		{`{}`, "", -1, true},
		{`{"query":5}`, "", -1, true},
		{`{"query":"q","limit":"3"}`, "", -1, true},
		{`{"query":"q","limit":-1}`, "", -1, true},
		{`{"query":"q","limit":2.5}`, "", -1, true},
		{`{"query":"q","limit":1e3}`, "", -1, true},
		{`{"query":"q","limit":10000000000}`, "q", 10_000_000_000, false},       // beyond 2³¹: every hit
		{`{"query":"q","limit":18446744073709551615}`, "q", math.MaxInt, false}, // usize::MAX
		{`{"query":"q","limit":18446744073709551616}`, "", -1, true},            // beyond a usize
		{`not json`, "", -1, true},
		{``, "", -1, true},
	}
	for _, tt := range tests {
		c := parseArgs("id", []byte(tt.in))
		if c.badArg != tt.bad || !tt.bad && (c.query != tt.query || c.limit != tt.limit) {
			t.Errorf("parseArgs(%s) = %+v; want query %q limit %d bad %v", tt.in, c, tt.query, tt.limit, tt.bad)
		}
	}
}

func TestParseRecallStep(t *testing.T) {
	tests := []struct {
		in   string
		kind stepKind
	}{
		{`{"message":{"role":"user","content":"hi"}}`, stepOther},
		{`{"archive_name":"a","archived_at":"t"}`, stepOther},
		{`{"compact":"old summary"}`, stepOther},
		{`{"event":"done","model":"m","iterations":1,"stop_reason":"s","usage":{},"ts":"t"}`, stepOther},
		{`{"message":{"role":"user","content":"recall this"}}`, stepOther},
		{`{"message":{"role":"user","content":"recall"}}`, stepRecalls},
		{`{"message":{"content":"no role"}}`, stepUnparsable},
		{`{"event":"tool_start","calls":[],"ts":"bad"}`, stepRecalls},
		{`{"message":{"content":"recall"}}`, stepUnparsable},
		{`{"message":{"role":"user","content":7,"x":"recall"}}`, stepUnparsable},
		{`{"message":{"role":"user","content":"hi"}`, stepUnparsable},
		{`{"other":1}`, stepUnparsable},
		{`[1,2]`, stepUnparsable},
		{``, stepUnparsable},
	}
	for _, tt := range tests {
		if _, kind := parseRecallStep([]byte(tt.in)); kind != tt.kind {
			t.Errorf("parseRecallStep(%s) kind %d, want %d", tt.in, kind, tt.kind)
		}
	}
}

// TestInOrderBounded: results come in index order, and no more than two
// per worker are ever held (started and not yet handed on), however many
// there are — what keeps 10,000 sessions from being held at once.
func TestInOrderBounded(t *testing.T) {
	for _, workers := range []int{1, 3, 8} {
		var mu sync.Mutex
		held, most := 0, 0
		next := 0
		err := inOrder(500, workers, func(i int) int {
			mu.Lock()
			held++
			most = max(most, held)
			mu.Unlock()
			return i
		}, func(i int) error {
			mu.Lock()
			held--
			mu.Unlock()
			if i != next {
				t.Fatalf("got %d, want %d", i, next)
			}
			next++
			return nil
		})
		if err != nil || next != 500 {
			t.Fatalf("workers %d: %v after %d", workers, err, next)
		}
		if most > 2*workers {
			t.Errorf("workers %d: %d held at once, want at most %d", workers, most, 2*workers)
		}
	}
}

// TestReaderRecallsCache: a Reader reads a session's recalls again only
// when its folder changed; a Folder always reads.
func TestReaderRecallsCache(t *testing.T) {
	dir := t.TempDir()
	call := `{"message":{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"recall","input":{"query":%q}}]}}`
	writeSteps(t, filepath.Join(dir, "s1"), fmt.Sprintf(call, "one"))
	writeSteps(t, filepath.Join(dir, "s2"), fmt.Sprintf(call, "two"))
	old := time.Now().Add(-time.Hour)
	for _, s := range []string{"s1", "s2"} {
		must(t, os.Chtimes(filepath.Join(dir, s), old, old))
	}
	queries := func(r interface {
		Recalls(RecallOptions, func(SessionRecalls) error) (RecallProblems, error)
	}) []string {
		var out []string
		if _, err := r.Recalls(RecallOptions{}, func(s SessionRecalls) error {
			for _, rc := range s.Recalls {
				out = append(out, rc.Query)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	r := NewReader(dir)
	if got := queries(r); !reflect.DeepEqual(got, []string{"one", "two"}) {
		t.Fatalf("first read %q", got)
	}
	// Rewritten in place, the folder's time kept: the cache answers.
	must(t, os.WriteFile(filepath.Join(dir, "s1", "step-000000"), []byte(fmt.Sprintf(call, "one, rewritten")), 0o644))
	must(t, os.Chtimes(filepath.Join(dir, "s1"), old, old))
	// A new step changes the folder: read again.
	must(t, os.WriteFile(filepath.Join(dir, "s2", "step-000001"), []byte(strings.Replace(fmt.Sprintf(call, "two, again"), `"a"`, `"b"`, 1)), 0o644))
	if got := queries(r); !reflect.DeepEqual(got, []string{"one", "two", "two, again"}) {
		t.Errorf("cached read %q, want s1 from the cache and s2 read again", got)
	}
	if got := queries(Folder(dir)); !reflect.DeepEqual(got, []string{"one, rewritten", "two", "two, again"}) {
		t.Errorf("folder read %q, want everything read", got)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestSlugAgent: the agent part of {agent}_{sender}_{seq}, and nothing for
// any other folder name.
func TestSlugAgent(t *testing.T) {
	for _, c := range []struct {
		name, agent string
		ok          bool
	}{
		{"crab_alice_3", "crab", true},
		{"billing-ops__12", "billing-ops", true}, // an empty sender
		{"a_b_c_1", "", false},                   // an agent with _ is no slug
		{"crab_alice_", "", false},
		{"crab_alice_x1", "", false},
		{"_alice_1", "", false},
		{"Crab_alice_1", "", false},
		{"crab_1", "", false},
		{"plain", "", false},
		{"größe_zoë_2", "größe", true},   // sender_slug keeps any script's letters
		{"Éclair_eve_1", "Éclair", true}, // and lowers ASCII letters only
		{"crab-bot_été_7", "crab-bot", true},
		{"a b_eve_1", "", false}, // a space is no slug's
	} {
		agent, ok := slugAgent(c.name)
		if agent != c.agent || ok != c.ok {
			t.Errorf("slugAgent(%q) = %q, %v; want %q, %v", c.name, agent, ok, c.agent, c.ok)
		}
	}
}

// TestWalkRecalls_PositionPairing reads a session whose calls are all named
// call_0, call_1… as crabllm's Google provider names them (testdata/
// positions, see its README): each result and each tool_start time goes to
// the call at its position, not to the first call of that id.
func TestWalkRecalls_PositionPairing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sessions")
	if err := os.CopyFS(dir, os.DirFS("testdata/positions/sessions")); err != nil {
		t.Fatal(err)
	}
	var got []string
	p, err := WalkRecalls(dir, RecallOptions{}, func(s SessionRecalls) error {
		for _, r := range s.Recalls {
			got = append(got, fmt.Sprintf("%s|%s %s|%s|%v", r.Query, r.TimeFrom, r.Time.UTC().Format("15:04:05"), r.Result, r.Names))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"deploy rollback|event 09:00:01|names|[deploy-steps]",
		"rust errors|event 09:00:02|names|[rust-style]",
		"postgres deadlock|event 09:00:02|none|[]",
		"commit message format|event 09:00:03|names|[commit-format]",
		"deploy rollback|event 09:04:00|names|[deploy-steps]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("recalls:\n got %s\nwant %s", strings.Join(got, "\n    "), strings.Join(want, "\n    "))
	}
	if p.MissingResults != 0 || p.UnparsableResults != 0 {
		t.Errorf("problems %+v: every call has its result", p)
	}
}

// TestRecallResolve reads results against the memory's entries: a content
// holding the block separator does not add a name, a name with a newline
// is not cut, an entry gone since keeps its name, and pieces that cannot be
// told apart make the result unparsable.
func TestRecallResolve(t *testing.T) {
	mem := func(kv ...string) func(string) (string, bool) {
		return func(n string) (string, bool) {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == n {
					return kv[i+1], true
				}
			}
			return "", false
		}
	}
	pets := "The cat eats twice a day.\n---\n## Feeding\nAt 7 and at 19."
	feeding := "## pets\n" + pets
	tests := []struct {
		name  string
		text  string
		limit int
		known func(string) (string, bool)
		names []string
		state string
	}{
		{"separator in content", feeding, 5, mem("pets", pets), []string{"pets"}, ResultNames},
		{"separator in content, then another", feeding + "\n---\n## b\ny", 5, mem("pets", pets, "b", "y"), []string{"pets", "b"}, ResultNames},
		{"entry gone after an unchanged one", feeding + "\n---\n## gone\ny", 5, mem("pets", pets), []string{"pets", "gone"}, ResultNames},
		{"two entries, both changed since", "## a\nx\n---\n## b\ny", 5, mem("a", "x2", "b", "y2"), []string{"a", "b"}, ResultNames},
		{"name with a newline", "## two\nlines\nbody\n---\n## b\ny", 5, mem("two\nlines", "body", "b", "y"), []string{"two\nlines", "b"}, ResultNames},
		{"the only block's name with a newline", "## two\nlines\nbody", 5, mem("two\nlines", "body"), []string{"two\nlines"}, ResultNames},
		{"the only block's name with a newline, changed since", "## two\nlines\nold body", 5, mem("two\nlines", "new body"), []string{"two\nlines"}, ResultNames},
		{"the only block, gone since", "## gone\nbody", 5, mem("b", "y"), []string{"gone"}, ResultNames},
		{"first entry gone", "## gone\nx\n---\n## b\ny", 5, mem("b", "y"), []string{"gone", "b"}, ResultNames},
		{"changed entry, then an unknown piece", feeding, 5, mem("pets", "The cat eats once a day."), nil, ResultUnparsable},
		{"more names than the limit", "## a\nx\n---\n## b\ny\n---\n## c\nz", 2, mem("a", "x", "b", "y", "c", "z"), nil, ResultUnparsable},
		{"no entries given: by shape", feeding, 5, nil, []string{"pets", "Feeding"}, ResultNames},
	}
	for _, tt := range tests {
		for _, inline := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, as read %v", tt.name, inline), func(t *testing.T) {
				b := NewRecallBuilder("s", "crab", tt.limit, time.Time{})
				if inline {
					b.known = tt.known // RecallOptions.Entries
				}
				call, _ := json.Marshal(map[string]any{"message": map[string]any{"role": "assistant", "content": []any{
					map[string]any{"type": "tool_use", "id": "c", "name": "recall", "input": map[string]any{"query": "q", "limit": tt.limit}}}}})
				res, _ := json.Marshal(map[string]any{"message": map[string]any{"role": "user", "content": []any{
					map[string]any{"type": "tool_result", "tool_use_id": "c", "name": "recall", "content": tt.text}}}})
				b.Add(call, nil)
				b.Add(res, nil)
				out := b.Finish()
				r := out.Recalls[0]
				if inline && tt.known != nil && r.pieces != nil {
					t.Errorf("pieces kept: %+v", r.pieces)
				}
				r.Resolve(tt.known)
				if !reflect.DeepEqual(r.Names, tt.names) || r.Result != tt.state {
					t.Errorf("names %q, %s; want %q, %s", r.Names, r.Result, tt.names, tt.state)
				}
				if inline && tt.known != nil && out.Problems.UnparsableResults != btoi(tt.state == ResultUnparsable) {
					t.Errorf("%d unparsable results counted, want %v", out.Problems.UnparsableResults, tt.state == ResultUnparsable)
				}
			})
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestStepFiles_AsCrabtalkReads lists a session's steps as crabtalk's
// load_session does: every name beginning with "step-", a leftover
// step-NNNNNN.tmp.PID.NANOS of an interrupted write included, in name
// order.
func TestStepFiles_AsCrabtalkReads(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"step-000001", "step-000000", "step-000001.tmp.4242.1767600000000000000", "meta", "stepfile", "step-x"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "step-000009"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, _, err := stepFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"step-000000", "step-000001", "step-000001.tmp.4242.1767600000000000000", "step-x"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("steps %q, want %q", got, want)
	}
}

// Add reads one step. stepTime gives the step's own time (a file's
// modification time) and is called only for a step that makes a recall;
// nil means there is none.
func (b *RecallBuilder) Add(data []byte, stepTime func() (time.Time, bool)) {
	b.AddStep("", data, stepTime)
}
