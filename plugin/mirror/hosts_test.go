package mirror

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMirrorOnlyOnLoopback(t *testing.T) {
	for in, want := range map[string]string{":5005": "127.0.0.1:5005", "127.0.0.1:5005": "127.0.0.1:5005", "[::1]:5005": "[::1]:5005", "localhost:1": "localhost:1"} {
		if got, err := LoopbackAddress(in); err != nil || got != want {
			t.Errorf("%s: %s %v", in, got, err)
		}
	}
	for _, bad := range []string{"0.0.0.0:5005", "10.0.0.1:5005", "example.com:5005", "5005"} {
		if _, err := LoopbackAddress(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func TestHostsFilesAreWrittenButForeignOnesKept(t *testing.T) {
	dir := t.TempDir()
	foreign := filepath.Join(dir, "docker.io", "hosts.toml")
	os.MkdirAll(filepath.Dir(foreign), 0o755)
	os.WriteFile(foreign, []byte("server = \"https://mirror.corp\"\n"), 0o644)
	err := WriteHostsFiles(dir, []string{"_default", "registry.example:5000", "docker.io", "../x"}, "127.0.0.1:5005")
	if err == nil || !strings.Contains(err.Error(), "not written by Shoal") || !strings.Contains(err.Error(), "../x") {
		t.Fatalf("want errors for the foreign file and the bad name, got %v", err)
	}
	for _, name := range []string{"_default", "registry.example:5000"} {
		data, err := os.ReadFile(filepath.Join(dir, name, "hosts.toml"))
		if err != nil || !strings.Contains(string(data), `[host."http://127.0.0.1:5005"]`) || !strings.Contains(string(data), `capabilities = ["pull"]`) {
			t.Fatalf("%s: %v\n%s", name, err, data)
		}
	}
	if data, _ := os.ReadFile(foreign); !strings.Contains(string(data), "mirror.corp") {
		t.Fatal("a hosts.toml Shoal did not write was overwritten")
	}
	// Rewriting its own files is fine.
	if err := WriteHostsFiles(dir, []string{"_default"}, "127.0.0.1:6000"); err != nil {
		t.Fatal(err)
	}
}
