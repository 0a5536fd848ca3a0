package failures

import (
	"errors"
	"fmt"
	"testing"
)

func TestLogKeepsTheLatestOldestFirst(t *testing.T) {
	l := NewLog(3)
	for i := 0; i < 5; i++ {
		l.Record(fmt.Sprint("d", i), "peer", errors.New("e"))
	}
	got := l.Recent()
	if len(got) != 3 || got[0].Digest != "d2" || got[2].Digest != "d4" {
		t.Fatalf("kept %+v", got)
	}
	got[0].Digest = "changed"
	if l.Recent()[0].Digest != "d2" {
		t.Fatal("Recent must return a copy")
	}
}
