package preview

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNewRenderer_StyleFile: a style file is read by crmem's capped,
// regular-file-only reader (glamour's own would read /dev/zero forever),
// and a valid one renders.
func TestNewRenderer_StyleFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "style.json")
	if err := os.WriteFile(good, []byte(`{"document": {"margin": 0}, "strong": {"bold": true}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := newRenderer(good, 40)
	if err != nil {
		t.Fatalf("newRenderer(%s) = %v", good, err)
	}
	if out, err := r.Render("**bold** text"); err != nil || !strings.Contains(out, "bold") {
		t.Errorf("render: %q, %v", out, err)
	}
	for _, bad := range []string{dir, filepath.Join(dir, "missing.json")} {
		if _, err := newRenderer(bad, 40); err == nil {
			t.Errorf("newRenderer(%s) accepted it", bad)
		}
	}
}
