package node

import (
	"fmt"
	"net"
	"time"

	"github.com/shoal-dev/shoal/plugin/contentserver"
	"github.com/shoal-dev/shoal/plugin/fetcher"
	"github.com/shoal-dev/shoal/plugin/inventory"
	"github.com/shoal-dev/shoal/plugin/peerhttp"
	"github.com/shoal-dev/shoal/plugin/registryaccess"
	"github.com/shoal-dev/shoal/plugin/router"
	"github.com/shoal-dev/shoal/plugin/window"
)

// Config is the [plugins."io.containerd.server.v1.p2p"] section.
type Config struct {
	// ListenAddresses are the libp2p multiaddrs peers connect to.
	ListenAddresses []string `toml:"listen_addresses"`
	// DataAddress is where the direct data path listens ("host:port"):
	// blob bytes travel over TLS 1.3 between the nodes' libp2p identities,
	// beside the libp2p connection, for peers connected over the private
	// network only. Empty: every byte stays inside libp2p streams (slower).
	DataAddress string `toml:"data_address"`
	// BootstrapPeers are nodes to join the peer network through, each
	// "host:port" or a multiaddr, with or without "/p2p/<peer-id>" (a
	// missing ID is learned on connect). Empty: wait for others to connect.
	BootstrapPeers []string `toml:"bootstrap_peers"`
	// BootstrapDNS are DNS names resolved at start and every
	// BootstrapInterval: "name" or "name:port" (A/AAAA records, port
	// BootstrapDNSPort when absent) or "_service._tcp.name" (SRV records).
	BootstrapDNS []string `toml:"bootstrap_dns"`
	// BootstrapDNSPort is the P2P port of nodes found by A/AAAA names.
	BootstrapDNSPort int `toml:"bootstrap_dns_port"`
	// BootstrapFile is a file of bootstrap entries, one per line, re-read
	// when it changes (for cloud-init and image builders).
	BootstrapFile string `toml:"bootstrap_file"`
	// MDNS discovers peers on the local link by multicast DNS.
	MDNS bool `toml:"mdns"`
	// BootstrapInterval is how often, while the routing table has fewer
	// than MinPeers peers, bootstrap sources are consulted and dialled
	// again.
	BootstrapInterval Duration `toml:"bootstrap_interval"`
	// MinPeers is the routing-table size below which the node bootstraps
	// again.
	MinPeers int `toml:"min_peers"`
	// NetworkKeyFile is the private network's pre-shared key (libp2p
	// swarm-key format, mode 0600; `shoal network-key` makes one). Only
	// nodes with the same key can connect, look up or fetch. Required
	// unless AllowOpenNetwork is set.
	NetworkKeyFile string `toml:"network_key_file"`
	// AllowOpenNetwork runs the mirror without a network key: any host that
	// can reach the listen port can then join and read any shared blob.
	// Default false: without a key the plugin stays off.
	AllowOpenNetwork bool `toml:"allow_open_network"`
	// AllowedPeers, when set, restricts connections (both ways) to these
	// peer IDs.
	AllowedPeers []string `toml:"allowed_peers"`
	// AllowedNetworks, when set, restricts connections (both ways) to
	// addresses in these CIDR ranges.
	AllowedNetworks []string `toml:"allowed_networks"`
	// SharedNamespaces are the containerd namespaces whose content is
	// announced and served; empty: all. PrivateNamespaces never are.
	SharedNamespaces  []string `toml:"shared_namespaces"`
	PrivateNamespaces []string `toml:"private_namespaces"`
	// SharedRegistries are the registries (host[:port]) whose content is
	// announced and served; empty: all. PrivateRegistries never are.
	SharedRegistries  []string `toml:"shared_registries"`
	PrivateRegistries []string `toml:"private_registries"`
	// FallbackLatest lets peers resolve the tag "latest" while the upstream
	// is unreachable. Default false: "latest" moves too often to trust
	// anyone but the registry with it.
	FallbackLatest bool `toml:"fallback_latest"`
	// MirrorAddress, when set, serves a read-only registry mirror on this
	// loopback address (":5005" means 127.0.0.1:5005) for pulls that bypass
	// the transfer service. Off by default; never on a non-loopback address.
	MirrorAddress string `toml:"mirror_address"`
	// DefaultRegistry answers mirror requests that carry no ns parameter.
	DefaultRegistry string `toml:"default_registry"`
	// MirrorHostsDir and MirrorRegistries: when both are set, hosts.toml
	// files listing the mirror are written to <dir>/<registry>/ for each
	// registry ("_default" for all). Files Shoal did not write are kept.
	MirrorHostsDir   string   `toml:"mirror_hosts_dir"`
	MirrorRegistries []string `toml:"mirror_registries"`
	// LookupTimeout bounds a provider lookup; a blob no peer holds costs
	// at most this before the upstream is asked.
	LookupTimeout Duration `toml:"lookup_timeout"`
	// StartupGrace is how long a pull right after start waits for the
	// first connection to a bootstrap peer.
	StartupGrace Duration `toml:"startup_grace"`
	// DialTimeout bounds connecting to a peer and opening a stream.
	DialTimeout Duration `toml:"dial_timeout"`
	// IdleTimeout abandons a peer that sends nothing for this long during a
	// transfer; the fetch continues from another source. A peer that stops
	// reading what this node serves is dropped after four times this.
	IdleTimeout Duration `toml:"idle_timeout"`
	// UpstreamIdleTimeout fails a read of a registry's body that sees no
	// byte for this long (a registry that keeps the connection open and
	// stops sending): a layer peers were finishing fails with an error
	// that says so, instead of hanging the pull. Longer than IdleTimeout:
	// registries are reached over the WAN.
	UpstreamIdleTimeout Duration `toml:"upstream_idle_timeout"`
	// MaxServingRequests bounds the requests this node serves to peers at
	// once, in all; MaxServingRequestsPerPeer for one peer. More are
	// answered 429 at once (peers then ask another holder and come back a
	// moment later).
	MaxServingRequests        int `toml:"max_serving_requests"`
	MaxServingRequestsPerPeer int `toml:"max_serving_requests_per_peer"`
	// ShareUnknownOrigin shares content that came from no registry (built
	// or imported on this node: no distribution-source label). Default
	// false: such content stays on the node.
	ShareUnknownOrigin bool `toml:"share_unknown_origin"`
	// ServePeers: false makes this node fetch from peers but never serve
	// or announce anything (metered, edge or sensitive nodes). Default true.
	ServePeers bool `toml:"serve_peers"`
	// MaxUploadBytesPerSecond caps all serving to peers together, on the
	// direct path and libp2p streams alike; pulls from this node stay
	// correct, only slower. 0: no cap.
	MaxUploadBytesPerSecond int64 `toml:"max_upload_bytes_per_second"`
	// MaxDownloadBytesPerSecond caps all fetching from peers together
	// (not from the upstream). 0: no cap.
	MaxDownloadBytesPerSecond int64 `toml:"max_download_bytes_per_second"`
	// ProviderTTL is how long other nodes keep this node's provider
	// records.
	ProviderTTL Duration `toml:"provider_ttl"`
	// ReannounceInterval is how often every held digest is announced
	// again; keep it well below ProviderTTL.
	ReannounceInterval Duration `toml:"reannounce_interval"`
	// MaxProviders is how many peers are tried for a blob before the
	// upstream.
	MaxProviders int `toml:"max_providers"`
	// HedgeDelay: when the first provider has not answered after this
	// long, the next one is asked too and the first to answer wins.
	HedgeDelay Duration `toml:"hedge_delay"`
	// ServeInFlight announces a layer as soon as this node starts to
	// receive it (from the upstream or from peers) and serves it to peers
	// while it arrives. Default true.
	ServeInFlight bool `toml:"serve_in_flight"`
	// PieceMemoryBytes bounds the memory of the pieces held ahead of what
	// is written, over all layers fetched by pieces (window.DefaultBudget).
	PieceMemoryBytes int64 `toml:"piece_memory_bytes"`
	// RegistryConfigPath is the hosts directory (<dir>/<host>/hosts.toml,
	// the layout of containerd's config_path) through which the loopback
	// mirror reaches registries by itself, anonymously: mirrors, `server`
	// overrides, CA, client certificates, skip_verify, plain HTTP, headers.
	// One directory. Hosts at the mirror's own address are never asked.
	// "": every registry directly, over HTTPS.
	RegistryConfigPath string `toml:"registry_config_path"`
}

