package why

import (
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/crabdb"
)

// recallRanking is a source's own recall (crabtalk's store's): every hit,
// as its owner ranks them, with their parts.
func recallRanking(rc store.Recaller, query string, limit int, ids []uint64) (Report, map[uint64]standing, error) {
	hits, parts, err := rc.Recall(query, allRanked)
	if err != nil {
		return Report{}, nil, err
	}
	stats := rc.RecallStats()
	rep := Report{Terms: []string{}, Words: recallWords(query), Ranked: len(hits), Docs: int(stats.Docs)}
	if stats.Docs > 0 {
		rep.AvgDocLen = float64(stats.TotalLen) / float64(stats.Docs)
	}
	for _, t := range crabdb.QueryTerms(query) {
		rep.Terms = append(rep.Terms, t.String())
	}
	top := len(hits)
	if limit > 0 {
		top = min(top, limit)
	}
	for i, h := range hits[:top] {
		rep.Hits = append(rep.Hits, Hit{ID: h.ID, Rank: i + 1, Score: h.Score})
	}
	// A query term's df and idf, from any hit it scored in.
	termStats := map[string]Term{}
	at := make(map[uint64]int, len(hits))
	for i, h := range hits {
		at[h.ID] = i
		for _, p := range parts[i].Parts {
			termStats[p.Query] = Term{DF: p.DF, IDF: p.IDF}
		}
	}
	out := make(map[uint64]standing, len(ids))
	for _, id := range ids {
		var s standing
		var own []store.Part
		if i, ok := at[id]; ok {
			s.rank, s.score, own = i+1, hits[i].Score, parts[i].Parts
			s.docLen = int(parts[i].DocLen)
		}
		for _, q := range rep.Terms {
			matched := false
			for _, p := range own {
				if p.Query == q {
					matched = true
					s.terms = append(s.terms, p)
				}
			}
			if !matched {
				ts := termStats[q]
				s.terms = append(s.terms, Term{Query: q, DF: ts.DF, IDF: ts.IDF})
			}
		}
		out[id] = s
	}
	return rep, out, nil
}
