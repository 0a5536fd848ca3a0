// Copyright ©2017 The Gonum Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package mathext implements special math functions not implemented by the
// Go standard library.
package mathext // import "gonum.org/v1/gonum/mathext"
