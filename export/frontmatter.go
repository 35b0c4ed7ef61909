package export

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// frontMatter is the YAML header of a markdown file, limited to the subset
// the legacy memory formats use: "key: value" lines whose values are plain,
// 'single-quoted' or "double-quoted" scalars, inline lists [a, "b"], block
// lists ("- item" lines under an empty key), and | or > block scalars.
// Comments and blank lines are skipped. Anything else (nested mappings,
// flow mappings, duplicate keys) is an error naming its line.
type frontMatter struct {
	keys   []string // in file order
	values map[string]fmValue
}

// fmValue is a scalar or a list.
type fmValue struct {
	text   string
	list   []string
	isList bool
}

// get returns a scalar field ("" when absent); a list is an error.
func (f frontMatter) get(key string) (string, error) {
	v, ok := f.values[key]
	if !ok {
		return "", nil
	}
	if v.isList {
		return "", fmt.Errorf("%q must be a single value, not a list", key)
	}
	return v.text, nil
}

// getList returns a list field; a scalar counts as a one-item list.
func (f frontMatter) getList(key string) []string {
	v, ok := f.values[key]
	switch {
	case !ok:
		return nil
	case v.isList:
		return v.list
	case v.text == "":
		return nil
	}
	return []string{v.text}
}

// splitFrontMatter separates a leading "---" … "---" (or "...") header from
// the body of text, which has no BOM and LF line ends. has is false when
// the text does not start with a "---" line. Errors are *LineError with
// the line number set (File empty); the header's first line is line 1.
func splitFrontMatter(text string) (fm frontMatter, body string, has bool, err error) {
	lines := strings.SplitAfter(text, "\n")
	if len(lines) == 0 || strings.TrimRight(lines[0], " \t\n") != "---" {
		return fm, text, false, nil
	}
	for i := 1; i < len(lines); i++ {
		l := strings.TrimRight(lines[i], " \t\n")
		if l == "---" || l == "..." {
			fm, err = parseFrontMatter(lines[1:i])
			return fm, strings.Join(lines[i+1:], ""), true, err
		}
	}
	return fm, "", true, &LineError{Line: 1, Err: errors.New("frontmatter has no closing --- line")}
}

// parseFrontMatter parses the header lines (line 2 onwards of the file).
func parseFrontMatter(lines []string) (frontMatter, error) {
	fm := frontMatter{values: map[string]fmValue{}}
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], " \t\n")
		fail := func(format string, a ...any) error {
			return &LineError{Line: i + 2, Err: fmt.Errorf(format, a...)}
		}
		if t := strings.TrimSpace(line); t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			return fm, fail("unexpected indented line (nested values are not supported)")
		}
		key, rest, ok := cutKey(line)
		if !ok {
			return fm, fail("expected \"key: value\"")
		}
		if _, dup := fm.values[key]; dup {
			return fm, fail("key %q appears twice", key)
		}
		v, used, err := parseValue(rest, lines[i+1:])
		if err != nil {
			var le *LineError
			if errors.As(err, &le) {
				le.Line += i + 2
				return fm, le
			}
			return fm, fail("%s: %v", key, err)
		}
		i += used
		fm.keys = append(fm.keys, key)
		fm.values[key] = v
	}
	return fm, nil
}

// cutKey splits "key: value" at the first colon followed by a space or the
// end of the line.
func cutKey(line string) (key, rest string, ok bool) {
	for i := 0; i < len(line); i++ {
		if line[i] != ':' || (i+1 < len(line) && line[i+1] != ' ' && line[i+1] != '\t') {
			continue
		}
		key = strings.TrimSpace(line[:i])
		if k, err := unquoteScalar(key); err == nil {
			key = k
		}
		return key, strings.TrimSpace(line[i+1:]), key != ""
	}
	return "", "", false
}

// parseValue parses a value that starts on the key's line as rest and may
// continue on the following lines; used is how many of those it consumed.
// An error on a following line is a *LineError whose Line is relative to
// the key's line.
func parseValue(rest string, next []string) (v fmValue, used int, err error) {
	switch {
	case rest == "":
		return blockList(next)
	case rest[0] == '[':
		list, err := inlineList(rest)
		return fmValue{list: list, isList: true}, 0, err
	case rest[0] == '{':
		return v, 0, errors.New("flow mappings are not supported")
	case rest[0] == '|' || rest[0] == '>':
		text, used := blockScalar(rest, next)
		return fmValue{text: text}, used, nil
	}
	text, err := unquoteScalar(stripComment(rest))
	return fmValue{text: text}, 0, err
}

// blockList reads "- item" lines following an empty value. No such lines
// means an empty scalar.
func blockList(next []string) (fmValue, int, error) {
	v := fmValue{}
	used := 0
	for _, l := range next {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") {
			used++
			continue
		}
		if t != "-" && !strings.HasPrefix(t, "- ") {
			break
		}
		item, err := unquoteScalar(stripComment(strings.TrimSpace(strings.TrimPrefix(t, "-"))))
		if err != nil {
			return v, 0, &LineError{Line: used + 1, Err: err}
		}
		v.isList = true
		v.list = append(v.list, item)
		used++
	}
	if !v.isList {
		return fmValue{}, 0, nil
	}
	return v, used, nil
}

