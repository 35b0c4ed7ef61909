package history

import (
	"sort"
	"time"
)

// The entries memory no longer holds.

// Forgotten lists the entries the log or the sessions know that memory
// does not hold now (a name renamed away lives on under its new name and
// is not listed), most recently removed first.
func (ix *Index) Forgotten() []Forgotten {
	var out []Forgotten
	for _, name := range ix.Names() {
		if ix.has(name) {
			continue
		}
		h := ix.History(name)
		if h.Exists || len(h.Lives) == 0 {
			continue
		}
		this := h.Lives[len(h.Lives)-1]
		if this.Ended == LifeRenamed {
			continue // lives on under another name, or is forgotten under it
		}
		f := Forgotten{Name: name, Versions: len(h.Versions)}
		found := false
		for i := this.Last - 1; i >= this.First-1; i-- { // what a restore may bring back: this entry's
			v := h.Versions[i]
			if v.Action == Delete && f.Removed == nil && v.Name == name {
				vv := v
				f.Removed = &vv
			}
			if v.Action != Delete && v.Name == name {
				f.Last, found = v, true
				break
			}
		}
		if !found {
			continue // only deletes of it are known: nothing to bring back
		}
		out = append(out, f)
	}
	sort.SliceStable(out, func(i, j int) bool { return removedAfter(out[i], out[j]) })
	return out
}

// removedAfter orders forgotten entries: by the log position of their
// removal, else its call's time, latest first; those with no known
// removal last, by name.
func removedAfter(a, b Forgotten) bool {
	ka, kb := removalKey(a), removalKey(b)
	if ka.known != kb.known {
		return ka.known
	}
	if ka.seq != kb.seq {
		return ka.seq > kb.seq
	}
	if !ka.at.Equal(kb.at) {
		return ka.at.After(kb.at)
	}
	return a.Name < b.Name
}

type removal struct {
	known bool
	seq   int
	at    time.Time
}

func removalKey(f Forgotten) removal {
	if f.Removed == nil {
		return removal{}
	}
	r := removal{known: true}
	if f.Removed.Log != nil {
		r.seq = f.Removed.Log.Seq
	}
	if f.Removed.Call != nil {
		r.at = f.Removed.Call.Time
	}
	return r
}
