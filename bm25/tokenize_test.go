package bm25

import (
	"bufio"
	"encoding/json"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

const refDir = "../testdata/reference"

// readJSONL decodes one value per line of a fixture file.
func readJSONL[T any](t *testing.T, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestTokenize_Reference(t *testing.T) {
	type row struct {
		Text   string   `json:"text"`
		Tokens []string `json:"tokens"`
	}
	rows := readJSONL[row](t, refDir+"/tokenize.jsonl")
	if len(rows) == 0 {
		t.Fatal("no fixture rows")
	}
	for _, r := range rows {
		got := Tokenize(r.Text)
		if !slices.Equal(got, r.Tokens) && !(len(got) == 0 && len(r.Tokens) == 0) {
			t.Errorf("Tokenize(%q) = %q, want %q", r.Text, got, r.Tokens)
		}
	}
}

func TestTokenize_Cases(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"Hello, World", []string{"hello", "world"}},
		{"ΣΟΦΟΣ", []string{"σοφος"}},
		{"ΣΑΣ", []string{"σας"}},
		{"ΑΣ", []string{"ας"}},
		{"ΣΑ", []string{"σα"}},
		{"ΑʹΣ", []string{"αʹς"}},   // case-ignorable Lm between A and Σ
		{"ΑΣʹΑ", []string{"ασʹα"}}, // Σ followed (after Lm) by a cased letter
		{"ΑΣʹ", []string{"αςʹ"}},   // Σ followed only by case-ignorable
		{"1Σ", []string{"1σ"}},     // a digit is not cased
		{"İSTANBUL", []string{"i̇stanbul"}},
		{"ǅemal", []string{"ǆemal"}},
		{"x", nil},
		{"Ab", []string{"ab"}},
		{"ÀB", []string{"àb"}},
		{"ⅫⅫ", []string{"ⅻⅻ"}}, // letter numbers lowercase too
		{"THE AND Into", nil},
		{"क्षत्रिय", []string{"षत", "रिय"}},  // virama is not alphabetic
		{"ab\u0301cd", []string{"ab", "cd"}}, // combining acute splits
		{"abc" + string(utf8.RuneError) + "de", []string{"abc", "de"}},
		{"abc\xffde", []string{"abc", "de"}}, // invalid UTF-8 is a separator
	}
	for _, tt := range tests {
		if got := Tokenize(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("Tokenize(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestQueryTerms(t *testing.T) {
	tests := []struct {
		query string
		want  []string
	}{
		{"deploy deploy DEPLOY", []string{"deploy"}},
		{"zeta alpha Beta", []string{"alpha", "beta", "zeta"}},
		{"the a", nil},
		{"", nil},
		{"éa eb", []string{"eb", "éa"}}, // byte order, not collation
	}
	for _, tt := range tests {
		if got := QueryTerms(tt.query); !slices.Equal(got, tt.want) {
			t.Errorf("QueryTerms(%q) = %q, want %q", tt.query, got, tt.want)
		}
	}
}

func TestTokenize_NoAllocsForIndexing(t *testing.T) {
	text := strings.Repeat("The quick Brown fox jumps over the lazy dog 42 times; ", 20)
	tz := tokenizer{}
	allocs := testing.AllocsPerRun(20, func() {
		tz.reset(text)
		for tz.next() {
		}
	})
	if allocs != 0 {
		t.Errorf("tokenizer allocates %.1f times per text, want 0", allocs)
	}
}

// slowTokenize is a direct transcription of SPEC §4, rune by rune, used to
// check the fast paths.
func slowTokenize(text string) []string {
	pieces := strings.FieldsFunc(text, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Other_Alphabetic, r))
	})
	var out []string
	for _, p := range pieces {
		if utf8.RuneCountInString(p) < 2 {
			continue
		}
		tok := string(appendLowerFull(nil, p))
		if IsStopword(tok) {
			continue
		}
		out = append(out, tok)
	}
	return out
}

