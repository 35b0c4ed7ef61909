package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

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

// writeJSON writes v indented, followed by a newline, escaped as marshal.
func writeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	if _, err := w.Write(export.EscapeJSON(buf.Bytes())); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}

// writeJSONArray writes items as a JSON array with one element per line, so
// large listings stay greppable and streamable.
func writeJSONArray[T any](w io.Writer, items []T) error {
	if len(items) == 0 {
		_, err := io.WriteString(w, "[]\n")
		return err
	}
	for i, it := range items {
		b, err := marshal(it)
		if err != nil {
			return err
		}
		sep := ",\n"
		if i == 0 {
			sep = "[\n"
		}
		if _, err := io.WriteString(w, sep); err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, "\n]\n")
	return err
}
