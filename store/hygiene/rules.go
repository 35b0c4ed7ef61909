package hygiene

import (
	_ "embed"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/pelletier/go-toml/v2"
)

// gitleaksTOML is gitleaks v8.30.1's default rule set, config/gitleaks.toml,
// taken as data (MIT; see gitleaks/LICENSE and gitleaks/README.md).
//
//go:embed gitleaks/gitleaks.toml
var gitleaksTOML []byte

// crmemTOML is crmem's own rules (crmem-rules.toml), in gitleaks' format,
// applied after gitleaks': a Stripe key ended by punctuation, a password
// in a URL, a password in prose.
//
//go:embed crmem-rules.toml
var crmemTOML []byte

// ruleFile is the part of gitleaks.toml crmem applies.
type ruleFile struct {
	Allowlist allowFile  `toml:"allowlist"`
	Rules     []ruleSpec `toml:"rules"`
}

type ruleSpec struct {
	ID          string      `toml:"id"`
	Description string      `toml:"description"`
	Regex       string      `toml:"regex"`
	Path        string      `toml:"path"`
	SecretGroup int         `toml:"secretGroup"`
	Entropy     float64     `toml:"entropy"`
	Keywords    []string    `toml:"keywords"`
	Allowlists  []allowFile `toml:"allowlists"`
}

type allowFile struct {
	Condition   string   `toml:"condition"`
	RegexTarget string   `toml:"regexTarget"`
	Regexes     []string `toml:"regexes"`
	Paths       []string `toml:"paths"`
	StopWords   []string `toml:"stopwords"`
}

// rule is one gitleaks rule, its regular expression compiled on first use
// (most commands never scan, and a scan compiles only the rules whose
// keywords occur).
type rule struct {
	ruleSpec
	re func() (*regexp.Regexp, error)
	// anchored, when set, is the expression without its leading
	// genericLead, anchored at a keyword: the scanner tries it at each
	// keyword (scanner.applyAnchored) instead of running re over windows.
	anchored func() (*regexp.Regexp, error)
	// plausible, when set, is a necessary condition for the expression to
	// match through the keyword found at an offset of a text: a keyword
	// that fails it opens no window (see plausibleAt).
	plausible func(s string, at int) bool
	allow     []*allowlist
}

// genericLead is how gitleaks' generic key rule begins: any run of word
// characters before its keyword. Matched at each keyword instead, the rule
// costs a keyword scan rather than about a microsecond per byte.
const genericLead = `(?i)[\w.-]{0,50}?`

// allowlist is a gitleaks allowlist: a finding it matches is not reported.
type allowlist struct {
	and       bool   // condition AND: every check must hold
	paths     bool   // it has a path check, which never holds for an entry
	target    string // "secret" (default), "match" or "line"
	re        func() (*regexp.Regexp, error)
	stopWords []string // lower case
}

// rules is the parsed rule set and its keyword matcher.
type rules struct {
	list   []*rule
	global *allowlist
	kw     *keywords
	// skipped counts rules that need a file path (crmem scans entries, not
	// files), which are not applied.
	skipped int
}

// ruleSet parses the embedded rule set once, on first use.
var ruleSet = sync.OnceValues(parseRules)

// parseRules decodes gitleaks.toml into rules.
func parseRules() (*rules, error) {
	var f, own ruleFile
	if err := toml.Unmarshal(gitleaksTOML, &f); err != nil {
		return nil, fmt.Errorf("parse gitleaks rules: %w", err)
	}
	if err := toml.Unmarshal(crmemTOML, &own); err != nil {
		return nil, fmt.Errorf("parse crmem rules: %w", err)
	}
	f.Rules = append(f.Rules, own.Rules...)
	rs := &rules{global: newAllowlist(f.Allowlist)}
	var kws []keyword
	for _, spec := range f.Rules {
		if spec.Path != "" || spec.Regex == "" {
			rs.skipped++
			continue
		}
		r := &rule{ruleSpec: spec, re: lazyRegexp(spec.Regex)}
		if rest, ok := strings.CutPrefix(spec.Regex, genericLead); ok && spec.ID == "generic-api-key" {
			r.anchored = lazyRegexp(`^(?i)` + rest)
		}
		r.plausible = plausibleAt(spec.ID)
		for _, a := range spec.Allowlists {
			r.allow = append(r.allow, newAllowlist(a))
		}
		for _, k := range spec.Keywords {
			kws = append(kws, keyword{text: strings.ToLower(k), rule: int32(len(rs.list))})
		}
		rs.list = append(rs.list, r)
	}
	rs.kw = newKeywords(kws)
	return rs, nil
}

