//go:build shoalfault

package contentserver

// corruptPieces: this test-only build (bin/containerd-fault) flips a byte
// of every piece it sends to peers.
const corruptPieces = true
