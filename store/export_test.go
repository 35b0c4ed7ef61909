package store

// Open reads path with the default options (OpenWith): what the tests of
// this package open a memory file with; the faces go through store/open.
func Open(path string) (*DB, error) { return OpenWith(path, Options{}) }

// NewMemory builds a memory and its index (on all cores) from a decoded
// file (NewMemoryWith, IndexNow).
func NewMemory(f *File) *Memory { return NewMemoryWith(f, IndexNow) }

// SetNoSync makes db skip fsync, to measure encode+write apart from the
// disk's flush.
func SetNoSync(db *DB) { db.noSync = true }

// SetBeforeSwap makes db call fn after writing its temp file and before
// swapping it in: the window a foreign writer can slip into.
func SetBeforeSwap(db *DB, fn func()) { db.beforeSwap = fn }

// SetNoRenameat makes db take the fallback path of systems without
// renameat2: check the fingerprint, then rename.
func SetNoRenameat(db *DB) { db.noRenameat = true }

// SetSwapError makes every save of db fail with err just before its swap
// (nil: saves work again).
func SetSwapError(db *DB, err error) { db.swapErr = err }

// SetBetweenSwaps makes db call fn after an exchange displaced a foreign
// version and before that version is put back.
func SetBetweenSwaps(db *DB, fn func()) { db.betweenSwaps = fn }

// SetWriteFailure makes every temp file write of db stop half way and fail
// with err, as on a full disk (nil: writes work again).
func SetWriteFailure(db *DB, err error) { db.failWrite = err }

// SetBeforeExchange makes db call fn after its last check of the target and
// before the exchange.
func SetBeforeExchange(db *DB, fn func()) { db.beforeExchange = fn }

// CheckLen is the length check every string passes before it is encoded.
func CheckLen(what string, n int64) error { return checkLen(what, n) }

// DecodeTwoPass decodes data as Decode does a large file at any size:
// the structure first, then every string's UTF-8 on every core.
func DecodeTwoPass(data []byte) (*File, error) { return decode(data, 0, true) }

// OpenLazy reads and decodes path and returns at once, building the index in
// the background: Memory().IndexReady reports when it is done, and Search
// waits for it. A TUI shows the entry list while the index builds.
func OpenLazy(path string) (*DB, error) { return OpenWith(path, Options{Index: IndexBackground}) }
