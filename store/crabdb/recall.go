package crabdb

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/store"
)

// The memory text index's keyspace in column 6 (crates/store text.rs).
const (
	memIndex   = "local/idx/text/mem/"
	docPrefix  = memIndex + "doc/"
	termPrefix = memIndex + "term/"
	statsKey   = memIndex + "stats"
)

// Stats are the index's stored document count and total length (the type
// lives in store, where a Source's recall speaks of it).
type Stats = store.RecallStats

// Doc is an indexed document's stored record.
type Doc struct {
	Len    uint32   `json:"len"`
	Weight float64  `json:"weight"`
	Terms  []string `json:"terms"`
}

// Stats returns the memory index's stored stats; ok is false when there are
// none.
func (s *Store) Stats() (st Stats, ok bool, err error) {
	b, ok := s.Get(ColText, statsKey)
	if !ok {
		return st, false, nil
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return st, true, fmt.Errorf("crabdb: memory index stats: %w", err)
	}
	return st, true, nil
}

// Doc returns the stored record of the document filed under key (an
// entry's key, e.g. "local/memory/deploy-steps"); a missing one is zero.
func (s *Store) Doc(key string) (Doc, error) {
	var d Doc
	b, ok := s.Get(ColText, docPrefix+key)
	if !ok {
		return d, nil
	}
	if err := json.Unmarshal(b, &d); err != nil {
		return d, fmt.Errorf("crabdb: memory index record of %q: %w", key, err)
	}
	return d, nil
}

// Posting is one row of a term's postings: the index term, the document's
// key and the stored term frequency.
type Posting struct {
	Term string
	Key  string
	TF   uint32
}

// Postings returns the rows of t in ascending key order: under
// "term/<t>/" for an exact term, under "term/<t>" (every term it prefixes)
// for a prefix. Rows whose frequency is not a number are skipped, as the
// store skips them.
func (s *Store) Postings(t Term) []Posting {
	scope := termPrefix + t.Text
	if !t.Prefix {
		scope += "/"
	}
	var out []Posting
	s.scan(ColText, scope, func(k string, v []byte) {
		term, doc := t.Text, k[len(scope):]
		if t.Prefix {
			i := strings.IndexByte(doc, '/')
			if i < 0 {
				return
			}
			term, doc = t.Text+doc[:i], doc[i+1:]
		}
		if tf, ok := parseU32(v); ok {
			out = append(out, Posting{Term: term, Key: doc, TF: tf})
		}
	})
	return out
}

// parseU32 parses like Rust's u32::from_str: an optional '+', then at least
// one ASCII digit, nothing else, no overflow. Invalid UTF-8 reads as "0"
// in the store, which parses.
func parseU32(b []byte) (uint32, bool) {
	digits := b
	if len(digits) > 0 && digits[0] == '+' {
		digits = digits[1:]
	}
	var n uint64
	for _, c := range digits {
		if c < '0' || c > '9' {
			if !isUTF8(b) {
				return 0, true // from_utf8 failing reads as "0"
			}
			return 0, false
		}
		if n = n*10 + uint64(c-'0'); n > math.MaxUint32 {
			return 0, false
		}
	}
	return uint32(n), len(digits) > 0
}

// Hit is one recall result: the entry's key, its name (the key's last
// segment, as the store names hits), its score and, when asked for
// (RecallExplained), its parts.
type Hit = store.RecallHit

// Part is one posting row's share of a hit's score.
type Part = store.Part

// Recall ranks the memory entries for query exactly as the store's own
// recall does, from its stored index: at most limit hits (limit <= 0: none).
func (s *Store) Recall(query string, limit int) ([]Hit, error) {
	return s.recall(query, limit, false)
}

// RecallExplained is Recall with each hit's Parts filled in.
func (s *Store) RecallExplained(query string, limit int) ([]Hit, error) {
	return s.recall(query, limit, true)
}

func (s *Store) recall(query string, limit int, explain bool) ([]Hit, error) {
	terms := QueryTerms(query)
	if len(terms) == 0 || limit <= 0 {
		return nil, nil
	}
	st, _, err := s.Stats()
	if err != nil || st.Docs == 0 {
		return nil, err
	}
	n := float64(st.Docs)
	avgdl := float64(st.TotalLen) / n
	// BM25's parameters, crabtalk's Bm25::default as the reference's. Typed
	// variables, so k1+1 and 1-b are computed in float64 as crabtalk
	// computes them (constant arithmetic would be exact).
	var k1, b float64 = bm25.K1, bm25.B
	scores := map[string]*Hit{}
	for _, t := range terms {
		rows := s.Postings(t)
		if len(rows) == 0 {
			continue
		}
		df := float64(len(rows))
		idf := bm25.Ln((n-df+0.5)/(df+0.5) + 1.0)
		for _, p := range rows {
			d, err := s.docInfo(p.Key)
			if err != nil {
				return nil, err
			}
			tf := float64(p.TF)
			norm := float64(tf*float64(k1+1.0)) / float64(tf+float64(k1*float64(float64(1.0-b)+float64(float64(b*d.dl)/avgdl))))
			contrib := float64(float64(idf*norm) * d.weight)
			h := scores[p.Key]
			if h == nil {
				h = &Hit{Key: p.Key, Name: lastSegment(p.Key), DocLen: d.len, Weight: d.weight}
				scores[p.Key] = h
			}
			h.Score += contrib
			if explain {
				h.Parts = append(h.Parts, Part{Query: t.String(), Term: p.Term, TF: int(p.TF), DF: len(rows), IDF: idf, Contrib: contrib})
			}
		}
	}
	ranked := make([]*Hit, 0, len(scores))
	for _, h := range scores {
		if h.Score > 0 {
			ranked = append(ranked, h)
		}
	}
	slices.SortFunc(ranked, func(a, b *Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return strings.Compare(a.Key, b.Key)
	})
	hits := make([]Hit, min(len(ranked), limit))
	for i := range hits {
		hits[i] = *ranked[i]
	}
	return hits, nil
}

// lastSegment is what follows a key's last '/', as the store names hits.
func lastSegment(key string) string {
	return key[strings.LastIndexByte(key, '/')+1:]
}

// docInfo is what recall needs of a doc record.
type docInfo struct {
	dl     float64
	weight float64
	len    uint32
}

// docInfo returns the length and weight of the document filed under key,
// decoded once and kept until the store changes (the terms list, the
// record's bulk, is skipped).
func (s *Store) docInfo(key string) (docInfo, error) {
	if d, ok := s.docs[key]; ok {
		return d, nil
	}
	var d docInfo
	if b, ok := s.Get(ColText, docPrefix+key); ok {
		var doc struct {
			Len    uint32  `json:"len"`
			Weight float64 `json:"weight"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			return d, fmt.Errorf("crabdb: memory index record of %q: %w", key, err)
		}
		d = docInfo{dl: float64(doc.Len), weight: doc.Weight, len: doc.Len}
	}
	if s.docs == nil {
		s.docs = map[string]docInfo{}
	}
	s.docs[key] = d
	return d, nil
}
