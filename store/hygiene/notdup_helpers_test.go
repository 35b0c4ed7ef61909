package hygiene

// What only the tests do to a not-duplicates file: a pair is never
// forgotten by crmem (lint and the screen only add).

// Remove forgets the pair a, b; it reports whether it was there.
func (n *NotDuplicates) Remove(a, b string) bool {
	var removed bool
	n.pairs, removed = removePair(n.pairs, a, b)
	if removed {
		n.pending = append(n.pending, pairChange{pairOf(a, b), false})
	}
	return removed
}
