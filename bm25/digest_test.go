package bm25

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"os"
	"testing"
)

// indexDigest hashes everything a built index holds: every term with its
// postings (their capacity included), every document's id, length and
// liveness, and the counts, so two builds can be compared whole.
func indexDigest(ix *Index) string {
	h := sha256.New()
	var b [8]byte
	put := func(x uint64) { binary.LittleEndian.PutUint64(b[:], x); h.Write(b[:]) }
	put(uint64(len(ix.voc.terms)))
	for t, term := range ix.voc.terms {
		put(uint64(len(term)))
		h.Write([]byte(term))
		list := ix.postings[t]
		put(uint64(len(list)))
		put(uint64(cap(list)))
		put(uint64(ix.dead[t]))
		for _, p := range list {
			put(uint64(p.doc)<<32 | uint64(p.tf))
		}
	}
	put(uint64(len(ix.docs)))
	put(uint64(cap(ix.docs)))
	for _, d := range ix.docs {
		put(d.id)
		put(uint64(d.len))
		if d.live {
			put(1)
		}
	}
	put(uint64(ix.n))
	put(uint64(ix.total))
	put(uint64(ix.sorted))
	put(uint64(len(ix.byID)))
	return fmt.Sprintf("%x", h.Sum(nil))
}

// TestBuild_Digest builds the index of $CRMEM_BENCH_DB (the 100k corpus;
// skipped without it) in one to three parts, with term ids packed and, as
// if the vocabulary were huge, escaped: every build must be the same. Run
// with -v, it logs the digest, which a change to Build that must not
// change the index (a faster scan, say) compares with the build before.
func TestBuild_Digest(t *testing.T) {
	if os.Getenv("CRMEM_BENCH_DB") == "" {
		t.Skip("set CRMEM_BENCH_DB to a CRMEM file (e.g. /tmp/crmem-bench/big.db)")
	}
	docs, err := benchCorpus()
	if err != nil {
		t.Fatal(err)
	}
	want := ""
	for _, packLimit := range []uint32{termEscape, 300} {
		for parts := 1; parts <= 3; parts++ {
			got := indexDigest(buildPacked(sliceSource(docs), parts, packLimit))
			if want == "" {
				want = got
				t.Logf("index digest %s", got)
			} else if got != want {
				t.Errorf("%d parts, ids escaped from %d: digest %s, want %s", parts, packLimit, got, want)
			}
		}
	}
}
