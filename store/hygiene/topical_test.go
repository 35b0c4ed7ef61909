package hygiene

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/crmem/crmem/store"
)

// A topical memory is what an agent's memory looks like after months of
// work on a few projects: thousands of notes on a handful of topics, each
// written from the same few sentence shapes and the topic's own words, so
// two notes on one topic share most of their words and many of their word
// pairs ("the deploy", "before the") without being copies. Into it are
// planted edited copies of some notes: one sentence replaced, paragraphs
// moved, 10 %, 30 % and 50 % of the words replaced by the topic's words.
// A near-duplicate check that compares topics lists the unrelated notes;
// one that compares wording lists the copies (TestNearDuplicates_Topical).

// topicWords are each topic's nouns, verbs and adjectives.
var topicWords = map[string][3][]string{
	"deploy": {
		strings.Fields("deploy release pipeline rollout canary cluster node image tag manifest registry build artifact staging production rollback branch commit runner job stage environment namespace pod container chart helm migration window freeze hotfix version changelog gate approval"),
		strings.Fields("ship promote build tag push pin bump revert roll drain cordon restart scale approve gate retry cancel trigger"),
		strings.Fields("green red blue stale pinned signed broken flaky slow blocked manual nightly"),
	},
	"database": {
		strings.Fields("database table index query replica primary shard schema column row transaction lock vacuum backup snapshot restore migration connection pool timeout deadlock constraint key view cursor partition cache plan statistics wal checkpoint"),
		strings.Fields("migrate index vacuum analyze backup restore lock shard replicate promote tune partition rebuild drop truncate"),
		strings.Fields("slow hot cold large unique partial stale consistent idle long sequential"),
	},
	"auth": {
		strings.Fields("token session cookie login password user role permission scope grant client secret issuer audience claim certificate key rotation expiry provider account group policy header redirect callback consent"),
		strings.Fields("rotate revoke issue sign verify refresh expire grant deny log audit rate limit reset"),
		strings.Fields("expired valid signed short long scoped admin anonymous federated revoked"),
	},
	"frontend": {
		strings.Fields("component page route button form modal layout theme style bundle chunk render state store hook prop event handler input list table chart icon font locale translation test snapshot story"),
		strings.Fields("render mount update memoize lazy load split bundle style theme translate test click submit validate"),
		strings.Fields("dark light responsive accessible lazy heavy nested controlled dirty sticky"),
	},
	"billing": {
		strings.Fields("invoice customer plan subscription charge refund payment card webhook coupon discount tax currency ledger balance credit trial seat usage meter period dunning receipt dispute payout"),
		strings.Fields("charge refund invoice prorate bill meter retry cancel upgrade downgrade credit reconcile export"),
		strings.Fields("annual monthly failed pending paid overdue metered prorated disputed"),
	},
	"monitoring": {
		strings.Fields("alert dashboard metric log trace span latency error rate budget incident pager oncall runbook threshold panel query exporter scrape target retention sample histogram quantile"),
		strings.Fields("alert page silence ack escalate scrape export graph trace sample retain aggregate"),
		strings.Fields("noisy quiet p99 p50 burning healthy degraded critical warning"),
	},
}

// commonWords are the words every topic's notes use.
var commonWords = [3][]string{
	strings.Fields("team service config file error issue ticket fix change note step time day week owner docs script check flag setting limit problem result"),
	strings.Fields("check update fix run add remove keep use need move document review"),
	strings.Fields("new old main default first last extra important simple"),
}

// sentenceShapes are the sentence shapes notes are written in: N a noun,
// V a verb, A an adjective, D a number.
var sentenceShapes = []string{
	"the N should V the A N before the N",
	"when the N is A we V the N and V the N",
	"always V the N after the N V the N",
	"we had to V the N because the N was A",
	"remember to V the A N on the N",
	"the A N takes about D minutes to V",
	"do not V the N while the N is A",
	"if the N fails V the N and V the A N again",
	"the N owner must V every N",
	"keep the N A so the N can V the N",
	"last week the N broke because someone forgot to V the N",
	"to V a N first V the N then V the A N",
	"the N and the N share one A N",
	"use the A N for the N not the N",
	"after D days the N is A and we V it",
}

// topical generates a memory of background notes over the topics and
// originals each with five edited copies, from one seed. truth holds each
// planted pair by name (both orders); kindOf names each copy's edit.
type topical struct {
	entries []store.Entry
	truth   map[[2]string]bool
	kindOf  map[string]string // copy's name → its edit
	origOf  map[string]string // copy's name → its original's name
}

// topicalEdits are the edits planted, as kindOf names them.
var topicalEdits = []string{"sentence", "reordered", "words10", "words30", "words50"}

