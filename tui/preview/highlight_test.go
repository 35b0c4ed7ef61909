package preview

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestHighlight(t *testing.T) {
	const on, off = "\x1b[7m", "\x1b[27m"
	tests := []struct {
		name, text string
		terms      []string
		want       string
	}{
		{"word", "deploy the app", []string{"deploy"}, on + "deploy" + off + " the app"},
		{"case", "Deploy DEPLOY", []string{"deploy"}, on + "Deploy" + off + " " + on + "DEPLOY" + off},
		{"whole words only", "redeploy deploys", []string{"deploy"}, "redeploy deploys"},
		{"inside colour", "\x1b[38;5;252mrollout\x1b[0m now", []string{"rollout"}, "\x1b[38;5;252m" + on + "rollout" + off + "\x1b[0m now"},
		{"greek final sigma", "ΣΟΦΟΣ λόγος", []string{"σοφος"}, on + "ΣΟΦΟΣ" + off + " λόγος"},
		{"unicode", "請求書 café", []string{"café"}, "請求書 " + on + "café" + off},
		{"other alphabetic", "ⒶⒷ x", []string{"ⓐⓑ"}, on + "ⒶⒷ" + off + " x"},
		{"dotted capital I", "İstanbul", []string{"i\u0307stanbul"}, on + "İstanbul" + off},
		{"no terms", "text", nil, "text"},
		{"multi-line", "a pool\npool b", []string{"pool"}, "a " + on + "pool" + off + "\n" + on + "pool" + off + " b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := highlight(tt.text, tt.terms, on); got != tt.want {
				t.Errorf("highlight(%q, %v) = %q, want %q", tt.text, tt.terms, got, tt.want)
			}
		})
	}
}

func TestPlaceholderIsBounded(t *testing.T) {
	big := strings.Repeat("é word ", 100_000)
	p := placeholder(big, 60)
	if len(p) > 2*placeholderBytes || !strings.HasSuffix(p, "…") || !utf8.ValidString(p) {
		t.Errorf("placeholder of %d bytes: %d bytes, valid %v", len(big), len(p), utf8.ValidString(p))
	}
	if got := placeholder("short", 60); got != "short" {
		t.Errorf("short placeholder %q", got)
	}
}
