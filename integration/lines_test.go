package integration

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The containerd lines Shoal is built against, and how the go command
// selects each one's module (see the Makefile's CONTAINERD).
var lines = map[string]struct {
	modFile string
	flags   []string // go build flags that select the module
	tags    string   // build tags besides the Makefile's BUILDTAGS
}{
	"2.4": {modFile: "go.mod", flags: []string{"-mod=vendor"}},
	"2.3": {modFile: "go.2.3.mod", flags: []string{"-modfile=go.2.3.mod", "-mod=mod"}, tags: ",containerd2.3"},
}

// containerdLine is the line the binaries under test were built against:
// SHOAL_CONTAINERD, which make sets; 2.4 by default.
func containerdLine(t *testing.T) string {
	t.Helper()
	line := os.Getenv("SHOAL_CONTAINERD")
	if line == "" {
		line = "2.4"
	}
	if _, ok := lines[line]; !ok {
		t.Fatalf("SHOAL_CONTAINERD=%s: the lines are 2.4 and 2.3", line)
	}
	return line
}

// moduleRoot is the Shoal module's directory.
func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// containerdVersion is the containerd release of the line under test: the
// one its module file requires, without the "v".
func containerdVersion(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(moduleRoot(t), lines[containerdLine(t)].modFile))
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "github.com/containerd/containerd/v2" {
			return strings.TrimPrefix(f[1], "v")
		}
	}
	t.Fatalf("%s requires no github.com/containerd/containerd/v2", lines[containerdLine(t)].modFile)
	return ""
}

// goCmd is the go command in the module root, for the line under test.
func goCmd(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = moduleRoot(t)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=-buildvcs=false")
	return cmd
}
