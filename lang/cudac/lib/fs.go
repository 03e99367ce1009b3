package lib

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// FS is the file system a run of fopen sees: the working directory Root
// and the paths named on the command line (and what lies under them), so a
// program reads its inputs and writes its outputs but nothing else. Files
// are read whole at fopen and written back at fclose (or at the end of the
// run, Close), so a run's I/O is one read and one write per file.
type FS struct {
	Root  string   // absolute
	Named []string // absolute paths named on the command line
	open  map[int]*File
	next  int
}

// FirstFile is the handle of the first file opened; 1, 2 and 3 are
// stdout, stderr and stdin.
const FirstFile = 16

// Stream handles of stdout, stderr, stdin (the values of those FILE*).
const (
	Stdout = 1
	Stderr = 2
	Stdin  = 3
)

// File is an open file: its contents, the position, and the flags of
// feof and ferror.
type File struct {
	Path     string
	Data     []byte
	Pos      int
	Read     bool
	Write    bool
	Append   bool
	EOF      bool
	Dirty    bool
	Unget    int // a byte pushed back by ungetc, or -1
	maxBytes int
}

// maxFileBytes bounds a file a run may read or write.
const maxFileBytes = 1 << 30

// NewFS confines a run to root and the named paths (relative ones taken
// from root).
func NewFS(root string, named []string) (*FS, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	fs := &FS{Root: abs, open: map[int]*File{}, next: FirstFile}
	for _, n := range named {
		fs.Named = append(fs.Named, fs.abs(n))
	}
	return fs, nil
}

func (fs *FS) abs(p string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(fs.Root, p)
	}
	return filepath.Clean(p)
}

func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, dir+string(filepath.Separator))
}

// Allowed reports whether path may be opened.
func (fs *FS) Allowed(path string) bool {
	p := fs.abs(path)
	if within(p, fs.Root) {
		return true
	}
	for _, n := range fs.Named {
		if within(p, n) {
			return true
		}
	}
	return false
}

// Open is fopen(path, mode) (C11 7.21.5.3): it returns a handle, or an
// error (the file is outside the run's confinement, missing, or the mode
// is invalid): fopen then returns NULL.
func (fs *FS) Open(path, mode string) (int, error) {
	if fs == nil {
		return 0, fmt.Errorf("file I/O is not enabled for this run")
	}
	if !fs.Allowed(path) {
		return 0, fmt.Errorf("%s is outside the working directory and the paths named on the command line", path)
	}
	m := strings.ReplaceAll(mode, "b", "")
	f := &File{Path: fs.abs(path), Unget: -1}
	switch m {
	case "r":
		f.Read = true
	case "w":
		f.Write, f.Dirty = true, true
	case "a":
		f.Write, f.Append = true, true
	case "r+":
		f.Read, f.Write = true, true
	case "w+":
		f.Read, f.Write, f.Dirty = true, true, true
	case "a+":
		f.Read, f.Write, f.Append = true, true, true
	default:
		return 0, fmt.Errorf("invalid fopen mode %q", mode)
	}
	if m != "w" && m != "w+" {
		st, err := os.Stat(f.Path)
		switch {
		case err != nil && (m == "r" || m == "r+") && fs.writer(f.Path) == nil:
			return 0, err
		case err == nil && st.Size() > maxFileBytes:
			return 0, fmt.Errorf("%s is larger than %d bytes", path, maxFileBytes)
		case err == nil && st.IsDir():
			return 0, fmt.Errorf("%s is a directory", path)
		case err == nil:
			b, err := os.ReadFile(f.Path)
			if err != nil {
				return 0, err
			}
			f.Data = b
		}
		// the same file open and written through another handle: its
		// contents so far, as if that handle had flushed (a C++ stream
		// flushes on seekg, endl and close; a reader opened after the
		// writer's flush sees what was written)
		if w := fs.writer(f.Path); w != nil {
			f.Data = append([]byte(nil), w.Data...)
		}
	} else if dir := filepath.Dir(f.Path); dir != "" {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return 0, fmt.Errorf("no directory %s", dir)
		}
	}
	if f.Append {
		f.Pos = len(f.Data)
	}
	h := fs.next
	fs.next++
	fs.open[h] = f
	return h, nil
}

