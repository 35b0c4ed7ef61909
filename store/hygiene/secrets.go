package hygiene

import (
	"cmp"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/workgroup"
	"github.com/crmem/crmem/store"
)

// allowSignature on a line keeps gitleaks from reporting it, here too.
const allowSignature = "gitleaks:allow"

// findSecrets scans every entry's content and aliases with gitleaks' rules.
func findSecrets(entries []store.Entry, o *Options, r *Report) {
	rs, err := ruleSet()
	if err != nil { // the embedded file is checked by tests; never at run time
		r.bound(err.Error())
		return
	}
	parts := scanParallel(entries, rs)
	for _, p := range parts {
		r.Findings = append(r.Findings, p.Findings...)
		for _, b := range p.Bounded {
			r.bound(b)
		}
	}
}

// scanParallel scans entries on every core, each worker a contiguous range
// with its own scanner and report, so the findings come out in entry order.
func scanParallel(entries []store.Entry, rs *rules) []Report {
	workers := max(1, min(runtime.GOMAXPROCS(0), len(entries)/256))
	parts := make([]Report, workers)
	var g workgroup.Group // the entries may alias a mapped file (store.MapFile)
	for w := range workers {
		lo, hi := w*len(entries)/workers, (w+1)*len(entries)/workers
		g.Go(func() {
			sc := newScanner(rs)
			for i := lo; i < hi; i++ {
				sc.entry(&entries[i], &parts[w])
			}
		})
	}
	g.Wait()
	return parts
}

// scanner scans texts with a rule set, reusing its buffers.
type scanner struct {
	rs *rules
	// windows holds, per rule, the stretches of the text around its
	// keywords' occurrences, merged and ascending; a rule without any has
	// none and is not applied.
	windows [][]window
	// at holds, per rule with an anchored form, where its keywords occur.
	at [][]int
	// hit lists the rules with windows or occurrences in the text being
	// scanned, each once: only those are applied and cleared (a pass over
	// all 220 rules per text was a third of the scan of a memory's short
	// names, aliases and notes).
	hit []int32
}

// window is a stretch [lo, hi) of a text a rule's regular expression is
// run over.
type window struct{ lo, hi int }

// A rule's expression runs over the text around each occurrence of one of
// its keywords, from windowBefore bytes before it to windowAfter bytes
// after, each end moved to a line boundary if one is within windowSlack:
// every gitleaks rule's match holds its keyword, the longest (a PEM
// private key) runs a few kilobytes past it, and matches cannot depend on
// text beyond a line boundary that \s would not accept too. A text with
// keywords everywhere is scanned whole; a huge text with a few keywords
// costs a few windows.
const (
	windowBefore = 1 << 10
	windowAfter  = 16 << 10
	windowSlack  = 1 << 10
)

func newScanner(rs *rules) *scanner {
	return &scanner{rs: rs, windows: make([][]window, len(rs.list)), at: make([][]int, len(rs.list))}
}

// addWindow adds the window around a keyword of rule r found at position at
// of s, merged with the rule's last one when they touch.
func (sc *scanner) addWindow(s string, r int32, at int) {
	ws := sc.windows[r]
	if n := len(ws); n > 0 && at-windowBefore <= ws[n-1].hi {
		if ws[n-1].hi < len(s) {
			ws[n-1].hi = lineEnd(s, at+windowAfter)
		}
		return
	}
	sc.windows[r] = append(ws, window{lineStart(s, at-windowBefore), lineEnd(s, at+windowAfter)})
}

// lineStart moves i back to the start of its line if that is within
// windowSlack (0 at most).
func lineStart(s string, i int) int {
	if i <= 0 {
		return 0
	}
	if nl := strings.LastIndexByte(s[max(0, i-windowSlack):i], '\n'); nl >= 0 {
		return max(0, i-windowSlack) + nl + 1
	}
	return i
}

// lineEnd moves i on to the end of its line if that is within windowSlack
// (len(s) at most).
func lineEnd(s string, i int) int {
	if i >= len(s) {
		return len(s)
	}
	if nl := strings.IndexByte(s[i:min(len(s), i+windowSlack)], '\n'); nl >= 0 {
		return i + nl
	}
	return i
}

