package cli

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/crmem/crmem/export"
	"github.com/crmem/crmem/store"
)

// jsonEntry is an entry in the JSON shape of SPEC §6, shared with export.
type jsonEntry = export.JSONEntry

// jsonHit is a search result: an entry and its score.
type jsonHit struct {
	jsonEntry
	Score   float64      `json:"score"`
	Explain *jsonExplain `json:"explain,omitempty"` // search --explain only
}

// toJSON converts an entry to its JSON shape.
func toJSON(e store.Entry) jsonEntry { return export.NewJSONEntry(e) }

// marshal encodes v compactly without HTML escaping (names and aliases may
// hold <, > and &, and stay readable that way), with DEL, C1 controls and
// format characters escaped (export.EscapeJSON).
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encode json: %w", err)
	}
	return export.EscapeJSON(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), nil
}

// storeJSONEntry is a store entry's JSON shape: SPEC §6's without "id"
// (store entries have none), created_at the stored RFC 3339 string with its
// sub-second part (left out when the store has none).
type storeJSONEntry struct {
	Name      string   `json:"name"`
	Kind      string   `json:"kind"`
	CreatedAt string   `json:"created_at,omitempty"`
	Aliases   []string `json:"aliases"`
	Content   string   `json:"content"`
}
