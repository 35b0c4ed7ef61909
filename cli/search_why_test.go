package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/crmem/crmem/store/why"
)

// TestSearchWhy_ReferenceRanks names every reference hit with --why, in
// both formats, and checks that each stands at its place in the
// reference ranking (within its tie group) with its score, and that the
// hits --why lists are the reference's.
func TestSearchWhy_ReferenceRanks(t *testing.T) {
	for _, tc := range []struct{ memory, queries string }{
		{"crmem/small.db", "search/small.jsonl"},
		{"crabdb/small.crmem", "crabdb/small.search.jsonl"},
	} {
		t.Run(tc.memory, func(t *testing.T) {
			t.Parallel()
			db := copyFixture(t, tc.memory)
			checked := 0
			for _, q := range readFixtureQueries(t, tc.queries) {
				if len(q.Hits) == 0 || q.Limit == 0 || strings.HasPrefix(q.Query, "-") {
					continue
				}
				args := []string{"search", "--db", db, "--json", "--limit", fmt.Sprint(q.Limit), "--", q.Query}
				for _, h := range q.Hits {
					args = append(args[:len(args)-2], "--why", h.Name, "--", q.Query)
				}
				var rep why.Report
				mustJSON(t, mustRun(t, "", args...), &rep)
				got := make([]jsonHit, len(rep.Hits))
				for i, h := range rep.Hits {
					got[i] = jsonHit{jsonEntry: jsonEntry{Name: h.Name, Aliases: []string{}}, Score: h.Score}
				}
				compareRanking(t, q, got)
				for i, h := range q.Hits {
					lo, hi := i, i
					for lo > 0 && closeEnough(q.Hits[lo-1].Score, h.Score) {
						lo--
					}
					for hi+1 < len(q.Hits) && closeEnough(q.Hits[hi+1].Score, h.Score) {
						hi++
					}
					e := rep.Entries[i]
					if e.Name != h.Name || e.Rank < lo+1 || e.Rank > hi+1 && hi+1 != q.Limit || !closeEnough(e.Score, h.Score) {
						t.Errorf("%q: --why %s: #%d %.17g, reference #%d %.17g", q.Query, h.Name, e.Rank, e.Score, i+1, h.Score)
					}
					checked++
				}
			}
			if checked < 20 {
				t.Errorf("only %d hits checked", checked)
			}
		})
	}
}

// TestSearchWhy_Text checks the human output of each reason, in both
// formats: the hits at the agent's limit, then a block per name.
func TestSearchWhy_Text(t *testing.T) {
	tests := []struct {
		memory string
		args   []string
		want   []string
	}{
		{"crmem/small.db", []string{"postgres", "migration", "--why", "deploy-step", "--why", "archive-sess-0002-1767400000000000000", "--limit", "2"}, []string{
			`why deploy-step: no entry has that name or alias; did you mean "deploy-steps"?`,
			`why archive-sess-0002-1767400000000000000: ranked #3 of 3: 0.5412 below #2 "long-note" (3.2067), the last inside the limit of 2`,
			"     postgres    1   3  1.9661  2.6655   100%",
			"     lacks migration",
		}},
		{"crmem/small.db", []string{"the", "zzz", "--why", "stopwords-only", "--why", "empty-note"}, []string{
			"no matches",
			`query word "the" → nothing (dropped: "the" stopword)`,
			`why stopwords-only: none of the query's terms occur in it; it holds "the", which the tokenizer drops from the query`,
			"why empty-note: none of the query's terms (zzz) occur in it; it has no word the index keeps",
		}},
		{"crabdb/small.crmem", []string{"zzz-alice", "ro*", "--why", "alice-preferences", "--why", "deploy-steps"}, []string{
			`query word "zzz-alice" → zzz (dropped: "alice" not the word's first token, and the store's recall keeps one per word)`,
			`why alice-preferences: none of the query's terms occur in it; it holds "alice", which the tokenizer drops from the query`,
			"     ro* → rollback",
		}},
		{"crmem/small.db", []string{"a", "--why", "deploy-steps"}, []string{
			`query word "a" → nothing (dropped: "a" too short)`,
			"why deploy-steps: the query has no terms",
		}},
	}
	for _, tt := range tests {
		db := copyFixture(t, tt.memory)
		out := mustRun(t, "", append([]string{"search", "--db", db}, tt.args...)...)
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("search %q: output lacks %q:\n%s", tt.args, w, out)
			}
		}
	}
}

