package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store/crabdb"
	"github.com/crmem/crmem/store/crabdb/crabdbtest"
)

// recallsHome is a memory (the reference small.db) with the recall
// fixtures of testdata/recalls as its sessions folder, every step file
// dated 2026-01-04 UTC.
func recallsHome(t *testing.T) string {
	t.Helper()
	db := copyFixture(t, "crmem/small.db")
	dir := filepath.Join(filepath.Dir(db), "sessions")
	must(t, os.CopyFS(dir, os.DirFS("../testdata/recalls/sessions")))
	at := time.Date(2026, 1, 4, 12, 0, 0, 0, time.UTC)
	steps, _ := filepath.Glob(filepath.Join(dir, "*", "step-*"))
	for _, f := range steps {
		must(t, os.Chtimes(f, at, at))
	}
	return db
}

// recallsJSON is the JSON of crmem recalls.
type recallsJSON struct {
	Recalls  []jsonRecall `json:"recalls"`
	Problems struct {
		NoFolder          string `json:"no_folder"`
		Sessions          int    `json:"sessions"`
		Steps             int    `json:"steps"`
		UnparsableSteps   int    `json:"unparsable_steps"`
		BadArguments      int    `json:"bad_arguments"`
		UnknownAgents     int    `json:"unknown_agent_sessions"`
		UnparsableResults int    `json:"unparsable_results"`
		MissingResults    int    `json:"missing_results"`
	} `json:"problems"`
}

const fixtureProblems = "crmem: recalls: 2 unparsable steps skipped, 2 recalls with malformed arguments skipped, 1 session of an unknown agent, 1 result that cannot be read as names, 1 recall without a result (of 20 steps in 3 sessions)\n"

func TestRecalls_List(t *testing.T) {
	db := recallsHome(t)
	tests := []struct {
		name    string
		args    []string
		queries []string
	}{
		{"all", nil, []string{"deploy rollback", "postgres pool deadlock", "token rotation", "release checklist", "rust style", "commit format"}},
		{"agent", []string{"--agent", "scout"}, []string{"rust style"}},
		{"since span", []string{"--since", "1d"}, nil},
		{"since time", []string{"--since", "2026-01-05T00:00:00Z"}, []string{"deploy rollback"}},
	}
	for _, tt := range tests {
		for _, format := range []string{"--json", "--pretty"} {
			t.Run(tt.name+format, func(t *testing.T) {
				out, errOut, code := runIn(nil, "", append([]string{"--db", db, "recalls", format}, tt.args...)...)
				if code != 0 || errOut != fixtureProblems {
					t.Fatalf("exit %d, stderr %q", code, errOut)
				}
				var got recallsJSON
				mustJSON(t, out, &got)
				var qs []string
				for _, r := range got.Recalls {
					qs = append(qs, r.Query)
				}
				if !slices.Equal(qs, tt.queries) {
					t.Errorf("queries %q, want %q", qs, tt.queries)
				}
				if p := got.Problems; p.Sessions != 3 || p.UnparsableSteps != 2 || p.BadArguments != 2 || p.UnknownAgents != 1 || p.UnparsableResults != 1 || p.MissingResults != 1 {
					t.Errorf("problems %+v", p)
				}
			})
		}
	}
}

