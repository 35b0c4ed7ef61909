package sessions

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// FuzzRecallStep feeds any bytes to the step and result parsers as the
// steps of one session: a call step followed by the fuzzed step, which may
// be its result. Nothing may panic, every recall must have a state, and
// names come only with a "names" state, none empty; read against entries
// as it is read (RecallOptions.Entries), a result resolves as Resolve
// resolves it later.
func FuzzRecallStep(f *testing.F) {
	files, _ := filepath.Glob("../../testdata/recalls/sessions/*/step-*")
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
	}
	// Entries known when the result is read (RecallOptions.Entries):
	// names of one to three bytes, one of them holding a newline.
	known := func(n string) (string, bool) { return "x", len(n) <= 3 && n != "" }
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, lookup := range []func(string) (string, bool){nil, known} {
			recallStep(t, data, lookup)
		}
	})
}

func recallStep(t *testing.T, data []byte, known func(string) (string, bool)) {
	t.Helper()
	read := func(inline bool) SessionRecalls {
		b := NewRecallBuilder("s", "", 3, time.Time{})
		if inline {
			b.known, b.maxName = known, 3
		}
		b.Add([]byte(`{"message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_01","name":"recall","input":{"query":"q"}}]}}`), nil)
		b.Add(data, nil)
		out := b.Finish()
		if !inline {
			for i := range out.Recalls {
				out.Recalls[i].Resolve(known)
			}
		}
		return out
	}
	if known != nil {
		// As read against the entries, as resolved after.
		out, later := read(true), read(false)
		unparsable := 0
		for _, r := range out.Recalls {
			unparsable += btoi(r.Result == ResultUnparsable)
		}
		if out.Problems.UnparsableResults != unparsable {
			t.Fatalf("%d unparsable results counted, %d read", out.Problems.UnparsableResults, unparsable)
		}
		p, q := out.Problems, later.Problems // counted before Resolve, later: Stream amends it
		p.UnparsableResults, q.UnparsableResults = 0, 0
		if len(out.Recalls) != len(later.Recalls) || p != q {
			t.Fatalf("as read %+v, resolved later %+v", out, later)
		}
		for i, r := range out.Recalls {
			if l := later.Recalls[i]; !slices.Equal(r.Names, l.Names) || r.Result != l.Result {
				t.Fatalf("as read %q %s, resolved later %q %s", r.Names, r.Result, l.Names, l.Result)
			}
		}
		return
	}
	out := read(false)
	if out.Problems.Steps != 2 || out.Problems.UnparsableSteps > 1 {
		t.Fatalf("problems %+v", out.Problems)
	}
	for _, r := range out.Recalls {
		switch r.Result {
		case ResultNames:
			if len(r.Names) == 0 || len(r.Names) > max(r.Limit, 0) {
				t.Fatalf("names %q at limit %d", r.Names, r.Limit)
			}
			for _, n := range r.Names {
				if n == "" {
					t.Fatalf("empty name in %q", r.Names)
				}
			}
		case ResultNone, ResultUnparsable, ResultMissing:
			if r.Names != nil {
				t.Fatalf("%s with names %q", r.Result, r.Names)
			}
		default:
			t.Fatalf("state %q", r.Result)
		}
	}
}
