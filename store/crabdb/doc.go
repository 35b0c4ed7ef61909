// Package crabdb reads and writes crabtalk's newer store, `store.crmem`
// (SPEC §10): one append-only file holding memory, sessions and everything
// else, with the same magic and version as CRMEM v1.
//
// # File
//
// All integers little-endian.
//
//	header (32 bytes)
//	  0  6  magic      "CRMEM\0"
//	  6  4  version    u32 = 1
//	  10 2  flags      u16 = 0
//	  12 4  reserved
//	  16 8  index_at   offset of the newest snapshot (0: none)
//	  24 8  index_len  its length in bytes (0: none)
//	records, appended back to back
//	  u8 op (0 Put, 1 Delete), u8 col, u32 key length, key, u32 value length, value
//	snapshot (at index_at, written by a checkpoint)
//	  u32 count, count × (u8 col, u32 key length, key, u64 offset of the key's live Put)
//
// Reading loads the snapshot, if there is one, then replays the records
// after it (or from byte 32); the newest record for a key wins. A record cut
// short at the end of the file is a torn tail: the replay stops there, keeps
// what it read and says so in a warning.
//
// # Stricter than crabtalk's reader
//
// Every length is checked against the bytes that remain before anything is
// allocated, so a header or snapshot claiming terabytes fails at once. A
// snapshot that runs past the end of the file, is cut short, or holds an
// offset that is not a Put record of the same column and key is refused
// with its reason; crabtalk's reader would replay old snapshot bytes as
// records or return another key's value. Reading writes nothing: the
// reader takes bytes, and Open opens the file read-only.
//
// # Writing
//
// A Batch builds the records of memory writes exactly as crabtalk's own
// put_memory and remove_memory append them (the entry as serde_json writes
// it, then text.rs's index_text or drop_text over column 6), and
// File.Append appends one batch: only to a store as it was read, whose
// tail is clean; visible all at once (the first record's head is written
// last); synced and read back. A note beside the store (IntentPath) lets
// recoverAppend roll back an append a crash cut short. Nothing is ever
// rewritten or compacted. A Source is the store.Backend through which a
// store.DB writes (OpenDB): the ops, changes and undo of a v1 file.
//
// # What crmem reads
//
// Column 2 holds memory entries (`local/memory/{name}` → JSON), column 1
// sessions (the compaction marker `local/session/{handle}/archive` names an
// archive) and column 6 the store's own text index, which Recall ranks
// exactly as the store does.
package crabdb

// FormatName is the name of crabtalk's store format, as Features say it.
const FormatName = "crabtalk store"

// FileName is the name crabtalk gives its store in its home folder (its
// main since 2026-08-18).
const FileName = "store.crmem"