// DefaultConfig is the configuration `containerd config default` prints.
// Each default is the constant of the package that uses the setting.
func DefaultConfig() *Config {
	return &Config{
		ListenAddresses:           []string{fmt.Sprintf("/ip4/0.0.0.0/tcp/%d", router.DefaultPort), fmt.Sprintf("/ip6/::/tcp/%d", router.DefaultPort)},
		DataAddress:               fmt.Sprintf(":%d", peerhttp.DefaultDataPort),
		BootstrapPeers:            []string{},
		BootstrapDNS:              []string{},
		BootstrapDNSPort:          router.DefaultPort,
		BootstrapInterval:         Duration(router.DefaultBootstrapInterval),
		MinPeers:                  router.DefaultMinPeers,
		AllowedPeers:              []string{},
		AllowedNetworks:           []string{},
		SharedNamespaces:          []string{},
		PrivateNamespaces:         []string{},
		SharedRegistries:          []string{},
		PrivateRegistries:         []string{},
		MirrorRegistries:          []string{},
		LookupTimeout:             Duration(router.DefaultLookupTimeout),
		StartupGrace:              Duration(router.DefaultStartupGrace),
		DialTimeout:               Duration(peerhttp.DefaultDialTimeout),
		IdleTimeout:               Duration(peerhttp.DefaultIdleTimeout),
		UpstreamIdleTimeout:       Duration(fetcher.DefaultUpstreamIdleTimeout),
		MaxServingRequests:        contentserver.DefaultMaxRequests,
		MaxServingRequestsPerPeer: contentserver.DefaultMaxRequestsPerPeer,
		ServePeers:                true,
		ProviderTTL:               Duration(router.DefaultProviderTTL),
		ReannounceInterval:        Duration(inventory.DefaultReannounceInterval),
		MaxProviders:              router.DefaultMaxProviders,
		HedgeDelay:                Duration(fetcher.DefaultHedgeDelay),
		ServeInFlight:             true,
		PieceMemoryBytes:          window.DefaultBudget,
		RegistryConfigPath:        registryaccess.DefaultHostDir,
	}
}

