package export

import (
	"bytes"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/crmem/crmem/store"
)

const (
	metaOpen  = `<div id="meta">`
	metaClose = `</div>`
	bom       = "\uFEFF"

	// rfc3339Seconds is RFC 3339 in UTC with whole seconds, the reference's
	// SecondsFormat::Secs with a "Z" suffix.
	rfc3339Seconds = "2006-01-02T15:04:05Z"
	// maxRFC3339 is the last instant with a four-digit year (9999-12-31T23:59:59Z).
	maxRFC3339 = 253402300799
)

// FormatEntry renders one entry in the dump file format of SPEC §5: the
// <div id="meta"> block (Created as RFC 3339 UTC seconds, the Aliases row
// when there are aliases, with &, < and > escaped), a blank line, then the
// content with leading newlines removed, ending in a newline (an empty
// content adds nothing after the blank line).
//
// A created_at beyond year 9999 cannot be written in RFC 3339; it is written
// as 1970-01-01T00:00:00Z, as the reference does.
//
// ParseEntry(FormatEntry(e)) gives back e's aliases and created_at exactly,
// and its content with surrounding whitespace trimmed.
func FormatEntry(e store.Entry) []byte {
	ts := formatTime(e.CreatedAt)
	var b bytes.Buffer
	b.Grow(len(e.Content) + 200)
	b.WriteString(metaOpen + "\n<dl>\n  <dt>Created</dt>\n")
	fmt.Fprintf(&b, "  <dd><time datetime=\"%s\">%s</time></dd>\n", ts, ts)
	if len(e.Aliases) > 0 {
		b.WriteString("  <dt>Aliases</dt>\n  <dd>\n    <ul>\n")
		for _, a := range e.Aliases {
			b.WriteString("      <li>" + htmlEscape(a) + "</li>\n")
		}
		b.WriteString("    </ul>\n  </dd>\n")
	}
	b.WriteString("</dl>\n" + metaClose + "\n\n")
	b.WriteString(strings.TrimLeft(e.Content, "\n"))
	if !bytes.HasSuffix(b.Bytes(), []byte("\n")) {
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// ParseEntry reads one entry file by the load rules of SPEC §5. An optional
// byte order mark is skipped. A file that starts with <div id="meta"> and
// has a closing </div> takes created_at from the first datetime="…"
// attribute (RFC 3339; unparsable or before 1970 → now) and its aliases from
// the <li> items of the Aliases row, unescaped; its content is the rest,
// with surrounding whitespace trimmed. Any other file is all content, with
// trailing whitespace trimmed, created now.
//
// The entry gets the given name, kind Note and id 0; the caller sets the
// kind and id. The only error is content that is not valid UTF-8.
func ParseEntry(name string, data []byte, now time.Time) (store.Entry, error) {
	if !utf8.Valid(data) {
		return store.Entry{}, fmt.Errorf("entry %q: not valid UTF-8", name)
	}
	text := strings.TrimPrefix(string(data), bom)
	e := store.Entry{Name: name, CreatedAt: unixNow(now)}
	rest, ok := strings.CutPrefix(text, metaOpen)
	end := strings.Index(rest, metaClose)
	if !ok || end < 0 {
		e.Content = trimRight(text)
		return e, nil
	}
	meta := rest[:end]
	if ts, ok := metaCreated(meta); ok {
		e.CreatedAt = ts
	}
	e.Aliases = metaAliases(meta)
	e.Content = strings.TrimSpace(rest[end+len(metaClose):])
	return e, nil
}

// formatTime writes unix seconds as RFC 3339 UTC, or the epoch when the
// year would need more than four digits.
func formatTime(secs uint64) string {
	if secs > maxRFC3339 {
		secs = 0
	}
	return time.Unix(int64(secs), 0).UTC().Format(rfc3339Seconds)
}

// unixNow is now in unix seconds (0 for instants before 1970).
func unixNow(now time.Time) uint64 {
	if s := now.Unix(); s > 0 {
		return uint64(s)
	}
	return 0
}

// metaCreated parses the first datetime="…" attribute of the meta block.
func metaCreated(meta string) (uint64, bool) {
	const attr = `datetime="`
	i := strings.Index(meta, attr)
	if i < 0 {
		return 0, false
	}
	v := meta[i+len(attr):]
	j := strings.IndexByte(v, '"')
	if j < 0 {
		return 0, false
	}
	t, err := time.Parse(time.RFC3339, v[:j])
	if err != nil || t.Unix() < 0 {
		return 0, false
	}
	return uint64(t.Unix()), true
}

// metaAliases returns the unescaped <li> items of the Aliases row, which
// ends at the next <dt>.
func metaAliases(meta string) []string {
	const header = "<dt>Aliases</dt>"
	i := strings.Index(meta, header)
	if i < 0 {
		return nil
	}
	row := meta[i+len(header):]
	if j := strings.Index(row, "<dt>"); j >= 0 {
		row = row[:j]
	}
	var out []string
	for {
		_, after, ok := strings.Cut(row, "<li>")
		if !ok {
			return out
		}
		item, rest, ok := strings.Cut(after, "</li>")
		if !ok {
			return out
		}
		out = append(out, htmlUnescape(strings.TrimSpace(item)))
		row = rest
	}
}

// htmlEscape escapes the three characters the meta block cannot hold as is.
func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// htmlUnescape reverses htmlEscape (&amp; last, so "&amp;lt;" stays "&lt;").
func htmlUnescape(s string) string {
	s = strings.ReplaceAll(s, "&lt;", "<")
	s = strings.ReplaceAll(s, "&gt;", ">")
	return strings.ReplaceAll(s, "&amp;", "&")
}

// trimRight removes trailing Unicode white space.
func trimRight(s string) string {
	return strings.TrimRightFunc(s, unicode.IsSpace)
}
