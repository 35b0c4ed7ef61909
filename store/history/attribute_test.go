package history

import (
	"testing"
	"time"

	"github.com/crmem/crmem/store/sessions"
)

// TestAttribute_ACallsOneCandidateLeftIsItsRecord: a call whose run's
// stretch of the log is known made a record there; when one candidate is
// left to it, that record is its own, even though another call's run
// covers it too, and that call then takes what is left to it. Two calls
// left the same one record, or one call two records, stay unknown.
func TestAttribute_ACallsOneCandidateLeftIsItsRecord(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	forget := func(step string, sec int, lo, hi int64) call {
		return call{Write: sessions.Write{Tool: sessions.ForgetTool, Name: "n", Session: "s", Step: step,
			Time: at.Add(time.Duration(sec) * time.Second), Outcome: sessions.WriteDone}, lo: lo, hi: hi}
	}
	for _, tc := range []struct {
		name  string
		calls []call
		dels  []int64  // Deletes of n at these offsets
		want  []string // the step each Delete is attributed to ("": unknown)
	}{
		// Seed 10's op 71: a run spanning another's, each with a removal.
		{"nested runs", []call{forget("a", 1, 100, 500), forget("b", 2, 150, 250)}, []int64{200, 400}, []string{"b", "a"}},
		{"a chain of runs", []call{forget("a", 1, 100, 250), forget("b", 2, 150, 350), forget("c", 3, 250, 450)},
			[]int64{200, 300, 400}, []string{"a", "b", "c"}},
		{"one run, two records", []call{forget("a", 1, 100, 500)}, []int64{200, 400}, []string{"", ""}},
		{"two runs, one record", []call{forget("a", 1, 100, 300), forget("b", 2, 150, 250)}, []int64{200}, []string{""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ix := &Index{writes: map[string][]call{"n": tc.calls}, sessInfo: map[string]sessionInfo{}}
			var vs []Version
			for k, off := range tc.dels {
				vs = append(vs, Version{Action: Delete, Name: "n", Origin: FromLog, Log: &LogPos{Offset: off, Seq: k}})
			}
			if extra := ix.attribute("n", vs); len(extra) != 0 {
				t.Errorf("calls the log does not hold: %+v", extra)
			}
			for k, v := range vs {
				got := ""
				if v.Call != nil {
					got = v.Call.Step
				}
				if got != tc.want[k] {
					t.Errorf("the Delete at %d: made by %q, want %q", v.Log.Offset, got, tc.want[k])
				}
			}
		})
	}
}
