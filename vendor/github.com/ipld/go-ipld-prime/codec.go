package ipld

import (
	"github.com/ipld/go-ipld-prime/codec"
)

type (
	Encoder = codec.Encoder
	Decoder = codec.Decoder
)
