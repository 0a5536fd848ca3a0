// Package identity keeps a node's libp2p key on disk, so that its peer ID
// survives restarts and other nodes' routing tables stay valid.
package identity

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/libp2p/go-libp2p/core/crypto"
)

// LoadOrCreate returns the private key stored at path, creating a new Ed25519
// key there (mode 0600) when the file does not exist yet.
func LoadOrCreate(path string) (crypto.PrivKey, error) {
	data, err := os.ReadFile(path)
	if err == nil {
		key, err := crypto.UnmarshalPrivateKey(data)
		if err != nil {
			return nil, fmt.Errorf("identity key %s is corrupt (remove it to get a new peer ID): %w", path, err)
		}
		return key, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read identity key: %w", err)
	}

	key, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		return nil, fmt.Errorf("generate identity key: %w", err)
	}
	data, err = crypto.MarshalPrivateKey(key)
	if err != nil {
		return nil, fmt.Errorf("encode identity key: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create identity dir: %w", err)
	}
	// Write then rename, so a crash never leaves a truncated key behind.
	tmp, err := os.CreateTemp(filepath.Dir(path), ".identity-*")
	if err != nil {
		return nil, fmt.Errorf("write identity key: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return nil, fmt.Errorf("write identity key: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return nil, fmt.Errorf("write identity key: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return nil, fmt.Errorf("write identity key: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return nil, fmt.Errorf("write identity key: %w", err)
	}
	return key, nil
}
