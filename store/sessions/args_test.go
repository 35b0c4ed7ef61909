package sessions

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// argsCases are recall arguments as crabtalk writes them and as it might
// not: every limit form, keys repeated or in another case, escapes, nulls,
// other values, what is not JSON.
var argsCases = []string{
	`{"query":"deploy steps"}`,
	`{"query":"deploy steps","limit":3}`,
	` { "limit" : 10 , "query" : "a b" } `,
	`{"query":"q","limit":0}`,
	`{"query":"q","limit":18446744073709551615}`,
	`{"query":"q","limit":18446744073709551616}`,
	`{"query":"q","limit":-1}`,
	`{"query":"q","limit":1.5}`,
	`{"query":"q","limit":1e3}`,
	`{"query":"q","limit":"5"}`,
	`{"query":"q","limit":null}`,
	`{"query":"q","limit":true}`,
	`{"query":"q","limit":[1]}`,
	`{"query":"q","limit":01}`,
	`{"query":null}`,
	`{"query":5}`,
	`{"query":""}`,
	`{}`,
	`{"limit":3}`,
	`{"query":"a","query":"b"}`,
	`{"query":"a","limit":1,"limit":2}`,
	`{"Query":"a"}`,
	`{"QUERY":"a","limit":2}`,
	`{"query":"a","LIMIT":2}`,
	`{"qu\u0065ry":"a"}`,
	`{"query":"tab\tnewline\n quote\" slash\/ \u00e9 \u0000"}`,
	`{"query":"\ud83d\ude00"}`,
	`{"query":"\ud800"}`,
	"{\"query\":\"\xff\"}",
	`{"query":"a","other":{"x":[1,{"y":null}],"z":"w"}}`,
	`{"query":"a"} x`,
	`{"query":"a"`,
	`{"query":"a",}`,
	`["query"]`,
	`null`,
	``,
	`{"query":"a","limit":}`,
	`{"query":"a","limit":-}`,
	`{"query":"a","limit":2 }`,
}

// TestScanRecallArgs_AsUnmarshal pins that parseArgs, which reads the
// arguments crabtalk writes in one pass, gives the call encoding/json's
// reading gives (parseArgsSlow): on crafted arguments and on thousands of
// bytes changed in them (a fixed seed: deterministic); and that it takes
// the one pass for the shapes crabtalk writes.
func TestScanRecallArgs_AsUnmarshal(t *testing.T) {
	same := func(input []byte) {
		t.Helper()
		if got, want := parseArgs("c", input), parseArgsSlow("c", input); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: one pass %+v, encoding/json %+v", input, got, want)
		}
	}
	for _, c := range argsCases {
		same([]byte(c))
	}
	r := rand.New(rand.NewPCG(5, 9))
	alphabet := []byte(`{}[]":,\ 0123456789-+.eEnulltrufaseqyimQ`)
	for range 20000 {
		b := []byte(argsCases[r.IntN(len(argsCases))])
		for range 1 + r.IntN(3) {
			if len(b) == 0 {
				b = append(b, alphabet[r.IntN(len(alphabet))])
				continue
			}
			switch i := r.IntN(len(b)); r.IntN(3) {
			case 0:
				b[i] = alphabet[r.IntN(len(alphabet))]
			case 1:
				b = append(b[:i], b[i+1:]...)
			default:
				b = append(b[:i], append([]byte{alphabet[r.IntN(len(alphabet))]}, b[i:]...)...)
			}
		}
		same(b)
	}
	for _, c := range []string{`{"query":"deploy steps"}`, `{"query":"a \"b\"\n","limit":7}`, ` { "limit" : 10 , "query" : "x" } `} {
		if _, _, ok := scanRecallArgs([]byte(c)); !ok {
			t.Errorf("%s: not read in one pass", c)
		}
	}
}
