package node

import (
	"strings"
	"testing"
	"time"

	"github.com/pelletier/go-toml/v2"
)

func TestConfigDecodesDurationsAndKeepsDefaults(t *testing.T) {
	cfg := DefaultConfig()
	in := `
listen_addresses = ["/ip4/10.0.0.5/tcp/6000"]
bootstrap_peers = ["10.0.0.1:5050"]
lookup_timeout = "250ms"
`
	if err := toml.Unmarshal([]byte(in), cfg); err != nil {
		t.Fatal(err)
	}
	if time.Duration(cfg.LookupTimeout) != 250*time.Millisecond {
		t.Fatalf("lookup_timeout = %v", time.Duration(cfg.LookupTimeout))
	}
	if time.Duration(cfg.IdleTimeout) != 5*time.Second || cfg.MaxProviders != 3 {
		t.Fatal("unset keys must keep their defaults")
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	out, err := toml.Marshal(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "lookup_timeout = '1s'") {
		t.Fatalf("defaults do not render as durations:\n%s", out)
	}
}

func TestConfigRejectsSettingsThatLoseRecords(t *testing.T) {
	cfg := DefaultConfig()
	cfg.ReannounceInterval = Duration(time.Hour)
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "reannounce_interval") {
		t.Fatalf("got %v", err)
	}
	cfg = DefaultConfig()
	if err := toml.Unmarshal([]byte(`idle_timeout = "soon"`), cfg); err == nil {
		t.Fatal("bad duration accepted")
	}
}
