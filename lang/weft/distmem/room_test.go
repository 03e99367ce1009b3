package distmem

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"unsafe"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/gpucheck"
	"weft.dev/weft/lang/weft/internal/expect"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// TestRoomSizeClasses keeps each room in a size class that holds
// several to a span (room.go): an object with pointers of more than 512
// bytes takes an 8-byte header in its slot.
func TestRoomSizeClasses(t *testing.T) {
	const header = 8
	for _, c := range []struct {
		name     string
		size     uintptr
		lo, high uintptr
	}{
		{"roomS", unsafe.Sizeof(roomS{}), 640, 704},
		{"roomM", unsafe.Sizeof(roomM{}), 1536, 1792},
		{"roomD", unsafe.Sizeof(roomD{}), 2688, 3072},
	} {
		if n := c.size + header; n <= c.lo || n > c.high {
			t.Errorf("%s and its header are %d bytes, outside the %d-byte size class (%d, %d]", c.name, n, c.high, c.lo, c.high)
		}
	}
}

// usesProgram is a kernel of vars register arrays, each used uses
// times (a write, then reads), with a pair shuffle of the first when
// shfl is set: the counts of variables, uses and desugared loops that
// fit each room and pass its arrays.
func usesProgram(vars, uses int, shfl bool) string {
	var b strings.Builder
	b.WriteString("def p(A: f32[64] @ CudaGmemLinear):\n")
	b.WriteString("    with CudaDeviceFunction(blockDim=64):\n")
	b.WriteString("        for task in cuda_tasks(0, 1):\n")
	for v := 0; v < vars; v++ {
		fmt.Fprintf(&b, "            x%d: f32[32, 2] @ CudaRmem\n", v)
	}
	b.WriteString("            for p in cuda_threads(0, 32, unit=2 * cuda_thread):\n")
	b.WriteString("                for t in cuda_threads(0, 2):\n")
	for v := 0; v < vars; v++ {
		fmt.Fprintf(&b, "                    x%d[p, t] = A[p * 2 + t]\n", v)
		for u := 1; u < uses; u++ {
			fmt.Fprintf(&b, "                    A[p * 2 + t] = x%d[p, t]\n", v)
		}
	}
	if shfl {
		b.WriteString("            for p in cuda_threads(0, 32, unit=2 * cuda_thread):\n")
		b.WriteString("                cuda_shfl_xor_sync_1f32(x0[p, :], x0[p, :], laneMask=1)\n")
	}
	return b.String()
}

// TestRoomsMatchApart compares Check in its rooms with Check making
// every array apart (roomsOff) on the repository's programs and on
// programs of every count around the rooms' (usesProgram: uses and
// desugared loops past a room's arrays are made apart): the same
// deductions, iterators, tilings and diagnostics. It counts the checks
// each room took and those whose uses or loops passed its arrays.
func TestRoomsMatchApart(t *testing.T) {
	l := lib.MustStd()
	var srcs, names []string
	for _, file := range repoFiles() {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, chunk := range expect.Chunks(string(src)) {
			srcs, names = append(srcs, chunk), append(names, file)
		}
	}
	for vars := 1; vars <= 4; vars++ {
		for uses := 1; uses <= 6; uses++ {
			for _, shfl := range []bool{false, true} {
				srcs = append(srcs, usesProgram(vars, uses, shfl))
				names = append(names, fmt.Sprintf("uses %d x %d shfl %v", vars, uses, shfl))
			}
		}
	}
	defer func() { roomsOff = false }()
	took := map[string]int{}
	passed := 0
	for k, src := range srcs {
		var errs diag.List
		f := syntax.Parse(diag.NewFile(names[k], []byte(src)), &errs)
		if errs.HasErrors() {
			continue
		}
		g := gpucheck.Check(f, gpucheck.Options{Lib: l}, &errs)
		if errs.HasErrors() {
			if strings.HasPrefix(names[k], "uses") {
				t.Fatalf("%s: %v", names[k], errs.Err())
			}
			continue
		}
		var e1, e2 diag.List
		roomsOff = false
		r := Check(g, &e1)
		roomsOff = true
		want := Check(g, &e2)
		if got, w := dumpFull(r.Deductions), dumpFull(want.Deductions); got != w {
			t.Fatalf("%s: rooms:\n%s\napart:\n%s", names[k], got, w)
		}
		if fmt.Sprint(e1.Diags) != fmt.Sprint(e2.Diags) {
			t.Fatalf("%s: diagnostics %v, apart %v", names[k], e1.Diags, e2.Diags)
		}
		n := 0
		for _, v := range g.Vars {
			if concerns(v) {
				n++
			}
		}
		if n == 0 {
			continue
		}
		rs, rm, rd := newRoom(g, len(g.Vars), n)
		nt, ns := 0, 0
		for _, d := range r.Deductions {
			nt += d.uses
		}
		for _, a := range g.Accesses {
			if d := r.ByVar(a.Var); d != nil && !a.Var.Barrier {
				ns += len(paramUnits(a))
			}
		}
		switch {
		case rs != nil:
			took["S"]++
			if nt > len(rs.triples) {
				passed++
			}
		case rm != nil:
			took["M"]++
			if nt > len(rm.triples) {
				passed++
			}
		case rd != nil:
			took["D"]++
			if nt > len(rd.triples) || ns > len(rd.synth) {
				passed++
			}
		default:
			took["apart"]++
		}
	}
	t.Logf("rooms taken %v, %d past a room's arrays", took, passed)
	if took["S"] < 5 || took["M"] < 5 || took["D"] < 5 || took["apart"] < 5 || passed < 10 {
		t.Errorf("the comparison exercised too little")
	}
}
