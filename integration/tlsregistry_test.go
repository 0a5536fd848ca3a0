package integration

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// startTLSRegistry is a registry serving HTTPS with a certificate from a CA
// the test made up. Nothing trusts that CA by default: nodes reach the
// registry only through the hosts directory returned in hostsDir, whose
// hosts.toml names the CA (ctr --hosts-dir, CRI config_path).
func startTLSRegistry(t *testing.T) *testRegistry {
	t.Helper()
	requireEnv(t)
	dir := shortTempDir(t, "tls-")
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))

	caKey, caCert, caDER := newCA(t, "shoal test CA")
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	leaf := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()),
		Subject:      pkix.Name{CommonName: "shoal test registry"},
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
		DNSNames:     []string{"localhost"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, leaf, caCert, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	caPath, certPath, keyPath := filepath.Join(dir, "ca.pem"), filepath.Join(dir, "registry.pem"), filepath.Join(dir, "registry-key.pem")
	writePEM(t, caPath, "CERTIFICATE", caDER)
	writePEM(t, certPath, "CERTIFICATE", der)
	writePEM(t, keyPath, "EC PRIVATE KEY", keyDER)

	// containerd looks up <dir>/<host:port>/hosts.toml.
	hostsDir := filepath.Join(dir, "certs.d")
	hostsToml := fmt.Sprintf("server = %q\nca = %q\n", "https://"+addr, caPath)
	if err := os.MkdirAll(filepath.Join(hostsDir, addr), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(hostsDir, addr, "hosts.toml"), []byte(hostsToml), 0o644); err != nil {
		t.Fatal(err)
	}

	// Appended under the config's http section, after its addr.
	tlsConfig := fmt.Sprintf("  tls:\n    certificate: %s\n    key: %s\n", certPath, keyPath)
	return &testRegistry{
		upstream:  startRegistryOn(t, addr, tlsConfig),
		kind:      "tls",
		pullFlags: []string{"--hosts-dir", hostsDir},
		hostsDir:  hostsDir,
	}
}

// newCA makes a self-signed certificate authority named name.
func newCA(t *testing.T, name string) (*ecdsa.PrivateKey, *x509.Certificate, []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(time.Now().UnixNano()),
		Subject:               pkix.Name{CommonName: name},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return key, cert, der
}

func writePEM(t *testing.T, path, typ string, der []byte) {
	t.Helper()
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
}
