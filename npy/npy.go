package npy

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/x448/float16"

	"weft.dev/weft/safeio"
)

// Magic starts every .npy file.
const Magic = "\x93NUMPY"

// MaxHeader bounds the header dict's length (numpy itself refuses headers
// over 10000 bytes unless told otherwise).
const MaxHeader = 1 << 20

// Dtype is an element type: a kind ('f' float, 'i' signed, 'u' unsigned,
// 'b' bool), a width in bytes and a byte order.
type Dtype struct {
	Kind  byte
	Width int
	Big   bool // big-endian (only for Width > 1)
}

// String is the dtype as numpy writes it in a header: "<f4", "|u1".
func (d Dtype) String() string {
	order := byte('<')
	switch {
	case d.Width == 1:
		order = '|'
	case d.Big:
		order = '>'
	}
	return string(order) + string(d.Kind) + strconv.Itoa(d.Width)
}

func (d Dtype) order() binary.ByteOrder {
	if d.Big {
		return binary.BigEndian
	}
	return binary.LittleEndian
}

// ParseDtype reads a simple numpy type string ("<f4", "|b1", "=i8", "f2").
func ParseDtype(s string) (Dtype, error) {
	bad := fmt.Errorf("unsupported dtype %q (want a numeric type such as '<f4', '<i4' or '|u1')", s)
	if s == "" {
		return Dtype{}, bad
	}
	var d Dtype
	switch s[0] {
	case '<', '=', '|':
		s = s[1:]
	case '>':
		d.Big = true
		s = s[1:]
	}
	if len(s) < 2 {
		return Dtype{}, bad
	}
	d.Kind = s[0]
	w, err := strconv.Atoi(s[1:])
	if err != nil {
		return Dtype{}, bad
	}
	d.Width = w
	ok := false
	switch d.Kind {
	case 'f':
		ok = w == 2 || w == 4 || w == 8
	case 'i', 'u':
		ok = w == 1 || w == 2 || w == 4 || w == 8
	case 'b':
		ok = w == 1
	}
	if !ok {
		return Dtype{}, bad
	}
	if w == 1 {
		d.Big = false
	}
	return d, nil
}

// Array is an n-dimensional array in C order at its dtype's width.
type Array struct {
	Dtype Dtype
	Shape []int
	// Data holds Len()*Dtype.Width bytes in the dtype's byte order.
	Data []byte
}

// Len is the number of elements.
func (a *Array) Len() int { return len(a.Data) / a.Dtype.Width }

// Float64 returns element i converted to float64 (exact for every dtype
// but 64-bit integers beyond 2^53).
func (a *Array) Float64(i int) float64 {
	w := a.Dtype.Width
	b := a.Data[i*w : (i+1)*w]
	o := a.Dtype.order()
	switch a.Dtype.Kind {
	case 'f':
		switch w {
		case 2:
			return float64(float16.Frombits(o.Uint16(b)).Float32())
		case 4:
			return float64(math.Float32frombits(o.Uint32(b)))
		default:
			return math.Float64frombits(o.Uint64(b))
		}
	case 'b':
		if b[0] != 0 {
			return 1
		}
		return 0
	case 'u':
		return float64(uint64Of(o, b))
	}
	u := uint64Of(o, b)
	switch w { // sign-extend
	case 1:
		return float64(int8(u))
	case 2:
		return float64(int16(u))
	case 4:
		return float64(int32(u))
	}
	return float64(int64(u))
}

func uint64Of(o binary.ByteOrder, b []byte) uint64 {
	switch len(b) {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(o.Uint16(b))
	case 4:
		return uint64(o.Uint32(b))
	}
	return o.Uint64(b)
}

// Header is what a .npy header says.
type Header struct {
	Dtype   Dtype
	Fortran bool
	Shape   []int
}

// Count is the number of elements of the header's shape, or an error when
// a dimension is negative or the product overflows.
func (h *Header) Count() (int64, error) {
	n := int64(1)
	for _, d := range h.Shape {
		if d < 0 {
			return 0, fmt.Errorf("negative dimension in shape %v", h.Shape)
		}
		if d != 0 && n > math.MaxInt64/int64(h.Dtype.Width)/int64(d) {
			return 0, fmt.Errorf("shape %v is too large", h.Shape)
		}
		n *= int64(d)
	}
	return n, nil
}

