package interp

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/x448/float16"

	"weft.dev/weft/npy"
)

// ReadNpy reads a C-order .npy array of any numeric dtype (package npy:
// malformed or truncated files are errors, never panics). Its element type
// follows the dtype (f2 reads as f16, i2 as i32, and i8/u4/u8 as f64, which
// holds them exactly up to 2^53).
func ReadNpy(r io.Reader) (*Array, error) {
	a, err := npy.Read(bufio.NewReader(r), -1)
	if err != nil {
		return nil, err
	}
	return FromNpy(a)
}

// ReadNpyFile reads the .npy file path (see ReadNpy); errors name the file.
func ReadNpyFile(path string) (*Array, error) {
	a, err := npy.ReadFile(path)
	if err != nil {
		return nil, err
	}
	b, err := FromNpy(a)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return b, nil
}

// maxNpyElems bounds an array read from a file, as Bind bounds the arrays
// it makes.
const maxNpyElems = 1 << 31

// FromNpy converts a .npy array to an interpreter array.
func FromNpy(a *npy.Array) (*Array, error) {
	var e Elem
	switch d := a.Dtype; {
	case d.Kind == 'f' && d.Width == 2:
		e = F16
	case d.Kind == 'f' && d.Width == 4:
		e = F32
	case d.Kind == 'f':
		e = F64
	case d.Kind == 'i' && d.Width == 1:
		e = I8
	case d.Width == 1: // u1, b1
		e = UI8
	case d.Kind == 'u' && d.Width == 2:
		e = UI16
	case d.Kind == 'i' && d.Width <= 4:
		e = I32
	default: // i8, u4, u8
		e = F64
	}
	n := a.Len()
	if n > maxNpyElems {
		return nil, fmt.Errorf("shape %v: more than 2^31 elements", a.Shape)
	}
	out := NewArray(e, a.Shape)
	for i := range n {
		out.mem.put(i, a.Float64(i))
	}
	return out, nil
}

// Convert returns a with its elements rounded to e (a itself if it already
// has type e).
func (a *Array) Convert(e Elem) *Array {
	if a.Elem == e {
		return a
	}
	b := NewArray(e, a.Shape)
	for i := range a.Len() {
		if v := a.mem.get(i); !isUninit(v) {
			b.mem.put(i, round(e, v))
		}
	}
	return b
}

// WriteNpy writes a as a C-order .npy array (format version 1.0) of the
// matching dtype (bf16 as float32, which holds it exactly).
// Uninitialized elements are written as NaN (integers: 0); the writes are
// buffered.
func WriteNpy(w io.Writer, a *Array) error {
	var d npy.Dtype
	switch a.Elem {
	case I8:
		d = npy.Dtype{Kind: 'i', Width: 1}
	case UI8:
		d = npy.Dtype{Kind: 'u', Width: 1}
	case UI16:
		d = npy.Dtype{Kind: 'u', Width: 2}
	case I32:
		d = npy.Dtype{Kind: 'i', Width: 4}
	case F64:
		d = npy.Dtype{Kind: 'f', Width: 8}
	case F16:
		d = npy.Dtype{Kind: 'f', Width: 2}
	default: // f32, and bf16 (numpy has no bfloat16; float32 holds it exactly)
		d = npy.Dtype{Kind: 'f', Width: 4}
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	if err := npy.WriteHeader(bw, d, a.Shape); err != nil {
		return err
	}
	var buf [8]byte
	for i := range a.Len() {
		b := buf[:d.Width]
		switch a.Elem {
		case I8, UI8:
			b[0] = byte(intValue(a, i))
		case UI16:
			binary.LittleEndian.PutUint16(b, uint16(intValue(a, i)))
		case I32:
			binary.LittleEndian.PutUint32(b, uint32(int32(intValue(a, i))))
		case F64:
			binary.LittleEndian.PutUint64(b, math.Float64bits(a.Value(i)))
		case F16:
			binary.LittleEndian.PutUint16(b, float16.Fromfloat32(float32(a.Value(i))).Bits())
		default:
			binary.LittleEndian.PutUint32(b, math.Float32bits(float32(a.Value(i))))
		}
		if _, err := bw.Write(b); err != nil {
			return err
		}
	}
	return bw.Flush()
}

func intValue(a *Array, i int) int64 {
	if a.Uninit(i) {
		return 0
	}
	return int64(a.mem.get(i))
}
