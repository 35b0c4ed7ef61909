package sessions

import (
	"math"
	"path/filepath"

	"github.com/pelletier/go-toml/v2"

	"github.com/crmem/crmem/internal/safefile"
)

// maxSettingsBytes caps what is read of crabtalk's settings file (a few
// agents' configurations: kilobytes).
const maxSettingsBytes = 1 << 20

// SettingsPath is crabtalk's settings file for the memory file at path:
// local/settings.toml in the same folder (~/.crabtalk).
func SettingsPath(path string) string {
	return filepath.Join(filepath.Dir(path), "local", "settings.toml")
}

// settingsFile is the part of crabtalk's settings.toml that holds each
// agent's recall_limit.
type settingsFile struct {
	Agents map[string]struct {
		Hooks struct {
			Memory struct {
				RecallLimit *uint64 `toml:"recall_limit"`
			} `toml:"memory"`
		} `toml:"hooks"`
	} `toml:"agents"`
}

// agentLimits reads each agent's recall_limit from the settings file at
// path; nil when there is none or it cannot be read (every agent then has
// the default limit, as crabtalk's would if it could not load it).
func agentLimits(path string) map[string]int {
	if path == "" {
		return nil
	}
	data, err := safefile.ReadFile(path, safefile.Options{Limit: maxSettingsBytes, What: "settings file"})
	if err != nil {
		return nil
	}
	var f settingsFile
	if toml.Unmarshal(data, &f) != nil {
		return nil
	}
	out := map[string]int{}
	for name, a := range f.Agents {
		if l := a.Hooks.Memory.RecallLimit; l != nil {
			out[name] = int(min(*l, math.MaxInt))
		}
	}
	return out
}
