package editor

import (
	"errors"
	"strings"
	"time"

	"github.com/crmem/crmem/export"
	"github.com/crmem/crmem/store"
)

// formatEntry renders e in the dump format (SPEC §5) for the temp file.
func formatEntry(e store.Entry) []byte { return export.FormatEntry(e) }

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
	return e.Content, e.Aliases, e.CreatedAt, nil
}