// TestSearchWhy_AgentLimit checks that --why cuts at the agent's recall
// limit, 5, unless --limit says otherwise (0: the recall returns nothing),
// in both formats.
func TestSearchWhy_AgentLimit(t *testing.T) {
	for _, tc := range []struct{ memory, query string }{{"crmem/medium.db", "deploy"}, {"crabdb/small.crmem", "a*"}} {
		db := copyFixture(t, tc.memory)
		var all []map[string]any
		mustJSON(t, mustRun(t, "", "search", "--db", db, "--json", "--limit", "0", "--", tc.query), &all)
		if len(all) <= why.AgentLimit {
			t.Fatalf("%s %q: %d hits, the test needs more than %d", tc.memory, tc.query, len(all), why.AgentLimit)
		}
		for _, limit := range []string{"", "7", "0"} {
			args := []string{"search", "--db", db, "--json", "--why", "x", "--", tc.query}
			if limit != "" {
				args = append([]string{"--limit", limit}, args...)
			}
			var rep why.Report
			mustJSON(t, mustRun(t, "", args...), &rep)
			if limit == "0" { // a recall at limit 0 returns nothing
				if len(rep.Hits) != 0 || rep.Cutoff != nil || rep.Ranked != len(all) {
					t.Errorf("%s %q --limit 0: %d hits, cutoff %+v, %d ranked; want none of %d", tc.memory, tc.query, len(rep.Hits), rep.Cutoff, rep.Ranked, len(all))
				}
				continue
			}
			want := map[string]int{"": why.AgentLimit, "7": 7}[limit]
			if len(rep.Hits) != want || rep.Cutoff == nil || rep.Cutoff.Rank != want || rep.Ranked != len(all) {
				t.Errorf("%s %q --limit %q: %d hits, cutoff %+v, %d ranked; want %d of %d", tc.memory, tc.query, limit, len(rep.Hits), rep.Cutoff, rep.Ranked, want, len(all))
			}
		}
	}
}

// TestSearchWhy_JSONShape checks the keys scripts rely on.
func TestSearchWhy_JSONShape(t *testing.T) {
	db := copyFixture(t, "crmem/small.db")
	var rep map[string]json.RawMessage
	mustJSON(t, mustRun(t, "", "search", "--db", db, "--json", "--why", "deploy-steps", "--why", "nope", "deploy"), &rep)
	keys := func(m map[string]json.RawMessage) []string {
		var out []string
		for k := range m {
			out = append(out, k)
		}
		slices.Sort(out)
		return out
	}
	want := []string{"avg_doc_len", "cutoff", "docs", "format", "hits", "limit", "query", "ranked", "terms", "why", "words"}
	if got := keys(rep); !slices.Equal(got, want) {
		t.Errorf("keys %v, want %v", got, want)
	}
	var entries []map[string]json.RawMessage
	mustJSON(t, string(rep["why"]), &entries)
	wantEntry := []string{"did_you_mean", "doc_len", "dropped_words", "found", "gap", "in_limit", "kind", "missing", "name", "rank", "reason", "score", "terms", "detail"}
	slices.Sort(wantEntry)
	if len(entries) != 2 || !slices.Equal(keys(entries[0]), wantEntry) {
		t.Fatalf("why entries: %d, keys %v, want %v", len(entries), keys(entries[0]), wantEntry)
	}
	var none map[string]json.RawMessage
	mustJSON(t, mustRun(t, "", "search", "--db", db, "--json", "--why", "deploy-steps", "the"), &none)
	for _, k := range []string{"hits", "terms", "words"} {
		if !strings.HasPrefix(string(none[k]), "[") {
			t.Errorf("a query nothing matches: %s is %s, want an array", k, none[k])
		}
	}
	for _, e := range entries {
		for _, k := range []string{"terms", "missing", "dropped_words", "did_you_mean"} {
			if string(e[k]) == "null" {
				t.Errorf("%s: %s is null, want an array", e["name"], k)
			}
		}
	}
}

