package sessions

import (
	"bytes"
	"encoding/binary"
	"unicode/utf8"
	"unsafe"
)

// scanFastDoc decodes a step as json.Unmarshal decodes it into a fastDoc,
// for the steps written as crabtalk writes them, in one pass that copies
// each string once: a recall's result, most of a session's bytes, was
// scanned three times by encoding/json (validated, then decoded, then
// unquoted), a fifth of a `recalls --report`'s CPU. ok is false for
// anything it does not read exactly as json.Unmarshal would (a null, a
// key repeated or spelt in another case, an escaped key, a string with a
// surrogate escape or bytes that are not UTF-8, a marker step, an
// OpenAI-shaped message, nesting past maxScanDepth) and for what is not
// JSON: the caller then decodes with encoding/json. Pinned by
// TestScanFastDoc_AsUnmarshal and, through parseStepAs, by
// FuzzParseRecallStep_FastSameAsSlow.
func scanFastDoc(data []byte) (d fastDoc, ok bool) { return scanFastDocIn(data, nil, nil) }

// scanFastDocIn is scanFastDoc reading the content of each tool result
// into arena (stepScanner.arena) and the message's blocks into blocks
// (stepScanner.blocks) when they are not nil.
func scanFastDocIn(data []byte, arena *[]byte, blocks *[]fastBlock) (d fastDoc, ok bool) {
	s := stepScanner{data: data, arena: arena, blocks: blocks}
	s.ws()
	var seen uint8
	ok = s.object(func(key string) bool {
		var bit uint8
		switch key {
		case "agent":
			bit, ok = 1, s.str(&d.Agent)
		case "message":
			bit = 2
			d.Message = &fastMessage{}
			ok = s.message(d.Message)
		case "event":
			bit, ok = 4, s.str(&d.Event)
		case "calls":
			bit = 8
			ok = s.array(func() bool {
				var c traceCall
				if !s.traceCall(&c) {
					return false
				}
				d.Calls = append(d.Calls, c)
				return true
			})
			if ok && d.Calls == nil {
				d.Calls = []traceCall{}
			}
		case "ts":
			bit, ok = 16, s.str(&d.TS)
		default:
			return !foldsTo(key, "agent", "message", "event", "calls", "ts", "archive_name", "compact") && s.skip(0)
		}
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		return ok
	})
	s.ws()
	return d, ok && s.i == len(s.data)
}

// scanStepKind is checkStep's reading of a step that holds nothing about
// recalls, in one pass: a message with a role or an event is read by
// crabtalk (stepOther), anything else is not (stepUnparsable). ok is false
// for what it does not read exactly as checkStep's json.Unmarshal would
// (as scanFastDoc declines, and markers): checkStep then decodes.
func scanStepKind(data []byte) (kind stepKind, ok bool) {
	s := stepScanner{data: data}
	s.ws()
	var seen uint8
	role, event := false, false
	ok = s.object(func(key string) bool {
		var bit uint8
		ok := false
		switch key {
		case "message":
			bit = 1
			var roles uint8
			ok = s.object(func(key string) bool {
				if key == "role" {
					roles++
					_, ok := s.text(false)
					role = true
					return ok && roles == 1
				}
				return !foldsTo(key, "role") && s.skip(1)
			})
		case "event":
			bit = 2
			_, ok = s.text(false)
			event = true
		default:
			return !foldsTo(key, "message", "event", "archive_name", "compact") && s.skip(0)
		}
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		return ok
	})
	s.ws()
	if !ok || s.i != len(s.data) {
		return 0, false
	}
	if role || event {
		return stepOther, true
	}
	return stepUnparsable, true
}

// maxScanDepth bounds the nesting scanFastDoc reads (encoding/json's own
// bound is 10,000).
const maxScanDepth = 500

// stepScanner reads JSON from data at i.
type stepScanner struct {
	data []byte
	i    int
	// arena, when not nil, is where a tool result's content is read: its
	// string is a view of the arena, not a copy of its own, valid until
	// the arena is read over (RecallBuilder.AddStep: the next step). A
	// recall's result is most of a session's bytes, and only its names
	// and the starts of its blocks are kept; as strings of their own they
	// were a fifteenth of recalls --report's allocations, every page new.
	arena *[]byte
	// blocks, when not nil, is where a message's blocks are read: the
	// message's Content is a view of it, read over by the next step
	// (RecallBuilder.AddStep), whose blocks are copied out (addBlocks)
	// before. A list of blocks made for each step was a fortieth of
	// recalls --report's allocations.
	blocks *[]fastBlock
}

