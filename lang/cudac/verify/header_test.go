package verify_test

import (
	"reflect"
	"testing"

	"weft.dev/weft/gpu"
	"weft.dev/weft/lang/cudac/verify"
)

func TestParseHeader(t *testing.T) {
	h, err := verify.ParseHeader([]byte("//pass\n//--blockDim=[64,4] --gridDim=[2,2,2] -DWIDTH=256 -DX --warp-sync=16 --no-inline --loop-unwind=2 --arg n=3 --kernel=k\n//expected output\n__global__ void k() {}\n//--blockDim=1\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := verify.Header{Expect: "pass", Grid: &gpu.Dim3{X: 2, Y: 2, Z: 2}, Block: &gpu.Dim3{X: 64, Y: 4, Z: 1},
		Defines: []string{"WIDTH=256", "X"}, WarpSync: 16, Ignored: []string{"--no-inline", "--loop-unwind=2"},
		Rest: []string{"--arg", "n=3", "--kernel=k"}}
	if !reflect.DeepEqual(h, want) {
		t.Errorf("got %+v\nwant %+v", h, want)
	}
	for src, msg := range map[string]string{
		"//--blockDim=[64,64\n":     "--blockDim: bad extent \"[64,64\": unclosed [",
		"//--gridDim=0\n":           "--gridDim: bad extent \"0\": components must be positive integers",
		"//--warp-sync=x\n":         "--warp-sync=x: want a warp size from 1 to 1024",
		"//--blockDim=4 nonsense\n": "unexpected \"nonsense\" (flags start with --, defines with -D)",
		"//--kernel-args=\n":        "--kernel-args=: want KERNEL,VALUE,... (* for any)",
	} {
		if _, err := verify.ParseHeader([]byte(src)); err == nil || err.Error() != msg {
			t.Errorf("%q: got %v, want %s", src, err, msg)
		}
	}
}
