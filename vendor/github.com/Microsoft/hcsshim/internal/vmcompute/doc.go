package vmcompute
