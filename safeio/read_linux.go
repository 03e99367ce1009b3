package safeio

import (
	"errors"
	"io/fs"
	"syscall"
)

// readFile is ReadFile in four system calls for a file that fits its
// first read: stat, open, read, close. Through package
// os it took eight or more (os.Open registers the file with the network
// poller, which refuses regular files; io.ReadAll reads 512 bytes, then
// grows), 7% of the check of a small kernel (issue 13). The guarantees are
// Open's: stat before opening (a FIFO is never opened), a regular file
// only, at most limit+1 bytes read; the errors read as package os's.
func readFile(path string, limit int64) ([]byte, error) {
	var st syscall.Stat_t
	if err := ignoringEINTR(func() error { return syscall.Stat(path, &st) }); err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err} // what the user asked for
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		what := "not a regular file"
		if st.Mode&syscall.S_IFMT == syscall.S_IFDIR {
			what = "a directory"
		}
		return nil, errors.New(path + ": " + what)
	}
	if limit > 0 && st.Size > limit {
		return nil, &LimitError{Path: path, Limit: limit}
	}
	var fd int
	err := ignoringEINTR(func() error {
		var err error
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		return err
	})
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	// Room for the whole file and one byte more, so that a read of the
	// whole file is short; a file that stat said is shorter than it is
	// (files in /proc say size 0) is read on to its end, up to the limit.
	size := st.Size + 1
	if size < 512 {
		size = 512
	}
	max := int64(-1) // the most bytes to read: limit+1 shows a file over the limit
	if limit > 0 {
		max = limit + 1
		if size > max {
			size = max
		}
	}
	buf := make([]byte, 0, size)
	for {
		if len(buf) == cap(buf) {
			if max >= 0 && int64(len(buf)) >= max {
				break
			}
			buf = append(buf, 0)[:len(buf)]
		}
		room := buf[len(buf):cap(buf)]
		if max >= 0 && int64(len(room)) > max-int64(len(buf)) {
			room = room[:max-int64(len(buf))]
		}
		n, err := syscall.Read(fd, room)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if n <= 0 {
			break
		}
		buf = buf[:len(buf)+n]
		if n < len(room) && int64(len(buf)) == st.Size {
			// A short read that ends where stat said the file ends: the
			// end of the file, without a read that returns 0 (a file that
			// grows meanwhile is read as it was at the stat).
			break
		}
	}
	if limit > 0 && int64(len(buf)) > limit {
		return nil, &LimitError{Path: path, Limit: limit} // grew while read
	}
	return buf, nil
}

func ignoringEINTR(f func() error) error {
	for {
		if err := f(); err != syscall.EINTR {
			return err
		}
	}
}