// ReadHeader reads the magic, version and header dict; r is left at the
// data. It returns the header and its size in bytes (the data's offset).
func ReadHeader(r io.Reader) (*Header, int64, error) {
	var pre [8]byte
	if _, err := io.ReadFull(r, pre[:]); err != nil {
		return nil, 0, errors.New("not a .npy file (shorter than its magic and version)")
	}
	if string(pre[:6]) != Magic {
		return nil, 0, errors.New("not a .npy file (no \\x93NUMPY magic)")
	}
	var hlen int64
	off := int64(8)
	switch pre[6] {
	case 1:
		var b [2]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return nil, 0, errors.New("truncated header length")
		}
		hlen, off = int64(binary.LittleEndian.Uint16(b[:])), off+2
	case 2, 3:
		var b [4]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return nil, 0, errors.New("truncated header length")
		}
		hlen, off = int64(binary.LittleEndian.Uint32(b[:])), off+4
	default:
		return nil, 0, fmt.Errorf("unsupported .npy format version %d.%d (want 1.0, 2.0 or 3.0)", pre[6], pre[7])
	}
	if hlen > MaxHeader {
		return nil, 0, fmt.Errorf("header of %d bytes is longer than %d", hlen, MaxHeader)
	}
	text, err := io.ReadAll(io.LimitReader(r, hlen))
	if err != nil {
		return nil, 0, err
	}
	if int64(len(text)) < hlen {
		return nil, 0, fmt.Errorf("header claims %d bytes, the file ends after %d", hlen, len(text))
	}
	h, err := parseHeader(string(text))
	if err != nil {
		return nil, 0, fmt.Errorf("malformed header: %v", err)
	}
	return h, off + hlen, nil
}

// Read reads a whole .npy array from r. size is the number of bytes r
// holds in all (the file's length), or -1 when unknown; with a size the
// data's length is checked before it is allocated, without one the data is
// read as it comes, so neither way can a short input claim a huge array.
func Read(r io.Reader, size int64) (*Array, error) {
	h, off, err := ReadHeader(r)
	if err != nil {
		return nil, err
	}
	if h.Fortran {
		return nil, errors.New("Fortran-order arrays are not supported: save with numpy.ascontiguousarray")
	}
	n, err := h.Count()
	if err != nil {
		return nil, err
	}
	want := n * int64(h.Dtype.Width)
	if size >= 0 {
		have := size - off
		if have < want {
			return nil, fmt.Errorf("truncated: shape %v of %s needs %d data bytes, the file has %d", h.Shape, h.Dtype, want, have)
		}
		if have > want {
			return nil, fmt.Errorf("%d bytes after the data of shape %v of %s", have-want, h.Shape, h.Dtype)
		}
	}
	data, err := io.ReadAll(io.LimitReader(r, want))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) < want {
		return nil, fmt.Errorf("truncated: shape %v of %s needs %d data bytes, the file has %d", h.Shape, h.Dtype, want, len(data))
	}
	if size < 0 {
		var one [1]byte
		if k, _ := io.ReadFull(r, one[:]); k > 0 {
			return nil, fmt.Errorf("bytes after the data of shape %v of %s", h.Shape, h.Dtype)
		}
	}
	return &Array{Dtype: h.Dtype, Shape: h.Shape, Data: data}, nil
}

// ReadFile reads the .npy file path (a regular file), buffered.
func ReadFile(path string) (*Array, error) {
	f, err := safeio.Open(path, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	a, err := Read(bufio.NewReaderSize(f, 1<<16), st.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return a, nil
}

// Write writes a as a .npy file (see the package comment).
func Write(w io.Writer, a *Array) error {
	if err := WriteHeader(w, a.Dtype, a.Shape); err != nil {
		return err
	}
	_, err := w.Write(a.Data)
	return err
}

// WriteHeader writes the magic, version and header of an array of the
// given dtype and shape; the caller writes the data after it.
func WriteHeader(w io.Writer, d Dtype, shape []int) error {
	dims := make([]string, len(shape))
	for i, n := range shape {
		dims[i] = strconv.Itoa(n)
	}
	tuple := "(" + strings.Join(dims, ", ") + ")"
	if len(dims) == 1 {
		tuple = "(" + dims[0] + ",)"
	}
	hdr := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }", d, tuple)
	// magic (6) + version (2) + length (2 or 4) + header + newline is a
	// multiple of 64, as numpy writes it.
	pre := []byte(Magic + "\x01\x00\x00\x00")
	if len(hdr)+1+10 > math.MaxUint16 {
		pre = []byte(Magic + "\x02\x00\x00\x00\x00\x00")
	}
	total := len(pre) + len(hdr) + 1
	hdr += strings.Repeat(" ", (64-total%64)%64) + "\n"
	if pre[6] == 1 {
		binary.LittleEndian.PutUint16(pre[8:], uint16(len(hdr)))
	} else {
		binary.LittleEndian.PutUint32(pre[8:], uint32(len(hdr)))
	}
	if _, err := w.Write(pre); err != nil {
		return err
	}
	_, err := io.WriteString(w, hdr)
	return err
}
