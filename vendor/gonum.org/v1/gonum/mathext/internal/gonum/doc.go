// Copyright ©2017 The Gonum Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package gonum contains functions implemented by the gonum team.
// It is here to avoid circular imports and/or double coding of functions.
package gonum // import "gonum.org/v1/gonum/mathext/internal/gonum"
