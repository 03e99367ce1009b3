package sem_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/sem"
)

// TestLink runs a program of three translation units named by the link line
// (a kernel file, a host C file with a compound literal, and main), whose
// header both units include: its struct and inline function are kept once.
// A function defined in two units is C0311 at the second definition.
func TestLink(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"h.h": `#pragma once
struct P { int n; float *x; };
static inline int twice(int v) { return 2 * v; }
#ifdef __cplusplus
extern "C" {
#endif
void host_run(int n, float *x);
void launch(struct P p);
#ifdef __cplusplus
}
#endif
`,
		"k.cu": `#include "h.h"
__global__ void kern(struct P p) { if (threadIdx.x < p.n) p.x[threadIdx.x] += 2 * threadIdx.x; }
extern "C" void launch(struct P p) { kern<<<1, 32>>>(p); }
`,
		"host.c": `#include "h.h"
void host_run(int n, float *x) { launch((struct P){.n = n, .x = x}); }
`,
		"main.cu": `// weft-link: k.cu host.c
#include <stdio.h>
#include "h.h"
int main() {
  float h[4] = {1, 2, 3, 4}, *d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  host_run(4, d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%g %g %g %d\n", h[0], h[1], h[3], twice(5));
  return 0;
}
`,
	}
	for n, s := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func() (string, *diag.List) {
		path := filepath.Join(dir, "main.cu")
		src, _ := os.ReadFile(path)
		var diags diag.List
		prog := sem.Load(diag.NewFile(path, src), &diags)
		if prog == nil {
			return "", &diags
		}
		var out bytes.Buffer
		m := sem.NewMachine(prog, sem.Options{Stdout: &out, Stderr: &out, Check: true}, &diags)
		m.Run()
		return out.String(), &diags
	}
	out, diags := run()
	if len(diags.Diags) != 0 || out != "1 4 10 10\n" {
		t.Fatalf("out %q, diags %v", out, diags.Diags)
	}
	os.WriteFile(filepath.Join(dir, "host.c"), []byte(files["host.c"]+"void launch(struct P p) { }\n"), 0o644)
	_, diags = run()
	if len(diags.Diags) != 1 || diags.Diags[0].Code != "C0311" || !strings.HasSuffix(diags.Diags[0].Pos.File.Name, "host.c") || diags.Diags[0].Pos.Line() != 3 {
		t.Errorf("want C0311 at host.c:3, got %v", diags.Diags)
	}
	os.Remove(filepath.Join(dir, "k.cu"))
	_, diags = run()
	if len(diags.Diags) != 1 || diags.Diags[0].Code != "C0110" || diags.Diags[0].Pos.Line() != 1 {
		t.Errorf("want C0110 at main.cu:1, got %v", diags.Diags)
	}
}

// TestLinkSharedHeaderText links units that read the library's shared texts
// (qsort, the exception classes, the algorithms) through different headers:
// <stdlib.h> in one and <cstdlib> in the other, <iostream> and <stdexcept>,
// <algorithm> and <numeric>. They are one declaration each (NVIDIA's
// eigenvalues sample stopped at a false C0311 "redefinition of qsort").
func TestLinkSharedHeaderText(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"main.cu": `// weft-link: other.cpp
#include <stdlib.h>
#include <iostream>
#include <algorithm>
#include <cstdio>
int other(int);
int main() {
  int v[3] = {3, 1, 2};
  qsort(v, 3, sizeof(int), [](const void *a, const void *b) { return *(const int *)a - *(const int *)b; });
  std::sort(v, v + 3);
  printf("%d %d %d %d\n", v[0], v[1], v[2], other(5));
  return 0;
}
`,
		"other.cpp": `#include <cstdlib>
#include <stdexcept>
#include <numeric>
int other(int x) {
  int a[2] = {x, 1};
  try { throw std::runtime_error("x"); } catch (const std::exception &) { }
  return std::accumulate(a, a + 2, 0) + abs(-x);
}
`,
	}
	for n, s := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "main.cu")
	src, _ := os.ReadFile(path)
	var diags diag.List
	prog := sem.Load(diag.NewFile(path, src), &diags)
	if prog == nil || len(diags.Diags) != 0 {
		t.Fatalf("diags %v", diags.Diags)
	}
	var out bytes.Buffer
	m := sem.NewMachine(prog, sem.Options{Stdout: &out, Stderr: &out, Check: true}, &diags)
	m.Run()
	if len(diags.Diags) != 0 || out.String() != "1 2 3 11\n" {
		t.Fatalf("out %q, diags %v", out.String(), diags.Diags)
	}
}
