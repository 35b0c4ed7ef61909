package crabdb

import (
	"slices"
	"strings"
)

// Keys returns the live keys of col that start with prefix, ascending.
// When the order of every key is not built yet and most keys come from
// records after the snapshot (a store never checkpointed, such as one a
// large import just wrote), only the keys asked for are sorted: listing
// the memory's 100,000 entries must not sort the millions of index keys
// beside them. Otherwise the snapshot's order is merged with the rest.
func (s *Store) Keys(col byte, prefix string) []string {
	var out []string
	if s.sorted == nil && len(s.replayed) > len(s.live)/2 {
		for k := range s.live {
			if k.Col == col && strings.HasPrefix(k.Key, prefix) {
				out = append(out, k.Key)
			}
		}
		slices.Sort(out)
		return out
	}
	s.scan(col, prefix, func(k string, _ []byte) { out = append(out, k) })
	return out
}

// scan calls fn with every live key of col that starts with prefix, and
// its value, in ascending key order.
func (s *Store) scan(col byte, prefix string, fn func(key string, val []byte)) {
	keys := s.keys()
	i, _ := slices.BinarySearchFunc(keys, Key{col, prefix}, func(a sortedKey, b Key) int { return compareKeys(a.Key, b) })
	for ; i < len(keys) && keys[i].Col == col && strings.HasPrefix(keys[i].Key.Key, prefix); i++ {
		fn(keys[i].Key.Key, keys[i].val)
	}
}

// sortedKey is a live key and its value, in the store's key order.
type sortedKey struct {
	Key
	val []byte
}

// keys returns every live key in order: the snapshot's keys (in order
// already) merged with the keys replayed after it, sorted.
func (s *Store) keys() []sortedKey {
	if s.sorted != nil {
		return s.sorted
	}
	var tail []Key
	for k := range s.replayed {
		if _, ok := s.live[k]; ok {
			tail = append(tail, k)
		}
	}
	slices.SortFunc(tail, compareKeys)
	s.sorted = make([]sortedKey, 0, len(s.live))
	head, dead := s.snapOrder, s.snapDead
	for len(head) > 0 || len(tail) > 0 {
		switch {
		case len(head) > 0 && dead[0]:
			// Its live version, if any, is in tail.
		case len(tail) == 0 || len(head) > 0 && compareKeys(head[0].Key, tail[0]) < 0:
			s.sorted = append(s.sorted, head[0])
		default:
			s.sorted = append(s.sorted, sortedKey{tail[0], s.live[tail[0]].val})
			tail = tail[1:]
			continue
		}
		head, dead = head[1:], dead[1:]
	}
	return s.sorted
}
