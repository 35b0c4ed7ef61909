package genlog

import (
	"encoding/json"
	"fmt"
	"io"
)

// TruthOp is one memory op as the generator made it: a line of the truth.
type TruthOp struct {
	Seq int    `json:"seq"`
	Op  string `json:"op"` // "put", "remove" or "rename"
	// Name is the entry written or removed; for a rename, the old name.
	Name string `json:"name"`
	// To is a rename's new name.
	To string `json:"to,omitempty"`
	// Kind, ContentLen, Aliases and CreatedAt are the entry as written
	// (a remove's: as it was before it went).
	Kind       string   `json:"kind"`
	ContentLen int      `json:"content_len"`
	Aliases    []string `json:"aliases"`
	CreatedAt  string   `json:"created_at"`
	// At is the op's clock: the time of its tool call when a session
	// explains it (the tool_start event's ts), and created_at of a new
	// entry.
	At string `json:"at"`
	// New says the name was not live before (a new entry or a re-created
	// one; for a rename, To).
	New bool `json:"new,omitempty"`
	// Offset is the file offset of the op's column-2 record: the Put (a
	// rename's Put under To) or the Delete.
	Offset int64 `json:"offset"`
	// RemoveOffset is a rename's Delete of Name.
	RemoveOffset int64 `json:"remove_offset,omitempty"`
	// Session and Msg name the session and the index of the assistant
	// message whose tool call made the op; missing when no session
	// explains it.
	Session string `json:"session,omitempty"`
	Msg     *int   `json:"msg,omitempty"`
}

// emit writes a truth line.
func (g *gen) emit(t TruthOp) error {
	if g.truth == nil {
		return nil
	}
	line, err := marshal(t)
	if err != nil {
		return fmt.Errorf("genlog: truth line %d: %w", t.Seq, err)
	}
	g.truth.Write(line)
	return g.truth.WriteByte('\n')
}

// ReadTruth reads the truth's JSON lines.
func ReadTruth(r io.Reader) ([]TruthOp, error) {
	var out []TruthOp
	dec := json.NewDecoder(r)
	for {
		var t TruthOp
		err := dec.Decode(&t)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, fmt.Errorf("genlog: truth line %d: %w", len(out)+1, err)
		}
		out = append(out, t)
	}
}
