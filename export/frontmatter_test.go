package export

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestSplitFrontMatter(t *testing.T) {
	tests := []struct {
		name, in string
		want     map[string]fmValue
		body     string
		has      bool
	}{
		{"none", "# Title\nbody", nil, "# Title\nbody", false},
		{"empty", "---\n---\nbody", map[string]fmValue{}, "body", true},
		{"scalars", "---\nname: Entry Name\ndescription: a: b: c\n---\nbody\n",
			map[string]fmValue{"name": {text: "Entry Name"}, "description": {text: "a: b: c"}}, "body\n", true},
		{"quotes", "---\na: \"x: \\\"y\\\" \\u00e9\"\nb: 'it''s # not a comment'\nc: plain # comment\nd: ~\ne: \"\"\n---\n",
			map[string]fmValue{"a": {text: `x: "y" é`}, "b": {text: "it's # not a comment"}, "c": {text: "plain"}, "d": {}, "e": {}}, "", true},
		{"url value", "---\nsource: https://example.com/x#frag\n---\n",
			map[string]fmValue{"source": {text: "https://example.com/x#frag"}}, "", true},
		{"inline list", "---\ntags: [a, \"b, c\", 'd', e f]\nempty: []\n---\n",
			map[string]fmValue{"tags": {list: []string{"a", "b, c", "d", "e f"}, isList: true}, "empty": {isList: true}}, "", true},
		{"block list", "---\ntags:\n  - one\n  - \"two\"\n# comment\n- three\nnext: x\n---\n",
			map[string]fmValue{"tags": {list: []string{"one", "two", "three"}, isList: true}, "next": {text: "x"}}, "", true},
		{"empty value", "---\nsummary:\nkind: user\n---\n",
			map[string]fmValue{"summary": {}, "kind": {text: "user"}}, "", true},
		{"block scalars", "---\nlit: |\n  line one\n  line two\nfold: >-\n  a\n  b\nx: y\n---\n",
			map[string]fmValue{"lit": {text: "line one\nline two\n"}, "fold": {text: "a b"}, "x": {text: "y"}}, "", true},
		{"dots close", "---\na: 1\n...\nbody", map[string]fmValue{"a": {text: "1"}}, "body", true},
		{"quoted key", "---\n\"odd key\": v\n---\n", map[string]fmValue{"odd key": {text: "v"}}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fm, body, has, err := splitFrontMatter(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if has != tt.has || body != tt.body {
				t.Errorf("has %v body %q, want %v %q", has, body, tt.has, tt.body)
			}
			if tt.want != nil && !reflect.DeepEqual(fm.values, tt.want) {
				t.Errorf("values %#v\nwant %#v", fm.values, tt.want)
			}
		})
	}
}

func TestSplitFrontMatter_Errors(t *testing.T) {
	tests := []struct {
		name, in string
		line     int
		want     string
	}{
		{"unclosed", "---\nname: x\nbody", 1, "no closing"},
		{"no colon", "---\nname x\n---\n", 2, `expected "key: value"`},
		{"nested", "---\nmeta:\n  a: b\n---\n", 3, "nested"},
		{"duplicate", "---\na: 1\nb: 2\na: 3\n---\n", 4, "twice"},
		{"unterminated quote", "---\na: \"abc\n---\n", 2, "unterminated"},
		{"text after quote", "---\na: 'x' y\n---\n", 2, "after the closing quote"},
		{"open list", "---\na: [x, y\n---\n", 2, "not closed"},
		{"flow map", "---\na: {b: c}\n---\n", 2, "flow mappings"},
		{"bad escape", "---\na: \"\\q\"\n---\n", 2, "bad escape"},
		{"bad list item", "---\ntags:\n  - 'x\n---\n", 3, "unterminated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, _, err := splitFrontMatter(tt.in)
			var le *LineError
			if !errors.As(err, &le) || le.Line != tt.line || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want line %d mentioning %q", err, tt.line, tt.want)
			}
		})
	}
}
