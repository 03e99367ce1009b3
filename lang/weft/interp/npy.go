package interp

import (
	"encoding/binary"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/sbinet/npyio/npy"
	"github.com/x448/float16"
)

// ReadNpy reads a C-order .npy array of any numeric dtype. Its element type
// follows the dtype (f2 reads as f16, i2 as i32, and i8/u4/u8 as f64, which
// holds them exactly up to 2^53).
func ReadNpy(r io.Reader) (*Array, error) {
	rd, err := npy.NewReader(r)
	if err != nil {
		return nil, err
	}
	if rd.Header.Descr.Fortran {
		return nil, fmt.Errorf("Fortran-order arrays are not supported: save with numpy.ascontiguousarray")
	}
	var e Elem
	switch t := rd.Header.Descr.Type; t[len(t)-2:] {
	case "f2":
		e = F16
	case "f4":
		e = F32
	case "f8":
		e = F64
	case "i1":
		e = I8
	case "u1", "b1":
		e = UI8
	case "u2":
		e = UI16
	case "i2", "i4":
		e = I32
	case "i8", "u4", "u8":
		e = F64
	default:
		return nil, fmt.Errorf("unsupported dtype %s", rd.Header.Descr.Type)
	}
	if e == F16 {
		return readF16(r, rd.Header.Descr.Type, rd.Header.Descr.Shape)
	}
	// npyio reads into a slice of the file's own element type.
	et := npy.TypeFrom(rd.Header.Descr.Type)
	if et == nil {
		return nil, fmt.Errorf("unsupported dtype %s", rd.Header.Descr.Type)
	}
	ptr := reflect.New(reflect.SliceOf(et))
	if err := rd.Read(ptr.Interface()); err != nil {
		return nil, err
	}
	sv := ptr.Elem()
	data := make([]float64, sv.Len())
	for i := range data {
		switch x := sv.Index(i); x.Kind() {
		case reflect.Float32, reflect.Float64:
			data[i] = x.Float()
		case reflect.Bool:
			if x.Bool() {
				data[i] = 1
			}
		case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			data[i] = float64(x.Uint())
		default:
			data[i] = float64(x.Int())
		}
	}
	shape := append([]int{}, rd.Header.Descr.Shape...)
	n := 1
	for _, d := range shape {
		n *= d
	}
	if n != len(data) {
		return nil, fmt.Errorf("shape %v holds %d elements, file has %d", shape, n, len(data))
	}
	return &Array{Elem: e, Shape: shape, Data: data}, nil
}

// readF16 reads the data of a float16 array after its header (npyio has
// no float16 type; the header reader leaves r at the data).
func readF16(r io.Reader, dtype string, shape []int) (*Array, error) {
	var order binary.ByteOrder = binary.LittleEndian
	if dtype[0] == '>' {
		order = binary.BigEndian
	}
	n := 1
	for _, d := range shape {
		n *= d
	}
	if n > 1<<31 {
		return nil, fmt.Errorf("shape %v is too large", shape)
	}
	bits := make([]uint16, n)
	if err := binary.Read(r, order, bits); err != nil {
		return nil, fmt.Errorf("reading %d float16 values: %v", n, err)
	}
	a := &Array{Elem: F16, Shape: append([]int{}, shape...), Data: make([]float64, n)}
	for i, b := range bits {
		a.Data[i] = float64(float16.Frombits(b).Float32())
	}
	return a, nil
}

// Convert returns a with its elements rounded to e (a itself if it already
// has type e).
func (a *Array) Convert(e Elem) *Array {
	if a.Elem == e {
		return a
	}
	b := &Array{Elem: e, Shape: a.Shape, Data: make([]float64, len(a.Data))}
	for i, v := range a.Data {
		if isUninit(v) {
			b.Data[i] = v
		} else {
			b.Data[i] = round(e, v)
		}
	}
	return b
}

// WriteNpy writes a as a C-order .npy array (format version 1.0) of the
// matching dtype (bf16 as float32, which holds it exactly).
// Uninitialized elements are written as NaN (integers: 0). npyio writes
// only flat slices with their own shape, so the header is written here.
func WriteNpy(w io.Writer, a *Array) error {
	var descr string
	var data any
	n := len(a.Data)
	switch a.Elem {
	case I8:
		d := make([]int8, n)
		for i := range d {
			d[i] = int8(intValue(a, i))
		}
		descr, data = "|i1", d
	case UI8:
		d := make([]uint8, n)
		for i := range d {
			d[i] = uint8(intValue(a, i))
		}
		descr, data = "|u1", d
	case UI16:
		d := make([]uint16, n)
		for i := range d {
			d[i] = uint16(intValue(a, i))
		}
		descr, data = "<u2", d
	case I32:
		d := make([]int32, n)
		for i := range d {
			d[i] = int32(intValue(a, i))
		}
		descr, data = "<i4", d
	case F64:
		d := make([]float64, n)
		for i := range d {
			d[i] = a.Value(i)
		}
		descr, data = "<f8", d
	case F16:
		d := make([]uint16, n)
		for i := range d {
			d[i] = float16.Fromfloat32(float32(a.Value(i))).Bits()
		}
		descr, data = "<f2", d
	default: // f32, and bf16 (numpy has no bfloat16; float32 holds it exactly)
		d := make([]float32, n)
		for i := range d {
			d[i] = float32(a.Value(i))
		}
		descr, data = "<f4", d
	}
	dims := make([]string, len(a.Shape))
	for i, d := range a.Shape {
		dims[i] = strconv.Itoa(d)
	}
	shape := "(" + strings.Join(dims, ", ") + ")"
	if len(dims) == 1 {
		shape = "(" + dims[0] + ",)"
	}
	hdr := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, shape)
	// Pad with spaces so that magic (6) + version (2) + length (2) + header
	// + newline is a multiple of 64, as numpy writes it.
	total := 10 + len(hdr) + 1
	hdr += strings.Repeat(" ", (64-total%64)%64) + "\n"
	var pre [10]byte
	copy(pre[:], "\x93NUMPY\x01\x00")
	binary.LittleEndian.PutUint16(pre[8:], uint16(len(hdr)))
	if _, err := w.Write(pre[:]); err != nil {
		return err
	}
	if _, err := io.WriteString(w, hdr); err != nil {
		return err
	}
	return binary.Write(w, binary.LittleEndian, data)
}

func intValue(a *Array, i int) int64 {
	if a.Uninit(i) {
		return 0
	}
	return int64(a.Data[i])
}
