package internal

import "errors"

var ErrIncorrectRecord = errors.New("received incorrect record")
