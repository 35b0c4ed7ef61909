package sessions

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// FuzzRecallStep feeds any bytes to the step and result parsers as the
// steps of one session: a call step followed by the fuzzed step, which may
// be its result. Nothing may panic, every recall must have a state, and
// names come only with a "names" state, none empty.
func FuzzRecallStep(f *testing.F) {
	files, _ := filepath.Glob("../../testdata/recalls/sessions/*/step-*")
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b := NewRecallBuilder("s", "", 3, time.Time{})
		b.Add([]byte(`{"message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_01","name":"recall","input":{"query":"q"}}]}}`), nil)
		b.Add(data, nil)
		out := b.Finish()
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
	})
}