func newTopical(background, originals int, seed uint64) *topical {
	rng := rand.New(rand.NewPCG(seed, 39))
	topics := []string{"deploy", "database", "auth", "frontend", "billing", "monitoring"}
	pick := func(ws []string) string { return ws[rng.IntN(len(ws))] }
	word := func(topic string, class int) string {
		if rng.IntN(4) == 0 {
			return pick(commonWords[class])
		}
		return pick(topicWords[topic][class])
	}
	sentence := func(topic string) []string {
		var out []string
		for _, w := range strings.Fields(pick(sentenceShapes)) {
			switch w {
			case "N":
				w = word(topic, 0)
			case "V":
				w = word(topic, 1)
			case "A":
				w = word(topic, 2)
			case "D":
				w = fmt.Sprint(2 + rng.IntN(58))
			}
			out = append(out, w)
		}
		return out
	}
	paragraph := func(topic string) [][]string {
		ss := make([][]string, 2+rng.IntN(3))
		for i := range ss {
			ss[i] = sentence(topic)
		}
		return ss
	}
	note := func(topic string) [][][]string {
		ps := make([][][]string, 2+rng.IntN(2))
		for i := range ps {
			ps[i] = paragraph(topic)
		}
		return ps
	}
	text := func(ps [][][]string) string {
		var b strings.Builder
		for i, p := range ps {
			if i > 0 {
				b.WriteString("\n\n")
			}
			for j, s := range p {
				if j > 0 {
					b.WriteString(" ")
				}
				first := strings.ToUpper(s[0][:1]) + s[0][1:]
				b.WriteString(strings.Join(append([]string{first}, s[1:]...), " ") + ".")
			}
		}
		return b.String()
	}
	tp := &topical{truth: map[[2]string]bool{}, kindOf: map[string]string{}, origOf: map[string]string{}}
	add := func(name string, ps [][][]string) {
		tp.entries = append(tp.entries, store.Entry{ID: uint64(len(tp.entries) + 1), Name: name, Content: text(ps), Aliases: []string{}})
	}
	for i := range background {
		topic := topics[i%len(topics)]
		add(fmt.Sprintf("%s-note-%d", topic, i), note(topic))
	}
	replaceWords := func(topic string, ps [][][]string, share float64) [][][]string {
		out := make([][][]string, len(ps))
		for i, p := range ps {
			out[i] = make([][]string, len(p))
			for j, s := range p {
				out[i][j] = make([]string, len(s))
				for k, w := range s {
					if rng.Float64() < share {
						w = word(topic, rng.IntN(3))
					}
					out[i][j][k] = w
				}
			}
		}
		return out
	}
	for i := range originals {
		topic := topics[i%len(topics)]
		orig := note(topic)
		name := fmt.Sprintf("%s-orig-%d", topic, i)
		add(name, orig)
		family := []string{name}
		for _, kind := range topicalEdits {
			var v [][][]string
			switch kind {
			case "sentence":
				v = replaceWords(topic, orig, 0)
				p := rng.IntN(len(v))
				v[p][rng.IntN(len(v[p]))] = sentence(topic)
			case "reordered":
				v = append([][][]string{orig[len(orig)-1]}, orig[:len(orig)-1]...)
			case "words10":
				v = replaceWords(topic, orig, 0.10)
			case "words30":
				v = replaceWords(topic, orig, 0.30)
			case "words50":
				v = replaceWords(topic, orig, 0.50)
			}
			vn := name + "-" + kind
			add(vn, v)
			tp.kindOf[vn], tp.origOf[vn] = kind, name
			family = append(family, vn)
		}
		for _, a := range family {
			for _, b := range family {
				tp.truth[[2]string{a, b}] = true
			}
		}
	}
	// Shuffle, so ids say nothing of what is planted.
	rng.Shuffle(len(tp.entries), func(i, j int) { tp.entries[i], tp.entries[j] = tp.entries[j], tp.entries[i] })
	for i := range tp.entries {
		tp.entries[i].ID = uint64(i + 1)
	}
	return tp
}

