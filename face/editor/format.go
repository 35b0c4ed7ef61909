package editor

import (
	"errors"
	"strings"
	"time"

	"github.com/crmem/crmem/export"
	"github.com/crmem/crmem/store"
)

// formatEntry renders e in the dump format (SPEC §5) for the temp file,
// except its content, which is written exactly as stored, followed by one
// newline (the one an editor adds to a last line that has none; none
// after empty content): parseEntry
// takes that newline off again, so what the user saves is what is stored,
// blank lines and spaces at either end included. The dump format trims
// the content, which an edit must not: "line one\n\n" saved as
// "line ONE\n\n" is stored so.
func formatEntry(e store.Entry) []byte {
	content := e.Content
	e.Content = ""
	b := export.FormatEntry(e) // the meta block and the blank line after it
	if content == "" {
		return b // the user types on the line after the blank one
	}
	b = append(b, content...)
	return append(b, '\n')
}

const (
	metaOpen  = `<div id="meta">`
	metaClose = `</div>`
)

// errNoMeta is returned for a file whose meta block is missing or unclosed.
// The load rules would take such a file as all content and drop the
// aliases; in an edit that is almost always a slip, so the text is kept
// instead of saved.
var errNoMeta = errors.New(`the <div id="meta"> … </div> block at the top is missing or unclosed`)

// errBadCreated is returned for a Created time that does not parse.
var errBadCreated = errors.New(`the Created time (datetime="…") does not parse as RFC 3339, e.g. 2026-01-02T15:04:05Z`)

// parseEntry reads the temp file back: the content, aliases and created
// time the user left in it.
func parseEntry(name string, data []byte) (content string, aliases []string, created uint64, err error) {
	text := strings.TrimPrefix(string(data), "\uFEFF")
	rest, ok := strings.CutPrefix(text, metaOpen)
	if !ok || !strings.Contains(rest, metaClose) {
		return "", nil, 0, errNoMeta
	}
	// The dump format takes an unparsable time as "now": reading with two
	// different nows tells a parsed time from that fallback.
	e, err := export.ParseEntry(name, data, time.Unix(1, 0))
	if err != nil {
		return "", nil, 0, err
	}
	if again, _ := export.ParseEntry(name, data, time.Unix(2, 0)); again.CreatedAt != e.CreatedAt {
		return "", nil, 0, errBadCreated
	}
	return editedContent(rest[strings.Index(rest, metaClose)+len(metaClose):]), e.Aliases, e.CreatedAt, nil
}

// editedContent is the content in what follows the meta block, as
// formatEntry wrote it: the end of the </div> line and the blank line
// after it are not content (either may have been deleted), nor is the one
// newline ending the file (an editor adds it where formatEntry did not);
// everything else is, as saved.
func editedContent(afterMeta string) string {
	s := strings.TrimLeft(afterMeta, " \t")
	s, _ = strings.CutPrefix(s, "\n") // the </div> line's end
	s, _ = strings.CutPrefix(s, "\n") // the blank line
	s, _ = strings.CutSuffix(s, "\n")
	return s
}
