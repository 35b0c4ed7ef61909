package sessions

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// A scan of a session step's bytes for the names a memory write's tool
// call or result gives, without decoding the step (steps.go decodes
// them): most steps name none of the names asked about, and decoding
// each was most of one entry's history (store/history) on a store with
// large sessions.

// StepNamesAny reports whether a step names one of names where a memory
// write's step names its entry: a tool call's "name" argument (in an
// object, or escaped once more in an event's or an OpenAI call's
// arguments string) and the tool's result, "remembered: NAME" or
// "forgot: NAME". Three searches of the step whatever the number of
// names, where a search per name was 80 % of one history's time on a
// store whose sessions hold 1.4 GB.
func StepNamesAny(v []byte, names map[string]bool) bool {
	for rest := v; ; {
		i := bytes.Index(rest, []byte(`name`))
		if i < 0 {
			break
		}
		rest = rest[i+4:]
		if n, ok := argumentName(rest); ok && names[string(n)] {
			return true
		}
	}
	for _, marker := range [][]byte{[]byte("remembered: "), []byte("forgot: ")} {
		for rest := v; ; {
			i := bytes.Index(rest, marker)
			if i < 0 {
				break
			}
			rest = rest[i+len(marker):]
			if t, ok := jsonStringText(rest, false); ok {
				if n, ok := unquoteName(t); ok && names[string(n)] {
					return true
				}
			}
		}
	}
	return false
}

// argumentName reads what follows a "name" key in a step: `":"NAME"`
// (spaces allowed around the colon) or the same escaped once more
// (`\\":\\"NAME\\"`), and returns NAME.
func argumentName(b []byte) ([]byte, bool) {
	escaped := false
	switch {
	case len(b) > 0 && b[0] == '"':
		b = b[1:]
	case len(b) > 1 && b[0] == '\\' && b[1] == '"':
		b, escaped = b[2:], true
	default:
		return nil, false
	}
	b = bytes.TrimLeft(b, " \t\n\r")
	if len(b) == 0 || b[0] != ':' {
		return nil, false
	}
	b = bytes.TrimLeft(b[1:], " \t\n\r")
	var t []byte
	var ok bool
	switch {
	case !escaped && len(b) > 0 && b[0] == '"':
		t, ok = jsonStringText(b[1:], false)
	case escaped && len(b) > 1 && b[0] == '\\' && b[1] == '"':
		t, ok = jsonStringText(b[2:], true)
		if ok {
			t, ok = unquoteName(t) // the inner string's text, escaped once
		}
	}
	if !ok {
		return nil, false
	}
	return unquoteName(t)
}

// jsonStringText is the text of a JSON string up to its closing quote, as it
// lies there: an unescaped '"', or, escaped (a string inside a string),
// the '\\"' that closes it.
func jsonStringText(b []byte, escaped bool) ([]byte, bool) {
	for i := 0; i < len(b); {
		switch {
		case b[i] == '\\' && i+1 < len(b) && escaped && b[i+1] == '"':
			return b[:i], true
		case b[i] == '\\' && escaped && i+2 < len(b) && b[i+1] == '\\' && b[i+2] == '\\':
			i += 4 // the inner string's escaped '\\' or '"'
		case b[i] == '\\':
			i += 2
		case b[i] == '"' && !escaped:
			return b[:i], true
		default:
			i++
		}
	}
	return nil, false
}

// unquoteName decodes a JSON string's text: as it is when it holds no escape
// (most names: nothing allocated), else as encoding/json reads it.
func unquoteName(t []byte) ([]byte, bool) {
	if bytes.IndexByte(t, '\\') < 0 {
		return t, utf8.Valid(t)
	}
	var s string
	q := make([]byte, 0, len(t)+2)
	q = append(append(append(q, '"'), t...), '"')
	if json.Unmarshal(q, &s) != nil {
		return nil, false
	}
	return []byte(s), true
}