// lazyRegexp compiles pattern on first call.
func lazyRegexp(pattern string) func() (*regexp.Regexp, error) {
	return sync.OnceValues(func() (*regexp.Regexp, error) { return regexp.Compile(pattern) })
}

// newAllowlist prepares an allowlist, its regexes joined into one.
func newAllowlist(a allowFile) *allowlist {
	l := &allowlist{and: strings.EqualFold(a.Condition, "AND"), paths: len(a.Paths) > 0, target: a.RegexTarget}
	if len(a.Regexes) > 0 {
		l.re = lazyRegexp("(?:" + strings.Join(a.Regexes, ")|(?:") + ")")
	}
	for _, w := range a.StopWords {
		l.stopWords = append(l.stopWords, strings.ToLower(w))
	}
	return l
}

// allows reports whether the allowlist lets a finding through as not a
// secret, as gitleaks decides: with condition AND every check it has must
// hold (a path check never does: entries have no path), otherwise its
// regexes or its stop words.
func (a *allowlist) allows(secret, match, line string) bool {
	target := secret
	switch a.target {
	case "match":
		target = match
	case "line":
		target = line
	}
	re := a.regexAllows(target)
	stop := a.hasStopWord(secret)
	if !a.and {
		return re || stop
	}
	if a.paths {
		return false
	}
	return (a.re == nil || re) && (len(a.stopWords) == 0 || stop) && (a.re != nil || len(a.stopWords) > 0)
}

func (a *allowlist) regexAllows(s string) bool {
	if a.re == nil || s == "" {
		return false
	}
	re, err := a.re()
	return err == nil && re.MatchString(s)
}