// checkTokenInvariants reports what is wrong with Tokenize(text), if anything.
func checkTokenInvariants(t *testing.T, text string) {
	t.Helper()
	got := Tokenize(text)
	if want := slowTokenize(text); !slices.Equal(got, want) {
		t.Fatalf("Tokenize(%q) = %q, slow path says %q", text, got, want)
	}
	for _, tok := range got {
		if tok == "" || utf8.RuneCountInString(tok) < 2 || IsStopword(tok) {
			t.Fatalf("Tokenize(%q) yields bad token %q", text, tok)
		}
		if !utf8.ValidString(tok) {
			t.Fatalf("Tokenize(%q) yields invalid UTF-8 %q", text, tok)
		}
		// Lowercasing is stable: a token made only of alphanumerics (every
		// token except those holding the U+0307 of a lowercased İ)
		// tokenizes to itself.
		if strings.ContainsFunc(tok, func(r rune) bool { return !isAlnum(r) }) {
			if !strings.ContainsRune(tok, '\u0307') {
				t.Fatalf("Tokenize(%q) yields %q with a separator", text, tok)
			}
			continue
		}
		if again := Tokenize(tok); !slices.Equal(again, []string{tok}) {
			t.Fatalf("Tokenize(%q) = %q, not stable", tok, again)
		}
	}
}

func TestTokenize_MatchesSlowPath(t *testing.T) {
	texts := []string{
		"plain ascii words", "MiXeD CaSe 123abc ABC123", "ΣΟΦΟΣ σοφός İstanbul",
		"tab\tsep\nnl", "a_b-c.d", "東京の天気", "हिन्दी", "ǅǄǆ", "½²³ⅷⅫ", "\xff\xfeab",
		"emoji👍inside", "ŉ ǰ ΐ", "ß ẞẞ", "ΑΣ.ΣΑ",
	}
	for _, text := range texts {
		checkTokenInvariants(t, text)
	}
}

// TestTokenize_RandomMatchesSlowPath drives the word-at-a-time path across
// every byte boundary with an alphabet of edge bytes: range ends of the
// ASCII classes, case bits, control bytes that fold onto digits, multi-byte
// letters and separators, and invalid UTF-8.
func TestTokenize_RandomMatchesSlowPath(t *testing.T) {
	alphabet := []string{
		"a", "z", "A", "Z", "0", "9", "@", "[", "`", "{", "/", ":", "\x7f", "\x10", "\x19", "_", " ",
		"é", "É", "Σ", "İ", "東", "—", "👍", "\u0301", "\xff", "the", "THE", "Of", "ab", "ABCDEFGH", "abcdefgh",
	}
	rng := rand.New(rand.NewPCG(11, 12))
	for range 20000 {
		var sb strings.Builder
		for range rng.IntN(24) {
			sb.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		checkTokenInvariants(t, sb.String())
	}
}

func TestTokenize_LengthsAroundWord(t *testing.T) {
	for n := 1; n <= 18; n++ {
		word := strings.Repeat("Ab", n)[:n]
		for pad := 0; pad <= 9; pad++ {
			for _, sep := range []string{" ", "é", "-", ""} {
				text := strings.Repeat("x ", pad) + word + sep + "tail words here"
				checkTokenInvariants(t, text)
			}
		}
	}
}

func FuzzTokenize(f *testing.F) {
	for _, s := range []string{
		"", "Hello World", "ΣΟΦΟΣ", "İİ", "x86_64", "a<b", "東京", "हिन्दी", "\xff", "ΑʹΣ",
		"\u212a\u212a Kelvin", "ΑΣ\u0345", "The quick brown fox jumps over THE lazy dog",
		"abcdefgh ABCDEFGH abcdefghi", "ab\u0301cd", "Ǆǅǆ",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		checkTokenInvariants(t, text)
	})
}

func TestIsStopword(t *testing.T) {
	for _, w := range stopwords {
		if !IsStopword(w) {
			t.Errorf("IsStopword(%q) = false", w)
		}
	}
	for _, w := range []string{"", "i", "ab", "thee", "them", "hers", "these", "ths", "into1", "The", "withh", "yo", "yours", "σ"} {
		if IsStopword(w) {
			t.Errorf("IsStopword(%q) = true", w)
		}
	}
}

func TestIsWordRuneAndLowerMatchTokenize(t *testing.T) {
	for _, r := range []rune{'a', 'Z', '7', 'é', 'İ', 'Ⓐ', '二', 'ि'} {
		if !IsWordRune(r) {
			t.Errorf("IsWordRune(%q) = false", r)
		}
	}
	for _, r := range []rune{' ', '-', '_', '\u0307', '。'} {
		if IsWordRune(r) {
			t.Errorf("IsWordRune(%q) = true", r)
		}
	}
	for _, w := range []string{"İstanbul", "ΣΟΦΟΣ", "ⒶⒷ", "Café"} {
		if got := Tokenize(w); len(got) != 1 || got[0] != Lower(w) {
			t.Errorf("Tokenize(%q) = %q, Lower = %q", w, got, Lower(w))
		}
	}
}
