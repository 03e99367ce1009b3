// bench/gpu/audala/seq.cpp: sequential C++ baselines of the AuDaLa
// benchmarks, for the GPU machine (no Go there, so the native Go loops of
// lang/audala/interp/bench_test.go cannot run). The same algorithms as
// those loops, on the same .init files as the GPU programs:
//
//   audala_seq ps FILE.init   ps_thesis.adl's Hillis-Steele prefix sum
//                             (rounds of val += prev.val, prev := prev.prev,
//                             double-buffered); prints every val, one a line
//   audala_seq ch FILE.init   ch_thesis.adl's colouring SCC algorithm with
//                             the same fixpoint structure; prints `sccs N`
//
// and `Total walltime CPU: %0.6f ms` on stderr: the algorithm only, the
// file's parsing excluded, as the GPU programs' --time excludes the copy of
// the initial instances. Written for bench/gpu/run.sh (README.md).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Section {
  std::string name;
  size_t lines = 0, count = 0;
  std::vector<std::vector<long long>> rows;
};

// Reads the .init format of spec §5.11 (header, then per struct
// "NAME instances D A" and D lines of values).
bool readInit(const char* path, std::vector<Section>& out) {
  std::ifstream in(path);
  if (!in) {
    fprintf(stderr, "audala_seq: cannot open %s\n", path);
    return false;
  }
  std::string line, word;
  size_t k = 0;
  if (!std::getline(in, line) || sscanf(line.c_str(), "ADL structures %zu", &k) != 1) {
    fprintf(stderr, "%s: not an .init file\n", path);
    return false;
  }
  for (size_t i = 0; i < k; i++) std::getline(in, line);
  for (size_t i = 0; i < k; i++) {
    Section s;
    if (!std::getline(in, line)) return false;
    std::istringstream h(line);
    h >> s.name >> word >> s.lines >> s.count;
    s.rows.resize(s.lines);
    for (size_t j = 0; j < s.lines; j++) {
      if (!std::getline(in, line)) return false;
      const char* p = line.c_str();
      char* end = nullptr;
      for (;;) {
        long long v = strtoll(p, &end, 10);
        if (end == p) break;
        s.rows[j].push_back(v);
        p = end;
      }
    }
    out.push_back(std::move(s));
  }
  return true;
}

const Section* find(const std::vector<Section>& secs, const char* name) {
  for (const Section& s : secs)
    if (s.name == name) return &s;
  return nullptr;
}

long long col(const Section& s, size_t row, size_t i) {
  return i < s.rows[row].size() ? s.rows[row][i] : 0;
}

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Hillis-Steele with 1-based labels (0 = null), as nativeHillisSteele.
int prefixSum(const std::vector<Section>& secs) {
  const Section* s = find(secs, "Position");
  if (!s) return 2;
  const size_t n = s->count;
  std::vector<int32_t> val(n + 1, 0), prev(n + 1, 0), nv(n + 1, 0), np(n + 1, 0);
  for (size_t l = 1; l <= s->lines; l++) {
    val[l] = (int32_t)col(*s, l - 1, 0);
    prev[l] = (int32_t)col(*s, l - 1, 1);
  }
  auto t0 = std::chrono::steady_clock::now();
  for (;;) {
    bool done = true;
    for (size_t i = 1; i <= n; i++) {
      const int32_t p = prev[i];
      if (p == 0) {
        nv[i] = val[i], np[i] = 0;
        continue;
      }
      done = false;
      nv[i] = val[i] + val[p];
      np[i] = prev[p];
    }
    val.swap(nv);
    prev.swap(np);
    if (done) break;
  }
  const double ms = since(t0);
  std::string buf;
  for (size_t i = 1; i <= n; i++) buf += std::to_string(val[i]) + "\n";
  fwrite(buf.data(), 1, buf.size(), stdout);
  fprintf(stderr, "Total walltime CPU: %0.6f ms\n", ms);
  return 0;
}

// Colouring / heads-off SCC, as nativeColouring: forward and backward
// minimum-label propagation to a fixpoint, frontier edges deleted, nodes
// whose colours differ reset, until nothing changes.
int colouring(const std::vector<Section>& secs) {
  const Section* es = find(secs, "Edge");
  const Section* ns = find(secs, "Node");
  if (!es || !ns) return 2;
  const size_t n = ns->count, m = es->count;
  std::vector<uint32_t> src(m, 0), dst(m, 0);
  for (size_t i = 0; i < es->lines; i++) src[i] = (uint32_t)col(*es, i, 0), dst[i] = (uint32_t)col(*es, i, 1);
  std::vector<uint32_t> fwd(n + 1), bwd(n + 1);
  std::vector<char> deleted(m, 0);
  auto t0 = std::chrono::steady_clock::now();
  for (size_t v = 1; v <= n; v++) fwd[v] = bwd[v] = (uint32_t)v;
  for (bool outer = true; outer;) {
    outer = false;
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t i = 0; i < m; i++)
        if (!deleted[i] && fwd[src[i]] < fwd[dst[i]]) fwd[dst[i]] = fwd[src[i]], changed = outer = true;
    }
    for (size_t i = 0; i < m; i++)
      if (!deleted[i] && fwd[src[i]] != fwd[dst[i]]) deleted[i] = 1, outer = true;
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t i = 0; i < m; i++)
        if (!deleted[i] && bwd[dst[i]] < bwd[src[i]]) bwd[src[i]] = bwd[dst[i]], changed = outer = true;
    }
    for (size_t i = 0; i < m; i++)
      if (!deleted[i] && bwd[src[i]] != bwd[dst[i]]) deleted[i] = 1, outer = true;
    for (size_t v = 1; v <= n; v++)
      if (fwd[v] != bwd[v]) fwd[v] = bwd[v] = (uint32_t)v, outer = true;
  }
  size_t sccs = 0;
  for (size_t v = 1; v <= n; v++) sccs += fwd[v] == v && bwd[v] == v;
  const double ms = since(t0);
  printf("sccs %zu\n", sccs);
  fprintf(stderr, "Total walltime CPU: %0.6f ms\n", ms);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 || (strcmp(argv[1], "ps") != 0 && strcmp(argv[1], "ch") != 0)) {
    fprintf(stderr, "usage: audala_seq ps|ch FILE.init\n");
    return 2;
  }
  std::vector<Section> secs;
  if (!readInit(argv[2], secs)) return 2;
  return strcmp(argv[1], "ps") == 0 ? prefixSum(secs) : colouring(secs);
}
