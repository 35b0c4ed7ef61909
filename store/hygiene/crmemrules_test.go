package hygiene

import (
	"fmt"
	"testing"
)

// TestSecrets_CrmemRules checks what a user expects of the scanner beyond
// gitleaks' rules: found, not found, and one finding per secret.
func TestSecrets_CrmemRules(t *testing.T) {
	const stripe = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
	tests := []struct {
		name, text string
		want       []string // rule:secret
	}{
		{"stripe key before a comma", "Use " + stripe + ", then restart.", []string{"crmem-stripe-key:" + stripe}},
		{"stripe key before a full stop", "The key is " + stripe + ".", []string{"crmem-stripe-key:" + stripe}},
		{"stripe key before a space: one finding", "key " + stripe + " here", []string{"stripe-access-token:" + stripe}},
		{"postgres URL", "connect to postgres://user:pass@db.internal:5432/app", []string{"crmem-url-credentials:pass"}},
		{"redis URL", "REDIS=redis://default:s3cr3tPw@cache-1", []string{"crmem-url-credentials:s3cr3tPw"}},
		{"URL placeholder", "postgres://user:${DB_PASSWORD}@db.internal/app and https://u:<password>@h", nil},
		{"URL without a password", "see https://example.com:8080/path and git@github.com:org/repo", nil},
		{"password in prose", "The admin password: hunter2!", []string{"crmem-password-in-prose:hunter2"}},
		{"password is", "the wifi password is swordfish.", []string{"crmem-password-in-prose:swordfish"}},
		{"password for", "password for the staging db = Tr0ub4dor&3", []string{"crmem-password-in-prose:Tr0ub4dor&3"}},
		{"password words", "A password is required. The password was changed. Password: (hidden)", nil},
		{"password and generic: one finding", "password=aB3dE5gH7jK9mN1pQ3sTz", []string{"crmem-password-in-prose:aB3dE5gH7jK9mN1pQ3sTz"}},
		{"AWS example key", "aws_access_key_id = AKIAIOSFODNN7EXAMPLE", nil},
		{"setting ending in _password", "admin_password: Zq7hunter2x", []string{"crmem-password-in-prose:Zq7hunter2x"}},
		{"env DB_PASSWORD", "export DB_PASSWORD=s3cr3tPw9", []string{"crmem-password-in-prose:s3cr3tPw9"}},
		{"Google key before &", "GET https://maps.googleapis.com/maps/api/geocode/json?key=AIzaSyB7x2Lq9ZrT4mW8vN3pK6cF1dH5jS0gE2u&address=Paris", []string{"crmem-google-api-key:AIzaSyB7x2Lq9ZrT4mW8vN3pK6cF1dH5jS0gE2u"}},
		{"Google key before a space: one finding", "key AIzaSyB7x2Lq9ZrT4mW8vN3pK6cF1dH5jS0gE2u here", []string{"gcp-api-key:AIzaSyB7x2Lq9ZrT4mW8vN3pK6cF1dH5jS0gE2u"}},
		{"AWS secret key in prose", "the AWS secret is q8Vt2RmZ7xK4pLw9Nb3Jc6Hd1Fg5Sy0Ae+Tu/Xo2 for the backup bucket", []string{"crmem-aws-secret-in-prose:q8Vt2RmZ7xK4pLw9Nb3Jc6Hd1Fg5Sy0Ae+Tu/Xo2"}},
		{"forty letters after secret, no key", "secret santa is organised by the operations and platform teams", nil},
		{"stripe example key", "STRIPE_KEY=sk_test_EXAMPLE4eC39HqLyjWDarjtT1zdp7dc", nil},
		{"idempotency key", "Idempotency-Key: 4f9c2b1e-8a7d-4c3b-9e2f-1a2b3c4d5e6f", nil},
		{"idempotency key in prose", "send the idempotency key 4f9c2b1e-8a7d-4c3b-9e2f-1a2b3c4d5e6f with the retry", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Run(entries("e", tt.text), Options{Kinds: []Kind{Secret}})
			var got []string
			for _, f := range r.Findings {
				got = append(got, f.Secret.Rule+":"+tt.text[f.Secret.Start:f.Secret.End])
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("%q: got %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}