func (a *allowlist) hasStopWord(s string) bool {
	if len(a.stopWords) == 0 || s == "" {
		return false
	}
	s = strings.ToLower(s)
	for _, w := range a.stopWords {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// keyword is a rule's keyword, lower case.
type keyword struct {
	text string
	rule int32
}

// keywords finds which rules' keywords occur in a text in one pass. A
// position is looked at only when a keyword can start there: the hash of
// its three bytes, each ORed with 0x20, is in a bit set of the keywords'
// starts so made (a two-byte keyword, "s.", sets its start with every
// third byte), which rejects almost every position of prose with one
// memory access. ORing with 0x20 lowers an ASCII capital letter and makes
// a few other bytes alike, letting a few more positions through; the
// three bytes are kept in one register as the scan moves on, one byte in
// and one out. (A bit set of two-byte starts let through a quarter of
// the positions of the 100k corpus, "he", "te", "en"…, a third of lint's
// secret scan; looking up each byte's lower case in a table and testing
// two-byte keywords apart cost twice as much as this.)
//
// Most positions that pass begin no keyword ("tes" of "test_", "ent" of
// "enterprise.contribsys.com", "con" of a dozen vendors' names: seven in
// eight on the 100k corpus); a second bit set, of the four-byte starts of
// the keywords of four bytes or more, turns them away when their three
// bytes begin no shorter keyword (short).
type keywords struct {
	three [threeBits / 64]uint64
	short [threeBits / 64]uint64 // the three-byte starts of keywords of three bytes or fewer
	four  [threeBits / 64]uint64 // the four-byte starts of the others, hashed (hash4)
	two   [1 << 16 / 64]uint64   // two-byte keywords, for a text's last position
	// start holds, by a keyword's first two bytes, the keywords that begin
	// with them (an array: a map lookup per candidate position was a
	// sixth of a scan).
	start [][]keyword
}

// threeBits is the size of keywords' bit set of three-byte starts: 32 KiB,
// in cache, and a few per cent of false hits.
const threeBits = 1 << 18

// hash3 is the slot of a keyword start of three bytes (b0 | b1<<8 | b2<<16)
// in keywords.three and keywords.short; hash4 of four bytes in
// keywords.four.
func hash3(x uint32) uint32 { return x * 0x9E3779B1 >> (32 - 18) }
func hash4(x uint32) uint32 { return x * 0x85EBCA77 >> (32 - 18) }

func newKeywords(kws []keyword) *keywords {
	k := &keywords{start: make([][]keyword, 1<<16)}
	set := func(bits *[threeBits / 64]uint64, h uint32) { bits[h/64] |= 1 << (h % 64) }
	for _, w := range kws {
		key := uint16(w.text[0]) | uint16(w.text[1])<<8 // gitleaks keywords are 2 bytes or longer
		b := []byte(w.text + "\x00\x00")
		for i := range b {
			b[i] |= 0x20
		}
		x := uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16
		switch len(w.text) {
		case 2:
			k.two[key/64] |= 1 << (key % 64)
			for c := range 256 {
				x := x&0xffff | uint32(byte(c)|0x20)<<16
				set(&k.three, hash3(x))
				set(&k.short, hash3(x))
			}
		case 3:
			set(&k.three, hash3(x))
			set(&k.short, hash3(x))
		default:
			set(&k.three, hash3(x))
			set(&k.four, hash4(x|uint32(b[3])<<24))
		}
		k.start[key] = append(k.start[key], w)
	}
	return k
}

// rulesIn calls found with each rule and the position of each occurrence
// of one of its keywords in s, ASCII letters compared in lower case (every
// keyword is ASCII, in lower case), in ascending position for each rule.
// s is read as it is: a lowered copy of each text was a fifth of the scan.
func (k *keywords) rulesIn(s string, found func(rule int32, at int)) {
	if len(s) < 2 {
		return
	}
	x := uint32(s[0]|0x20)<<8 | uint32(s[1]|0x20)<<16
	for i := 0; i+2 < len(s); i++ {
		x = x>>8 | uint32(s[i+2]|0x20)<<16
		if h := hash3(x); k.three[h/64]&(1<<(h%64)) != 0 {
			if k.short[h/64]&(1<<(h%64)) == 0 {
				if i+3 == len(s) {
					continue
				}
				if h := hash4(x | uint32(s[i+3]|0x20)<<24); k.four[h/64]&(1<<(h%64)) == 0 {
					continue
				}
			}
			k.startingAt(s, i, found)
		}
	}
	i := len(s) - 2 // where only a two-byte keyword fits
	if key := uint16(asciiLowerOf[s[i]]) | uint16(asciiLowerOf[s[i+1]])<<8; k.two[key/64]&(1<<(key%64)) != 0 {
		k.startingAt(s, i, found)
	}
}

// startingAt calls found with each keyword at s[i:].
func (k *keywords) startingAt(s string, i int, found func(rule int32, at int)) {
	for _, w := range k.start[uint16(asciiLowerOf[s[i]])|uint16(asciiLowerOf[s[i+1]])<<8] {
		if hasLowerPrefix(s[i:], w.text) {
			found(w.rule, i)
		}
	}
}

// asciiLowerOf is a byte with an ASCII capital letter lowered.
var asciiLowerOf = func() (t [256]byte) {
	for c := range t {
		t[c] = byte(c)
		if 'A' <= c && c <= 'Z' {
			t[c] += 'a' - 'A'
		}
	}
	return t
}()

// hasLowerPrefix reports whether s begins with prefix (in lower case) once
// its ASCII letters are lowered.
func hasLowerPrefix(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for j := 0; j < len(prefix); j++ {
		if asciiLowerOf[s[j]] != prefix[j] {
			return false
		}
	}
	return true
}
