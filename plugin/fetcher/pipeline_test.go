package fetcher

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

type failingWriter struct{ after int }

func (f *failingWriter) Write(p []byte) (int, error) {
	if f.after <= 0 {
		return 0, errors.New("disk full")
	}
	f.after--
	return len(p), nil
}

func TestPipelinedCopy(t *testing.T) {
	data := randomBytes(t, 5*copyBufferSize+123)
	var out bytes.Buffer
	if n, err := pipelinedCopy(&out, bytes.NewReader(data), int64(len(data))); err != nil || n != int64(len(data)) || !bytes.Equal(out.Bytes(), data) {
		t.Fatalf("whole copy: %d, %v", n, err)
	}
	out.Reset()
	if n, err := pipelinedCopy(&out, bytes.NewReader(data), 1000); err != nil || n != 1000 || !bytes.Equal(out.Bytes(), data[:1000]) {
		t.Fatalf("limited copy: %d, %v", n, err)
	}
	out.Reset()
	short := io.MultiReader(bytes.NewReader(data[:100]), errReader{errors.New("stream reset")})
	if n, err := pipelinedCopy(&out, short, int64(len(data))); err == nil || n != 100 {
		t.Fatalf("broken source: %d, %v", n, err)
	}
	out.Reset()
	if n, err := pipelinedCopy(&out, bytes.NewReader(data[:100]), int64(len(data))); err != nil || n != 100 {
		t.Fatalf("source ends early: %d, %v (the caller sees the short count)", n, err)
	}
	if _, err := pipelinedCopy(&failingWriter{after: 1}, bytes.NewReader(data), int64(len(data))); err == nil {
		t.Fatal("a failing write was not reported")
	}
}
