package fetcher

import (
	"testing"
	"time"
)

// The second in line waits long enough for the first's announcement to be
// seen, however many nodes there are; the last waits the whole window.
func TestFollowersWaitPastAnnouncingTime(t *testing.T) {
	for _, of := range []int{2, 8, 16, 1000} {
		if w := followWait(500*time.Millisecond, 1, of); w < followFloor {
			t.Errorf("rank 1 of %d waits %s", of, w)
		}
		if w := followWait(500*time.Millisecond, of-1, of); w > 500*time.Millisecond || w < followWait(500*time.Millisecond, 1, of) {
			t.Errorf("rank %d of %d waits %s", of-1, of, w)
		}
	}
	if w := followWait(100*time.Millisecond, 3, 4); w != 100*time.Millisecond {
		t.Errorf("a window under the floor: %s, want the window", w)
	}
}
