package hygiene

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"

	xcases "golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/sessions"
)

// entries builds a memory's entries from name → content, ids in order.
func entries(kv ...string) []store.Entry {
	var es []store.Entry
	for i := 0; i+1 < len(kv); i += 2 {
		es = append(es, store.Entry{ID: uint64(len(es) + 1), Name: kv[i], Content: kv[i+1], Aliases: []string{}})
	}
	return es
}

// filler is n distinct unrelated notes, so idf means something.
func filler(n int) []string {
	var kv []string
	for i := range n {
		kv = append(kv, fmt.Sprintf("note-%d", i), fmt.Sprintf("word%da word%db word%dc topic%d", i, i, i, i%7))
	}
	return kv
}

func checks(r Report, k Kind) []string {
	var out []string
	for _, f := range r.Findings {
		if f.Kind == k {
			out = append(out, f.Check+":"+names(f.Entries))
		}
	}
	return out
}

func names(refs []Ref) string {
	var s []string
	for _, r := range refs {
		s = append(s, r.Name)
	}
	return strings.Join(s, ",")
}

func TestRun_Duplicates(t *testing.T) {
	deploy := "Deploy billing with kubectl rollout to staging, then canary 5 percent, smoke tests, undo on errors."
	tests := []struct {
		name string
		kv   []string
		nd   [][2]string
		want []string
	}{
		{"exact after case and spacing", []string{"a", "Hello  World\nagain", "b", "hello world again"}, nil, []string{"exact:a,b"}},
		{"near", []string{"a", deploy, "b", deploy + " Then staging again."}, nil, []string{"near:a,b"}},
		{"unrelated", []string{"a", deploy, "b", "Alice prefers tea and short standups on Mondays."}, nil, nil},
		{"remembered not duplicates", []string{"a", deploy, "b", deploy + " Then staging again."}, [][2]string{{"b", "a"}}, nil},
		{"blank content is not a duplicate", []string{"a", "  ", "b", "\n"}, nil, nil},
		{"chain is one group", []string{"a", deploy, "b", deploy + " x1", "c", deploy + " x1 x2"}, nil, []string{"near:a,b,c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nd := &NotDuplicates{}
			for _, p := range tt.nd {
				nd.Add(p[0], p[1])
			}
			r := Run(entries(append(tt.kv, filler(40)...)...), Options{Kinds: []Kind{Duplicate}, NotDuplicates: nd})
			if got := checks(r, Duplicate); fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestRun_Secrets(t *testing.T) {
	token := "ghp_DEMOfakeTOKENcrmemLINTexample007x9Q2"
	tests := []struct {
		name    string
		content string
		aliases []string
		want    []string // rule@field:line redacted
	}{
		{"github pat on line 2", "ci\nGITHUB_TOKEN=" + token, nil, []string{"github-pat@content:2 ghp_…x9Q2"}},
		{"in an alias", "nothing here", []string{"x", token}, []string{"github-pat@alias:2 ghp_…x9Q2"}},
		{"low entropy is not a secret", "ghp_" + strings.Repeat("a", 36), nil, nil},
		{"gitleaks:allow", "GITHUB_TOKEN=" + token + " # gitleaks:allow", nil, nil},
		{"plain prose", "The token refresh flow uses a key rotation every 90 days.", nil, nil},
		{"far into a long text", strings.Repeat("plain words on a line\n", 5000) + "GITHUB_TOKEN=" + token, nil, []string{"github-pat@content:5001 ghp_…x9Q2"}},
		{"a private key over lines", "key:\n" + fakePEM, nil, []string{"private-key@content:2 ----…----"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			es := entries("e", tt.content)
			if tt.aliases != nil {
				es[0].Aliases = tt.aliases
			}
			r := Run(es, Options{Kinds: []Kind{Secret}})
			var got []string
			for _, f := range r.Findings {
				d := f.Secret
				got = append(got, fmt.Sprintf("%s@%s:%d %s", d.Rule, d.Field, d.Line, d.Redacted))
				field := es[0].Content
				if d.Field == "alias" {
					field = es[0].Aliases[d.Line-1]
				}
				if want := strings.TrimPrefix(tt.content, "key:\n"); d.Rule == "private-key" && field[d.Start:d.End] != want {
					t.Errorf("offsets %d:%d select %q, not the key", d.Start, d.End, field[d.Start:d.End])
				} else if d.Rule != "private-key" && field[d.Start:d.End] != token {
					t.Errorf("offsets %d:%d select %q, not the secret", d.Start, d.End, field[d.Start:d.End])
				}
				if strings.Contains(f.Reason, token) || strings.Contains(d.Redacted, token) {
					t.Errorf("the secret is shown in full: %q", f.Reason)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// fakePEM is a made-up private key block: 4,000 bytes of base64-like text
// between the markers, longer than one line and than a keyword's window
// start.
var fakePEM = "-----BEGIN RSA PRIVATE KEY-----\n" + strings.Repeat(strings.Repeat("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3ODkw", 1)+"\n", 90) + "-----END RSA PRIVATE KEY-----"

// TestSecrets_ScanBound checks that only a text's first MaxScanBytes are
// scanned, and that the bound is said.
func TestSecrets_ScanBound(t *testing.T) {
	token := "ghp_DEMOfakeTOKENcrmemLINTexample007x9Q2"
	es := entries("big", strings.Repeat("x", MaxScanBytes)+" GITHUB_TOKEN="+token)
	r := Run(es, Options{Kinds: []Kind{Secret}})
	if r.Count(Secret) != 0 || len(r.Bounded) != 1 {
		t.Errorf("findings %d, bounded %v: want none and the bound said", r.Count(Secret), r.Bounded)
	}
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{"ghp_DEMOfakeTOKENcrmemLINTexample007x9Q2": "ghp_…x9Q2", "abc": "…", "abcdefghijkl": "ab…kl"} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRun_Names(t *testing.T) {
	tests := []struct {
		name string
		kv   []string
		want []string
	}{
		{"case fold", []string{"Deploy", "x", "deploy", "y"}, []string{"folded:Deploy,deploy"}},
		{"NFKC", []string{"ﬁle", "x", "file", "y"}, []string{"folded:ﬁle,file"}},
		{"cyrillic look-alike", []string{"user-preferences", "x", "user-prеferences", "y"}, []string{"confusable:user-preferences,user-prеferences"}},
		{"mixed script alone", []string{"pаyments", "x"}, []string{"confusable:pаyments"}},
		{"invisible", []string{"zero\u200bwidth", "x"}, []string{"invisible:zero\u200bwidth"}},
		{"clean", []string{"alpha", "x", "beta", "y", "Ελληνικά", "z"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Run(entries(tt.kv...), Options{Kinds: []Kind{Name}})
			if got := checks(r, Name); fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestRun_Outsize(t *testing.T) {
	kv := filler(30)
	kv = append(kv, "huge", strings.Repeat("lorem ipsum dolor ", 2000), "empty", "", "blank", " \n ")
	r := Run(entries(kv...), Options{Kinds: []Kind{Outsize}})
	want := []string{"empty:empty", "empty:blank", "tokens:huge"}
	if got := checks(r, Outsize); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestRun_Archives(t *testing.T) {
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	es := []store.Entry{
		{ID: 1, Name: "arch-old", Kind: store.Archive, CreatedAt: uint64(now.Add(-100 * 24 * time.Hour).Unix()), Content: "x"},
		{ID: 2, Name: "arch-ref", Kind: store.Archive, CreatedAt: uint64(now.Unix()), Content: "x"},
		{ID: 3, Name: "arch-alias", Kind: store.Archive, CreatedAt: uint64(now.Unix()), Content: "x", Aliases: []string{"resumed-as"}},
		{ID: 4, Name: "arch-orphan", Kind: store.Archive, CreatedAt: uint64(now.Unix()), Content: "x"},
		{ID: 5, Name: "note", CreatedAt: 1, Content: "x"},
	}
	refs := sessions.Index([]sessions.Session{{Name: "s1", Archives: []string{"arch-ref", "arch-old", "resumed-as"}}})
	tests := []struct {
		name string
		opts Options
		want []string
	}{
		{"orphans", Options{Refs: &refs}, []string{"orphan:arch-orphan"}},
		{"older than", Options{OlderThan: 30 * 24 * time.Hour}, []string{"old:arch-old"}},
		{"both", Options{Refs: &refs, OlderThan: 30 * 24 * time.Hour}, []string{"old:arch-old", "orphan:arch-orphan"}},
		{"no sessions known", Options{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.Kinds, tt.opts.Now = []Kind{Archive}, now
			if got := checks(Run(es, tt.opts), Archive); fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestNotDuplicates_SaveLoad(t *testing.T) {
	path := NotDuplicatesPath(filepath.Join(t.TempDir(), "memory.db"))
	nd, err := LoadNotDuplicates(path)
	if err != nil {
		t.Fatal(err)
	}
	if !nd.Add("b", "a") || nd.Add("a", "b") || nd.Add("x", "x") {
		t.Fatal("Add: a new pair is new once, a name with itself never")
	}
	if err := nd.Save(); err != nil {
		t.Fatal(err)
	}
	back, err := LoadNotDuplicates(path)
	if err != nil {
		t.Fatal(err)
	}
	if !back.Has("a", "b") || !back.Has("b", "a") || back.Has("a", "c") {
		t.Errorf("pairs read back: %v", back.Pairs())
	}
}

// TestRun_BadInput runs every check over what a damaged or hostile memory
// holds; Run must finish and report no secret in full.
func TestRun_BadInput(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	bin := make([]byte, 64<<10)
	for i := range bin {
		bin[i] = byte(rng.UintN(256))
	}
	huge := strings.Repeat("token = ghp_DEMOfakeTOKENcrmemLINTexample007x9Q2 and key sk-", 120_000) // ~7 MB
	kv := []string{"binary", string(bin), "invalid", "caf\xe9 \xff\xfe token", "huge", huge, "nul\x00name", "x\x00y"}
	r := Run(entries(kv...), Options{})
	if len(r.Bounded) == 0 {
		t.Errorf("a 7 MB entry reached no bound: %v", r.Bounded)
	}
}

// TestRun_NearIdentical is 20,000 entries that differ by one number: the
// runs of words they share are held by every one of them, phrases of the
// memory that propose no pair, so the work stays linear and no group of
// 20,000 is listed;
// and 5,000 copies of one text are one exact group, compared once.
func TestRun_NearIdentical(t *testing.T) {
	var kv []string
	for i := range 20_000 {
		kv = append(kv, fmt.Sprintf("n%d", i), fmt.Sprintf("deploy the billing service with kubectl rollout %d", i))
	}
	for i := range 5_000 {
		kv = append(kv, fmt.Sprintf("c%d", i), "the very same text")
	}
	r := Run(entries(kv...), Options{Kinds: []Kind{Duplicate}})
	var exact, near []Finding
	for _, f := range r.Findings {
		if f.Duplicate.Exact {
			exact = append(exact, f)
		} else {
			near = append(near, f)
		}
	}
	if len(exact) != 1 || len(exact[0].Entries) != 5_000 {
		t.Errorf("want one exact group of 5,000: %d exact findings", len(exact))
	}
	if len(near) != 0 {
		t.Errorf("want no near group (each run of three words the notes share is held by all 20,000, a phrase of the memory, which proposes no pair): %d near findings", len(near))
	}
	if len(r.Bounded) != 1 || !strings.Contains(r.Bounded[0], "proposed no pair") {
		t.Errorf("bounds %q: want only the note that the runs of words all share proposed no pair", r.Bounded)
	}
}

// TestFinding_Key checks keys tell findings apart and survive a rerun.
func TestFinding_Key(t *testing.T) {
	kv := []string{"a", "x ghp_DEMOfakeTOKENcrmemLINTexample007x9Q2 ghp_DEMOfakeTOKENcrmemLINTexample008x9Q3", "Deploy", "y", "deploy", "z"}
	r1, r2 := Run(entries(kv...), Options{}), Run(entries(kv...), Options{})
	seen := map[string]bool{}
	for i := range r1.Findings {
		k := r1.Findings[i].Key()
		if seen[k] {
			t.Errorf("two findings with key %s", k)
		}
		seen[k] = true
		if k2 := r2.Findings[i].Key(); k2 != k {
			t.Errorf("key %s became %s on a rerun", k, k2)
		}
	}
	if len(seen) < 3 {
		t.Errorf("want two secrets and a name finding: %v", seen)
	}
}

func TestDiff(t *testing.T) {
	tests := []struct {
		a, b string
		want string
	}{
		{"x\ny\nz", "x\nY\nz", " x|-y|+Y| z"},
		{"same", "same", " same"},
		{"a\nb", "b\nc", "-a| b|+c"},
		{"", "new", "-|+new"},
	}
	for _, tt := range tests {
		lines, ok := Diff(tt.a, tt.b)
		var got []string
		for _, l := range lines {
			got = append(got, string(l.Op)+l.Text)
		}
		if !ok || strings.Join(got, "|") != tt.want {
			t.Errorf("Diff(%q, %q) = %q, %v; want %q", tt.a, tt.b, strings.Join(got, "|"), ok, tt.want)
		}
	}
	if _, ok := Diff(strings.Repeat("x\n", MaxDiffLines+1), "x"); ok {
		t.Error("a text over MaxDiffLines lines was diffed")
	}
}

// TestRun_RepeatedIDs is a file with two entries under one id (the store
// keeps both, the later one shadowing): every check still runs.
func TestRun_RepeatedIDs(t *testing.T) {
	es := entries(append([]string{"a", "same words here", "b", "same words here"}, filler(10)...)...)
	es[1].ID = es[0].ID
	r := Run(es, Options{})
	if r.Count(Duplicate) != 1 {
		t.Errorf("want the two as exact duplicates: %+v", r.Findings)
	}
}

// TestNotDuplicatesOf: the pairs remembered for a memory file are read
// from the file beside it, and a memory with none has none.
func TestNotDuplicatesOf(t *testing.T) {
	mem := filepath.Join(t.TempDir(), "memory.db")
	nd, err := NotDuplicatesOf(mem)
	if err != nil || len(nd.Pairs()) != 0 {
		t.Fatalf("no file: %v, %v", nd.Pairs(), err)
	}
	nd.Add("a", "b")
	if err := nd.Save(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(NotDuplicatesPath(mem)); err != nil {
		t.Fatalf("saved beside the memory: %v", err)
	}
	again, err := NotDuplicatesOf(mem)
	if err != nil || len(again.Pairs()) != 1 {
		t.Errorf("read back: %v, %v", again.Pairs(), err)
	}
}

// TestAppendNormal_SameAsFields: appendNormal (a table for ASCII bytes,
// runes decoded otherwise) writes what the plain definition does: the
// text's runs of non-space runes, each rune in simple lower case (an
// invalid byte U+FFFD), joined by one space; with a limit, a beginning of
// it at least that long. appendSolid writes the same without the spaces.
func TestAppendNormal_SameAsFields(t *testing.T) {
	plain := func(s string) string {
		if !isASCII(s) {
			s = norm.NFC.String(xcases.Fold().String(norm.NFD.String(s)))
		}
		return strings.Join(strings.FieldsFunc(strings.Map(unicode.ToLower, s), unicode.IsSpace), " ")
	}
	rng := rand.New(rand.NewPCG(30, 5))
	pieces := []string{"a", "Z", "\x00", " ", "\t", "\n", "\r\n", "\v", "\f", "\x1c", "\x85", "\u00a0", "\u2028", "\u3000",
		"İ", "K", "ẞ", "Σ", "\xff", "\xe2\x82", "é", "東", "\x7f", "~", "Hello", "WORLD"}
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		want := plain(s)
		if got := string(appendNormal(nil, s, -1)); got != want {
			t.Fatalf("appendNormal(%q) = %q, want %q", s, got, want)
		}
		// With a limit: the normal form's beginning, cut after the rune
		// that reaches the limit.
		limit := rng.IntN(8)
		got := string(appendNormal([]byte("x"), s, limit))
		if !strings.HasPrefix("x"+want, got) || len(got)-1 < min(limit, len(want)) || len(got)-1 > limit+4 && len(got)-1 != len(want) {
			t.Fatalf("appendNormal(%q, %d) = %q, want a beginning of %q at least %d bytes long", s, limit, got, want, limit)
		}
		// Without its spaces, as exactClasses hashes the beginning.
		solid := strings.ReplaceAll(want, " ", "")
		got = string(appendSolid([]byte("x"), s, limit))
		if !strings.HasPrefix("x"+solid, got) || len(got)-1 < min(limit, len(solid)) || len(got)-1 > limit+3 {
			t.Fatalf("appendSolid(%q, %d) = %q, want a beginning of %q at least %d bytes long", s, limit, got, solid, limit)
		}
		if got := string(appendSolid(nil, s, len(s)*3)); got != solid {
			t.Fatalf("appendSolid(%q) = %q, want %q", s, got, solid)
		}
	}
}

// TestExactClasses_PastTheBeginning: contents that begin alike for longer
// than the part hashed first are told apart or grouped by all of their
// text: a difference at the end is no exact duplicate, a difference of
// case and spacing alone is.
func TestExactClasses_PastTheBeginning(t *testing.T) {
	long := strings.Repeat("Deploy the billing canary to staging first. ", 20)
	es := entries("a", long+"Then production.", "b", long+"Then rollback.", "c", strings.ToUpper(long)+"then   PRODUCTION.\n",
		"d", long[:100], "e", "  \n\t ", "f", "\t"+strings.ReplaceAll(long[:100], " ", "\n "),
		"g", "Deploy the bill ing canary", "h", "Deploy the billing canary")
	got := exactClasses(es)
	same := func(i, j int) bool { return got[i] >= 0 && got[i] == got[j] }
	if !same(0, 2) || same(0, 1) || got[1] != -1 || !same(3, 5) || same(0, 3) || got[4] != -1 || got[6] != -1 || got[7] != -1 {
		t.Errorf("classes %v: want a and c one class, d and f another, b, e, g and h none (g and h differ by a space only)", got)
	}
}

// TestPlainName_AsTheGeneralPath: a name plainName passes is folded, made a
// skeleton and searched for invisible characters to the same result as the
// general path would, on random names of printable, control, space and
// non-ASCII pieces.
func TestPlainName_AsTheGeneralPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 11))
	pieces := []string{"a", "Z", "-", "7", " ", "\t", "\x00", "\x7f", "\x1b", "е", "\u200b", "ß", "\xff", "Deploy", "NOTES"}
	plainSeen := 0
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(6) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		if !plainName(s) {
			continue
		}
		plainSeen++
		if f := fold(s); f != strings.ToLower(s) || skeleton(f) != f || invisibles(s) != nil || !isASCII(s) {
			t.Fatalf("plain name %q: fold %q, skeleton %q, invisibles %q", s, f, skeleton(f), invisibles(s))
		}
	}
	if plainSeen < 1000 {
		t.Fatalf("only %d plain names drawn", plainSeen)
	}
}

// TestExactClasses_UnicodeForms: contents equal after Unicode
// normalisation and full case folding are one exact class: NFC and NFD, a
// Greek copy in capitals whose lower case ends in a final ς, ß and SS;
// different letters stay apart.
func TestExactClasses_UnicodeForms(t *testing.T) {
	cases := []struct {
		a, b string
		same bool
	}{
		{"Caf\u00e9 cr\u00e8me notes", "Cafe\u0301 cre\u0300me notes", true},
		{"Το σύστημα αναπτύσσεται σε δοκιμαστικό στάδιο πρώτα και μετά στην παραγωγή ως εξής", "ΤΟ ΣΎΣΤΗΜΑ ΑΝΑΠΤΎΣΣΕΤΑΙ ΣΕ ΔΟΚΙΜΑΣΤΙΚΌ ΣΤΆΔΙΟ ΠΡΏΤΑ ΚΑΙ ΜΕΤΆ ΣΤΗΝ ΠΑΡΑΓΩΓΉ ΩΣ ΕΞΉΣ", true},
		{"die Straße ist gesperrt", "DIE STRASSE IST GESPERRT", true},
		{"Caf\u00e9", "Cafe", false},
		// The accent just past the beginning hashed first (normalPrefix),
		// on its last letter in one, a letter of its own in the other:
		// ASCII up to there is not the normal form.
		{strings.Repeat("a", normalPrefix-1) + "e\u0301 then more", strings.Repeat("A", normalPrefix-1) + "\u00e9 then more", true},
		{strings.Repeat("a", normalPrefix-1) + "e\u0301 then more", strings.Repeat("a", normalPrefix-1) + "e then more", false},
		{strings.Repeat("a ", normalPrefix) + "\u00df", strings.Repeat("A ", normalPrefix) + "SS", true},
	}
	for _, c := range cases {
		class := exactClasses([]store.Entry{{Content: c.a}, {Content: c.b}})
		if got := class[0] >= 0 && class[0] == class[1]; got != c.same {
			t.Errorf("%q and %q: same %v, want %v", c.a, c.b, got, c.same)
		}
	}
}
