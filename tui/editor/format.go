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

// parseEntry reads the temp file back: the content and aliases the user
// left in it.
func parseEntry(name string, data []byte) (content string, aliases []string, err error) {
	text := strings.TrimPrefix(string(data), "\uFEFF")
	rest, ok := strings.CutPrefix(text, metaOpen)
	if !ok || !strings.Contains(rest, metaClose) {
		return "", nil, errNoMeta
	}
	e, err := export.ParseEntry(name, data, time.Time{})
	if err != nil {
		return "", nil, err
	}
	return e.Content, e.Aliases, nil
}