func TestRecalls_ThenAndNow(t *testing.T) {
	db := recallsHome(t)
	out, _, code := runIn(nil, "", "--db", db, "recalls", "--json")
	if code != 0 {
		t.Fatal(code)
	}
	var got recallsJSON
	mustJSON(t, out, &got)
	byQuery := map[string]jsonRecall{}
	for _, r := range got.Recalls {
		byQuery[r.Query] = r
	}
	d := byQuery["deploy rollback"]
	if d.Result != "names" || d.Limit != 5 || d.LimitSet || d.TimeFrom != "event" || d.Time == nil ||
		!d.Time.Equal(time.Date(2026, 1, 5, 9, 0, 5, 250e6, time.UTC)) ||
		!slices.Equal(d.Then, []string{"deploy-steps", "archive-sess-0001-1767300000000000000"}) ||
		!slices.Equal(d.Added, []string{"long-note"}) || len(d.Removed) != 0 || d.Same {
		t.Errorf("deploy rollback: %+v", d)
	}
	if r := byQuery["token rotation"]; r.Result != "unparsable" || len(r.Then) != 0 || r.Same {
		t.Errorf("token rotation: %+v", r)
	}
	if r := byQuery["release checklist"]; r.Result != "missing" || r.Limit != 1 || !r.LimitSet {
		t.Errorf("release checklist: %+v", r)
	}
	if r := byQuery["rust style"]; r.Agent != "scout" || r.TimeFrom != "step" || !r.Time.Equal(time.Date(2026, 1, 4, 12, 0, 0, 0, time.UTC)) {
		t.Errorf("rust style: %+v", r)
	}
	if r := byQuery["commit format"]; r.Agent != "" || !slices.Equal(r.Removed, []string{"commit-format"}) {
		t.Errorf("commit format: %+v", r)
	}
}

func TestRecalls_Text(t *testing.T) {
	db := recallsHome(t)
	out, errOut, code := runIn(nil, "", "--db", db, "recalls")
	if code != 0 || errOut != fixtureProblems {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{
		`crab_alice_1  crab  limit 5 (default)  "deploy rollback"`,
		"    then  deploy-steps · archive-sess-0001-1767300000000000000",
		"    diff  +long-note",
		"    then  (no memories found)",
		"    then  (unparsable: the result cannot be read as names)",
		"    then  (no result recorded)",
		`scratchpad  (unknown agent)  limit 3  "commit format"`,
		"    diff  -commit-format",
		"6 recalls in 3 sessions: 0 the same now, 6 differ or could not be read",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if !strings.Contains(out, "~") {
		t.Error("no file time is marked ~")
	}
}

func TestRecalls_Report(t *testing.T) {
	db := recallsHome(t)
	out, _, code := runIn(nil, "", "--db", db, "recalls", "--report", "--json", "--crowd", "0.3")
	if code != 0 {
		t.Fatal(code)
	}
	var rep jsonRecallReport
	mustJSON(t, out, &rep)
	if rep.Recalls != 6 || rep.Queries != 6 || rep.Crowd != 0.3 || rep.Problems.BadArguments != 2 {
		t.Errorf("report %d recalls, %d queries, crowd %v, problems %+v", rep.Recalls, rep.Queries, rep.Crowd, rep.Problems)
	}
	var crowding []string
	for _, u := range rep.Crowding {
		crowding = append(crowding, u.Name)
	}
	if want := []string{"deploy-steps", "long-note"}; !slices.Equal(crowding, want) {
		t.Errorf("crowding %q, want %q", crowding, want)
	}
	var empty []string
	for _, q := range rep.EmptyNow {
		empty = append(empty, q.Query)
	}
	if want := []string{"commit format", "rust style"}; !slices.Equal(empty, want) {
		t.Errorf("empty now %q, want %q", empty, want)
	}
	// never recalled: what no recorded recall returned (22 of 26; 3 of
	// them a recorded query returns now), as stats counts it
	if len(rep.Never) != 22 || len(rep.Entries) != 7 {
		t.Errorf("never %d, recalled then or now %d; want 22 and 7", len(rep.Never), len(rep.Entries))
	}
	text, _, _ := runIn(nil, "", "--db", db, "recalls", "--report")
	for _, want := range []string{"never recalled: 22 entries no recorded recall returned", "crowding the top: 0 entries returned now by at least 50%", "now return nothing: 2 distinct queries", `1×  limit 3  "commit format"`} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in\n%s", want, text)
		}
	}
}

