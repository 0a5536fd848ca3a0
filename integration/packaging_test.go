package integration

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// `make install` and `make release` produce what a node image needs, and
// the installed containerd is the one that was tested.
func TestInstallAndReleaseLayout(t *testing.T) {
	requireEnv(t)
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dest := t.TempDir()
	if out, err := exec.Command("make", "-C", root, "install", "DESTDIR="+dest, "PREFIX=/usr").CombinedOutput(); err != nil {
		t.Fatalf("make install: %v\n%s", err, out)
	}
	for _, f := range []string{"usr/bin/containerd", "usr/bin/containerd-shim-runc-v2", "usr/bin/ctr", "usr/bin/shoal", "usr/lib/systemd/system/containerd.service"} {
		if _, err := os.Stat(filepath.Join(dest, f)); err != nil {
			t.Errorf("make install did not install %s", f)
		}
	}
	unit, _ := os.ReadFile(filepath.Join(dest, "usr/lib/systemd/system/containerd.service"))
	if !strings.Contains(string(unit), "ExecStart=/usr/bin/containerd\n") || !strings.Contains(string(unit), "Type=notify") {
		t.Errorf("systemd unit does not start /usr/bin/containerd as containerd's does:\n%s", unit)
	}
	out, err := exec.Command(filepath.Join(dest, "usr/bin/containerd"), "--version").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "shoal") {
		t.Errorf("installed containerd --version: %v %s", err, out)
	}

	rel := t.TempDir()
	if out, err := exec.Command("make", "-C", root, "release", "RELEASE_DIR="+rel).CombinedOutput(); err != nil {
		t.Fatalf("make release: %v\n%s", err, out)
	}
	sums, _ := filepath.Glob(filepath.Join(rel, "*.tar.gz.sha256sum"))
	if len(sums) != 1 {
		t.Fatalf("release wrote %d checksum files", len(sums))
	}
	check := exec.Command("sha256sum", "-c", filepath.Base(sums[0]))
	check.Dir = rel
	if out, err := check.CombinedOutput(); err != nil {
		t.Fatalf("checksum does not match: %v\n%s", err, out)
	}
	list, err := exec.Command("tar", "tzf", strings.TrimSuffix(sums[0], ".sha256sum")).CombinedOutput()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"bin/containerd\n", "bin/containerd-shim-runc-v2\n", "bin/ctr\n", "bin/shoal\n", "containerd.service\n"} {
		if !strings.Contains(string(list), f) {
			t.Errorf("release tarball lacks %s", strings.TrimSpace(f))
		}
	}
}