// ws skips whitespace as JSON defines it.
func (s *stepScanner) ws() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// next reports whether the next byte is c, and takes it if so.
func (s *stepScanner) next(c byte) bool {
	if s.i < len(s.data) && s.data[s.i] == c {
		s.i++
		return true
	}
	return false
}

// object reads an object, calling field with each key, the scanner at
// its value (field reads it).
func (s *stepScanner) object(field func(key string) bool) bool {
	if !s.next('{') {
		return false
	}
	s.ws()
	if s.next('}') {
		return true
	}
	for {
		key, ok := s.key()
		if !ok {
			return false
		}
		s.ws()
		if !s.next(':') {
			return false
		}
		s.ws()
		if !field(key) {
			return false
		}
		s.ws()
		if s.next('}') {
			return true
		}
		if !s.next(',') {
			return false
		}
		s.ws()
	}
}

// key reads an object's key: printable ASCII without escapes only (an
// escaped key, or one whose case folding encoding/json matches beyond
// ASCII, is left to it).
func (s *stepScanner) key() (string, bool) {
	if !s.next('"') {
		return "", false
	}
	start := s.i
	for s.i < len(s.data) {
		c := s.data[s.i]
		switch {
		case c == '"':
			s.i++
			return keyText(s.data[start : s.i-1]), true
		case c == '\\' || c < 0x20 || c >= 0x80:
			return "", false
		}
		s.i++
	}
	return "", false
}

// keyText is a key as a string: the keys crabtalk's steps hold are
// constants, not a string made for each of the thousand keys of a
// session (a switch on string(b) makes none).
func keyText(b []byte) string {
	switch string(b) {
	case "message":
		return "message"
	case "role":
		return "role"
	case "content":
		return "content"
	case "type":
		return "type"
	case "text":
		return "text"
	case "id":
		return "id"
	case "name":
		return "name"
	case "input":
		return "input"
	case "tool_use_id":
		return "tool_use_id"
	case "arguments":
		return "arguments"
	case "query":
		return "query"
	case "limit":
		return "limit"
	case "event":
		return "event"
	case "calls":
		return "calls"
	case "ts":
		return "ts"
	case "agent":
		return "agent"
	}
	return string(b)
}

// foldsTo reports whether key is one of names but for ASCII case: a key
// encoding/json would take for that field, left to it.
func foldsTo(key string, names ...string) bool {
	for _, n := range names {
		if len(key) == len(n) && bytes.EqualFold([]byte(key), []byte(n)) {
			return true
		}
	}
	return false
}

// array reads an array, calling elem at each element.
func (s *stepScanner) array(elem func() bool) bool {
	if !s.next('[') {
		return false
	}
	s.ws()
	if s.next(']') {
		return true
	}
	for {
		if !elem() {
			return false
		}
		s.ws()
		if s.next(']') {
			return true
		}
		if !s.next(',') {
			return false
		}
		s.ws()
	}
}

// message reads a fastMessage.
func (s *stepScanner) message(m *fastMessage) bool {
	var seen uint8
	return s.object(func(key string) bool {
		var bit uint8
		ok := false
		switch key {
		case "role":
			bit, ok = 1, s.str(&m.Role)
		case "content":
			bit = 2
			if s.blocks != nil {
				m.Content = (*s.blocks)[:0]
			}
			ok = s.array(func() bool {
				m.Content = append(m.Content, fastBlock{})
				return s.block(&m.Content[len(m.Content)-1])
			})
			if s.blocks != nil && cap(m.Content) > cap(*s.blocks) {
				*s.blocks = m.Content[:0]
			}
			if ok && m.Content == nil {
				m.Content = []fastBlock{}
			}
		case "tool_call_id":
			bit, ok = 4, s.str(&m.ToolCallID)
		default:
			return !foldsTo(key, "role", "content", "tool_calls", "tool_call_id") && s.skip(0)
		}
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		return ok
	})
}

