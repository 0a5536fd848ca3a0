// Copyright ©2017 The Gonum Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package cephes implements functions originally in the Netlib code by Stephen Mosher.
package cephes // import "gonum.org/v1/gonum/mathext/internal/cephes"
