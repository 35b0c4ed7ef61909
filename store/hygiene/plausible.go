package hygiene

import "unicode/utf8"

// plausibleAt is the cheap test a rule's keyword must pass to open a window
// for its expression, for the rules whose keywords are common words or
// punctuation: a JWT's "ey" is in "they", "key" and "keys"; Vault's "s." ends every plural before a full stop ("tests.")
// and made its expression run over a third of a typical memory, the most
// costly part of lint's secret scan; "://" is every URL; "secret" and "aws"
// are in notes about secrets and AWS, where the AWS secret rule's
// expression ran over 3 MB of the 100k corpus, two fifths of the scan. Each test is a
// necessary condition for the expression to match with that keyword inside
// the match (every match holds one of its rule's keywords), so a scan finds
// what it found without it (TestScan_PlausibleSameAsPlain). nil: every
// keyword opens a window.
func plausibleAt(id string) func(s string, at int) bool {
	switch id {
	case "vault-service-token":
		return vaultTokenAt
	case "crmem-url-credentials":
		return urlCredentialsAt
	case "jwt":
		return jwtAt
	case "crmem-aws-secret-in-prose":
		return awsSecretAt
	}
	return nil
}

// vaultTokenAt tests a keyword of gitleaks' Vault service token rule,
// \b((?:hvs\.[\w-]{90,120}|s\.(?i:[a-z0-9]{24})))…, at at ("s." or "hvs.",
// matched in any case): both forms hold a lower-case "s." followed by at
// least 24 bytes of [\w-] or of non-ASCII runes ((?i:[a-z]) takes the
// Kelvin sign and the long s).
func vaultTokenAt(s string, at int) bool {
	p := at
	if s[at] == 'h' || s[at] == 'H' { // "hvs.": its "s." two bytes on
		p += 2
	}
	if p+2+24 > len(s) || s[p] != 's' || s[p+1] != '.' {
		return false
	}
	for _, c := range []byte(s[p+2 : p+2+24]) {
		if c < utf8.RuneSelf && (!isWordDotDash(c) || c == '.') {
			return false
		}
	}
	return true
}

// urlCredentialsAt tests the keyword "://" of crmem's password-in-a-URL
// rule, …://[^\s:/@'"`]{1,128}:([^\s:/@'"`]{3,128})@[a-z0-9_-]+…, at at:
// after it a run of 1 to 128 characters outside the stop set, ':', a run of
// at least 3 of them, '@' and a host byte. A run of the class ends only at a
// stop byte, so each ':' and '@' must be where its run ends; a run of more
// than 512 bytes holds more than 128 characters.
func urlCredentialsAt(s string, at int) bool {
	i := at + 3
	user := urlRun(s, i)
	if user < 1 || user > 512 || i+user >= len(s) || s[i+user] != ':' {
		return false
	}
	i += user + 1
	pass := urlRun(s, i)
	if pass < 3 || pass > 512 || i+pass+1 >= len(s) || s[i+pass] != '@' {
		return false
	}
	c := s[i+pass+1] // (?i)[a-z0-9_-]: non-ASCII too (the Kelvin sign, the long s)
	return c >= utf8.RuneSelf || isWordDotDash(c) && c != '.'
}

// urlRun is the length in bytes, at most 513, of the run from i of bytes
// outside the URL rule's stop set [\s:/@'"`] (\s being RE2's [\t\n\f\r ]).
func urlRun(s string, i int) int {
	n := 0
	for ; i+n < len(s) && n <= 512; n++ {
		switch s[i+n] {
		case '\t', '\n', '\f', '\r', ' ', ':', '/', '@', '\'', '"', '`':
			return n
		}
	}
	return n
}

// jwtAt tests the keyword "ey" of gitleaks' JWT rule,
// \b(ey[a-zA-Z0-9]{17,}\.ey…, at at: a match begins with a lower-case "ey"
// at a word boundary (an ASCII word byte before it cannot be one), followed
// by at least 17 ASCII letters and digits and a '.'. The second "ey" of a
// token fails the test, but its match's first one passes.
func jwtAt(s string, at int) bool {
	if s[at] != 'e' || s[at+1] != 'y' || at > 0 && isWordByte(s[at-1]) {
		return false
	}
	i := at + 2
	for i < len(s) && isAlnum(s[i]) {
		i++
	}
	return i-(at+2) >= 17 && i < len(s) && s[i] == '.'
}

// isWordByte reports whether c is in RE2's \w, [0-9A-Za-z_].
func isWordByte(c byte) bool { return c == '_' || isAlnum(c) }

// isAlnum reports whether c is an ASCII letter or digit.
func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// awsSecretAt tests a keyword of crmem's AWS secret in prose rule,
// (?i)\b(?:aws|secret)\b[^\n]{0,60}?(?:^|[^A-Za-z0-9/+])([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$),
// at at: the keyword is a word of its own, and one of the 61 characters
// after it (up to the first newline, which may be that one) is outside
// the key's class and begins a run of exactly 40 of it that no '=' ends.
// (^ cannot hold after the keyword.) The class is case folded, so the
// Kelvin sign and the long s are in it.
func awsSecretAt(s string, at int) bool {
	end := at + len("secret")
	if s[at]|0x20 == 'a' {
		end = at + len("aws")
	}
	if at > 0 && isWordByte(s[at-1]) || end < len(s) && isWordByte(s[end]) {
		return false
	}
	for k, p := 0, end; k <= 60 && p < len(s); k++ {
		r, w := utf8.DecodeRuneInString(s[p:])
		if !inAWSKey(r) && awsKeyAt(s, p+w) {
			return true
		}
		if r == '\n' {
			return false
		}
		p += w
	}
	return false
}

// awsKeyAt reports whether 40 characters of an AWS secret key's class
// begin at i and end there, at the end of s or before a character of
// neither the class nor '='.
func awsKeyAt(s string, i int) bool {
	for range 40 {
		if i >= len(s) {
			return false
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		if !inAWSKey(r) {
			return false
		}
		i += w
	}
	if i == len(s) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return !inAWSKey(r) && r != '='
}

// inAWSKey reports whether r is in (?i)[A-Za-z0-9/+].
func inAWSKey(r rune) bool {
	if r < utf8.RuneSelf {
		return isAlnum(byte(r)) || r == '/' || r == '+'
	}
	return r == '\u212a' || r == '\u017f' // the Kelvin sign and the long s fold to k and s
}
