package cli

import "github.com/crmem/crmem/store/hygiene"

// lintJSON is the report as lint --json prints it. A format whose entries
// carry ids (Features.ShowsIDs) gets the report as it is; crabtalk's
// store, whose ids are crmem's own, gets its entries named as ls --json
// names them, by name alone: a finding's entries without "id", a near
// pair's "a" and "b" as names.
func lintJSON(r *hygiene.Report, ids bool) any {
	if ids {
		return r
	}
	out := namedReport{Entries: r.Entries, Findings: make([]namedFinding, len(r.Findings)), Bounded: r.Bounded}
	for i := range r.Findings {
		f := &r.Findings[i]
		nf := namedFinding{Kind: f.Kind, Check: f.Check, Entries: make([]namedRef, len(f.Entries)), Reason: f.Reason,
			Secret: f.Secret, Name: f.Name, Outsize: f.Outsize, Archive: f.Archive}
		names := make(map[uint64]string, len(f.Entries))
		for k, e := range f.Entries {
			nf.Entries[k] = namedRef{e.Name}
			names[e.ID] = e.Name
		}
		if d := f.Duplicate; d != nil {
			nd := &namedDuplicate{Exact: d.Exact, Similarity: d.Similarity, Shared: d.Shared}
			for _, p := range d.Pairs {
				nd.Pairs = append(nd.Pairs, namedPair{names[p.A], names[p.B], p.Similarity})
			}
			nf.Duplicate = nd
		}
		out.Findings[i] = nf
	}
	return out
}

// namedReport is hygiene.Report with entries named by name alone.
type namedReport struct {
	Entries  int            `json:"entries"`
	Findings []namedFinding `json:"findings"`
	Bounded  []string       `json:"bounded,omitempty"`
}

// namedFinding is hygiene.Finding with entries named by name alone, its
// fields in the same order.
type namedFinding struct {
	Kind      hygiene.Kind           `json:"kind"`
	Check     string                 `json:"check"`
	Entries   []namedRef             `json:"entries"`
	Reason    string                 `json:"reason"`
	Duplicate *namedDuplicate        `json:"duplicate,omitempty"`
	Secret    *hygiene.SecretDetail  `json:"secret,omitempty"`
	Name      *hygiene.NameDetail    `json:"name,omitempty"`
	Outsize   *hygiene.OutsizeDetail `json:"outsize,omitempty"`
	Archive   *hygiene.ArchiveDetail `json:"archive,omitempty"`
}

// namedRef is hygiene.Ref without the id.
type namedRef struct {
	Name string `json:"name"`
}

// namedDuplicate is hygiene.DuplicateDetail with its pairs named.
type namedDuplicate struct {
	Exact      bool        `json:"exact"`
	Similarity float64     `json:"similarity"`
	Pairs      []namedPair `json:"pairs,omitempty"`
	Shared     []string    `json:"shared_terms,omitempty"`
}

// namedPair is hygiene.Pair with the two entries' names for their ids.
type namedPair struct {
	A          string  `json:"a"`
	B          string  `json:"b"`
	Similarity float64 `json:"similarity"`
}