// block reads a fastBlock.
func (s *stepScanner) block(b *fastBlock) bool {
	var seen uint8
	return s.object(func(key string) bool {
		var bit uint8
		ok := false
		switch key {
		case "type":
			bit, ok = 1, s.str(&b.Type)
		case "text":
			bit, ok = 2, s.str(&b.Text)
		case "id":
			bit, ok = 4, s.str(&b.ID)
		case "name":
			bit, ok = 8, s.str(&b.Name)
		case "input":
			bit = 16
			start := s.i
			if ok = s.skip(0) && s.data[start] != 'n'; ok { // null is left to encoding/json
				// Not a copy: a call's arguments are decoded (copied)
				// before the step's bytes are read over (addCall).
				b.Input = s.data[start:s.i]
			}
		case "tool_use_id":
			bit, ok = 32, s.str(&b.ToolUseID)
		case "content":
			bit = 64
			var text string
			if s.arena != nil {
				text, ok = s.arenaText()
			} else {
				ok = s.str(&text)
			}
			if ok {
				b.Content = &text
			}
		default:
			return !foldsTo(key, "type", "text", "id", "name", "input", "tool_use_id", "content") && s.skip(0)
		}
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		return ok
	})
}

// traceCall reads a tool_start event's call.
func (s *stepScanner) traceCall(c *traceCall) bool {
	var seen uint8
	return s.object(func(key string) bool {
		var bit uint8
		ok := false
		switch key {
		case "id":
			bit, ok = 1, s.str(&c.ID)
		case "name":
			bit, ok = 2, s.str(&c.Name)
		default:
			return !foldsTo(key, "id", "name") && s.skip(0)
		}
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		return ok
	})
}

// plainByte is true for the bytes a JSON string holds as they are: not
// a quote, a backslash, a control character or the start of a UTF-8
// sequence.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// plainEnd is where the run of plain bytes (plainByte) from i ends:
// eight bytes at a time while a word holds none but plain ones, then
// byte by byte. A recall's result is most of a session's bytes, long
// runs of text between its escaped newlines.
func plainEnd(data []byte, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(data); i += 8 {
		v := binary.LittleEndian.Uint64(data[i:])
		q, b := v^('"'*ones), v^('\\'*ones)
		// A byte of 0x80 or more, or below 0x20 (a borrow from it may
		// flag a byte above, never one when there is none), or a zero
		// byte of q or b (a quote, a backslash).
		if (v|(v-0x20*ones)&^v|(q-ones)&^q|(b-ones)&^b)&highs != 0 {
			break
		}
	}
	for i < len(data) && plainByte[data[i]] {
		i++
	}
	return i
}

// str reads a string into dst (a null, or any other value, is not one).
func (s *stepScanner) str(dst *string) bool {
	out, ok := s.text(true)
	if ok {
		*dst = out
	}
	return ok
}

// text reads a string: with keep, its text, else only checks it (and
// returns "").
func (s *stepScanner) text(keep bool) (string, bool) {
	if !s.next('"') {
		return "", false
	}
	data := s.data
	start := s.i
	s.i = plainEnd(data, s.i)
	if s.i < len(data) && data[s.i] == '"' {
		s.i++
		if !keep {
			return "", true
		}
		return string(data[start : s.i-1]), true
	}
	var out []byte
	if keep {
		out = make([]byte, 0, rawLen(data, s.i)+s.i-start) // the text is at most its escaped length
		out = append(out, data[start:s.i]...)
	}
	out, ok := s.unescape(out, keep)
	if !ok || len(out) == 0 {
		return "", ok
	}
	// out is this string's alone, as a strings.Builder's bytes are.
	return unsafe.String(&out[0], len(out)), true
}

// arenaText is text(true) read into s.arena: a view of it.
func (s *stepScanner) arenaText() (string, bool) {
	if !s.next('"') {
		return "", false
	}
	data := s.data
	start := s.i
	s.i = plainEnd(data, s.i)
	a := *s.arena
	from := len(a)
	a = append(a, data[start:s.i]...)
	ok := true
	if s.i < len(data) && data[s.i] == '"' {
		s.i++
	} else {
		a, ok = s.unescape(a, true)
	}
	if !ok {
		*s.arena = a[:from]
		return "", false
	}
	*s.arena = a
	if len(a) == from {
		return "", true
	}
	// A view: appending to the arena past its capacity moves it, and
	// leaves this string's bytes where they are.
	return unsafe.String(&a[from], len(a)-from), true
}

