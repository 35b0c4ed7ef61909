package textdiff

// The edit script between two sequences of symbols (lines or words
// interned as int32), by Myers' O(ND) greedy algorithm ("An O(ND)
// Difference Algorithm and Its Variations", 1986) after the common prefix
// and suffix are trimmed: minimal, no script with fewer removals and
// additions exists. Its cost is bounded: past a budget of work (a
// diagonal visited or a symbol compared in a snake, each one unit) the
// search stops. Then the middle is cut instead at the symbols each
// sequence holds once, in the order both hold them (patience diff's
// anchors), and each piece between two anchors is diffed by Myers' with
// what is left of a second budget; a piece the budget does not reach, or
// the rest of one it runs out in, is one removal and one addition.

// ops of an edit script: one per symbol of a kept (opSame), removed (opDel)
// or added (opIns).
const (
	opSame = ' '
	opDel  = '-'
	opIns  = '+'
)

// edits is an edit script being built: a byte per step, opSame consuming
// one symbol of each sequence, opDel one of a, opIns one of b.
type edits struct {
	ops    []byte
	budget int // work left
	// coarse are the ranges of ops given up as removed and added whole.
	coarse [][2]int
}

// script returns the edit script from a to b within budget, the removals
// of each change block before its additions.
func script(a, b []int32, budget int) edits {
	e := edits{ops: make([]byte, 0, len(a)+len(b)), budget: budget}
	pre, suf := sharedLen(a, b)
	e.same(pre)
	a, b = a[pre:len(a)-suf], b[pre:len(b)-suf]
	mark := len(e.ops)
	if tooFar(a, b, e.budget/2) || !e.myers(a, b, e.budget/2) {
		e.ops, e.coarse = e.ops[:mark], e.coarse[:0]
		e.anchored(a, b)
	}
	e.same(suf)
	removalsFirst(e.ops)
	return e
}

// tooFar reports whether Myers' search surely spends more than budget on
// a and b: every symbol of one that the other does not hold is a step,
// and reaching step D visits D(D+1)/2 diagonals. Two texts of 100,000
// lines each different go straight to the anchors.
func tooFar(a, b []int32, budget int) bool {
	k := int32(0)
	for _, s := range a {
		k = max(k, s+1)
	}
	for _, s := range b {
		k = max(k, s+1)
	}
	in := make([]uint8, k) // 1: in a, 2: in b
	for _, s := range a {
		in[s] |= 1
	}
	for _, s := range b {
		in[s] |= 2
	}
	d := 0
	for _, s := range a {
		if in[s] == 1 {
			d++
		}
	}
	for _, s := range b {
		if in[s] == 2 {
			d++
		}
	}
	return d*(d+1)/2 > budget
}

// sharedLen is how many symbols a and b share at their start and, after
// that, at their end.
func sharedLen(a, b []int32) (pre, suf int) {
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	return pre, suf
}

// same appends n steps keeping a symbol of each.
func (e *edits) same(n int) {
	for range n {
		e.ops = append(e.ops, opSame)
	}
}

// wholly appends n removals and m additions, a coarse range.
func (e *edits) wholly(n, m int) {
	if n+m == 0 {
		return
	}
	e.coarse = append(e.coarse, [2]int{len(e.ops), len(e.ops) + n + m})
	e.ops = wholly(e.ops, n, m)
}

// myers appends the script of a and b found within budget, and reports
// whether it was found whole; if not, its part up to the furthest point
// reached is appended exact, and the rest coarse.
func (e *edits) myers(a, b []int32, budget int) bool {
	pre, suf := sharedLen(a, b)
	e.same(pre)
	ops, work, exact := myers(a[pre:len(a)-suf], b[pre:len(b)-suf], budget)
	e.ops = append(e.ops, ops[:exact]...)
	rest := ops[exact:]
	dels := 0
	for _, op := range rest {
		if op == opDel {
			dels++
		}
	}
	e.wholly(dels, len(rest)-dels)
	e.same(suf)
	e.budget -= work
	return exact == len(ops)
}

// anchored appends the script of a and b cut at their anchors: the
// symbols each holds once, the longest run of them in the same order in
// both. Each piece between two anchors is diffed by Myers' with what is
// left of the budget.
func (e *edits) anchored(a, b []int32) {
	i, j := 0, 0
	for _, an := range anchors(a, b) {
		e.piece(a[i:an[0]], b[j:an[1]])
		e.same(1)
		i, j = an[0]+1, an[1]+1
	}
	e.piece(a[i:], b[j:])
}

