package export

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/crmem/crmem/store"
)

// Imported is the result of reading a foreign memory: the entries (ids from
// 1 in reading order) and notices for the user about what was skipped or
// renamed.
type Imported struct {
	Entries []store.Entry
	Notices []string
}

// mdFile is one markdown file of a legacy tree, read and split.
type mdFile struct {
	rel   string // path shown in messages, relative to the tree
	stem  string // file name without .md
	fm    frontMatter
	body  string
	mtime time.Time
}

// readMarkdown reads a legacy entry file: UTF-8, optional BOM, CRLF or LF,
// optional YAML frontmatter. Errors name the file (and line).
func readMarkdown(t *tree, rel string) (mdFile, error) {
	path := filepath.Join(t.root, rel)
	data, fi, err := t.readFile(rel)
	if err != nil {
		return mdFile{}, pathError(err)
	}
	if !utf8.Valid(data) {
		return mdFile{}, fmt.Errorf("%s: not valid UTF-8", path)
	}
	text := strings.TrimPrefix(string(data), bom)
	text = strings.ReplaceAll(text, "\r\n", "\n")
	fm, body, _, err := splitFrontMatter(text)
	if err != nil {
		var le *LineError
		if errors.As(err, &le) {
			le.File = path
			return mdFile{}, le
		}
		return mdFile{}, fmt.Errorf("%s: %w", path, err)
	}
	if fm.values == nil {
		fm.values = map[string]fmValue{}
	}
	body = trimRight(strings.TrimLeft(body, "\n"))
	stem := strings.TrimSuffix(filepath.Base(rel), ".md")
	return mdFile{rel: rel, stem: stem, fm: fm, body: body, mtime: fi.ModTime()}, nil
}

// field returns a scalar frontmatter field, wrapping a list error with the
// file name.
func (f mdFile) field(root, key string) (string, error) {
	v, err := f.fm.get(key)
	if err != nil {
		return "", fmt.Errorf("%s: %w", filepath.Join(root, f.rel), err)
	}
	return v, nil
}

// extras renders the frontmatter fields not in known as "key: value" pairs,
// in file order, so that nothing is lost.
func (f mdFile) extras(known ...string) [][2]string {
	var out [][2]string
	for _, k := range f.fm.keys {
		if slices.Contains(known, k) {
			continue
		}
		v := f.fm.values[k]
		text := v.text
		if v.isList {
			text = strings.Join(v.list, ", ")
		}
		out = append(out, [2]string{k, strings.TrimSpace(text)})
	}
	return out
}

// headerLine renders fields as one markdown quote line:
// "> label · key: value · key: value". Empty values are left out.
func headerLine(label string, fields [][2]string) string {
	parts := []string{label}
	for _, f := range fields {
		if f[1] != "" {
			parts = append(parts, f[0]+": "+strings.ReplaceAll(f[1], "\n", " "))
		}
	}
	if len(parts) == 1 {
		return ""
	}
	return "> " + strings.Join(parts, " · ")
}

// joinParagraphs joins the non-empty parts with blank lines.
func joinParagraphs(parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, "\n\n")
}

// settleNames makes every name valid (store.ValidName) and unique by a
// deterministic rename. Valid names keep their first occurrence; every
// other entry, in order, is renamed: characters a file name cannot hold
// (/, \, NUL, control characters) become "-", ".." becomes ".", leading
// dots and trailing dots and spaces are dropped ("entry" if nothing is
// left), and a name already taken gets "-2", "-3", … appended. Each rename
// is returned as a notice naming the source file.
func settleNames(entries []store.Entry, sources []string) []string {
	taken := make(map[string]bool, len(entries))
	keep := make([]bool, len(entries))
	for i, e := range entries {
		if store.ValidName(e.Name) == nil && !taken[e.Name] {
			taken[e.Name], keep[i] = true, true
		}
	}
	var notices []string
	for i := range entries {
		if keep[i] {
			continue
		}
		orig := entries[i].Name
		base := sanitizeName(orig)
		reason := "not a valid entry name"
		if base == orig {
			reason = "name already taken"
		}
		name := base
		for n := 2; taken[name]; n++ {
			name = base + "-" + strconv.Itoa(n)
		}
		taken[name] = true
		entries[i].Name = name
		notices = append(notices, fmt.Sprintf("%s: renamed %q to %q (%s)", sources[i], orig, name, reason))
	}
	return notices
}

// sanitizeName applies the character rules of settleNames.
func sanitizeName(s string) string {
	if store.ValidName(s) == nil {
		return s
	}
	s = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 || unicode.IsControl(r) {
			return '-'
		}
		return r
	}, strings.ToValidUTF8(s, "-"))
	for strings.Contains(s, "..") {
		s = strings.ReplaceAll(s, "..", ".")
	}
	s = strings.TrimRight(strings.TrimLeft(s, "."), ". ")
	if s == "" || store.ValidName(s) != nil {
		return "entry"
	}
	return s
}

// slug turns a sentence into a short entry name: lower-case letters and
// digits of any script, other runs of characters as "-", at most 60
// characters, cut at a "-" when possible.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	out := []rune(b.String())
	if len(out) <= 60 {
		return string(out)
	}
	cut := string(out[:60])
	if i := strings.LastIndexByte(cut, '-'); i >= 20 {
		cut = cut[:i]
	}
	return strings.Trim(cut, "-")
}

// parseTimestamp reads a time field: unix seconds, unix milliseconds (a
// number above 1e11), or an RFC 3339 / YYYY-MM-DD date. ok is false for
// anything else.
func parseTimestamp(s string) (uint64, bool) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseFloat(s, 64); err == nil && n >= 0 {
		if n > 1e11 {
			n /= 1000
		}
		return uint64(n), true
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil && t.Unix() >= 0 {
			return uint64(t.Unix()), true
		}
	}
	return 0, false
}

// numberEntries sets ids from 1 in order.
func numberEntries(entries []store.Entry) {
	for i := range entries {
		entries[i].ID = uint64(i + 1)
	}
}

// pathError prints an os error as "<path>: <reason>", without the name of
// the system call; errors.Is still sees the reason.
func pathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Path, pe.Err)
	}
	return err
}

// checkDir fails unless dir is an existing folder.
func checkDir(dir string) error {
	fi, err := os.Stat(dir)
	if err != nil {
		return pathError(err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s: not a directory", dir)
	}
	return nil
}
