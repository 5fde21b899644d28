package env

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVariantBasePathIsRelativeToTheFileNamingIt is finding 9 of issue 16:
// a variant file's base = "path" was resolved against the current folder,
// so a variant inheriting from a neighbouring file worked only when run
// from that folder.
func TestVariantBasePathIsRelativeToTheFileNamingIt(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "designs")
	if err := os.MkdirAll(filepath.Join(dir, "more"), 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"parent.toml":     "name = \"parent\"\nbase = \"fbgc\"\ndescription = \"from fbgc\"\n",
		"child.toml":      "name = \"child\"\nbase = \"parent.toml\"\n",
		"more/grand.toml": "name = \"grand\"\nbase = \"../child.toml\"\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"child.toml", "more/grand.toml"} {
		v, err := LoadVariant(filepath.Join(dir, name)) // the test runs in env/, not in dir
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if v.Description != "from fbgc" {
			t.Errorf("%s: description %q, want the parent's", name, v.Description)
		}
	}
	// A base named by a built-in or by text with no file keeps meaning a
	// path from the current folder.
	if _, err := ParseVariant("text", "name = \"x\"\nbase = \"parent.toml\"\n"); err == nil || !strings.Contains(err.Error(), "parent.toml") {
		t.Errorf("ParseVariant with a relative base: %v, want it not found from the current folder", err)
	}
}
