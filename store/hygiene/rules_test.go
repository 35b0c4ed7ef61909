package hygiene

import (
	"testing"
)

// TestRules_Compile checks every rule of the embedded gitleaks set compiles
// with Go's regexp (RE2), and counts what is applied.
func TestRules_Compile(t *testing.T) {
	rs, err := parseRules()
	if err != nil {
		t.Fatal(err)
	}
	if got := len(rs.list) + rs.skipped; got != 222+5 {
		t.Errorf("rules: %d, want gitleaks v8.30.1's 222 and crmem's 5", got)
	}
	if rs.skipped != 5 {
		t.Errorf("path rules skipped: %d, want 5", rs.skipped)
	}
	for _, r := range rs.list {
		if _, err := r.re(); err != nil {
			t.Errorf("rule %s: %v", r.ID, err)
		}
		for _, a := range r.allow {
			if a.re == nil {
				continue
			}
			if _, err := a.re(); err != nil {
				t.Errorf("rule %s allowlist: %v", r.ID, err)
			}
		}
	}
	if _, err := rs.global.re(); err != nil {
		t.Errorf("global allowlist: %v", err)
	}
}

// BenchmarkParseRules is what the first secret scan of a process pays to
// read the embedded rule set (no regular expression is compiled yet).
func BenchmarkParseRules(b *testing.B) {
	for b.Loop() {
		if _, err := parseRules(); err != nil {
			b.Fatal(err)
		}
	}
}
