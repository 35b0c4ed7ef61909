package config

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/open"
)

// The memory files crmem looks for in crabtalk's home folder, as each
// format's package names them (crabtalk's store through store/open, the
// one package that knows its adapter).
const (
	MemoryFileName = store.FileName     // CRMEM v1, tagged crabtalk releases
	StoreFileName  = open.StoreFileName // crabdb, crabtalk's main since 2026-08-18
)

// Memory is the memory file to open: the one the configuration names (db:
// --db, $CRMEM_DB, the config file), else crabtalk's (CrabtalkMemory).
// isDefault says it is crabtalk's, named by no layer.
func (c *Config) Memory() (path string, isDefault bool, err error) {
	if c.DB != "" {
		return c.DB, false, nil
	}
	path, err = CrabtalkMemory(c.getenv)
	return path, true, err
}

// CrabtalkMemory is the memory file in crabtalk's home folder
// ($CRABTALK_HOME, else ~/.crabtalk): memory.db if it exists, else
// store.crmem if that exists (SPEC §10), else memory.db (which a write
// creates).
func CrabtalkMemory(getenv func(string) string) (string, error) {
	dir, err := CrabtalkHome(getenv)
	if err != nil {
		return "", err
	}
	mem := filepath.Join(dir, MemoryFileName)
	if _, err := os.Lstat(mem); err == nil {
		return mem, nil
	}
	if st := filepath.Join(dir, StoreFileName); exists(st) {
		return st, nil
	}
	return mem, nil
}

// exists reports whether path names something (a dangling link does not
// count).
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// CrabtalkHome is crabtalk's home folder: $CRABTALK_HOME (SPEC §10), else
// ~/.crabtalk.
func CrabtalkHome(getenv func(string) string) (string, error) {
	if dir := getenv("CRABTALK_HOME"); dir != "" {
		return dir, nil
	}
	h := Home(getenv)
	if h == "" {
		return "", errors.New("no memory file: " + NoHome + " (give --db, $CRMEM_DB or $CRABTALK_HOME)")
	}
	return filepath.Join(h, ".crabtalk"), nil
}

// DaemonSocket is where a running crabtalk daemon listens (SPEC §3), in
// crabtalk's home folder; "" when no home is known.
func DaemonSocket(getenv func(string) string) string {
	dir, err := CrabtalkHome(getenv)
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "run", "crabtalk.sock")
}