// topicalScore runs the duplicate check on tp and grades it: the share of
// listed near pairs that are planted (an original and its copy, or two
// copies of one original), the share of each edit's copies listed with
// their original, and the near groups holding two entries that are not
// near each other (want none).
func topicalScore(t *testing.T, tp *topical, opts Options) (precision float64, recall map[string]float64, listed int, chained int) {
	t.Helper()
	r := Run(tp.entries, opts)
	byID := map[uint64]*store.Entry{}
	for i := range tp.entries {
		byID[tp.entries[i].ID] = &tp.entries[i]
	}
	threshold := opts.MinSimilarity
	if threshold == 0 {
		threshold = DefaultMinSimilarity
	}
	together := map[[2]string]bool{}
	var tp0 int
	for _, f := range r.Findings {
		if f.Kind != Duplicate || f.Duplicate.Exact {
			continue
		}
		for _, p := range f.Duplicate.Pairs {
			listed++
			a, b := byID[p.A].Name, byID[p.B].Name
			if tp.truth[[2]string{a, b}] {
				tp0++
			}
		}
		for i, x := range f.Entries {
			for _, y := range f.Entries[i+1:] {
				together[[2]string{x.Name, y.Name}], together[[2]string{y.Name, x.Name}] = true, true
				if s := wordingOf(byID[x.ID].Content, byID[y.ID].Content); s < threshold {
					chained++
				}
			}
		}
	}
	recall = map[string]float64{}
	count := map[string]int{}
	for v, kind := range tp.kindOf {
		count[kind]++
		if together[[2]string{v, tp.origOf[v]}] {
			recall[kind]++
		}
	}
	for k := range recall {
		recall[k] /= float64(count[k])
	}
	if listed > 0 {
		precision = float64(tp0) / float64(listed)
	}
	return precision, recall, listed, chained
}

// wordingOf is the resemblance of two texts, as the check scores them.
func wordingOf(a, b string) float64 {
	w := newWording([]store.Entry{{Content: a}, {Content: b}}, []bool{false, false})
	var sa, sb shingled
	w.set(0, &sa)
	w.set(1, &sb)
	return resemblance(&sa, &sb)
}

// TestNearDuplicates_Topical grades the near-duplicate check at the
// default threshold on a memory of 2,500 notes on six topics with 60
// originals and five edited copies of each (newTopical), on two seeds:
// at least 0.9 of the listed near pairs are planted; copies with a
// sentence replaced, paragraphs moved or 10 % of words changed are found
// with at least 0.9 recall, those with 30 % changed with at least 0.5; no
// group holds two entries that are not near each other.
func TestNearDuplicates_Topical(t *testing.T) {
	for _, seed := range []uint64{1, 2} {
		tp := newTopical(2500, 60, seed)
		precision, recall, listed, chained := topicalScore(t, tp, Options{Kinds: []Kind{Duplicate}})
		t.Logf("seed %d, %d entries: %d near pairs listed, precision %.3f; recall %v", seed, len(tp.entries), listed, precision, recall)
		if precision < 0.9 {
			t.Errorf("seed %d: precision %.3f, want at least 0.9", seed, precision)
		}
		for kind, want := range map[string]float64{"sentence": 0.9, "reordered": 0.9, "words10": 0.9, "words30": 0.5} {
			if recall[kind] < want {
				t.Errorf("seed %d: %s copies found %.3f, want at least %.1f", seed, kind, recall[kind], want)
			}
		}
		if chained > 0 {
			t.Errorf("seed %d: %d pairs of entries in one group are not near each other", seed, chained)
		}
	}
}

// TestNearDuplicates_LargeFamilySaid: 100 copies of one note, each with a
// few words changed, hold runs of words shared by more entries than a key
// may be to propose a pair: what they share is not compared, and the
// report says so rather than nothing.
func TestNearDuplicates_LargeFamilySaid(t *testing.T) {
	tp := newTopical(300, 0, 3)
	base := strings.Fields(tp.entries[0].Content)
	for i := range 100 {
		ws := append([]string{}, base...)
		ws[i%len(ws)] = fmt.Sprintf("edit%d", i)
		tp.entries = append(tp.entries, store.Entry{ID: uint64(len(tp.entries) + 1), Name: fmt.Sprintf("copy-%d", i), Content: strings.Join(ws, " ")})
	}
	r := Run(tp.entries, Options{Kinds: []Kind{Duplicate}})
	said := false
	for _, b := range r.Bounded {
		said = said || strings.Contains(b, "proposed no pair")
	}
	if !said {
		t.Errorf("no note of the keys held by too many entries: %q", r.Bounded)
	}
}

// TestNearDuplicates_ShortNotes: a one-line note and its copy with a word
// or two changed are near, however short; two one-line notes that share a
// phrase are not.
func TestNearDuplicates_ShortNotes(t *testing.T) {
	kv := append(filler(40),
		"a", "The user prefers dark mode in the editor and in the terminal.",
		"b", "The user prefers dark mode in the editor and in the shell.",
		"c", "The user prefers tabs over spaces in every Go file.")
	r := Run(entries(kv...), Options{Kinds: []Kind{Duplicate}})
	if got := fmt.Sprint(checks(r, Duplicate)); got != "[near:a,b]" {
		t.Errorf("findings %s, want [near:a,b]", got)
	}
}
