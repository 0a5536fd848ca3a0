/*
   Copyright The containerd Authors.

   Licensed under the Apache License, Version 2.0 (the "License");
   you may not use this file except in compliance with the License.
   You may obtain a copy of the License at

       http://www.apache.org/licenses/LICENSE-2.0

   Unless required by applicable law or agreed to in writing, software
   distributed under the License is distributed on an "AS IS" BASIS,
   WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
   See the License for the specific language governing permissions and
   limitations under the License.
*/

package manager

import (
	"context"

	"github.com/containerd/containerd/v2/core/mount"
)

const (
	// define mount options using X-containerd prefix as defined by
	// https://man7.org/linux/man-pages/man8/mount.8.html

	prefixMkdir = "X-containerd.mkdir."
	prefixMkfs  = "X-containerd.mkfs."
)

type typeTransformer struct {
	mount.Transformer

	mountType string
}

func (t typeTransformer) Transform(ctx context.Context, m mount.Mount, a []mount.ActiveMount) (mount.Mount, error) {
	m.Type = t.mountType
	return t.Transformer.Transform(ctx, m, a)
}
