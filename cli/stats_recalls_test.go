package cli

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/crmem/crmem/face/config"
	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store/crabdb"
	"github.com/crmem/crmem/store/crabdb/crabdbtest"
	"github.com/crmem/crmem/store/stats"
)

// TestStats_RecallsMatchReport checks the stats' recall section on the
// demo and on the recall fixtures agrees with recalls --report's THEN
// column: the same recalls, the same entries recalled and never
// recalled, the same counts, and the same problems line on stderr.
func TestStats_RecallsMatchReport(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"demo", []string{"--demo"}},
		{"fixtures", []string{"--db", recallsHome(t)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, statsErr, code := runIn(nil, "", append(slices.Clone(tc.args), "stats", "--json", "--top", "100")...)
			if code != 0 {
				t.Fatalf("stats: exit %d %s", code, statsErr)
			}
			var s stats.Stats
			mustJSON(t, out, &s)
			repOut, repErr, code := runIn(nil, "", append(slices.Clone(tc.args), "recalls", "--report", "--json")...)
			if code != 0 {
				t.Fatalf("recalls: exit %d %s", code, repErr)
			}
			var rep jsonRecallReport
			mustJSON(t, repOut, &rep)
			r := s.Recalls
			if r == nil || r.Recalls != rep.Recalls || r.Problems != rep.Problems || r.Sessions != rep.Problems.Sessions {
				t.Fatalf("stats recalls %+v, report %d recalls, problems %+v", r, rep.Recalls, rep.Problems)
			}
			if statsErr != repErr || statsErr == "" {
				t.Errorf("stats says on stderr %q, recalls %q", statsErr, repErr)
			}
			// One meaning of "never recalled": what no recorded recall
			// returned, the same count in stats and in the report.
			then := map[string]int{}
			for _, u := range rep.Entries {
				if u.Then > 0 {
					then[u.Name] = u.Then
				}
			}
			never := len(rep.Never)
			for _, u := range rep.Never {
				if u.Then > 0 {
					t.Errorf("the report lists %s as never recalled, returned %d× then", u.Name, u.Then)
				}
			}
			most := map[string]int{}
			for _, u := range r.Most {
				most[u.Name] = u.Then
			}
			if fmt.Sprint(most) != fmt.Sprint(then) || r.Recalled != len(then) || r.Never != never {
				t.Errorf("stats: most %v, %d recalled, %d never; report then %v, %d never", most, r.Recalled, r.Never, then, never)
			}
			for i := 1; i < len(r.Most); i++ {
				if r.Most[i].Then > r.Most[i-1].Then {
					t.Errorf("most not in order: %+v", r.Most)
				}
			}
			for _, u := range append(r.NeverOldest, r.NeverBiggest...) {
				if then[u.Name] > 0 {
					t.Errorf("%s listed as never recalled, the report says %d", u.Name, then[u.Name])
				}
			}

			text, _, _ := runIn(nil, "", append(slices.Clone(tc.args), "stats")...)
			want := []string{
				fmt.Sprintf("recall history  %s in %s · %d of %d entries recalled",
					humanize.Plural(r.Recalls, "recorded recall"), humanize.Plural(r.Sessions, "session"), len(then), len(then)+never),
				"most recalled  (times returned then, as recorded)",
				fmt.Sprintf("never recalled  %s no recorded recall returned", humanize.Plural(never, "entry")),
			}
			for _, u := range r.Most[:min(len(r.Most), stats.DefaultTop)] {
				want = append(want, fmt.Sprintf("%d×  %s %s", u.Then, strings.ToUpper(u.Kind.String()[:1]), u.Name))
			}
			for _, w := range want {
				if !containsLine(text, w) {
					t.Errorf("no line %q in\n%s", w, text)
				}
			}
		})
	}
}

// TestStats_NoRecallHistory: without a sessions folder, or with sessions
// holding no recall, the section is one line and JSON leaves it out;
// nothing is said on stderr for a memory that simply has no sessions.
func TestStats_NoRecallHistory(t *testing.T) {
	db := copyFixture(t, "crmem/small.db")
	empty := t.TempDir()
	tests := []struct {
		name, line string
		args       []string
	}{
		{"no folder", "recall history  none: no sessions folder at", nil}, // the path may wrap
		{"no recall", "recall history  none: no recall in 0 sessions", []string{"--sessions", empty}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runIn(nil, "", append([]string{"--db", db, "stats"}, tt.args...)...)
			if code != 0 || errOut != "" || !strings.Contains(out, "\n"+tt.line) || strings.Contains(out, "most recalled") {
				t.Errorf("exit %d, stderr %q, stdout:\n%s\nwant the line %q", code, errOut, out, tt.line)
			}
			out, _, _ = runIn(nil, "", append([]string{"--db", db, "stats", "--json"}, tt.args...)...)
			var doc map[string]json.RawMessage
			mustJSON(t, out, &doc)
			if _, ok := doc["recalls"]; ok {
				t.Errorf("JSON has recalls without history: %s", doc["recalls"])
			}
		})
	}
}

// TestStats_StoreRecalls reads the recall history crabtalk's store holds;
// its entries have no id in the section either.
func TestStats_StoreRecalls(t *testing.T) {
	path := copyStore(t, "small.crmem", config.StoreFileName)
	put := func(k, v string) {
		crabdbtest.Append(t, path, crabdbtest.Record(crabdb.OpPut, crabdb.ColSession, k, v))
	}
	put("local/session/dana-1/meta", `{"agent":"00000000000000000000000000","created_by":"dana","created_at":"2026-01-06T10:00:00+00:00","title":"","updated_at":"2026-01-06T10:05:00+00:00","message_count":2}`)
	put("local/session/dana-1/msg/000000000000", `{"message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"recall","input":{"query":"deploy rollback","limit":3}}]}}`)
	put("local/session/dana-1/msg/000000000001", `{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","name":"recall","content":"## deploy-steps\n# Production deployment\n\nDeployments go out from `+"`"+`main`+"`"+` once the canary is green.\n1. Tag the release.\n2. Run `+"`"+`make release`+"`"+`; the deployed build is promoted after 15 minutes.\n\nRollback with `+"`"+`make rollback VERSION=<prev>`+"`"+`.\n---\n## oncall-handoff\ny"}]}}`)
	out, errOut, code := runIn(nil, "", "--db", path, "stats", "--json")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	var s stats.Stats
	mustJSON(t, out, &s)
	if s.Recalls == nil || s.Recalls.Recalls != 1 || len(s.Recalls.Most) != 1 || s.Recalls.Most[0].Name != "deploy-steps" || s.Recalls.Most[0].Then != 1 {
		t.Fatalf("store recalls %+v", s.Recalls)
	}
	if strings.Contains(out, `"id":`) {
		t.Errorf("store entries show an id: %s", out)
	}
}
