package ansi

import (
	"bytes"
	"io"
	"strconv"
	"strings"

	"github.com/crmem/crmem/internal/glamour/htmltoken"
)

// skipContent are the elements whose text stripHTML drops with them:
// bluemonday's default set (script and style are handled apart).
var skipContent = map[string]bool{
	"frame": true, "frameset": true, "iframe": true, "noembed": true, "noframes": true,
	"noscript": true, "nostyle": true, "object": true, "script": true, "style": true, "title": true,
}

// stripHTML is bluemonday.StrictPolicy().Sanitize(s) (crmem: upstream
// calls bluemonday, whose package init, CSS tables included, every crmem
// command paid for): every tag, comment and doctype removed, the text of
// script, style and the skipContent elements dropped, the rest of the
// text kept HTML-escaped; on a tokenizer error, nothing. The same
// tokenizer (htmltoken, x/net/html's without its init), step for step,
// so the output is bluemonday's (pinned by
// TestStripHTML_MatchesBluemonday and its fuzz target).
func stripHTML(s string) string {
	if strings.TrimSpace(s) == "" {
		return s
	}
	var buf bytes.Buffer
	var skipping bool
	var skipped int64
	var recent string // the most recently started element
	z := htmltoken.NewTokenizer(strings.NewReader(s))
	for z.Next() != htmltoken.ErrorToken {
		t := z.Token()
		switch t.Type {
		case htmltoken.StartTagToken:
			name := normaliseElementName(t.Data)
			recent = name
			if name == "script" || name == "style" {
				continue
			}
			if skipContent[t.Data] {
				skipping = true
				skipped++
			}
		case htmltoken.EndTagToken:
			name := normaliseElementName(t.Data)
			if recent == name {
				recent = ""
			}
			if name == "script" || name == "style" {
				continue
			}
			if skipContent[t.Data] {
				skipped--
				if skipped == 0 {
					skipping = false
				}
			}
		case htmltoken.TextToken:
			if !skipping && recent != "script" && recent != "style" {
				buf.WriteString(t.String())
			}
		}
	}
	if z.Err() != io.EOF {
		return ""
	}
	return buf.String()
}

// normaliseElementName is bluemonday's: the name lowercased, with any
// character outside printable ASCII escaped as in a Go string literal.
func normaliseElementName(str string) string {
	return strings.TrimSuffix(strings.TrimPrefix(strings.ToLower(strconv.QuoteToASCII(str)), `"`), `"`)
}
