package bm25

// stopwords are the reference's stopwords (SPEC §4). All are ASCII and at
// most four bytes long.
var stopwords = [...]string{
	"a", "an", "the", "is", "it", "in", "of", "to", "and", "or",
	"for", "on", "at", "by", "with", "as", "be", "was", "are", "been",
	"has", "had", "have", "do", "does", "did", "but", "not", "no", "if",
	"so", "from", "that", "this", "then", "than", "into", "its", "my", "me",
	"we", "he", "she", "they", "you", "your", "our", "his", "her",
}

// stopTableBits sizes the stopword hash table (a power of two well above
// the number of stopwords, so probes are short).
const stopTableBits = 7

// stopTable is an open-addressing set of the stopwords packed by packShort;
// zero marks an empty slot. It is computed once and never written again.
var stopTable = func() (t [1 << stopTableBits]uint32) {
	for _, w := range stopwords {
		k := uint32(packKey(w))
		i := stopSlot(k)
		for t[i] != 0 {
			i = (i + 1) & (len(t) - 1)
		}
		t[i] = k
	}
	return t
}()

// stopSlot is a packed key's home slot.
func stopSlot(k uint32) int {
	return int((k * 0x9E3779B1) >> (32 - stopTableBits))
}

// isStopKey reports whether a packed token (packKey) is a stopword.
func isStopKey(key uint64) bool {
	if key == 0 || key>>32 != 0 {
		return false
	}
	k := uint32(key)
	for i := stopSlot(k); ; i = (i + 1) & (len(stopTable) - 1) {
		switch stopTable[i] {
		case k:
			return true
		case 0:
			return false
		}
	}
}

// IsStopword reports whether a lowercase term is a stopword.
func IsStopword(term string) bool { return isStopKey(packKey(term)) }