// entry reports the secrets in e's content and aliases.
func (sc *scanner) entry(e *store.Entry, r *Report) {
	var found []SecretDetail
	found = sc.text(e.Content, "content", found, r)
	for _, d := range sc.text(e.Name, "name", nil, r) {
		d.Line = 1
		found = append(found, d)
	}
	for i, a := range e.Aliases {
		for _, d := range sc.text(a, "alias", nil, r) {
			d.Line = i + 1
			found = append(found, d)
		}
	}
	if len(found) > MaxSecretsPerEntry {
		r.bound(fmt.Sprintf("secrets: at most %d are listed per entry", MaxSecretsPerEntry))
		found = found[:MaxSecretsPerEntry]
	}
	for _, d := range found {
		f := Finding{Kind: Secret, Check: d.Rule, Entries: sortedRefs(e), Secret: &d}
		f.Reason = secretReason(e.Name, &d)
		r.Findings = append(r.Findings, f)
	}
}

// secretReason says where a secret is in one line.
func secretReason(name string, d *SecretDetail) string {
	where := fmt.Sprintf("line %d", d.Line)
	switch d.Field {
	case "alias":
		where = fmt.Sprintf("alias %d", d.Line)
	case "name":
		where = "its name"
	}
	return fmt.Sprintf("%q holds what looks like a secret (%s) at %s: %s", name, d.Rule, where, d.Redacted)
}

// text returns the secrets in one text (its first MaxScanBytes).
func (sc *scanner) text(s, field string, found []SecretDetail, r *Report) []SecretDetail {
	if len(s) > MaxScanBytes {
		r.bound(fmt.Sprintf("secrets: only the first %s of a text is scanned", humanize.Size(MaxScanBytes)))
		s = s[:MaxScanBytes]
	}
	sc.hit = sc.hit[:0]
	sc.rs.kw.rulesIn(s, func(r int32, at int) {
		switch rl := sc.rs.list[r]; {
		case rl.anchored != nil:
			if len(sc.at[r]) == 0 && len(sc.windows[r]) == 0 {
				sc.hit = append(sc.hit, r)
			}
			sc.at[r] = append(sc.at[r], at)
		case rl.plausible == nil || rl.plausible(s, at):
			if len(sc.at[r]) == 0 && len(sc.windows[r]) == 0 {
				sc.hit = append(sc.hit, r)
			}
			sc.addWindow(s, r, at)
		}
	})
	slices.Sort(sc.hit) // the rules applied in their order, as over all of them
	first := len(found)
	for _, i := range sc.hit {
		for _, w := range sc.windows[i] {
			found = sc.apply(sc.rs.list[i], s, w, field, found)
		}
		if len(sc.at[i]) > 0 {
			found = sc.applyAnchored(sc.rs.list[i], s, sc.at[i], field, found)
		}
		sc.windows[i], sc.at[i] = sc.windows[i][:0], sc.at[i][:0]
	}
	return append(found[:first], dedupe(found[first:])...)
}

// apply runs one rule over the window w of s, as gitleaks' detectRule
// does: the secret is the rule's secret group (or its first non-empty
// group, or the match), kept only above the rule's entropy and when no
// allowlist allows it.
func (sc *scanner) apply(rl *rule, s string, w window, field string, found []SecretDetail) []SecretDetail {
	re, err := rl.re()
	if err != nil {
		return found // every rule compiles with Go's regexp (tested)
	}
	for _, m := range re.FindAllStringSubmatchIndex(s[w.lo:w.hi], MaxSecretsPerEntry+1) {
		for k := range m {
			if m[k] >= 0 {
				m[k] += w.lo
			}
		}
		found = sc.keep(rl, s, m, field, found)
	}
	return found
}

// keep adds the secret of match m (submatch indexes into s) of rule rl to
// found unless gitleaks would not report it.
func (sc *scanner) keep(rl *rule, s string, m []int, field string, found []SecretDetail) []SecretDetail {
	match := strings.Trim(s[m[0]:m[1]], "\n")
	lo, hi := groupOf(m, rl.SecretGroup)
	secret := s[lo:hi]
	if lo == m[0] && hi == m[1] {
		secret = match
	}
	line, text := lineAt(s, m[0])
	switch {
	case strings.Contains(text, allowSignature),
		rl.Entropy != 0 && entropy(secret) <= rl.Entropy,
		sc.rs.global.allows(secret, match, text),
		allowedBy(rl.allow, secret, match, text),
		notASecret(secret, text):
		return found
	}
	return append(found, SecretDetail{Rule: rl.ID, Description: rl.Description,
		Redacted: Redact(secret), Field: field, Line: line, Start: lo, End: hi})
}

