// Copyright 2017 Mikio Hara. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package tcp

const (
	sysSIOCINQ  = 0x467f
	sysSIOCOUTQ = 0x7472
)