// unescape reads the rest of a string from s.i, where a run of plain
// bytes ends, through its closing quote, appending its text to out when
// keep is set.
func (s *stepScanner) unescape(out []byte, keep bool) ([]byte, bool) {
	data := s.data
	for s.i < len(data) {
		run := s.i
		s.i = plainEnd(data, s.i)
		if keep {
			out = append(out, data[run:s.i]...)
		}
		if s.i == len(data) {
			return out, false
		}
		c := data[s.i]
		switch {
		case c == '"':
			s.i++
			return out, true
		case c < 0x20:
			return out, false
		case c >= 0x80:
			r, n := utf8.DecodeRune(data[s.i:])
			if r == utf8.RuneError && n == 1 {
				return out, false // encoding/json would put U+FFFD in its place
			}
			if keep {
				out = append(out, data[s.i:s.i+n]...)
			}
			s.i += n
		default: // a backslash
			if s.i+1 >= len(data) {
				return out, false
			}
			e := data[s.i+1]
			s.i += 2
			switch e {
			case '"', '\\', '/':
			case 'b':
				e = '\b'
			case 'f':
				e = '\f'
			case 'n':
				e = '\n'
			case 'r':
				e = '\r'
			case 't':
				e = '\t'
			case 'u':
				r, ok := s.hex4()
				if !ok || 0xD800 <= r && r < 0xE000 {
					return out, false // surrogates are left to encoding/json
				}
				if keep {
					out = utf8.AppendRune(out, r)
				}
				continue
			default:
				return out, false
			}
			if keep {
				out = append(out, e)
			}
		}
	}
	return out, false
}

// rawLen is how many bytes from i a string's closing quote is (a quote
// after an even run of backslashes), or what is left of data without one.
func rawLen(data []byte, i int) int {
	for j := i; ; {
		k := bytes.IndexByte(data[j:], '"')
		if k < 0 {
			return len(data) - i
		}
		j += k
		back := 0
		for back < j-i && data[j-1-back] == '\\' {
			back++
		}
		if back%2 == 0 {
			return j - i
		}
		j++
	}
}

// hex4 reads the four hex digits of a \u escape.
func (s *stepScanner) hex4() (rune, bool) {
	if s.i+4 > len(s.data) {
		return 0, false
	}
	var r rune
	for _, c := range s.data[s.i : s.i+4] {
		switch {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'a' <= c && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	s.i += 4
	return r, true
}

// skip reads any value, checking it is JSON, at nesting depth.
func (s *stepScanner) skip(depth int) bool {
	if s.i >= len(s.data) || depth > maxScanDepth {
		return false
	}
	switch c := s.data[s.i]; {
	case c == '{':
		return s.object(func(string) bool { return s.skip(depth + 1) })
	case c == '[':
		return s.array(func() bool { return s.skip(depth + 1) })
	case c == '"':
		_, ok := s.text(false)
		return ok
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	case c == '-' || '0' <= c && c <= '9':
		return s.number()
	}
	return false
}

func (s *stepScanner) literal(word string) bool {
	if !bytes.HasPrefix(s.data[s.i:], []byte(word)) {
		return false
	}
	s.i += len(word)
	return true
}

// number reads a number as JSON writes one: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *stepScanner) number() bool {
	s.next('-')
	switch {
	case s.next('0'):
	case s.i < len(s.data) && '1' <= s.data[s.i] && s.data[s.i] <= '9':
		s.digits()
	default:
		return false
	}
	if s.next('.') && !s.digits() {
		return false
	}
	if s.next('e') || s.next('E') {
		if !s.next('+') {
			s.next('-')
		}
		if !s.digits() {
			return false
		}
	}
	return true
}

// digits reads one or more digits.
func (s *stepScanner) digits() bool {
	start := s.i
	for s.i < len(s.data) && '0' <= s.data[s.i] && s.data[s.i] <= '9' {
		s.i++
	}
	return s.i > start
}
