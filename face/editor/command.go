package editor

import (
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// fallbackEditor runs when neither $VISUAL nor $EDITOR is set.
const fallbackEditor = "vi"

// Command returns the editor's argv: $VISUAL, else $EDITOR, else vi. The
// variable may hold arguments ("code -w", "nvim -u NONE") and is split the
// way a shell splits words; a value that is itself the path of an executable
// (one containing spaces, say) is used whole.
func Command(getenv func(string) string) ([]string, error) {
	for _, name := range []string{"VISUAL", "EDITOR"} {
		v := strings.TrimSpace(getenv(name))
		if v == "" {
			continue
		}
		argv, err := commandFrom(v)
		if err != nil {
			return nil, fmt.Errorf("$%s: %w", name, err)
		}
		return argv, nil
	}
	return []string{fallbackEditor}, nil
}

// commandFrom turns one variable's value into argv.
func commandFrom(v string) ([]string, error) {
	if isPlainPath(v) {
		return []string{v}, nil
	}
	return Split(v)
}

// isPlainPath reports whether v, taken whole, names an executable although it
// contains blanks ("/opt/My Editor/edit"): such a value is not split.
func isPlainPath(v string) bool {
	if !strings.ContainsAny(v, " \t") || strings.ContainsAny(v, `'"\`) {
		return false
	}
	_, err := exec.LookPath(v)
	return err == nil
}

// errUnterminated is returned by Split for an unclosed quote or a trailing
// backslash.
var errUnterminated = errors.New("unterminated quote or escape")

// Split splits s into words as a POSIX shell does, without expansions:
// blanks separate words, '…' quotes literally, "…" quotes with \ escaping
// " \ $ and `, and \ outside quotes escapes the next character.
func Split(s string) ([]string, error) {
	var (
		words []string
		cur   strings.Builder
		inW   bool // a word has started (even an empty quoted one)
	)
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == ' ' || r == '\t' || r == '\n':
			if inW {
				words = append(words, cur.String())
				cur.Reset()
				inW = false
			}
		case r == '\\':
			if i+1 >= len(rs) {
				return nil, errUnterminated
			}
			i++
			cur.WriteRune(rs[i])
			inW = true
		case r == '\'':
			end := indexRune(rs, i+1, '\'')
			if end < 0 {
				return nil, errUnterminated
			}
			cur.WriteString(string(rs[i+1 : end]))
			i, inW = end, true
		case r == '"':
			end, err := doubleQuoted(rs, i+1, &cur)
			if err != nil {
				return nil, err
			}
			i, inW = end, true
		default:
			cur.WriteRune(r)
			inW = true
		}
	}
	if inW {
		words = append(words, cur.String())
	}
	if len(words) == 0 {
		return nil, errors.New("empty editor command")
	}
	return words, nil
}

// indexRune finds r in rs from start, or -1.
func indexRune(rs []rune, start int, r rune) int {
	for j := start; j < len(rs); j++ {
		if rs[j] == r {
			return j
		}
	}
	return -1
}

// doubleQuoted copies a "…" section starting after its opening quote into
// cur and returns the index of the closing quote.
func doubleQuoted(rs []rune, start int, cur *strings.Builder) (int, error) {
	for j := start; j < len(rs); j++ {
		switch rs[j] {
		case '"':
			return j, nil
		case '\\':
			if j+1 < len(rs) && strings.ContainsRune("\"\\$`", rs[j+1]) {
				j++
			}
		}
		cur.WriteRune(rs[j])
	}
	return 0, errUnterminated
}

// waitFlags returns the wait flags of a GUI editor that returns at once
// unless given one of them (only for such editors is a quick return worth
// a hint); ok is false for any other command.
func waitFlags(name string) (flags []string, ok bool) {
	switch name {
	case "code", "code-insiders", "codium", "cursor", "subl", "zed", "atom", "mate", "bbedit":
		return []string{"-w", "--wait"}, true
	case "gvim", "mvim":
		return []string{"-f", "--nofork"}, true
	case "gedit":
		return []string{"-s", "--standalone", "--wait"}, true
	case "kate":
		return []string{"-b", "--block"}, true
	case "idea":
		return []string{"--wait"}, true
	case "open":
		return []string{"-W", "--wait-apps"}, true
	}
	return nil, false
}

// forksWithoutWait reports whether argv runs a GUI editor known to fork
// without its wait flag.
func forksWithoutWait(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	flags, ok := waitFlags(filepath.Base(argv[0]))
	if !ok {
		return false
	}
	for _, a := range argv[1:] {
		if slices.Contains(flags, a) {
			return false
		}
	}
	return true
}
