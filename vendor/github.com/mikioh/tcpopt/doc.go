// Copyright 2016 Mikio Hara. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package tcpopt implements encoding and decoding of TCP-level socket
// options.
package tcpopt
