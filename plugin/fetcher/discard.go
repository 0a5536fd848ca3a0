package fetcher

import (
	"context"

	"github.com/containerd/errdefs"
	"github.com/containerd/log"
	"github.com/libp2p/go-libp2p/core/peer"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/plugin/peerclient"
)

// delivery is a layer handed to containerd whole, by pieces that peers
// sent under tables that signers (other nodes) signed. Pieces that match a
// table of bad bytes pass every piece check; containerd's commit then fails
// and leaves its ingest whole, which the next attempt would commit again.
type delivery struct {
	desc    ocispec.Descriptor
	ref     string
	signers []peer.ID
}

func (pf *PeerFirst) remember(d delivery) {
	pf.mu.Lock()
	defer pf.mu.Unlock()
	pf.deliveries = append(pf.deliveries, d)
}

// DiscardCorrupt is asked after a pull through this fetcher failed. Each
// layer it delivered whole that the store did not commit failed its digest
// check: it discards that ingest and penalizes the layer's signers for the
// layer (their tables are refused from then on). It reports whether it
// discarded any: a new attempt may then succeed.
func (pf *PeerFirst) DiscardCorrupt(ctx context.Context) bool {
	pf.mu.Lock()
	deliveries := pf.deliveries
	pf.deliveries = nil
	pf.mu.Unlock()
	store := pf.f.opts.Store
	if store == nil {
		return false
	}
	discarded := false
	for _, d := range deliveries {
		if _, err := store.Info(ctx, d.desc.Digest); !errdefs.IsNotFound(err) {
			continue // committed (or the store cannot say)
		}
		if st, err := store.Status(ctx, d.ref); err != nil || st.Offset != d.desc.Size {
			continue
		}
		if err := store.Abort(ctx, d.ref); err != nil && !errdefs.IsNotFound(err) {
			log.G(ctx).WithError(err).WithField("ref", d.ref).Warn("p2p: could not discard an ingest that failed its digest check")
			continue
		}
		for _, p := range d.signers {
			pf.judge(p, d.desc.Digest, peerclient.ErrBadTable)
		}
		log.G(ctx).WithFields(log.Fields{"digest": d.desc.Digest, "signers": d.signers}).
			Error("p2p: a layer whose pieces matched peers' tables failed its digest check; discarded, its signers penalized")
		discarded = true
	}
	return discarded
}
