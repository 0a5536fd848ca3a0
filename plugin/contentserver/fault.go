//go:build !shoalfault

package contentserver

// corruptPieces is false in every build but the test-only one (build tag
// shoalfault): there, every piece this node sends has a byte flipped, as
// a member with a bad link or a bad disk would send it.
const corruptPieces = false
