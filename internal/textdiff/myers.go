package textdiff

// The edit script between two sequences of symbols (lines or words
// interned as int32), by Myers' O(ND) greedy algorithm ("An O(ND)
// Difference Algorithm and Its Variations", 1986) after the common prefix
// and suffix are trimmed. It is minimal: no script with fewer removals
// and additions exists. Its cost is bounded: past budget units of work (a
// diagonal visited or a symbol compared in a snake, each one unit) the
// search stops, the script found so far up to the furthest point it
// reached is kept, and the rest is one removal and one addition.

// ops of an edit script: one per symbol of a kept (opSame), removed (opDel)
// or added (opIns).
const (
	opSame = ' '
	opDel  = '-'
	opIns  = '+'
)

// script returns the edit script from a to b: a byte per step, opSame
// consuming one symbol of each, opDel one of a, opIns one of b, with the
// removals of each change block before its additions. It reports the work
// spent, and bounded when the budget ran out and part of the middle was
// given up as removed and added whole.
func script(a, b []int32, budget int) (ops []byte, work int, bounded bool) {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	work = pre + suf
	ops = make([]byte, 0, len(a)+len(b)-pre-suf)
	for range pre {
		ops = append(ops, opSame)
	}
	mid, w, bounded := myers(a[pre:len(a)-suf], b[pre:len(b)-suf], budget-work)
	ops = append(ops, mid...)
	for range suf {
		ops = append(ops, opSame)
	}
	return removalsFirst(ops), work + w, bounded
}

// myers is the script of a and b, which share no first or last symbol.
func myers(a, b []int32, budget int) (ops []byte, work int, bounded bool) {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return coarse(nil, n, m), 0, false
	}
	off := n + m
	v := make([]int32, 2*(n+m)+2)
	// trace[d] is v[-d..d] after step d: what the way back reads.
	var trace [][]int32
	for d := 0; d <= n+m; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = int(v[off+k+1]) // down: one symbol of b added
			} else {
				x = int(v[off+k-1]) + 1 // right: one symbol of a removed
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
				work++
			}
			v[off+k] = int32(x)
			work++
			if x >= n && y >= m {
				trace = append(trace, append([]int32(nil), v[off-d:off+d+1]...))
				return walkBack(trace, n, m, nil), work, false
			}
		}
		trace = append(trace, append([]int32(nil), v[off-d:off+d+1]...))
		if work >= budget {
			x, y := furthest(v[off-d:off+d+1], d, n, m)
			return coarse(walkBack(trace, x, y, nil), n-x, m-y), work, true
		}
	}
	panic("textdiff: Myers' search ended without reaching both ends")
}

// furthest is the point of step d's frontier (v[-d..d], shifted by d)
// that has come furthest along both sequences.
func furthest(v []int32, d, n, m int) (x, y int) {
	best := -1
	for k := -d; k <= d; k += 2 {
		px := int(v[k+d])
		py := px - k
		if px > n || py > m || py < 0 {
			continue
		}
		if px+py > best {
			best, x, y = px+py, px, py
		}
	}
	return x, y
}

// coarse appends n removals and m additions to ops.
func coarse(ops []byte, n, m int) []byte {
	for range n {
		ops = append(ops, opDel)
	}
	for range m {
		ops = append(ops, opIns)
	}
	return ops
}

// walkBack is the script from (0, 0) to (x, y), a point on the frontier
// of the last step traced, read back through the steps before it.
func walkBack(trace [][]int32, x, y int, ops []byte) []byte {
	rev := make([]byte, 0, x+y)
	for d := len(trace) - 1; d > 0; d-- {
		prev := trace[d-1] // v[-(d-1)..d-1], shifted by d-1
		at := func(k int) int { return int(prev[k+d-1]) }
		k := x - y
		var pk int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(pk)
		py := px - pk
		// The snake back to where this step's move ended.
		sx := px
		if pk == k-1 {
			sx = px + 1
		}
		for x > sx {
			rev = append(rev, opSame)
			x, y = x-1, y-1
		}
		if pk == k+1 {
			rev = append(rev, opIns)
		} else {
			rev = append(rev, opDel)
		}
		x, y = px, py
	}
	for x > 0 { // step 0: a snake from the origin
		rev = append(rev, opSame)
		x--
	}
	for i := len(rev) - 1; i >= 0; i-- {
		ops = append(ops, rev[i])
	}
	return ops
}

// removalsFirst reorders each run of removals and additions so that its
// removals come first, as diff -u prints them; the order of the removals
// among themselves, and of the additions, is kept.
func removalsFirst(ops []byte) []byte {
	for i := 0; i < len(ops); {
		if ops[i] == opSame {
			i++
			continue
		}
		j, dels := i, 0
		for ; j < len(ops) && ops[j] != opSame; j++ {
			if ops[j] == opDel {
				dels++
			}
		}
		for p := i; p < j; p++ {
			if p < i+dels {
				ops[p] = opDel
			} else {
				ops[p] = opIns
			}
		}
		i = j
	}
	return ops
}
