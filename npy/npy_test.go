package npy

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// file builds a version-1.0 .npy file from a header dict and data.
func file(dict string, data []byte) []byte {
	var b bytes.Buffer
	b.WriteString(Magic + "\x01\x00")
	binary.Write(&b, binary.LittleEndian, uint16(len(dict)))
	b.WriteString(dict)
	b.Write(data)
	return b.Bytes()
}

func f32s(xs ...float32) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.LittleEndian, xs)
	return b.Bytes()
}

// TestReadMalformed: each of issue 14's crafted files is an error with the
// message given, never a panic, never an allocation of the claimed size.
func TestReadMalformed(t *testing.T) {
	ok := "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n"
	cases := []struct {
		name string
		in   []byte
		want string
	}{
		{"empty", nil, "not a .npy file (shorter than its magic and version)"},
		{"magic", []byte("\x93NUMPX\x01\x00\x00\x00"), "no \\x93NUMPY magic"},
		{"version", []byte(Magic + "\x04\x00\x00\x00"), "unsupported .npy format version 4.0"},
		{"no length", []byte(Magic + "\x01\x00\x05"), "truncated header length"},
		{"length beyond file", []byte(Magic + "\x01\x00\xff\x00{'descr'"), "header claims 255 bytes, the file ends after 8"},
		{"v2 huge length", []byte(Magic + "\x02\x00\xff\xff\xff\xff"), "header of 4294967295 bytes is longer than 1048576"},
		{"short dtype", file("{'descr': '<', 'fortran_order': False, 'shape': (2,), }", f32s(1, 2)), `unsupported dtype "<"`},
		{"one-letter dtype", file("{'descr': 'f', 'fortran_order': False, 'shape': (2,), }", f32s(1, 2)), `unsupported dtype "f"`},
		{"object dtype", file("{'descr': '|O', 'fortran_order': False, 'shape': (2,), }", f32s(1, 2)), `unsupported dtype "|O"`},
		{"structured", file("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }", f32s(1, 2)), "structured dtypes are not supported"},
		{"no brace", file("'descr': '<f4', 'fortran_order': False, 'shape': (2,)", f32s(1, 2)), "malformed header: at byte 0: want '{' at the start of the dict"},
		{"no closing brace", file("{'descr': '<f4', 'fortran_order': False, 'shape': (2,)", f32s(1, 2)), "want ',' or '}' after the value of \"shape\""},
		{"unterminated", file("{'descr': '<f4", nil), "unterminated string"},
		{"missing shape", file("{'descr': '<f4', 'fortran_order': False}", nil), `no "shape" key`},
		{"negative shape", file("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }", f32s(1, 2)), "negative dimension in shape"},
		{"overflowing shape", file("{'descr': '<f8', 'fortran_order': False, 'shape': (100000000000000, 100000000000000), }", nil), "shape [100000000000000 100000000000000] is too large"},
		{"huge shape tiny file", file("{'descr': '<f4', 'fortran_order': False, 'shape': (1000000000, 1000), }", f32s(1)), "truncated: shape [1000000000 1000] of <f4 needs 4000000000000 data bytes, the file has 4"},
		{"truncated data", file(ok, f32s(1)), "truncated: shape [2] of <f4 needs 8 data bytes, the file has 4"},
		{"bytes after data", file(ok, f32s(1, 2, 3)), "bytes after the data of shape [2] of <f4"},
		{"fortran", file("{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }", f32s(1, 2)), "Fortran-order arrays are not supported"},
		{"bad bool", file("{'descr': '<f4', 'fortran_order': Nope, 'shape': (2,), }", f32s(1, 2)), "fortran_order is not True or False"},
		{"unknown key", file("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}", f32s(1, 2)), `unknown key "x"`},
		{"text after", file("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), } x", f32s(1, 2)), "text after the dict"},
	}
	for _, c := range cases {
		for _, size := range []int64{int64(len(c.in)), -1} {
			_, err := Read(bytes.NewReader(c.in), size)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s (size %d): got %v, want %q", c.name, size, err, c.want)
			}
		}
	}
}

// TestReadUnknownSizeTruncated: without a known size, truncation and
// trailing bytes are still errors.
func TestReadUnknownSizeTruncated(t *testing.T) {
	ok := "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n"
	if _, err := Read(bytes.NewReader(file(ok, f32s(1))), -1); err == nil || err.Error() != "truncated: shape [2] of <f4 needs 8 data bytes, the file has 4" {
		t.Errorf("truncated: %v", err)
	}
	if _, err := Read(bytes.NewReader(file(ok, f32s(1, 2, 3))), -1); err == nil || err.Error() != "bytes after the data of shape [2] of <f4" {
		t.Errorf("trailing: %v", err)
	}
}

