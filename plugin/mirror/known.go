package mirror

import (
	"encoding/json"
	"sync"

	"github.com/containerd/containerd/v2/core/images"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
)

// knownBlobs are the descriptors listed by manifests and indexes the mirror
// served after verifying them: the only sizes it believes. A peer that
// claimed a huge size could otherwise fill the disk and get honest peers
// penalized for "short" answers.
type knownBlobs struct {
	mu    sync.Mutex
	max   int
	descs map[digest.Digest]ocispec.Descriptor
	order []digest.Digest // oldest first, for eviction
}

func newKnownBlobs(max int) *knownBlobs {
	return &knownBlobs{max: max, descs: map[digest.Digest]ocispec.Descriptor{}}
}

// addChildren records what the verified manifest or index m (its bytes in
// m.Data) lists.
func (k *knownBlobs) addChildren(m ocispec.Descriptor) {
	var children []ocispec.Descriptor
	switch {
	case images.IsIndexType(m.MediaType):
		var idx ocispec.Index
		if json.Unmarshal(m.Data, &idx) != nil {
			return
		}
		children = idx.Manifests
	case images.IsManifestType(m.MediaType):
		var man ocispec.Manifest
		if json.Unmarshal(m.Data, &man) != nil {
			return
		}
		children = append([]ocispec.Descriptor{man.Config}, man.Layers...)
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, c := range children {
		if c.Digest.Validate() != nil || c.Size <= 0 {
			continue
		}
		if _, ok := k.descs[c.Digest]; !ok {
			k.order = append(k.order, c.Digest)
		}
		k.descs[c.Digest] = ocispec.Descriptor{MediaType: c.MediaType, Digest: c.Digest, Size: c.Size}
	}
	for len(k.order) > k.max {
		delete(k.descs, k.order[0])
		k.order = k.order[1:]
	}
}

func (k *knownBlobs) get(d digest.Digest) (ocispec.Descriptor, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	desc, ok := k.descs[d]
	return desc, ok
}
