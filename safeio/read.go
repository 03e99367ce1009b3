package safeio

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// LimitError is an input larger than the limit it was read under.
type LimitError struct {
	Path  string
	Limit int64
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("%s: larger than %d bytes (the input size limit)", e.Path, e.Limit)
}

// ReadFile reads path, which must be a regular file of at most limit bytes
// (limit <= 0: no limit).
func ReadFile(path string, limit int64) ([]byte, error) {
	return readFile(path, limit)
}

// readFileOS is ReadFile through package os (systems without read_linux.go's
// fewer system calls).
func readFileOS(path string, limit int64) ([]byte, error) {
	f, err := Open(path, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := io.Reader(f)
	if limit > 0 {
		r = io.LimitReader(f, limit+1)
	}
	buf, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if limit > 0 && int64(len(buf)) > limit {
		return nil, &LimitError{Path: path, Limit: limit} // grew while read
	}
	return buf, nil
}

// Open opens path for reading after checking that it is a regular file of
// at most limit bytes (limit <= 0: any size). The caller must still not
// trust the size for allocation beyond what it reads.
func Open(path string, limit int64) (*os.File, error) {
	// Stat before opening: opening a FIFO would block until a writer came.
	st, err := os.Stat(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			pe.Op = "open" // what the user asked for
		}
		return nil, err
	}
	if !st.Mode().IsRegular() {
		what := "not a regular file"
		if st.IsDir() {
			what = "a directory"
		}
		return nil, fmt.Errorf("%s: %s", path, what)
	}
	if limit > 0 && st.Size() > limit {
		return nil, &LimitError{Path: path, Limit: limit}
	}
	return os.Open(path)
}
