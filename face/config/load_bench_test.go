package config_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crmem/crmem/face/config"
)

// manyKeys is a config of n settings under [keys], each a line, the last
// one unknown so Load stops with its line.
func manyKeys(n int) string {
	var b strings.Builder
	b.WriteString("[keys]\n")
	for i := range n {
		fmt.Fprintf(&b, "x%d = \"q\"\n", i)
	}
	return b.String()
}

// BenchmarkLoad_ManyKeys loads the largest config accepted (999 keys under
// [keys]) and one of 30,000 lines, refused at its 1,001st key: a 380 kB
// config of 30,000 keys took 37 s when every key's line was counted from
// the top and the decoder checked each key against all before it.
func BenchmarkLoad_ManyKeys(b *testing.B) {
	for _, n := range []int{999, 30000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			dir := b.TempDir()
			path := filepath.Join(dir, "config.toml")
			if err := os.WriteFile(path, []byte(manyKeys(n)), 0o600); err != nil {
				b.Fatal(err)
			}
			getenv := env(dir, nil)
			for b.Loop() {
				if _, err := config.Load(config.Options{Getenv: getenv}); err == nil {
					b.Fatal("an unknown key was accepted")
				}
			}
		})
	}
}