// blockScalar reads the indented lines of a | (literal) or > (folded) block;
// a "-" after the indicator drops the final newline.
func blockScalar(header string, next []string) (string, int) {
	var lines []string
	used := 0
	for _, l := range next {
		if strings.TrimSpace(l) != "" && l[0] != ' ' && l[0] != '\t' {
			break
		}
		lines = append(lines, strings.TrimRight(l, "\n"))
		used++
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
		used--
	}
	indent := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if n := len(l) - len(strings.TrimLeft(l, " \t")); indent < 0 || n < indent {
			indent = n
		}
	}
	for i, l := range lines {
		if len(l) >= indent && indent > 0 {
			lines[i] = l[indent:]
		} else {
			lines[i] = strings.TrimSpace(l)
		}
	}
	sep := "\n"
	if header[0] == '>' {
		sep = " "
	}
	text := strings.Join(lines, sep)
	if !strings.Contains(header, "-") && text != "" {
		text += "\n"
	}
	return text, used
}

// inlineList parses a one-line flow list such as [a, "b, c", 'd'].
func inlineList(s string) ([]string, error) {
	s = strings.TrimSpace(s)
	if !strings.HasSuffix(s, "]") {
		s = strings.TrimSpace(stripAfterList(s))
		if !strings.HasSuffix(s, "]") {
			return nil, errors.New("list is not closed with ] on the same line")
		}
	}
	inner := strings.TrimSpace(s[1 : len(s)-1])
	var out []string
	for inner != "" {
		item, rest, err := nextListItem(inner)
		if err != nil {
			return nil, err
		}
		out = append(out, item)
		inner = rest
	}
	return out, nil
}

// stripAfterList drops a comment after a closing ].
func stripAfterList(s string) string {
	if i := strings.LastIndex(s, "]"); i >= 0 && strings.HasPrefix(strings.TrimSpace(s[i+1:]), "#") {
		return s[:i+1]
	}
	return s
}

// nextListItem splits the first item off a flow list's inside.
func nextListItem(s string) (item, rest string, err error) {
	end := len(s)
	if s[0] == '"' || s[0] == '\'' {
		q := closingQuote(s)
		if q < 0 {
			return "", "", errors.New("unterminated quoted string in list")
		}
		end = q + 1
		if after := strings.TrimSpace(s[end:]); after != "" && after[0] != ',' {
			return "", "", errors.New("text after a quoted list item")
		}
		if i := strings.IndexByte(s[end:], ','); i >= 0 {
			end += i
		} else {
			end = len(s)
		}
	} else if i := strings.IndexByte(s, ','); i >= 0 {
		end = i
	}
	item, err = unquoteScalar(strings.TrimSpace(s[:end]))
	if err != nil {
		return "", "", err
	}
	rest = strings.TrimSpace(strings.TrimPrefix(s[end:], ","))
	if strings.ContainsAny(item, "[]") && s[0] != '"' && s[0] != '\'' {
		return "", "", errors.New("nested lists are not supported")
	}
	return item, rest, nil
}

// unquoteScalar decodes a scalar: double-quoted (Go/YAML escapes),
// single-quoted (” is a quote) or plain ("~" and "null" are empty).
func unquoteScalar(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	switch s[0] {
	case '"', '\'':
		q := closingQuote(s)
		if q < 0 {
			return "", errors.New("unterminated quoted string")
		}
		if strings.TrimSpace(s[q+1:]) != "" {
			return "", fmt.Errorf("text after the closing quote: %q", s[q+1:])
		}
		if s[0] == '\'' {
			return strings.ReplaceAll(s[1:q], "''", "'"), nil
		}
		v, err := strconv.Unquote(strings.ReplaceAll(s[:q+1], `\/`, "/"))
		if err != nil {
			return "", fmt.Errorf("bad escape in %s", s[:q+1])
		}
		return v, nil
	}
	if s == "~" || s == "null" {
		return "", nil
	}
	return s, nil
}

// closingQuote returns the index of the quote closing the string that s
// starts with, or -1.
func closingQuote(s string) int {
	q := s[0]
	for i := 1; i < len(s); i++ {
		switch {
		case q == '"' && s[i] == '\\':
			i++
		case s[i] == q && q == '\'' && i+1 < len(s) && s[i+1] == '\'':
			i++
		case s[i] == q:
			return i
		}
	}
	return -1
}

// stripComment removes a " #" comment from a plain or quoted scalar.
func stripComment(s string) string {
	start := 0
	if s != "" && (s[0] == '"' || s[0] == '\'') {
		if q := closingQuote(s); q >= 0 {
			start = q + 1
		}
	}
	if i := strings.Index(s[start:], " #"); i >= 0 {
		return strings.TrimSpace(s[:start+i])
	}
	return s
}
