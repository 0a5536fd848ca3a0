// Package netkey reads and writes the pre-shared key of a private peer
// network, in the standard libp2p swarm-key format:
//
//	/key/swarm/psk/1.0.0/
//	/base16/
//	<64 hex digits>
package netkey

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"

	"github.com/libp2p/go-libp2p/core/pnet"
)

// Generate returns a new random key in swarm-key format.
func Generate() ([]byte, error) {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	return []byte("/key/swarm/psk/1.0.0/\n/base16/\n" + hex.EncodeToString(key) + "\n"), nil
}

// Load reads the key at path. It refuses a key that other users can read:
// whoever holds the key is a member of the network.
func Load(path string) (pnet.PSK, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("network key: %w", err)
	}
	if st.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("network key %s is readable by other users (mode %v): chmod 600 it", path, st.Mode().Perm())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("network key: %w", err)
	}
	psk, err := pnet.DecodeV1PSK(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("network key %s is not a swarm key (/key/swarm/psk/1.0.0/, /base16/, 64 hex digits): %w", path, err)
	}
	if len(psk) != 32 {
		return nil, fmt.Errorf("network key %s has %d bytes, want 32", path, len(psk))
	}
	return psk, nil
}