// writer is an open file of path written through its handle, or nil
// (the latest opened, if several).
func (fs *FS) writer(path string) *File {
	var w *File
	for h := FirstFile; h < fs.next; h++ {
		if f := fs.open[h]; f != nil && f.Path == path && f.Dirty {
			w = f
		}
	}
	return w
}

// File returns the open file of handle h.
func (fs *FS) File(h int) *File {
	if fs == nil {
		return nil
	}
	return fs.open[h]
}

// ReadAt reads up to n bytes at the position, advancing it.
func (f *File) ReadN(n int) []byte {
	if !f.Read {
		return nil
	}
	var out []byte
	if f.Unget >= 0 && n > 0 {
		out = append(out, byte(f.Unget))
		f.Unget = -1
		n--
	}
	end := f.Pos + n
	if end > len(f.Data) {
		end = len(f.Data)
		f.EOF = true
	}
	if f.Pos < end {
		out = append(out, f.Data[f.Pos:end]...)
		f.Pos = end
	}
	return out
}

// Getc is fgetc: the next byte, or -1 at the end.
func (f *File) Getc() int {
	if f.Unget >= 0 {
		c := f.Unget
		f.Unget = -1
		return c
	}
	if !f.Read || f.Pos >= len(f.Data) {
		f.EOF = true
		return -1
	}
	c := f.Data[f.Pos]
	f.Pos++
	return int(c)
}

// Rest is the unread input (for fscanf), without consuming it.
func (f *File) Rest() []byte {
	if f.Pos > len(f.Data) {
		return nil
	}
	if f.Unget >= 0 {
		return append([]byte{byte(f.Unget)}, f.Data[f.Pos:]...)
	}
	return f.Data[f.Pos:]
}

// Skip consumes n bytes of Rest.
func (f *File) Skip(n int) {
	if n <= 0 {
		return
	}
	if f.Unget >= 0 {
		f.Unget = -1
		n--
	}
	f.Pos += n
	if f.Pos >= len(f.Data) {
		f.Pos = len(f.Data)
	}
}

// WriteB writes b at the position (at the end for append mode).
func (f *File) WriteB(b []byte) int {
	if !f.Write {
		return 0
	}
	if f.Append {
		f.Pos = len(f.Data)
	}
	if f.Pos+len(b) > maxFileBytes {
		return 0
	}
	end := f.Pos + len(b)
	if end > len(f.Data) {
		f.Data = append(f.Data, make([]byte, end-len(f.Data))...)
	}
	copy(f.Data[f.Pos:], b)
	f.Pos = end
	f.Dirty = true
	return len(b)
}

// SeekTo is fseek (whence 0 SEEK_SET, 1 SEEK_CUR, 2 SEEK_END).
func (f *File) SeekTo(off int64, whence int) bool {
	var base int64
	switch whence {
	case 0:
	case 1:
		base = int64(f.Pos)
	case 2:
		base = int64(len(f.Data))
	default:
		return false
	}
	p := base + off
	if p < 0 || p > maxFileBytes {
		return false
	}
	f.Pos = int(p)
	f.EOF = false
	f.Unget = -1
	return true
}

// Close is fclose: a written file goes to disk.
func (fs *FS) Close(h int) error {
	f := fs.File(h)
	if f == nil {
		return fmt.Errorf("invalid FILE*")
	}
	delete(fs.open, h)
	if f.Dirty {
		return os.WriteFile(f.Path, f.Data, 0o644)
	}
	return nil
}

// CloseAll flushes every file still open (exit flushes streams, C11
// 7.22.4.4).
func (fs *FS) CloseAll() {
	if fs == nil {
		return
	}
	for h := FirstFile; h < fs.next; h++ {
		if fs.open[h] != nil {
			fs.Close(h)
		}
	}
}
