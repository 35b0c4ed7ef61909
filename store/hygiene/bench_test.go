package hygiene

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/store"
)

// corpus is n notes of 40–120 words drawn Zipf-like from a 30,000-word
// vocabulary, one in a hundred a light rewording of an earlier one.
func corpus(n int) []store.Entry {
	rng := rand.New(rand.NewPCG(7, 100))
	zipf := rand.NewZipf(rand.New(rand.NewPCG(7, 101)), 1.1, 1, 29_999)
	es := make([]store.Entry, n)
	for i := range es {
		var words []string
		if i > 100 && i%100 == 0 {
			words = strings.Fields(es[rng.IntN(i)].Content)
			for k := range words {
				if rng.IntN(10) == 0 {
					words[k] = fmt.Sprintf("w%d", zipf.Uint64())
				}
			}
		} else {
			for range 40 + rng.IntN(80) {
				words = append(words, fmt.Sprintf("w%d", zipf.Uint64()))
			}
		}
		es[i] = store.Entry{ID: uint64(i + 1), Name: fmt.Sprintf("note-%d", i), Content: strings.Join(words, " "), Aliases: []string{}}
	}
	return es
}

// BenchmarkRun_Duplicates100k is the duplicate check over 100,000 entries,
// the index already built as a memory has it.
func BenchmarkRun_Duplicates100k(b *testing.B) {
	es := corpus(100_000)
	ix := bm25.BuildFunc(len(es), func(i int) bm25.Doc { return bm25.Doc{ID: es[i].ID, Content: es[i].Content} })
	b.ResetTimer()
	for b.Loop() {
		r := Run(es, Options{Kinds: []Kind{Duplicate}, Index: ix})
		b.ReportMetric(float64(r.Count(Duplicate)), "groups")
	}
}

// denseCorpus is n notes written as gen_corpus.py writes the 100k corpus:
// each on one of ten topics of 12 words, its sentences of 6–18 words
// drawing 45 % of them from the topic and the rest from 100 filler words,
// both Zipf-like. The notes of a topic are so alike that most pairs of
// them reach 0.65: hundreds of millions of pairs in 100,000 notes.
func denseCorpus(n int) []store.Entry {
	rng := rand.New(rand.NewPCG(7, 103))
	topicZipf := rand.NewZipf(rand.New(rand.NewPCG(7, 104)), 1.1, 1, 11)
	fillerZipf := rand.NewZipf(rand.New(rand.NewPCG(7, 105)), 1.1, 1, 99)
	es := make([]store.Entry, n)
	for i := range es {
		topic := rng.IntN(10)
		var b strings.Builder
		for range 2 + rng.IntN(6) {
			for k := range 6 + rng.IntN(13) {
				if k > 0 {
					b.WriteByte(' ')
				}
				if rng.Float64() < 0.45 {
					fmt.Fprintf(&b, "t%dw%d", topic, topicZipf.Uint64())
				} else {
					fmt.Fprintf(&b, "f%d", fillerZipf.Uint64())
				}
			}
			b.WriteString(". ")
		}
		es[i] = store.Entry{ID: uint64(i + 1), Name: fmt.Sprintf("note-%d", i), Content: b.String(), Aliases: []string{}}
	}
	return es
}

// BenchmarkRun_DuplicatesDense100k is the duplicate check over 100,000
// notes written in few words, and the near groups it found.
func BenchmarkRun_DuplicatesDense100k(b *testing.B) {
	es := denseCorpus(100_000)
	for b.Loop() {
		r := Run(es, Options{Kinds: []Kind{Duplicate}})
		b.ReportMetric(float64(r.Count(Duplicate)), "groups")
	}
}

// BenchmarkRun_All100k is every check over the same 100,000 entries.
func BenchmarkRun_All100k(b *testing.B) {
	es := corpus(100_000)
	ix := bm25.BuildFunc(len(es), func(i int) bm25.Doc { return bm25.Doc{ID: es[i].ID, Content: es[i].Content} })
	b.ResetTimer()
	for b.Loop() {
		Run(es, Options{Index: ix})
	}
}

// proseCorpus is n notes of 40–120 words in sentences, drawn from the words
// memories are written in: plurals before full stops ("tests."), the words
// secret rules look for (token, auth, secret, access, key), URLs without
// credentials. Nothing in it is a secret: it times what every memory costs
// the secret check, not what finding secrets costs.
func proseCorpus(n int) []store.Entry {
	words := strings.Fields(`the deploy runs tests after each release and the token refresh keeps auth sessions
		alive; rotate the secret in vault before access expires, then check the key names in the config
		files. prefers small commits with reviews, pairs on migrations and writes runbooks for the alerts
		when a canary fails we roll back through helm and page the owner of the service`)
	urls := []string{"https://ci.example.com/job/42", "postgres://db.internal:5432/app", "https://docs.example.org/runbooks/rollback"}
	rng := rand.New(rand.NewPCG(7, 102))
	es := make([]store.Entry, n)
	for i := range es {
		var b strings.Builder
		for k := range 40 + rng.IntN(80) {
			if k > 0 {
				b.WriteByte(' ')
			}
			switch r := rng.IntN(60); {
			case r == 0:
				b.WriteString(urls[rng.IntN(len(urls))])
			case r < 6:
				b.WriteString(words[rng.IntN(len(words))] + "s.")
			default:
				b.WriteString(words[rng.IntN(len(words))])
			}
		}
		es[i] = store.Entry{ID: uint64(i + 1), Name: fmt.Sprintf("note-%d", i), Content: b.String(), Aliases: []string{}}
	}
	return es
}

// BenchmarkRun_Secrets100k is the secret check over 100,000 notes of prose.
func BenchmarkRun_Secrets100k(b *testing.B) {
	es := proseCorpus(100_000)
	b.ResetTimer()
	for b.Loop() {
		r := Run(es, Options{Kinds: []Kind{Secret}})
		b.ReportMetric(float64(r.Count(Secret)), "secrets")
	}
}

// lintCorpus is n entries as lint meets them: a third notes drawn from a
// large vocabulary with light rewordings (corpus), a third notes on ten
// topics in few words (denseCorpus), a third prose holding the words
// secret rules look for (proseCorpus), and one entry in 97 holding a
// token. The same entries on every run.
func lintCorpus(n int) []store.Entry {
	var es []store.Entry
	for _, part := range [][]store.Entry{corpus(n / 3), denseCorpus(n / 3), proseCorpus(n - 2*(n/3))} {
		es = append(es, part...)
	}
	for i := range es {
		es[i].ID, es[i].Name = uint64(i+1), fmt.Sprintf("note-%d", i)
		if i%97 == 0 {
			es[i].Content += "\nGITHUB_TOKEN=ghp_DEMOfakeTOKENcrmemLINTexample007x9Q2"
		}
	}
	return es
}

// BenchmarkRun_Lint is the whole report, every check, as lint runs it
// (no index, no term vectors) over 30,000 entries (lintCorpus): small
// enough to run once in a test run (-benchtime=1x), and the figure to
// compare builds with. lint's cost as a whole process, against ls --json,
// is in docs/hygiene.md.
func BenchmarkRun_Lint(b *testing.B) {
	es := lintCorpus(30_000)
	b.ResetTimer()
	for b.Loop() {
		r := Run(es, Options{})
		b.ReportMetric(float64(r.Count(Duplicate)), "duplicates")
		b.ReportMetric(float64(r.Count(Secret)), "secrets")
	}
}
