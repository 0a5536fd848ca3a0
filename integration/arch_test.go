package integration

import "runtime"

func hostArch() string { return runtime.GOARCH }