// piece appends the script of a piece between anchors.
func (e *edits) piece(a, b []int32) {
	if e.budget <= 0 {
		pre, suf := sharedLen(a, b)
		e.same(pre)
		e.wholly(len(a)-pre-suf, len(b)-pre-suf)
		e.same(suf)
		return
	}
	e.myers(a, b, e.budget)
}

// anchors are the positions (in a, in b) of the symbols held once by each
// of a and b, the longest sequence of them ascending in both (patience
// sorting, O(K log K) for K such symbols).
func anchors(a, b []int32) [][2]int {
	k := int32(0)
	for _, s := range a {
		k = max(k, s+1)
	}
	for _, s := range b {
		k = max(k, s+1)
	}
	// inA[s] and inB[s]: the position of s, -1 where it is not held, -2
	// where it is held more than once.
	inA, inB := held(a, k), held(b, k)
	var cand [][2]int
	for i, s := range a {
		if inA[s] >= 0 && inB[s] >= 0 {
			cand = append(cand, [2]int{i, int(inB[s])})
		}
	}
	// The longest run of cand ascending in b (cand ascends in a).
	var tops []int                 // tops[l]: the index in cand ending the best run of length l+1
	prev := make([]int, len(cand)) // the candidate before each in its run
	for c, an := range cand {
		lo, hi := 0, len(tops)
		for lo < hi {
			mid := (lo + hi) / 2
			if cand[tops[mid]][1] < an[1] {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		prev[c] = -1
		if lo > 0 {
			prev[c] = tops[lo-1]
		}
		if lo == len(tops) {
			tops = append(tops, c)
		} else {
			tops[lo] = c
		}
	}
	run := make([][2]int, len(tops))
	if len(tops) > 0 {
		for c, l := tops[len(tops)-1], len(tops)-1; l >= 0; c, l = prev[c], l-1 {
			run[l] = cand[c]
		}
	}
	return run
}

// held is the position in seq of each symbol below k held once, -1 for
// those not held, -2 for those held more than once.
func held(seq []int32, k int32) []int32 {
	pos := make([]int32, k)
	for i := range pos {
		pos[i] = -1
	}
	for i, s := range seq {
		if pos[s] == -1 {
			pos[s] = int32(i)
		} else {
			pos[s] = -2
		}
	}
	return pos
}

// myers is the script of a and b, which share no first or last symbol,
// and how many of its first steps are exact: all of them, unless the
// budget ran out.
func myers(a, b []int32, budget int) (ops []byte, work, exact int) {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		ops = wholly(nil, n, m)
		return ops, 0, len(ops)
	}
	off := n + m
	v := make([]int32, 2*(n+m)+2)
	// trace[d] is v[-d..d] after step d: what the way back reads.
	var tr trace
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
				tr.save(v[off-d : off+d+1])
				ops = walkBack(tr.steps, n, m, nil)
				return ops, work, len(ops)
			}
		}
		tr.save(v[off-d : off+d+1])
		if work >= budget {
			x, y, ok := furthest(v[off-d:off+d+1], d, n, m)
			if !ok { // no point inside both: nothing exact to keep
				return wholly(nil, n, m), work, 0
			}
			ops = walkBack(tr.steps, x, y, nil)
			exact = len(ops)
			return wholly(ops, n-x, m-y), work, exact
		}
	}
	panic("textdiff: Myers' search ended without reaching both ends")
}

// trace is the frontiers of Myers' steps, copied into chunks that each
// hold many steps: one allocation per step was most of a small pair's.
type trace struct {
	steps [][]int32
	chunk []int32
}

// save appends a copy of v as the next step.
func (t *trace) save(v []int32) {
	if cap(t.chunk)-len(t.chunk) < len(v) {
		t.chunk = make([]int32, 0, max(4*len(v), 2*cap(t.chunk)))
	}
	at := len(t.chunk)
	t.chunk = append(t.chunk, v...)
	t.steps = append(t.steps, t.chunk[at:len(t.chunk):len(t.chunk)])
}

// furthest is the point of step d's frontier (v[-d..d], shifted by d)
// that has come furthest along both sequences, among those inside both
// (ok false if none is).
func furthest(v []int32, d, n, m int) (x, y int, ok bool) {
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
	return x, y, best >= 0
}

// wholly appends n removals and m additions to ops.
func wholly(ops []byte, n, m int) []byte {
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
func removalsFirst(ops []byte) {
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
}
