package bm25

import (
	"slices"
	"testing"
)

// keptTokens are the tokens of the pieces the tokenizer keeps.
func keptTokens(ps []Piece) []string {
	var out []string
	for _, p := range ps {
		if p.Drop == Kept {
			out = append(out, p.Token)
		}
	}
	return out
}

// TestPieces_AgreeWithTokenize checks that Pieces cuts every reference
// text as Tokenize does: its kept pieces are Tokenize's tokens.
func TestPieces_AgreeWithTokenize(t *testing.T) {
	type row struct {
		Text string `json:"text"`
	}
	texts := []string{"x", "e-mail", "don't", "ΑΣʹ", "ab\u0301cd", "ⅫⅫ", "THE AND Into", "a1 b22 of", "—", ""}
	for _, r := range readJSONL[row](t, refDir+"/tokenize.jsonl") {
		texts = append(texts, r.Text)
	}
	for _, text := range texts {
		if got, want := keptTokens(Pieces(text)), Tokenize(text); !slices.Equal(got, want) {
			t.Errorf("Pieces(%q) keeps %q, Tokenize gives %q", text, got, want)
		}
	}
}

// TestPieces_Reasons checks why each dropped piece is dropped.
func TestPieces_Reasons(t *testing.T) {
	tests := []struct {
		text string
		want []Piece
	}{
		{"the", []Piece{{"the", "the", Stopword}}},
		{"The", []Piece{{"The", "the", Stopword}}},
		{"a", []Piece{{"a", "a", TooShort}}},
		{"e-mail", []Piece{{"e", "e", TooShort}, {"mail", "mail", Kept}}},
		{"Deploy-Steps", []Piece{{"Deploy", "deploy", Kept}, {"Steps", "steps", Kept}}},
		{"σ", []Piece{{"σ", "σ", TooShort}}},
		{"?!", nil},
	}
	for _, tt := range tests {
		if got := Pieces(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("Pieces(%q) = %+v, want %+v", tt.text, got, tt.want)
		}
	}
}

// TestStand_Reference checks Stand against the reference rankings: every
// reference hit stands at its position (within its tie group) with its
// score, the cutoff is the reference's last hit, and when the reference
// lists fewer hits than its limit no other entry has a rank.
func TestStand_Reference(t *testing.T) {
	for _, tt := range []struct{ db, fixture string }{
		{"small.db", "small.jsonl"},
		{"small.db", "small.limit3.jsonl"},
		{"medium.db", "medium.jsonl"},
	} {
		t.Run(tt.fixture, func(t *testing.T) {
			ix, names := loadFixtureIndex(t, tt.db)
			ids := make(map[string]uint64, len(names))
			all := make([]uint64, 0, len(names))
			for id, name := range names {
				ids[name] = id
				all = append(all, id)
			}
			slices.Sort(all)
			checked := 0
			for _, q := range readJSONL[refQuery](t, refDir+"/search/"+tt.fixture) {
				cut, st := ix.Stand(q.Query, q.Limit, all)
				if len(q.Hits) > 0 && (cut.Rank != len(q.Hits) || !closeTo(cut.Last.Score, q.Hits[len(q.Hits)-1].Score)) {
					t.Errorf("%q: cutoff #%d %.17g, want #%d %.17g", q.Query, cut.Rank, cut.Last.Score, len(q.Hits), q.Hits[len(q.Hits)-1].Score)
				}
				rank := map[uint64]Standing{}
				for _, s := range st {
					rank[s.ID] = s
				}
				for i, h := range q.Hits {
					lo, hi := i, i // the tie group around i
					for lo > 0 && closeTo(q.Hits[lo-1].Score, h.Score) {
						lo--
					}
					for hi+1 < len(q.Hits) && closeTo(q.Hits[hi+1].Score, h.Score) {
						hi++
					}
					s := rank[ids[h.Name]]
					if s.Rank < lo+1 || s.Rank > hi+1 && !(hi+1 == q.Limit) || !closeTo(s.Score, h.Score) {
						t.Errorf("%q: %s stands #%d %.17g, reference #%d %.17g", q.Query, h.Name, s.Rank, s.Score, i+1, h.Score)
					}
					checked++
				}
				if len(q.Hits) < q.Limit || q.Limit == 0 {
					for _, s := range st {
						if s.Rank == 0 && slices.ContainsFunc(q.Hits, func(h refHit) bool { return ids[h.Name] == s.ID }) {
							t.Errorf("%q: hit %s has no rank", q.Query, names[s.ID])
						}
						if s.Rank > len(q.Hits) {
							t.Errorf("%q: %s ranked #%d beyond the reference's %d hits", q.Query, names[s.ID], s.Rank, len(q.Hits))
						}
					}
				}
			}
			if checked < 20 {
				t.Errorf("only %d hits checked", checked)
			}
		})
	}
}

// TestStand_Explains checks that a standing's parts add up to its score,
// that a term it lacks has tf 0, and that an entry nothing matches has no
// rank.
func TestStand_Explains(t *testing.T) {
	ix := Build([]Doc{
		{ID: 1, Content: "deploy the service with rollback"},
		{ID: 2, Content: "deploy deploy"},
		{ID: 3, Content: "unrelated words entirely"},
		{ID: 4, Content: "deploy"},
	})
	cut, st := ix.Stand("deploy rollback", 2, []uint64{1, 2, 3, 4, 99})
	if cut.Ranked != 3 || cut.Rank != 2 || len(cut.Top) != 2 {
		t.Fatalf("cutoff %+v, want 3 ranked, last at #2", cut)
	}
	search := ix.Search("deploy rollback", 0)
	for i, h := range search {
		s := st[slices.IndexFunc(st, func(s Standing) bool { return s.ID == h.ID })]
		if s.Rank != i+1 || s.Score != h.Score {
			t.Errorf("doc %d: #%d %v, Search has #%d %v", h.ID, s.Rank, s.Score, i+1, h.Score)
		}
		sum := 0.0
		for _, ts := range s.Terms {
			sum += ts.Contrib
		}
		if !closeTo(sum, s.Score) {
			t.Errorf("doc %d: parts add to %v, score %v", h.ID, sum, s.Score)
		}
	}
	if st[2].Rank != 0 || st[4].Rank != 0 || st[2].Score != 0 {
		t.Errorf("unmatched docs ranked: %+v %+v", st[2], st[4])
	}
	if st[1].Terms[1].Term != "rollback" || st[1].Terms[1].TF != 0 || st[1].Terms[1].DF != 1 {
		t.Errorf("doc 2's rollback: %+v, want tf 0, df 1", st[1].Terms[1])
	}
}
