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

// stopTableBits sizes the stopword table: 512 slots, so a multiplier that
// sends the 49 stopwords to distinct slots is found within a few tries.
const stopTableBits = 9

// stopSet is a perfect hash of the stopwords packed by packKey: a
// multiplier giving every stopword its own slot, and the table of slots
// (zero where no stopword lives). Membership is one multiply, one load and
// one compare.
type stopSet struct {
	mul   uint32
	table [1 << stopTableBits]uint32
}

// stopHash is computed once and never written again.
var stopHash = newStopSet()

// newStopSet searches for a collision-free multiplier.
func newStopSet() *stopSet {
	h := &stopSet{}
	for h.mul = 0x9E3779B1; !h.fill(); h.mul += 2 {
	}
	return h
}

// fill places every stopword in a cleared table and reports whether no
// two collided.
func (h *stopSet) fill() bool {
	h.table = [len(h.table)]uint32{}
	for _, w := range stopwords {
		k := uint32(packKey(w))
		i := stopSlot(k, h.mul)
		if h.table[i] != 0 {
			return false
		}
		h.table[i] = k
	}
	return true
}

// stopSlot is a packed stopword's slot under multiplier mul.
func stopSlot(k, mul uint32) uint32 { return (k * mul) >> (32 - stopTableBits) }

// isStopKey reports whether a packed token (packKey) is a stopword.
func isStopKey(key uint64) bool {
	k := uint32(key)
	return key>>32 == 0 && key != 0 && stopHash.table[stopSlot(k, stopHash.mul)] == k
}

// IsStopword reports whether a lowercase term is a stopword.
func IsStopword(term string) bool { return isStopKey(packKey(term)) }
