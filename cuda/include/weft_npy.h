// weft_npy.h: .npy reading and writing for the test harness that
// `weft build --harness` generates (main.cu), so a GPU run can be compared
// file for file with `weft run --out`. C++ (host code only); arrays are
// C-ordered and little-endian, as numpy and weft run write them.
#pragma once

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <string>
#include <vector>

namespace weft {

struct NpyArray {
  std::string descr;           // e.g. "<f4"
  std::vector<int64_t> shape;  // empty for a 0-d array
  std::vector<unsigned char> data;
};

inline int64_t npy_count(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

// npy_read reads path; it returns false if the file does not exist and
// exits with a message on a malformed file.
inline bool npy_read(const std::string &path, NpyArray *out) {
  FILE *f = fopen(path.c_str(), "rb");
  if (!f) return false;
  unsigned char magic[8];
  if (fread(magic, 1, 8, f) != 8 || memcmp(magic, "\x93NUMPY", 6) != 0) {
    fprintf(stderr, "%s: not a .npy file\n", path.c_str());
    exit(2);
  }
  uint32_t hlen = 0;
  if (magic[6] == 1) {
    unsigned char b[2];
    if (fread(b, 1, 2, f) != 2) exit(2);
    hlen = b[0] | (b[1] << 8);
  } else {
    unsigned char b[4];
    if (fread(b, 1, 4, f) != 4) exit(2);
    hlen = b[0] | (b[1] << 8) | (b[2] << 16) | ((uint32_t)b[3] << 24);
  }
  std::string h(hlen, ' ');
  if (fread(&h[0], 1, hlen, f) != hlen) exit(2);
  size_t d = h.find("'descr':");
  size_t q1 = h.find('\'', d + 8), q2 = h.find('\'', q1 + 1);
  if (d == std::string::npos || q1 == std::string::npos || q2 == std::string::npos) {
    fprintf(stderr, "%s: no descr in header\n", path.c_str());
    exit(2);
  }
  out->descr = h.substr(q1 + 1, q2 - q1 - 1);
  if (h.find("'fortran_order': True") != std::string::npos) {
    fprintf(stderr, "%s: Fortran-ordered arrays are not supported\n", path.c_str());
    exit(2);
  }
  size_t s = h.find("'shape':");
  size_t p1 = h.find('(', s), p2 = h.find(')', p1);
  out->shape.clear();
  std::string dims = h.substr(p1 + 1, p2 - p1 - 1);
  for (size_t i = 0; i < dims.size();) {
    while (i < dims.size() && (dims[i] == ' ' || dims[i] == ',')) i++;
    if (i >= dims.size()) break;
    out->shape.push_back(strtoll(dims.c_str() + i, NULL, 10));
    while (i < dims.size() && dims[i] != ',') i++;
  }
  size_t esize = (size_t)atoi(out->descr.c_str() + 2);
  size_t bytes = (size_t)npy_count(out->shape) * esize;
  out->data.resize(bytes);
  if (fread(out->data.data(), 1, bytes, f) != bytes) {
    fprintf(stderr, "%s: truncated data\n", path.c_str());
    exit(2);
  }
  fclose(f);
  return true;
}

inline void npy_write(const std::string &path, const char *descr, const std::vector<int64_t> &shape, const void *data,
                      size_t bytes) {
  std::string h = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < shape.size(); i++) {
    h += std::to_string(shape[i]);
    if (shape.size() == 1 || i + 1 < shape.size()) h += ",";
    if (i + 1 < shape.size()) h += " ";
  }
  h += "), }";
  size_t total = 10 + h.size() + 1;
  h.append((64 - total % 64) % 64, ' ');
  h += '\n';
  FILE *f = fopen(path.c_str(), "wb");
  if (!f) {
    fprintf(stderr, "cannot write %s\n", path.c_str());
    exit(2);
  }
  unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(h.size() & 0xff), (unsigned char)(h.size() >> 8)};
  fwrite(pre, 1, 10, f);
  fwrite(h.data(), 1, h.size(), f);
  fwrite(data, 1, bytes, f);
  fclose(f);
}

// load fills buf (count elements of descr) from DIR/NAME.npy if it exists,
// checking dtype and shape; otherwise buf stays zero.
inline void npy_load(const std::string &dir, const char *name, const char *descr, const std::vector<int64_t> &shape,
                     void *buf, size_t bytes) {
  NpyArray a;
  std::string path = dir + "/" + name + ".npy";
  if (!npy_read(path, &a)) return;
  if (a.descr != descr) {
    fprintf(stderr, "%s: dtype %s, want %s\n", path.c_str(), a.descr.c_str(), descr);
    exit(2);
  }
  if (a.shape != shape) {
    fprintf(stderr, "%s: shape does not match the proc's %s\n", path.c_str(), name);
    exit(2);
  }
  memcpy(buf, a.data.data(), bytes);
}

// bf16 tensors travel as float32 .npy files (numpy has no bfloat16, and
// float32 holds every bf16 value exactly; weft run writes them so).
inline uint16_t f32_to_bf16(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40);  // NaN stays NaN
  u += 0x7fffu + ((u >> 16) & 1);  // round to nearest even
  return (uint16_t)(u >> 16);
}

inline float bf16_to_f32(uint16_t b) {
  uint32_t u = (uint32_t)b << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

inline void npy_load_bf16(const std::string &dir, const char *name, const std::vector<int64_t> &shape, void *buf) {
  size_t n = (size_t)npy_count(shape);
  std::vector<float> tmp(n, 0.0f);
  npy_load(dir, name, "<f4", shape, tmp.data(), n * sizeof(float));
  uint16_t *out = (uint16_t *)buf;
  for (size_t i = 0; i < n; i++) out[i] = f32_to_bf16(tmp[i]);
}

inline void npy_write_bf16(const std::string &path, const std::vector<int64_t> &shape, const void *buf) {
  size_t n = (size_t)npy_count(shape);
  std::vector<float> tmp(n);
  const uint16_t *in = (const uint16_t *)buf;
  for (size_t i = 0; i < n; i++) tmp[i] = bf16_to_f32(in[i]);
  npy_write(path, "<f4", shape, tmp.data(), n * sizeof(float));
}

// arg returns the value of NAME=VALUE on the command line.
inline const char *arg(int argc, char **argv, const char *name) {
  size_t n = strlen(name);
  for (int i = 3; i < argc; i++) {
    if (strncmp(argv[i], name, n) == 0 && argv[i][n] == '=') return argv[i] + n + 1;
  }
  return NULL;
}

}  // namespace weft
