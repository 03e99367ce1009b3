package safeio

import (
	"errors"
	"io/fs"
	"syscall"
)

// readFile is ReadFile in four system calls for a file that fits its
// first read: open, fstat, read, close. Through package os it took eight
// or more (os.Open registers the file with the network poller, which
// refuses regular files; io.ReadAll reads 512 bytes, then grows), 7% of
// the check of a small kernel (issue 13). The guarantees are Open's: a
// regular file only, at most limit+1 bytes read, and a FIFO never blocks
// the read nor is read from; the errors read as package os's.
//
// Until stop 31 it was stat, open, read, close: the stat kept a FIFO from
// being opened at all, since a plain open of one waits for a writer. The
// open is now O_NONBLOCK (a FIFO opens at once, and a regular file ignores
// the flag) and O_NOCTTY (a terminal never becomes the controlling one),
// and the type and size come from fstat of the open file, which resolves
// the path once instead of twice. A file that is not regular is closed
// without a read. An open that fails (a socket, a file without read
// permission, a missing file) is explained by a stat, as before, so every
// error reads as it did: a directory or device without read permission is
// still "a directory" or "not a regular file", not "permission denied".
func readFile(path string, limit int64) ([]byte, error) {
	var fd int
	err := ignoringEINTR(func() error {
		var err error
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
		return err
	})
	if err != nil {
		return nil, openError(path, limit, err)
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := ignoringEINTR(func() error { return syscall.Fstat(fd, &st) }); err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	if err := statError(path, limit, &st); err != nil {
		return nil, err
	}
	// Room for the whole file and one byte more, so that a read of the
	// whole file is short; a file that stat said is shorter than it is
	// (files in /proc say size 0) is read on to its end, up to the limit.
	// Only a file that says it is empty starts with 512 bytes: a kernel
	// of 280 bytes took 512 for every check (issue 13, stop 45).
	size := st.Size + 1
	if st.Size == 0 {
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

// statError is the error for a file whose stat is st: not a regular
// file, or larger than limit (nil: neither).
func statError(path string, limit int64, st *syscall.Stat_t) error {
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		what := "not a regular file"
		if st.Mode&syscall.S_IFMT == syscall.S_IFDIR {
			what = "a directory"
		}
		return errors.New(path + ": " + what)
	}
	if limit > 0 && st.Size > limit {
		return &LimitError{Path: path, Limit: limit}
	}
	return nil
}

// openError is the error of an open of path that failed with err, as the
// stat-first order reported it: the stat's error, the file's type or size,
// and only then the open's error.
func openError(path string, limit int64, err error) error {
	var st syscall.Stat_t
	if serr := ignoringEINTR(func() error { return syscall.Stat(path, &st) }); serr != nil {
		return &fs.PathError{Op: "open", Path: path, Err: serr} // what the user asked for
	}
	if serr := statError(path, limit, &st); serr != nil {
		return serr
	}
	return &fs.PathError{Op: "open", Path: path, Err: err}
}

func ignoringEINTR(f func() error) error {
	for {
		if err := f(); err != syscall.EINTR {
			return err
		}
	}
}