// TestRoundTrip: every dtype reads back what was written, at its width,
// and the header is padded as numpy pads it.
func TestRoundTrip(t *testing.T) {
	for _, dt := range []string{"<f2", "<f4", "<f8", ">f8", "|i1", "<i2", ">i4", "<i8", "|u1", "<u2", "<u4", "<u8", "|b1"} {
		d, err := ParseDtype(dt)
		if err != nil {
			t.Fatal(err)
		}
		a := &Array{Dtype: d, Shape: []int{2, 3}, Data: make([]byte, 6*d.Width)}
		for i := range 6 {
			// element i = i (1 for bool when i odd), written in the dtype's order.
			v := uint64(i)
			if d.Kind == 'b' {
				v %= 2
			}
			b := a.Data[i*d.Width : (i+1)*d.Width]
			switch {
			case d.Kind == 'f' && d.Width == 2:
				d.order().PutUint16(b, []uint16{0, 0x3c00, 0x4000, 0x4200, 0x4400, 0x4500}[i])
			case d.Kind == 'f' && d.Width == 4:
				d.order().PutUint32(b, math.Float32bits(float32(i)))
			case d.Kind == 'f':
				d.order().PutUint64(b, math.Float64bits(float64(i)))
			case d.Width == 1:
				b[0] = byte(v)
			case d.Width == 2:
				d.order().PutUint16(b, uint16(v))
			case d.Width == 4:
				d.order().PutUint32(b, uint32(v))
			default:
				d.order().PutUint64(b, v)
			}
		}
		var buf bytes.Buffer
		if err := Write(&buf, a); err != nil {
			t.Fatal(err)
		}
		if (buf.Len()-len(a.Data))%64 != 0 {
			t.Errorf("%s: data starts at %d, not a multiple of 64", dt, buf.Len()-len(a.Data))
		}
		b, err := Read(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil {
			t.Fatalf("%s: %v", dt, err)
		}
		if b.Dtype != d || len(b.Shape) != 2 || b.Shape[0] != 2 || b.Shape[1] != 3 || b.Len() != 6 || len(b.Data) != 6*d.Width {
			t.Fatalf("%s: read %+v", dt, b)
		}
		for i := range 6 {
			want := float64(i)
			if d.Kind == 'b' {
				want = float64(i % 2)
			}
			if got := b.Float64(i); got != want {
				t.Errorf("%s: element %d = %v, want %v", dt, i, got, want)
			}
		}
	}
}

// TestSignedValues: negative integers sign-extend.
func TestSignedValues(t *testing.T) {
	a := &Array{Dtype: Dtype{Kind: 'i', Width: 2}, Shape: []int{1}, Data: []byte{0xfe, 0xff}}
	if a.Float64(0) != -2 {
		t.Errorf("got %v, want -2", a.Float64(0))
	}
}

// TestScalarAndEmpty: shape () holds one element, (0,) none.
func TestScalarAndEmpty(t *testing.T) {
	a, err := Read(bytes.NewReader(file("{'descr': '<f4', 'fortran_order': False, 'shape': (), }\n", f32s(7))), -1)
	if err != nil || a.Len() != 1 || a.Float64(0) != 7 || len(a.Shape) != 0 {
		t.Errorf("scalar: %+v %v", a, err)
	}
	a, err = Read(bytes.NewReader(file("{'descr': '<f4', 'fortran_order': False, 'shape': (0, 5), }\n", nil)), -1)
	if err != nil || a.Len() != 0 {
		t.Errorf("empty: %+v %v", a, err)
	}
}

// TestReadFile: a FIFO or directory is refused; the error names the file.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadFile(dir); err == nil || !strings.Contains(err.Error(), "a directory") {
		t.Errorf("directory: %v", err)
	}
	p := filepath.Join(dir, "bad.npy")
	os.WriteFile(p, []byte("hello"), 0o644)
	if _, err := ReadFile(p); err == nil || err.Error() != p+": not a .npy file (shorter than its magic and version)" {
		t.Errorf("bad: %v", err)
	}
}

// FuzzRead: Read never panics, and whatever it accepts has exactly the
// data its shape needs and writes back to an identical array.
func FuzzRead(f *testing.F) {
	f.Add(file("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n", f32s(1, 2)))
	f.Add(file("{'descr': '|u1', 'fortran_order': False, 'shape': (2, 1), }\n", []byte{1, 2}))
	f.Add(file("{'descr': '<f2', 'fortran_order': False, 'shape': (), }\n", []byte{0, 0x3c}))
	f.Add([]byte(Magic + "\x02\x00\x10\x00\x00\x00{'shape': (0,)}"))
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, size := range []int64{int64(len(in)), -1} {
			a, err := Read(bytes.NewReader(in), size)
			if err != nil {
				continue
			}
			n := int64(1)
			for _, d := range a.Shape {
				n *= int64(d)
			}
			if n*int64(a.Dtype.Width) != int64(len(a.Data)) {
				t.Fatalf("shape %v of %s with %d data bytes", a.Shape, a.Dtype, len(a.Data))
			}
			for i := range a.Len() {
				a.Float64(i)
			}
			var buf bytes.Buffer
			if err := Write(&buf, a); err != nil {
				t.Fatal(err)
			}
			b, err := Read(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
			if err != nil || b.Dtype != a.Dtype || !bytes.Equal(a.Data, b.Data) || len(a.Shape) != len(b.Shape) {
				t.Fatalf("round trip: %+v -> %+v, %v", a, b, err)
			}
		}
	})
}
