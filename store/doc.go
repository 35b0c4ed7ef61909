// Package store reads and writes an agent's memory file in the CRMEM v1
// format, keeps it in RAM with name and alias lookup and a bm25 index, applies
// the operations of SPEC §2 all or nothing, and saves atomically without
// losing anyone else's changes.
//
// # File format
//
// All integers are little-endian. Strings are UTF-8, prefixed by a u32 byte
// count, without terminator. The file is one contiguous blob, no padding:
//
//	header (16 bytes)
//	  0  6  magic     "CRMEM\0"
//	  6  4  version   u32 = 1
//	  10 2  flags     u16 = 0 (any set bit is rejected on read)
//	  12 4  reserved  zero on write, ignored on read
//	body
//	  u64 next_id            id allocator, persisted so ids stay stable
//	  u32 entry_count
//	  entry_count times:
//	    u64 id
//	    u64 created_at       unix seconds
//	    u32 kind             0 = Note, 1 = Archive, 2 = Topic
//	    u32 len + name
//	    u32 len + content
//	    u32 alias_count
//	    alias_count times: u32 len + alias
//
// # Reading
//
// Decode rejects a file with an error matching ErrBadFormat whose text is
// the reference implementation's: "file shorter than header", "invalid
// magic", "unsupported version", "unknown flags", "truncated body", "invalid
// utf8", "unknown entry kind". Counts and lengths are checked against the
// bytes that remain before anything is allocated, so a file claiming four
// billion entries fails at once. Odd files the reference accepts open:
// trailing bytes are ignored (and dropped on the next write), duplicate names
// are kept (lookup finds the later one in file order), a stale next_id is
// raised above every id, and kind 2 (Topic) is an ordinary third kind.
//
// Decode reads names, content and aliases as substrings of the file's
// buffer: a 60 MB file costs 60 MB, not 120.
//
// # Writing
//
// Encode writes entries in ascending id order with reserved bytes zero. A
// save encodes the whole memory into a buffer, writes it to a temp file in
// the target's directory (".<name>.crmem-<random>.tmp": crabtalk itself uses
// "<name>.tmp"), fsyncs it, swaps it in and fsyncs the directory. The
// existing file's permission bits are kept (new files are 0600) and a
// symlink is written through to its target. A crash at any instant leaves
// the old file or the new one; leftover temp files are never read as data
// and are removed by the next save.
//
// # Lookup and operations
//
// A name resolves to the entry with that name, else to the lowest-id entry
// having it as an alias; both are exact, case-sensitive comparisons.
// Memory.Apply runs Add, Update, Write, SetAliases, Rename, Remove, Restore
// and Replace all or nothing and reports one Change per entry touched;
// Change.Inverse and Undo give the operations that undo them, restoring ids
// and timestamps exactly. Ids are never reused: next_id only grows and is
// saved with the file.
//
// # Conflicts
//
// The agent's daemon rewrites the file whenever it likes, without a lock.
// DB.Apply takes an advisory lock — flock on the folder that holds the
// file, so nothing is created beside it and the kernel drops the lock when
// a process dies — and crmem writers queue behind one another (a writer
// waits as long as it takes; Options.OnLockWait is told after a second).
// It then compares the file with the fingerprint (size, mtime, content
// hash) its state came from; if the file changed it is re-read, the memory
// synced to it, and the ops re-applied (an op whose Expect no longer holds
// fails with ErrConflict and nothing is written).
//
// A save writes a temp file ".<name>.crmem-<hex>.tmp", checks the target's
// stat once more and swaps the temp file in with
// renameat2(RENAME_EXCHANGE). If the version the exchange displaced is not
// the one the state came from, a writer slipped in: its version is put back
// at once with a second exchange (ours was visible for microseconds), the
// memory is synced to it, what it changed is carried forward (in case a
// writer read our short-lived version and wrote on top of it), and the ops
// are applied again. An op whose effect an earlier round already published
// counts as done. Without renameat2 the save falls back to check, then
// rename, which can lose a writer that lands between the two.
//
// A failed save leaves the old file, no temp file and no folder it created.
// Symlinks are resolved as the kernel does, so a link stays a link; only a
// regular file is ever read (ErrNotRegular otherwise). A root process keeps
// the owner and group of the file it rewrites.
//
// # Duplicate ids
//
// A file may hold two entries with one id. Every entry is kept: the later
// one is the entry the id names (Get, search, ops by id); earlier ones are
// listed by Entries, found by name, written back by every save and can be
// removed by name (other ops on them fail with ErrSharedID).
//
// # Indexing
//
// Open and NewMemory build the bm25 index before returning. OpenWith and
// NewMemoryWith take an IndexMode: IndexBackground returns once the file is
// decoded (a TUI can show the list at once) and builds the index in a
// goroutine; Memory.IndexReady reports progress, WaitIndexed blocks, and
// Search, Index and Apply wait by themselves. IndexOnDemand builds it only
// when something first needs it.
package store