func TestRecalls_BadInput(t *testing.T) {
	db := copyFixture(t, "crmem/small.db")
	missing := filepath.Join(filepath.Dir(db), "sessions")
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
		stdout string
	}{
		{"missing folder", nil, 0, "crmem: recalls: no sessions folder at " + missing + ": no recalls to read\n", ""},
		{"missing folder json", []string{"--json"}, 0, "crmem: recalls: no sessions folder at " + missing + ": no recalls to read\n",
			`{"recalls":[],"problems":{"no_folder":` + fmt.Sprintf("%q", missing) + `,"sessions":0,"steps":0,"unparsable_steps":0,"unreadable_steps":0,"bad_arguments":0,"unknown_agent_sessions":0,"unparsable_results":0,"missing_results":0,"bad_meta":0}}` + "\n"},
		{"bad since", []string{"--since", "yesterday"}, 2, "", ""},
		{"bad crowd", []string{"--report", "--crowd", "0"}, 2, "", ""},
		{"bad limit", []string{"--recall-limit", "-1"}, 2, "", ""},
		{"argument", []string{"extra"}, 2, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runIn(nil, "", append([]string{"--db", db, "recalls"}, tt.args...)...)
			if code != tt.code || tt.code == 0 && (errOut != tt.stderr || out != tt.stdout) {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d, %q, %q", code, out, errOut, tt.code, tt.stdout, tt.stderr)
			}
		})
	}
}

// TestRecalls_Store reads the recalls crabtalk's store holds and replays
// them with the store's own recall.
func TestRecalls_Store(t *testing.T) {
	path := copyStore(t, "small.crmem", "store.crmem")
	put := func(k, v string) {
		crabdbtest.Append(t, path, crabdbtest.Record(crabdb.OpPut, crabdb.ColSession, k, v))
	}
	put("local/session/dana-1/meta", `{"agent":"00000000000000000000000000","created_by":"dana","created_at":"2026-01-06T10:00:00+00:00","title":"","updated_at":"2026-01-06T10:05:00+00:00","message_count":2}`)
	put("local/session/dana-1/msg/000000000000", `{"message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"recall","input":{"query":"deploy rollback","limit":3}}]}}`)
	put("local/session/dana-1/msg/000000000001", `{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","name":"recall","content":"## deploy-steps\n# Production deployment\n\nDeployments go out from `+"`"+`main`+"`"+` once the canary is green.\n1. Tag the release.\n2. Run `+"`"+`make release`+"`"+`; the deployed build is promoted after 15 minutes.\n\nRollback with `+"`"+`make rollback VERSION=<prev>`+"`"+`.\n---\n## oncall-handoff\ny"}]}}`)
	out, errOut, code := runIn(nil, "", "--db", path, "recalls", "--json")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	var got recallsJSON
	mustJSON(t, out, &got)
	if len(got.Recalls) != 1 {
		t.Fatalf("recalls %+v", got.Recalls)
	}
	r := got.Recalls[0]
	// oncall-handoff was forgotten in the fixture; the store's own recall
	// ranks the rest (small.search.jsonl pins it).
	if r.Agent != "crab" || r.TimeFrom != "session" || !slices.Contains(r.Removed, "oncall-handoff") || !slices.Contains(r.Now, "deploy-steps") || len(r.Now) > 3 {
		t.Errorf("store recall %+v", r)
	}
	if got.Problems.Sessions != 5 {
		t.Errorf("problems %+v", got.Problems)
	}
}

// TestRecalls_TerminalSafe: a query or a name holding escape sequences
// reaches the terminal escaped.
func TestRecalls_TerminalSafe(t *testing.T) {
	db := copyFixture(t, "crmem/small.db")
	dir := filepath.Join(filepath.Dir(db), "sessions", "crab_eve_1")
	must(t, os.MkdirAll(dir, 0o755))
	q, _ := json.Marshal("deploy \x1b]0;pwned\x07")
	must(t, os.WriteFile(filepath.Join(dir, "step-000000"), []byte(`{"message":{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"recall","input":{"query":`+string(q)+`}}]}}`), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "step-000001"), []byte(`{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"## evil\u001b[2J\nx"}]}}`), 0o644))
	out, _, code := runIn(nil, "", "--db", db, "recalls")
	if code != 0 || strings.ContainsAny(out, "\x1b\x07") {
		t.Errorf("exit %d, raw escapes in %q", code, out)
	}
}

