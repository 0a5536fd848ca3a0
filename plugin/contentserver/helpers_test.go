package contentserver

import (
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
)

func ocispecDesc(d digest.Digest, size int) ocispec.Descriptor {
	return ocispec.Descriptor{Digest: d, Size: int64(size)}
}
