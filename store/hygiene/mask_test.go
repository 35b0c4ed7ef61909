package hygiene

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/crmem/crmem/store"
)

// Secrets the tests plant, each found by a gitleaks rule.
const (
	ghToken   = "ghp_R8fK2mQ9xT4vL7wN1pZ5sJ3hB6cY0dE2gU8a"
	ghToken2  = "ghp_Q3nV8kL2rT6yH9mW4sX1bF7jD5cP0zA3eK6u"
	awsKeyID  = "AKIAZ7QW3RT5YU2IO6PL"
	awsKeyID2 = "AKIAR2T4Y6U3I5O7PQ3S"
)

func TestMask(t *testing.T) {
	tests := []struct{ in, want string }{
		{"no secret here", "no secret here"},
		{"token " + ghToken + " end", "token ghp_…gU8a end"},
		{"aws " + awsKeyID + ",", "aws AKI…6PL,"},
		{"", ""},
	}
	for _, tt := range tests {
		got := Mask(tt.in)
		if got != tt.want {
			t.Errorf("Mask(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestMask_Long checks that a text longer than MaxScanBytes is masked
// through to its end.
func TestMask_Long(t *testing.T) {
	s := strings.Repeat("filler line\n", MaxScanBytes/12+10) + "GITHUB_TOKEN=" + ghToken + "\n"
	if got := Mask(s); strings.Contains(got, ghToken) {
		t.Error("a secret past MaxScanBytes is left whole")
	}
}

// TestRun_NoSecretInReport checks every part of a report (as --json prints
// it, and so the text report and the findings view, which print its
// fields) for secrets: the shared terms of a duplicate group that holds a
// token, a name that is a token, the reasons quoting them.
func TestRun_NoSecretInReport(t *testing.T) {
	body := "Deploy notes for the billing service with the canary rollout and smoke tests.\n"
	es := entries(append(filler(40),
		"deploy-a", body+"GITHUB_TOKEN="+ghToken+"\naws_access_key_id = "+awsKeyID+"\n",
		"deploy-b", body+"GITHUB_TOKEN="+ghToken+"\naws_access_key_id = "+awsKeyID+"\n",
		"deploy-c", body+"Rotated. GITHUB_TOKEN="+ghToken2+"\naws_access_key_id = "+awsKeyID2+"\n"+"extra words for the near copy\n",
		"key "+ghToken2, "a note whose name is a token",
		"key "+ghToken2+" ", "the same name but for a space",
	)...)
	es[len(es)-1].Aliases = []string{"alias " + ghToken}
	r := Run(es, Options{MinSimilarity: 0.5})
	js, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{ghToken, ghToken2, awsKeyID, awsKeyID2, strings.ToLower(awsKeyID), strings.ToLower(ghToken[4:]), strings.ToLower(ghToken2[4:])} {
		if strings.Contains(strings.ToLower(string(js)), strings.ToLower(s)) {
			t.Errorf("the report holds %q:\n%s", s, js)
		}
	}
	var dup, nameSecret bool
	for _, f := range r.Findings {
		dup = dup || f.Kind == Duplicate
		nameSecret = nameSecret || (f.Secret != nil && f.Secret.Field == "name")
	}
	if !dup || !nameSecret {
		t.Errorf("want a duplicate finding and a secret in a name, got %s", js)
	}
}

// TestDiff_Masks checks that a rotated token's lines are shown redacted,
// a private key's body too.
func TestDiff_Masks(t *testing.T) {
	key := "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9Oi4k1pQ8vG5nB2cX7dW\nqL0sF9hJ4kR3tY6uI8oP1aZ2xC5vB7nM0wQ3eR6tY9uI2oP5aS8dF1g\n-----END RSA PRIVATE KEY-----"
	lines, ok := Diff("GITHUB_TOKEN="+ghToken+"\n"+key, "GITHUB_TOKEN="+ghToken2)
	if !ok {
		t.Fatal("no diff")
	}
	var all strings.Builder
	for _, l := range lines {
		all.WriteString(l.Text + "\n")
	}
	for _, s := range []string{ghToken, ghToken2, "MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9Oi4k1pQ8vG5nB2cX7dW"} {
		if strings.Contains(all.String(), s) {
			t.Errorf("the diff shows %q:\n%s", s, all.String())
		}
	}
}

// TestRun_SharedTermsNoSecret checks that a duplicate group whose rarest
// shared words are a token and a key id does not list them.
func TestRun_SharedTermsNoSecret(t *testing.T) {
	es := entries(append(filler(40),
		"keys-a", "GITHUB_TOKEN="+ghToken+"\naws_access_key_id = "+awsKeyID,
		"keys-b", "GITHUB_TOKEN: "+ghToken+"\naws_access_key_id = "+awsKeyID+" (rotated monthly)")...)
	r := Run(es, Options{Kinds: []Kind{Duplicate}, MinSimilarity: 0.5})
	if len(r.Findings) != 1 {
		t.Fatalf("want one duplicate group, got %+v", r.Findings)
	}
	f := r.Findings[0]
	for _, term := range f.Duplicate.Shared {
		if strings.Contains(strings.ToLower(ghToken+awsKeyID), term) && len(term) > 3 {
			t.Errorf("shared terms %q hold a piece of a secret", f.Duplicate.Shared)
		}
	}
	if !strings.Contains(f.Reason, "github") {
		t.Errorf("the reason lost the words that are no secret: %q", f.Reason)
	}
}

func TestMaskEntry(t *testing.T) {
	e := store.Entry{ID: 1, Name: "plain", Aliases: []string{"a", "key " + ghToken}, Content: "nothing"}
	m, changed := MaskEntry(e)
	if !changed || m.Aliases[1] != "key ghp_…gU8a" || e.Aliases[1] != "key "+ghToken || m.Name != "plain" {
		t.Errorf("MaskEntry = %+v, %v; the entry given is now %+v", m, changed, e)
	}
	if _, changed := MaskEntry(store.Entry{Name: "plain", Aliases: []string{"a"}, Content: "nothing"}); changed {
		t.Error("an entry without secrets is reported changed")
	}
}

// TestMaskJSON checks that JSON holding secrets (a token, a private key
// whose newlines are escapes) stays valid JSON once masked.
func TestMaskJSON(t *testing.T) {
	key := "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9Oi4k1pQ8vG5nB2cX7dW\nqL0sF9hJ4kR3tY6uI8oP1aZ2xC5vB7nM0wQ3eR6tY9uI2oP5aS8dF1g\n-----END RSA PRIVATE KEY-----"
	for _, v := range []any{
		map[string]string{"name": "key " + ghToken, "content": key},
		[]string{"GITHUB_TOKEN=" + ghToken + "\\", `"` + ghToken2 + `"`, "aws " + awsKeyID + "\u00e9"},
	} {
		js, _ := json.MarshalIndent(v, "", "  ")
		got := MaskJSON(string(js))
		if !json.Valid([]byte(got)) {
			t.Errorf("MaskJSON made invalid JSON:\n%s", got)
		}
		for _, s := range []string{ghToken, ghToken2, awsKeyID, "MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9Oi4k1pQ8vG5nB2cX7dW"} {
			if strings.Contains(got, s) {
				t.Errorf("MaskJSON left %q:\n%s", s, got)
			}
		}
	}
}

// TestRun_NamesAndBlank checks item 4 of the hygiene issue: names that
// differ only by outer spaces are look-alikes, a name with a zero-width
// character names its twin, and a huge whitespace-only entry is one
// finding.
func TestRun_NamesAndBlank(t *testing.T) {
	kv := filler(30)
	kv = append(kv, "deploy", "a", "deploy ", "b", " Deploy", "c", "zero\u200bwidth", "d", "zerowidth", "e", "blank", strings.Repeat(" \n", 1<<19))
	r := Run(entries(kv...), Options{Kinds: []Kind{Name, Outsize}})
	got := checks(r, Name)
	want := []string{"folded:deploy,deploy , Deploy", "folded:zero\u200bwidth,zerowidth", "invisible:zero\u200bwidth"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("names: got %q, want %q", got, want)
	}
	for _, f := range r.Findings {
		if f.Check == "invisible" && !strings.Contains(f.Reason, `reads as "zerowidth"`) {
			t.Errorf("the invisible finding does not name its twin: %q", f.Reason)
		}
	}
	if got := checks(r, Outsize); fmt.Sprint(got) != "[empty:blank]" {
		t.Errorf("outsize: got %q, want only empty:blank", got)
	}
}

// FuzzMaskJSON checks that masking the JSON of any text, alone or as a
// value among others, leaves valid JSON.
func FuzzMaskJSON(f *testing.F) {
	for _, s := range []string{ghToken, "GITHUB_TOKEN=" + ghToken + "\\", "aws " + awsKeyID, "password: hunter2\"", "postgres://u:p\\w@h", "-----BEGIN RSA PRIVATE KEY-----\n" + strings.Repeat("QUJD", 40) + "\n-----END RSA PRIVATE KEY-----"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		js, err := json.Marshal(map[string]any{"a": s, "b": []string{s, "key=" + s}})
		if err != nil {
			return
		}
		if got := MaskJSON(string(js)); !json.Valid([]byte(got)) {
			t.Fatalf("MaskJSON(%s) = %s, not valid JSON", js, got)
		}
	})
}

// TestMaskStrict_Shapes: the second net masks what looks like a credential
// by its shape alone, and leaves ordinary words, names, commit ids,
// hashes, UUIDs, paths, URLs and times readable.
func TestMaskStrict_Shapes(t *testing.T) {
	masked := []string{
		"Zx9qL2vB7nM4kP8wR3tY6uJ1hG5fD0sA",
		"q8Vt2RmZ7xK4pLw9Nb3Jc6Hd1Fg5Sy0Ae+Tu/Xo2",
		"eyJhbGciOiJIUzI1NiJ9xK4pLw9Nb3Jc6",
		"api_Kp3Xv9Lm2Qr7Tz5Wn8Bc4Hd6",
	}
	readable := []string{
		"deploy-steps-for-billing-service-2024",
		"3d6e2ee",
		"9f8e7d6c5b4a39281706f5e4d3c2b1a098765432",
		"550e8400-e29b-41d4-a716-446655440000",
		"internationalization_configuration",
		"TestNearDuplicates_Topical",
		"/usr/local/bin/crmem",
		"https://example.com/docs/getting-started",
		"2026-11-29T00:12:00Z",
		"archive-sess-0014-1",
		"v1.2.3-rc1",
	}
	for _, s := range masked {
		text := "key " + s + " here"
		if got := MaskStrict(text); strings.Contains(got, s) || got == text {
			t.Errorf("MaskStrict(%q) = %q: want it masked", text, got)
		}
	}
	for _, s := range readable {
		text := "see " + s + " here"
		if got := MaskStrict(text); got != text {
			t.Errorf("MaskStrict(%q) = %q: want it unchanged", text, got)
		}
	}
}

// TestMaskStrict_RulesFirst: a secret a rule finds is masked as the rule
// masks it, its key's name readable, not swallowed whole by the shape of
// KEY=value.
func TestMaskStrict_RulesFirst(t *testing.T) {
	text := "GITHUB_TOKEN=" + ghToken + "\nSESSION_COOKIE=Zx9qL2vB7nM4kP8wR3tY6uJ1hG5fD0sA"
	got := MaskStrict(text)
	if !strings.Contains(got, "GITHUB_TOKEN="+Redact(ghToken)) || !strings.Contains(got, "SESSION_COOKIE=") ||
		strings.Contains(got, ghToken) || strings.Contains(got, "Zx9qL2vB7nM4kP8wR3tY6uJ1hG5fD0sA") {
		t.Errorf("MaskStrict(%q) = %q", text, got)
	}
}