// applyAnchored runs a rule that has an anchored form (rule.anchored: the
// generic key rule) at each occurrence of its keywords in s (ascending), as
// FindAll would find its matches: an occurrence inside the last match is
// passed over, one that cannot start an assignment of a long enough value
// (assignmentAt) is not tried, and the match starts where the run of word
// characters before the keyword does (the rule's lazy [\w.-]{0,50}?
// prefix). The whole-text expression costs about a microsecond per byte
// wherever its keywords are dense ("key key key…"); this costs the
// keyword scan and a short anchored match per candidate.
func (sc *scanner) applyAnchored(rl *rule, s string, at []int, field string, found []SecretDetail) []SecretDetail {
	re, err := rl.anchored()
	if err != nil {
		return found
	}
	last, n := 0, 0
	for _, a := range at {
		if a < last || !assignmentAt(s, a) {
			continue
		}
		m := re.FindStringSubmatchIndex(s[a:min(len(s), a+anchoredSpan)])
		if m == nil {
			continue
		}
		for k := range m {
			if m[k] >= 0 {
				m[k] += a
			}
		}
		start := a
		for start > max(last, a-genericPrefix) && isWordDotDash(s[start-1]) {
			start--
		}
		m[0], last = start, m[1]
		found = sc.keep(rl, s, m, field, found)
		if n++; n > MaxSecretsPerEntry {
			break
		}
	}
	return found
}

// genericPrefix is the generic rule's [\w.-]{0,50}? before its keyword;
// anchoredSpan is more than its longest match after the keyword (keyword,
// 20 + 3 spacing, operator, 5 quotes, a 150-byte value, its end).
const (
	genericPrefix = 50
	anchoredSpan  = 512
)

// assignmentAt reports whether the text from a keyword at i can be the
// generic rule's assignment: within 33 bytes of word characters, spaces and
// quotes an operator (= > : | ? ,), then after at most 9 operator, quote or
// space bytes a run of at least 10 value bytes ([\w.=+/-]). It is a
// necessary condition, cheap to test, for the rule's expression to match.
// A byte beyond ASCII passes: the rule is case folded ((?i)), and its \w
// then holds the Kelvin sign and the long s (K and s fold to them), so
// the expression decides.
func assignmentAt(s string, i int) bool {
	end := min(len(s), i+33)
	for p := i; p < end; p++ {
		c := s[p]
		switch {
		case c >= utf8.RuneSelf:
			return true
		case c == '=' || c == '>' || c == ':' || c == '|' || c == '?' || c == ',':
			return valueAfter(s, p+1)
		case isWordDotDash(c) || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == '\'' || c == '"':
		default:
			return false
		}
	}
	return false
}

// valueAfter reports whether, after at most 9 operator, quote or space
// bytes from i, a value can follow: 10 to 160 value bytes ([\w.=+/-])
// ending before a terminator (a quote, a space, ';', '\\') or the text's
// end, or a longer run that is all base64 (the rule's only unbounded
// value). A value ends where its run does: no terminator is a value byte.
// A byte beyond ASCII in the value passes (see assignmentAt).
func valueAfter(s string, i int) bool {
	for k := 0; k < 9 && i < len(s) && strings.IndexByte("=:|>`'\" \t\n\r\f\v", s[i]) >= 0; k++ {
		i++
	}
	n, b64 := 0, true
	for ; i < len(s) && n <= 160; i, n = i+1, n+1 {
		c := s[i]
		if c >= utf8.RuneSelf {
			return true
		}
		if !isWordDotDash(c) && c != '=' && c != '+' && c != '/' {
			break
		}
		b64 = b64 && (c != '_' && c != '.' && c != '-')
	}
	switch {
	case n < 10:
		return false
	case n > 160:
		return b64
	}
	return i == len(s) || strings.IndexByte("`'\" \t\n\r\f\v;\\", s[i]) >= 0
}

// isWordDotDash reports whether c is in [\w.-] (ASCII, as in RE2).
func isWordDotDash(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '-'
}

