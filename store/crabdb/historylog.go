package crabdb

import (
	"bytes"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/sessions"
)

// agentPrefix starts every agent key in column 0.
const agentPrefix = "local/agent/"

// HistoryLog reads a store's log for store/history (store.Log): records
// as crabdb writes them, keys as crabtalk names its entries, sessions and
// agents, sessions decoded as crabtalk's reader decodes them. It is the
// store's Capabilities.Log.
type HistoryLog struct{}

var _ store.Log = HistoryLog{}

// HeadLen is the store's header length.
func (HistoryLog) HeadLen() int { return HeaderLen }

// Walk walks the log as WalkLogFrom does, each record told by its column
// and key.
func (HistoryLog) Walk(data []byte, from store.LogPos, fn func(store.LogRecord) bool) store.LogEnd {
	at := from.Offset
	if at == 0 {
		at = HeaderLen
	}
	end := WalkLogFrom(data, at, from.Puts, func(r LogRecord) bool { return fn(historyRecord(r)) })
	out := store.LogEnd{At: store.LogPos{Offset: end.Offset, Puts: end.Puts}, Torn: end.Torn}
	if end.Err != nil {
		out.Stopped, out.Reason = true, end.Err.Reason
	}
	return out
}

// At is the record at off.
func (HistoryLog) At(data []byte, off int64) (store.LogRecord, bool) {
	r, ok := RecordAt(data, off)
	if !ok {
		return store.LogRecord{}, false
	}
	return historyRecord(r), true
}

// Each gives the records at offs, read ahead as a walk is.
func (HistoryLog) Each(data []byte, offs []int64, fn func(store.LogRecord)) {
	var ahead Prefetcher
	for _, off := range offs {
		ahead.Before(data, off)
		if r, ok := RecordAt(data, off); ok {
			fn(historyRecord(r))
		}
	}
}

// Continues reports whether the header is as it was and the snapshot it
// points at, if any, does not straddle end.
func (HistoryLog) Continues(before, head []byte, end int64) bool {
	if len(before) < HeaderLen || !bytes.Equal(head, before[:HeaderLen]) {
		return false
	}
	h, err := ParseHeader(head)
	return err != nil || !h.HasSnapshot() || h.IndexAt >= uint64(end) || h.IndexAt+h.IndexLen <= uint64(end)
}

// SessionRecalls decodes a session as crabtalk's reader does
// (NewSessionBuilder): its steps in key order, events before messages.
func (HistoryLog) SessionRecalls(handle string, meta []byte, keys []string, steps map[string][]byte, agentOf func(id string) (string, int)) sessions.SessionRecalls {
	b := NewSessionBuilder(handle, meta, agentOf)
	for _, k := range keys {
		b.AddStep(k, steps[k], nil)
	}
	return b.Finish()
}

// historyRecord tells what a record of the log holds.
func historyRecord(r LogRecord) store.LogRecord {
	out := store.LogRecord{Offset: r.Offset, Delete: r.Op == OpDelete, Value: r.Value}
	keyAt := r.Offset + recordHead
	switch {
	case r.Col == ColMemory && bytes.HasPrefix(r.Key, []byte(MemoryPrefix)):
		out.Kind, out.Key, out.KeyAt = store.LogMemory, r.Key[len(MemoryPrefix):], keyAt+int64(len(MemoryPrefix))
	case r.Col == ColAgent && bytes.HasPrefix(r.Key, []byte(agentPrefix)):
		out.Kind, out.Key, out.KeyAt = store.LogAgent, r.Key[len(agentPrefix):], keyAt+int64(len(agentPrefix))
	case r.Col == ColSession && bytes.HasPrefix(r.Key, []byte(sessionPrefix)):
		rest := r.Key[len(sessionPrefix):]
		i := bytes.IndexByte(rest, '/')
		if i <= 0 {
			return out
		}
		part := rest[i+1:]
		out.Session, out.Key, out.KeyAt = rest[:i], part, keyAt+int64(len(sessionPrefix)+i+1)
		switch {
		case string(part) == "meta":
			out.Kind = store.LogSessionMeta
		case bytes.HasPrefix(part, []byte("msg/")), bytes.HasPrefix(part, []byte("evt/")):
			out.Kind = store.LogSessionStep
		default:
			out.Kind = store.LogSessionOther
		}
	}
	return out
}
