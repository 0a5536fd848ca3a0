package fetcher

import "time"

var timeZero time.Time
