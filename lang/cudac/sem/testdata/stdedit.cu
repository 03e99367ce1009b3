// std::string editing (erase, insert, replace), front/back/at as lvalues,
// and a std::vector's reallocation on push_back (issue 15, library items
// 1 and 2). Host-only outputs are pinned against g++ 12.2 -std=c++17.
// ---- erase, insert and replace in all their modeled forms; chained calls; front(), back() and at() are lvalues (output pinned against g++)
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
int main() {
  std::string exe = "./bin/x86_64/linux/release/matrixMul";
  size_t d = exe.find_last_of('/');
  exe.erase(0, d + 1);
  printf("%s %zu\n", exe.c_str(), exe.size());
  std::string path = "../data/<name>/input.ppm";
  size_t p = path.find("<name>");
  path.replace(p, strlen("<name>"), exe);
  printf("%s\n", path.c_str());
  path.insert(0, "./");
  path.insert(2, 3, '-');
  path.insert(path.size(), std::string("#"));
  path.insert(1, "abcdef", 2);
  printf("%s\n", path.c_str());
  path.replace(0, 100, 2, 'z');
  printf("%s\n", path.c_str());
  path.erase(1);
  path.erase();
  printf("[%s] %d\n", path.c_str(), (int)path.empty());
  std::string s = "hello world";
  s.erase(5, 1).insert(5, "_").replace(0, 1, "J");
  s.append("!").append(2, '?');
  printf("%s\n", s.c_str());
  std::vector<unsigned char> bytes;
  for (int i = 0; i < 6; i++) bytes.push_back((unsigned char)(i * 7));
  unsigned char out[6];
  memcpy(out, &bytes.front(), bytes.size());
  printf("%d %d\n", out[1], out[5]);
  bytes.front() = 100;
  bytes.back() += 1;
  bytes.at(2) = 9;
  unsigned char *q = &bytes.back();
  *q *= 2;
  printf("%d %d %d %d\n", bytes[0], bytes[2], bytes[5], (int)(q - &bytes.front()));
  std::string t = "abc";
  t.front() = 'X';
  t.back() = 'Z';
  char *c = &t.at(1);
  *c = 'y';
  printf("%s\n", t.c_str());
  return 0;
}
// OUT: matrixMul 9
// OUT: ../data/matrixMul/input.ppm
// OUT: .ab/---../data/matrixMul/input.ppm#
// OUT: zz
// OUT: [] 1
// OUT: Jello_world!??
// OUT: 7 35
// OUT: 100 9 72 5
// OUT: XyZ
// ---- erase past the end throws std::out_of_range in libstdc++: the model reports it at the call
#include <string>
int main() {
  std::string s = "abc";
  s.erase(4, 1); // ERROR C0403 col=10 "std::string::erase at position 4 of a string of size 3 \(out_of_range\)"
  return 0;
}
// ---- a helper header of our own in the style of the samples' Common/: a path from argv[0] built with erase/replace/insert, a kernel's result copied out through &v.front()
#include "include/sample_paths.h"
__global__ void square(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = i * i;
}
int main(int argc, char **argv) {
  std::string p = searchPath("data/<exe>/ref.txt", "/opt/samples/bin/vectorAdd.exe");
  printf("%s\n", p.c_str());
  int *d;
  cudaMalloc(&d, 8 * sizeof(int));
  square<<<2, 4>>>(d, 8);
  std::vector<int> v(8);
  cudaMemcpy(&v.front(), d, 8 * sizeof(int), cudaMemcpyDeviceToHost);
  int *h = NULL;
  unsigned int n = 0;
  copyOut(v, &h, &n);
  printf("%u %d %d\n", n, h[3], h[7]);
  free(h);
  cudaFree(d);
  return 0;
}
// OUT: ./data/vectorAdd/ref.txt
// OUT: 8 9 49
