package crabdb

import (
	"fmt"

	"github.com/crmem/crmem/store/check"
)

// CheckFormat is crabtalk's store as a check report names it.
const CheckFormat = "crabdb"

// Look is how crabtalk's store looks by name (SPEC §10).
var Look = check.Look{FileName: FileName, Ext: ".crmem", Says: "crabtalk store (crabdb)"}

// Check checks crabtalk's store at path whose bytes are data (crmem
// check): its layout, entries, index and the sessions it holds. The error
// is the reader's refusal, said as the store's ("crabtalk store
// (crabdb): …"); the report then says only the reason (Valid false, Error).
func Check(path string, data []byte) (*check.Report, error) {
	r := check.New(path, CheckFormat, data, Capabilities)
	r.StoreLayout = &check.StoreLayout{Warnings: []string{}}
	r.Misnamed(Look, check.V1Look)
	s, err := Read(data)
	if err != nil {
		r.Error = err.Error()
		return r, fmt.Errorf("crabtalk store (crabdb): %w", err)
	}
	r.Valid = true
	h := s.Header()
	r.IndexAt, r.IndexLen, r.LiveKeys = h.IndexAt, h.IndexLen, s.Len()
	r.Warnings = append(r.Warnings, s.Warnings()...)
	entries, problems := s.Entries()
	for _, p := range problems {
		kind := "name_mismatch"
		if p.Skipped {
			kind = "unreadable_entry"
		}
		r.Anomalies = append(r.Anomalies, check.Anomaly{Kind: kind, Detail: p.Reason})
	}
	for _, k := range []string{"note", "archive"} {
		r.Kinds[k] = 0
	}
	known := map[string]bool{}
	for _, e := range entries {
		r.Count(e.Kind, e.Name, len(e.Aliases), len(e.Content))
		known[e.Name] = true
		for _, al := range e.Aliases {
			known[al] = true
		}
	}
	if st, ok, err := s.Stats(); err != nil {
		r.Anomalies = append(r.Anomalies, check.Anomaly{Kind: "unreadable_index", Detail: err.Error()})
	} else if ok {
		r.Index = &st
	}
	r.Sessions = checkSessions(s, known)
	return r, nil
}

// checkSessions lists the store's sessions whose marker names an archive
// the memory does not hold.
func checkSessions(s *Store, known map[string]bool) *check.Sessions {
	sr := &check.Sessions{Dir: check.InStore, Found: true, Missing: []check.MissingMarker{}}
	for _, ss := range s.Sessions() {
		sr.Sessions++
		if ss.Archive == "" {
			continue
		}
		sr.Markers++
		if !known[ss.Archive] {
			// A store keeps one marker per session: the one it resumes from.
			sr.Missing = append(sr.Missing, check.MissingMarker{Session: ss.Handle, Archive: ss.Archive, Resume: true})
		}
	}
	return sr
}