// TestRecalls_NoInventedName: an entry whose content holds the recall
// tool's block separator ("\n---\n## Feeding") is one returned name, in
// recalls and in stats' count, not two.
func TestRecalls_NoInventedName(t *testing.T) {
	db := filepath.Join(t.TempDir(), "memory.db")
	pets := "The cat eats twice a day.\n---\n## Feeding\nAt 7 and at 19."
	mustRun(t, "", "add", "--db", db, "pets", pets)
	mustRun(t, "", "add", "--db", db, "Feeding", "a real entry named Feeding, never recalled")
	dir := filepath.Join(filepath.Dir(db), "sessions", "crab_eve_1")
	must(t, os.MkdirAll(dir, 0o755))
	res, _ := json.Marshal("## pets\n" + pets)
	must(t, os.WriteFile(filepath.Join(dir, "step-000000"), []byte(`{"message":{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"recall","input":{"query":"cat feeding"}}]}}`), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "step-000001"), []byte(`{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","name":"recall","content":`+string(res)+`}]}}`), 0o644))
	out, errOut, code := runIn(nil, "", "--db", db, "recalls", "--json")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	var got recallsJSON
	mustJSON(t, out, &got)
	if len(got.Recalls) != 1 || !slices.Equal(got.Recalls[0].Then, []string{"pets"}) {
		t.Errorf("recalls %+v, want then [pets]", got.Recalls)
	}
	stats, _, _ := runIn(nil, "", "--db", db, "stats", "--json")
	if !strings.Contains(stats, `"never":1`) {
		t.Errorf("stats: Feeding was never recalled, want never 1:\n%s", stats)
	}
}

// TestRecallReportTable_AsTable: --report's tables, laid out as rows are
// added, print what the general table prints for the same rows (wide and
// combining characters, names that need quoting, empty cells, trailing
// spaces), and countText and percent write what humanize.Count and
// fmt's %.0f%% write.
func TestRecallReportTable_AsTable(t *testing.T) {
	names := []string{"plain", "naïve-café", "日本語のメモ", "e\u0301", "tab\there", "sp ", "", "a-very-long-entry-name-indeed"}
	for _, right := range [][]bool{{false, true, true, true}, {false, false, true, true}} {
		want := &table{right: map[int]bool{}}
		for i, r := range right {
			want.right[i] = r
		}
		got := newReportTable(len(names), "NAME", "KIND", "NOW", "SHARE")
		got.right = right
		want.add("  NAME", "KIND", "NOW", "SHARE")
		for i, n := range names {
			row := []string{nameText(n), names[(i+3)%len(names)], countText(i * 997), percent(float64(i) / 7)}
			want.add(append([]string{"  " + row[0]}, row[1:]...)...)
			got.add(row...)
		}
		var wb, gb strings.Builder
		ww, gw := bufio.NewWriter(&wb), bufio.NewWriter(&gb)
		must(t, want.write(ww))
		must(t, got.write(gw))
		must(t, ww.Flush())
		must(t, gw.Flush())
		if gb.String() != wb.String() {
			t.Errorf("right %v:\n got %q\nwant %q", right, gb.String(), wb.String())
		}
	}
	for _, n := range []int{0, 7, 99, 100, 999, 1000, 12345, -1, -1234} {
		if got, want := countText(n), humanize.Count(n); got != want {
			t.Errorf("countText(%d) = %q, want %q", n, got, want)
		}
	}
	for _, s := range []float64{0, 0.005, 0.0049, 0.125, 0.135, 0.5, 1.0 / 3, 2.0 / 3, 0.995, 1} {
		if got, want := percent(s), fmt.Sprintf("%.0f%%", s*100); got != want {
			t.Errorf("percent(%v) = %q, want %q", s, got, want)
		}
	}
}