// Validate checks what can be checked without touching the machine.
func (c *Config) Validate() error {
	for name, d := range map[string]Duration{
		"lookup_timeout": c.LookupTimeout, "startup_grace": c.StartupGrace, "dial_timeout": c.DialTimeout,
		"idle_timeout": c.IdleTimeout, "upstream_idle_timeout": c.UpstreamIdleTimeout, "provider_ttl": c.ProviderTTL, "reannounce_interval": c.ReannounceInterval,
		"hedge_delay": c.HedgeDelay, "bootstrap_interval": c.BootstrapInterval,
	} {
		if d < 0 {
			return fmt.Errorf("%s must not be negative", name)
		}
	}
	if c.ReannounceInterval >= c.ProviderTTL {
		return fmt.Errorf("reannounce_interval (%s) must be shorter than provider_ttl (%s), or records expire between announcements",
			time.Duration(c.ReannounceInterval), time.Duration(c.ProviderTTL))
	}
	if c.DataAddress != "" {
		if _, _, err := net.SplitHostPort(c.DataAddress); err != nil {
			return fmt.Errorf("data_address %q: %w", c.DataAddress, err)
		}
	}
	if c.MaxServingRequests < 1 || c.MaxServingRequestsPerPeer < 1 {
		return fmt.Errorf("max_serving_requests (%d) and max_serving_requests_per_peer (%d) must be at least 1", c.MaxServingRequests, c.MaxServingRequestsPerPeer)
	}
	for name, v := range map[string]int64{
		"max_upload_bytes_per_second": c.MaxUploadBytesPerSecond, "max_download_bytes_per_second": c.MaxDownloadBytesPerSecond,
	} {
		if v < 0 {
			return fmt.Errorf("%s must not be negative (0: no limit)", name)
		}
	}
	if c.PieceMemoryBytes < 16<<20 {
		return fmt.Errorf("piece_memory_bytes (%d) must be at least 16 MiB, room for a layer's window of its smallest pieces", c.PieceMemoryBytes)
	}
	if len(c.ListenAddresses) == 0 {
		return fmt.Errorf("listen_addresses must not be empty")
	}
	return nil
}

// Duration is a time.Duration written as a string ("1s", "10m") in TOML.
type Duration time.Duration

// UnmarshalText parses a Go duration string.
func (d *Duration) UnmarshalText(text []byte) error {
	v, err := time.ParseDuration(string(text))
	if err != nil {
		return err
	}
	*d = Duration(v)
	return nil
}

// MarshalText writes the duration as a Go duration string.
func (d Duration) MarshalText() ([]byte, error) {
	return []byte(time.Duration(d).String()), nil
}

func (d Duration) std() time.Duration { return time.Duration(d) }