// notASecret reports what crmem allows besides gitleaks' allowlists: a
// key that says it is an example (AKIAIOSFODNN7EXAMPLE,
// sk_test_EXAMPLE…), and a UUID on a line about an idempotency key (a
// request's id, not a credential).
func notASecret(secret, line string) bool {
	return strings.Contains(secret, "EXAMPLE") ||
		isUUID(secret) && strings.Contains(strings.ToLower(line), "idempotency")
}

// isUUID reports whether s is a UUID in its 8-4-4-4-12 hex form.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// dedupe keeps one finding per secret, as gitleaks drops a generic match
// where a specific rule matched the same text: of two findings whose
// secrets overlap, the more specific rule's (rulePriority), else the
// longer secret, else the one found first.
func dedupe(ds []SecretDetail) []SecretDetail {
	if len(ds) < 2 {
		return ds
	}
	slices.SortStableFunc(ds, func(a, b SecretDetail) int { return cmp.Compare(a.Start, b.Start) })
	out := ds[:1]
	for _, d := range ds[1:] {
		last := &out[len(out)-1]
		if d.Start >= last.End {
			out = append(out, d)
			continue
		}
		if better(d, *last) {
			*last = d
		}
	}
	return out
}

// better reports whether a is the finding to keep of two overlapping ones.
func better(a, b SecretDetail) bool {
	if pa, pb := rulePriority(a.Rule), rulePriority(b.Rule); pa != pb {
		return pa > pb
	}
	return a.End-a.Start > b.End-b.Start
}

// rulePriority ranks rules from the least specific (gitleaks' generic
// rules, then crmem's password in prose) to every other rule.
func rulePriority(id string) int {
	switch {
	case strings.HasPrefix(id, "generic"):
		return 0
	case id == "crmem-password-in-prose":
		return 1
	}
	return 2
}

func allowedBy(as []*allowlist, secret, match, line string) bool {
	for _, a := range as {
		if a.allows(secret, match, line) {
			return true
		}
	}
	return false
}

// groupOf is where the secret of a match m (submatch indexes) is: group
// g if set, else the first non-empty group, else the whole match.
func groupOf(m []int, g int) (lo, hi int) {
	if g > 0 && 2*g+1 < len(m) && m[2*g] >= 0 {
		return m[2*g], m[2*g+1]
	}
	for k := 2; k+1 < len(m); k += 2 {
		if m[k] >= 0 && m[k+1] > m[k] {
			return m[k], m[k+1]
		}
	}
	return m[0], m[1]
}

// lineAt returns the 1-based line number of offset i in s and that line,
// or of a line longer than 2×lineAround bytes, the lineAround bytes either
// side of i: gitleaks' allowlists that look at the line (a "line" target,
// the gitleaks:allow mark) look near the match, not through a megabyte of
// one-line text for each match.
func lineAt(s string, i int) (int, string) {
	n := strings.Count(s[:i], "\n") + 1
	lo := strings.LastIndexByte(s[max(0, i-lineAround):i], '\n')
	if lo < 0 {
		lo = max(0, i-lineAround)
	} else {
		lo += max(0, i-lineAround) + 1
	}
	hi := strings.IndexByte(s[i:min(len(s), i+lineAround)], '\n')
	if hi < 0 {
		return n, s[lo:min(len(s), i+lineAround)]
	}
	return n, s[lo : i+hi]
}

// lineAround bounds the line lineAt returns, either side of the offset.
const lineAround = 1 << 10

// entropy is gitleaks' Shannon entropy of a secret: over its characters,
// with frequencies relative to its length in bytes.
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	counts := map[rune]int{}
	for _, c := range s {
		counts[c]++
	}
	inv := 1 / float64(len(s))
	var h float64
	for _, c := range counts {
		f := float64(c) * inv
		h -= f * math.Log2(f)
	}
	return h
}

// Redact shows a secret without giving it away: its first and last few
// characters around an ellipsis (ghp_…x9Q2), at most a third of it in all,
// and only "…" for a secret of fewer than six characters.
func Redact(secret string) string {
	n := utf8.RuneCountInString(secret)
	keep := min(4, n/6)
	if keep == 0 {
		return "…"
	}
	rs := []rune(secret)
	return string(rs[:keep]) + "…" + string(rs[n-keep:])
}
