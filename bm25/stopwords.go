package bm25

// isStopword reports whether a lowercase token is one of the reference's
// stopwords (SPEC §4). The switch on string(tok) does not allocate.
func isStopword(tok []byte) bool {
	if len(tok) > 4 {
		return false
	}
	switch string(tok) {
	case "a", "an", "the", "is", "it", "in", "of", "to", "and", "or",
		"for", "on", "at", "by", "with", "as", "be", "was", "are", "been",
		"has", "had", "have", "do", "does", "did", "but", "not", "no", "if",
		"so", "from", "that", "this", "then", "than", "into", "its", "my", "me",
		"we", "he", "she", "they", "you", "your", "our", "his", "her":
		return true
	}
	return false
}

// IsStopword reports whether a lowercase term is a stopword.
func IsStopword(term string) bool { return isStopword([]byte(term)) }
