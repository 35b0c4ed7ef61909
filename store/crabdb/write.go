package crabdb

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/crmem/crmem/bm25"
)

// Batch is the records of one write to a store, built the way crabtalk's
// store code writes them (crates/store interface/memory.rs and text.rs over
// lib/crabdb), before they are appended: every get sees the batch's own
// puts and deletes, and a delete of a key that is not live writes nothing,
// as crabdb's does. Appending the batch is the caller's (Append).
type Batch struct {
	s    *Store
	over map[Key][]byte // the batch's own state; a nil value is a delete
	buf  []byte         // the encoded records
	n    int            // how many
}

// NewBatch starts a batch of records over the store s as read.
func (s *Store) NewBatch() *Batch {
	return &Batch{s: s, over: map[Key][]byte{}}
}

// Bytes is the records encoded back to back, as they are appended.
func (b *Batch) Bytes() []byte { return b.buf }

// Len is the number of records.
func (b *Batch) Len() int { return b.n }

// get is the value of (col, key) as the batch leaves it.
func (b *Batch) get(col byte, key string) ([]byte, bool) {
	if v, ok := b.over[Key{col, key}]; ok {
		return v, v != nil
	}
	return b.s.Get(col, key)
}

// put appends a Put record. val is the batch's from then on.
func (b *Batch) put(col byte, key string, val []byte) {
	b.buf = appendRecord(b.buf, OpPut, col, key, val)
	b.n++
	if val == nil {
		val = []byte{} // nil marks a delete
	}
	b.over[Key{col, key}] = val
}

// del appends a Delete record if (col, key) is live, and reports whether
// it was (crabdb's delete).
func (b *Batch) del(col byte, key string) bool {
	if _, ok := b.get(col, key); !ok {
		return false
	}
	b.buf = appendRecord(b.buf, OpDelete, col, key, nil)
	b.n++
	b.over[Key{col, key}] = nil
	return true
}

// appendRecord appends one record: op, col, u32 key length, key, u32 value
// length, value.
func appendRecord(dst []byte, op, col byte, key string, val []byte) []byte {
	dst = append(dst, op, col)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(key)))
	dst = append(dst, key...)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(val)))
	return append(dst, val...)
}

// MemoryKey is the key of the entry named name.
func MemoryKey(name string) string { return MemoryPrefix + name }

// PutMemory writes e as crabtalk's put_memory does: the entry in column 2,
// then its text in the memory index (index_text with weight 1.0). e.Key and
// e.Raw are ignored: the key is the name's, the value e's JSON as serde_json
// writes it.
func (b *Batch) PutMemory(e Entry) error {
	if err := checkWritable(e); err != nil {
		return err
	}
	key := MemoryKey(e.Name)
	b.put(ColMemory, key, EntryJSON(e))
	text := e.Content
	if len(e.Aliases) > 0 {
		text = strings.Join(e.Aliases, " ") + "\n" + e.Content
	}
	return b.indexText(key, text)
}

// RemoveMemory removes the entry named name as crabtalk's remove_memory
// does: its document leaves the index, then the key is deleted. A missing
// name writes nothing; existed says whether there was one.
func (b *Batch) RemoveMemory(name string) (existed bool, err error) {
	key := MemoryKey(name)
	if err := b.dropText(key); err != nil {
		return false, err
	}
	return b.del(ColMemory, key), nil
}

// checkWritable refuses what a record cannot hold (u32 lengths) or what
// crabtalk's reader would not read back as the same text.
func checkWritable(e Entry) error {
	texts := append([]string{e.Name, e.Kind, e.Content, e.CreatedAt}, e.Aliases...)
	total := 0
	for _, t := range texts {
		if !utf8.ValidString(t) {
			return fmt.Errorf("crabdb: entry %q: text is not valid UTF-8", e.Name)
		}
		total += len(t)
	}
	if len(MemoryKey(e.Name)) > math.MaxUint32 || total > math.MaxUint32/2 {
		return fmt.Errorf("crabdb: entry %q is too large for a record", e.Name)
	}
	return nil
}

// indexText is text.rs's index_text for the memory index: drop the old
// document, then, when the text has tokens, its postings (term frequency
// as decimal text; in term order: crabtalk's order is a HashMap's), its
// document record and the stats.
func (b *Batch) indexText(key, text string) error {
	if err := b.dropText(key); err != nil {
		return err
	}
	terms := bm25.Tokenize(text)
	if len(terms) == 0 {
		return nil
	}
	tfs := map[string]uint32{}
	for _, t := range terms {
		tfs[t]++
	}
	unique := make([]string, 0, len(tfs))
	for t := range tfs {
		unique = append(unique, t)
	}
	slices.Sort(unique)
	for _, t := range unique {
		b.put(ColText, termPrefix+t+"/"+key, strconv.AppendUint(nil, uint64(tfs[t]), 10))
	}
	doc := Doc{Len: uint32(len(terms)), Weight: 1.0, Terms: unique}
	b.put(ColText, docPrefix+key, docJSON(doc))
	st, err := b.stats()
	if err != nil {
		return err
	}
	st.Docs++
	st.TotalLen += uint64(doc.Len)
	b.put(ColText, statsKey, statsJSON(st))
	return nil
}

