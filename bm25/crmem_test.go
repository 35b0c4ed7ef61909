package bm25

import (
	"encoding/binary"
	"fmt"
	"os"
	"unicode/utf8"
)

// testEntry is one entry of a CRMEM v1 file, as far as the index cares.
type testEntry struct {
	ID      uint64
	Name    string
	Content string
	Aliases []string
}

// readCRMEM is a tiny CRMEM v1 reader (SPEC §1) so the tests do not depend
// on package store.
func readCRMEM(path string) ([]testEntry, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	r := crmemReader{data: data}
	if len(data) < 16 || string(data[:6]) != "CRMEM\x00" {
		return nil, fmt.Errorf("read %s: not a CRMEM file", path)
	}
	r.off = 16
	r.u64() // next_id
	n := r.u32()
	var es []testEntry
	for i := uint32(0); i < n && r.err == nil; i++ {
		var e testEntry
		e.ID = r.u64()
		r.u64() // created_at
		r.u32() // kind
		e.Name = r.str()
		e.Content = r.str()
		for k := r.u32(); k > 0 && r.err == nil; k-- {
			e.Aliases = append(e.Aliases, r.str())
		}
		es = append(es, e)
	}
	if r.err != nil {
		return nil, fmt.Errorf("read %s: %w", path, r.err)
	}
	return es, nil
}

type crmemReader struct {
	data []byte
	off  int
	err  error
}

func (r *crmemReader) take(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.data)-r.off {
		r.err = fmt.Errorf("truncated body at %d", r.off)
		return nil
	}
	b := r.data[r.off : r.off+n]
	r.off += n
	return b
}

func (r *crmemReader) u32() uint32 {
	if b := r.take(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (r *crmemReader) u64() uint64 {
	if b := r.take(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (r *crmemReader) str() string {
	b := r.take(int(r.u32()))
	if r.err == nil && !utf8.Valid(b) {
		r.err = fmt.Errorf("invalid utf8 at %d", r.off)
	}
	return string(b)
}

// docsOf converts entries to index documents.
func docsOf(es []testEntry) []Doc {
	docs := make([]Doc, len(es))
	for i, e := range es {
		docs[i] = Doc{ID: e.ID, Content: e.Content, Aliases: e.Aliases}
	}
	return docs
}
