package main

import (
	"os/exec"
	"strings"
	"testing"
)

// The shipped command links no test harness and no testing package: the
// demo lives in integration/demo.
func TestShoalLinksNoTestCode(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list found only %v", deps)
	}
	for _, dep := range deps {
		if strings.HasPrefix(dep, "github.com/shoal-dev/shoal/integration") || dep == "testing" || strings.HasPrefix(dep, "testing/") {
			t.Errorf("bin/shoal links %s", dep)
		}
	}
}