// dropText is text.rs's drop_text: when key has a document, delete its
// postings in its terms' order, the document, and put the stats without it.
func (b *Batch) dropText(key string) error {
	v, ok := b.get(ColText, docPrefix+key)
	if !ok {
		return nil
	}
	var doc Doc
	if err := json.Unmarshal(v, &doc); err != nil {
		return fmt.Errorf("crabdb: memory index record of %q: %w", key, err)
	}
	for _, t := range doc.Terms {
		b.del(ColText, termPrefix+t+"/"+key)
	}
	b.del(ColText, docPrefix+key)
	st, err := b.stats()
	if err != nil {
		return err
	}
	st.Docs = st.Docs - min(st.Docs, 1)
	st.TotalLen = st.TotalLen - min(st.TotalLen, uint64(doc.Len))
	b.put(ColText, statsKey, statsJSON(st))
	return nil
}

// stats is the memory index's stats as the batch leaves them (zero when
// there are none, as crabtalk's unwrap_or_default).
func (b *Batch) stats() (Stats, error) {
	var st Stats
	v, ok := b.get(ColText, statsKey)
	if !ok {
		return st, nil
	}
	if err := json.Unmarshal(v, &st); err != nil {
		return st, fmt.Errorf("crabdb: memory index stats: %w", err)
	}
	return st, nil
}

// EntryJSON is e's value as serde_json writes crabtalk's MemoryEntry:
// {"name","kind","content","aliases","created_at"}, compact.
func EntryJSON(e Entry) []byte {
	out := []byte(`{"name":`)
	out = appendJSONString(out, e.Name)
	out = append(out, `,"kind":`...)
	out = appendJSONString(out, e.Kind)
	out = append(out, `,"content":`...)
	out = appendJSONString(out, e.Content)
	out = append(out, `,"aliases":`...)
	out = appendJSONStrings(out, e.Aliases)
	out = append(out, `,"created_at":`...)
	out = appendJSONString(out, e.CreatedAt)
	return append(out, '}')
}

// appendJSONStrings appends list as serde_json writes a Vec<String>:
// `["a","b"]`, `[]` when empty.
func appendJSONStrings(out []byte, list []string) []byte {
	out = append(out, '[')
	for i, v := range list {
		if i > 0 {
			out = append(out, ',')
		}
		out = appendJSONString(out, v)
	}
	return append(out, ']')
}

// docJSON is a document record as serde_json writes text.rs's Doc.
func docJSON(d Doc) []byte {
	out := []byte(`{"len":`)
	out = strconv.AppendUint(out, uint64(d.Len), 10)
	out = append(out, `,"weight":`...)
	out = appendF64(out, d.Weight)
	out = append(out, `,"terms":`...)
	out = appendJSONStrings(out, d.Terms)
	return append(out, '}')
}

// statsJSON is the stats as serde_json writes text.rs's Stats.
func statsJSON(st Stats) []byte {
	out := []byte(`{"docs":`)
	out = strconv.AppendUint(out, st.Docs, 10)
	out = append(out, `,"total_len":`...)
	out = strconv.AppendUint(out, st.TotalLen, 10)
	return append(out, '}')
}

// appendF64 writes a finite f64 as serde_json does (ryu: the shortest
// form that reads back, with ".0" on a whole number; exponents for very
// large or small ones are not needed here: the weight is 1.0).
func appendF64(out []byte, f float64) []byte {
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return append(out, s...)
}

// appendJSONString writes s as serde_json does: only '"', '\\' and control
// characters are escaped (\b \t \n \f \r by name, the rest as \u00xx with
// lower-case hex); everything else, U+2028 and '<' included, stays raw.
func appendJSONString(out []byte, s string) []byte {
	const hex = "0123456789abcdef"
	out = append(out, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		out = append(out, s[start:i]...)
		switch c {
		case '"':
			out = append(out, `\"`...)
		case '\\':
			out = append(out, `\\`...)
		case '\b':
			out = append(out, `\b`...)
		case '\t':
			out = append(out, `\t`...)
		case '\n':
			out = append(out, `\n`...)
		case '\f':
			out = append(out, `\f`...)
		case '\r':
			out = append(out, `\r`...)
		default:
			out = append(out, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		start = i + 1
	}
	out = append(out, s[start:]...)
	return append(out, '"')
}

// RFC3339 prints t as chrono's DateTime<Utc>::to_rfc3339 does: in UTC with
// "+00:00", and a fraction of 3, 6 or 9 digits, the fewest that show every
// non-zero digit (none for a whole second).
func RFC3339(t time.Time) string {
	t = t.UTC()
	s := t.Format("2006-01-02T15:04:05")
	switch ns := t.Nanosecond(); {
	case ns == 0:
	case ns%1_000_000 == 0:
		s += fmt.Sprintf(".%03d", ns/1_000_000)
	case ns%1_000 == 0:
		s += fmt.Sprintf(".%06d", ns/1_000)
	default:
		s += fmt.Sprintf(".%09d", ns)
	}
	return s + "+00:00"
}
