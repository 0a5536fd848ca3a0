package ipld

import (
	"github.com/ipld/go-ipld-prime/adl"
)

type ADL = adl.ADL