// TestSearchWhy_Refuses checks the flags --why cannot go with, and that a
// name is printed safely.
func TestSearchWhy_Refuses(t *testing.T) {
	db := copyFixture(t, "crmem/small.db")
	for _, args := range [][]string{
		{"--kind", "note"}, {"--explain"}, {"--limit", "-1"},
	} {
		r := crmem(t, "", append([]string{"search", "--db", db, "deploy", "--why", "deploy-steps"}, args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, "crmem: search:") {
			t.Errorf("--why with %q: exit %d, stderr %q; want a usage error", args, r.code, r.stderr)
		}
	}
	out := mustRun(t, "", "search", "--db", db, "deploy", "--why", "evil\x1b[31m\x07name")
	if strings.ContainsAny(out, "\x1b\x07") {
		t.Errorf("a name's control characters reached the terminal: %q", out)
	}
}

// TestSearchWhy_WordsAreTokens checks that a query word's terms are what
// `crmem tokens WORD` prints.
func TestSearchWhy_WordsAreTokens(t *testing.T) {
	db := copyFixture(t, "crmem/small.db")
	var rep why.Report
	mustJSON(t, mustRun(t, "", "search", "--db", db, "--json", "--why", "x", "--", "deploy-steps e-mail the Don't"), &rep)
	if len(rep.Words) != 4 {
		t.Fatalf("words %+v, want 4", rep.Words)
	}
	for _, w := range rep.Words {
		var toks []string
		mustJSON(t, mustRun(t, "", "tokens", "--json", "--", w.Word), &toks)
		if !slices.Equal(toks, w.Terms) {
			t.Errorf("%q: terms %q, crmem tokens %q", w.Word, w.Terms, toks)
		}
	}
}

// TestSearchWhy_CompletesNames checks that the shell completes --why with
// entry names.
func TestSearchWhy_CompletesNames(t *testing.T) {
	db := copyFixture(t, "crmem/small.db")
	out := mustRun(t, "", "__complete", "search", "--db", db, "deploy", "--why", "deploy-")
	if !strings.Contains(out, "deploy-steps\n") || strings.Contains(out, "long-note") {
		t.Errorf("completion of --why deploy-:\n%s", out)
	}
}

// TestSearchWhy_LimitZeroAndTies: --limit 0 is a recall that returns
// nothing (crabtalk's takes at most limit hits), and an entry tied with
// the last one inside the limit on a v1 file may or may not be returned
// (the agent's recall breaks ties at random), not "after the limit".
func TestSearchWhy_LimitZeroAndTies(t *testing.T) {
	db := filepath.Join(t.TempDir(), "memory.db")
	mustRun(t, "", "add", "--db", db, "first", "canary deploy steps")
	mustRun(t, "", "add", "--db", db, "second", "canary deploy steps")
	zero := crmem(t, "", "search", "--db", db, "canary", "--why", "first", "--limit", "0")
	if zero.code != 0 || !strings.Contains(zero.stdout, "no matches: a recall at limit 0 returns nothing") || !strings.Contains(zero.stdout, "the recall's limit is 0, so it returns nothing") {
		t.Errorf("--limit 0: exit %d\n%s%s", zero.code, zero.stdout, zero.stderr)
	}
	js := crmem(t, "", "search", "--db", db, "canary", "--why", "first", "--limit", "0", "--json")
	if !strings.Contains(js.stdout, `"hits":[]`) || strings.Contains(js.stdout, `"in_limit":true`) {
		t.Errorf("--limit 0 --json:\n%s", js.stdout)
	}
	tie := crmem(t, "", "search", "--db", db, "canary", "--why", "first", "--why", "second", "--limit", "1")
	if !strings.Contains(tie.stdout, "may or may not be returned") || strings.Contains(tie.stdout, "after the limit") {
		t.Errorf("a tie at the cut:\n%s", tie.stdout)
	}
}
