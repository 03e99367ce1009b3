package sem

import "weft.dev/weft/lang/cudac/lib"

// cudaDeviceProp is laid out from lib.PropFields (CUDA 12's field order
// with CUDA 13's additions), so every field a program reads exists with
// its C type, and cudaGetDeviceProperties fills each from the modeled
// device (--device) with the value cudaDeviceGetAttribute answers for
// the matching cudaDevAttr.

var tUUID = structOf("cudaUUID_t", "bytes", arrayOf(tChar, 16))

var tDeviceProp = func() *Type {
	var fields []any
	for _, f := range lib.PropFields {
		var t *Type
		switch f.Kind {
		case lib.PropInt:
			t = tInt
		case lib.PropUInt:
			t = tUInt
		case lib.PropSize:
			t = tULong
		case lib.PropChar:
			t = tChar
		case lib.PropUUID:
			t = tUUID
		}
		if f.Len > 0 {
			t = arrayOf(t, f.Len)
		}
		fields = append(fields, f.Name, t)
	}
	return structOf("cudaDeviceProp", fields...)
}()

// fillDeviceProp writes the properties of d into b, a cudaDeviceProp.
func fillDeviceProp(b []byte, d *lib.Device) {
	clear(b)
	copy(b[:255], d.Name)
	for _, f := range lib.PropFields {
		if f.Get == nil {
			continue
		}
		fi := tDeviceProp.field(f.Name)
		es := fi.Type.size
		if fi.Type.Kind == Array {
			es = fi.Type.Elem.size
		}
		for i, v := range f.Get(d) {
			storeN(b[fi.Offset+i*es:], es, uint64(v))
		}
	}
}
