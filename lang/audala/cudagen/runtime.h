// AuDaLa runtime support emitted into every generated program by weft build
// (lang/audala/cudagen). Host-only C++: the .init reader (the AuDaLaC format,
// spec §5.11).
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

// One struct section of a .init file: A instances (without the null
// instance), values column-major: cols[param][label-1], as read (the
// generated main checks their ranges against the parameter types).
struct AdlInitStruct {
  std::string name;
  std::vector<std::string> types;
  uint32_t a = 0;
  std::vector<std::vector<long long>> cols;
};

// adl_read_init reads path. Structs must appear in sorted name order with
// the given parameter types; on error it prints a message and returns false.
static bool adl_read_init(const char* path, int nstructs, const char* const* names,
                          const int* nparams, const char* const* const* types,
                          std::vector<AdlInitStruct>& out) {
  FILE* f = fopen(path, "r");
  if (!f) { fprintf(stderr, "%s: cannot open\n", path); return false; }
  auto fail = [&](const char* what) { fprintf(stderr, "%s: malformed .init file: %s\n", path, what); fclose(f); return false; };
  char word[256];
  int k = 0;
  if (fscanf(f, "%255s", word) != 1 || strcmp(word, "ADL") != 0) return fail("want \"ADL structures K\"");
  if (fscanf(f, "%255s", word) != 1 || strcmp(word, "structures") != 0) return fail("want \"ADL structures K\"");
  if (fscanf(f, "%d", &k) != 1 || k != nstructs) return fail("struct count does not match the program");
  out.assign(nstructs, AdlInitStruct());
  for (int s = 0; s < nstructs; s++) {
    if (fscanf(f, "%255s", word) != 1 || strcmp(word, names[s]) != 0) return fail("struct names differ from the program (sorted order)");
    out[s].name = names[s];
    for (int p = 0; p < nparams[s]; p++) {
      if (fscanf(f, "%255s", word) != 1 || strcmp(word, types[s][p]) != 0) return fail("parameter types differ from the program");
      out[s].types.push_back(word);
    }
  }
  for (int s = 0; s < nstructs; s++) {
    long long d = 0, a = 0;
    if (fscanf(f, "%255s", word) != 1 || strcmp(word, names[s]) != 0) return fail("want \"<Struct> instances D A\"");
    if (fscanf(f, "%255s", word) != 1 || strcmp(word, "instances") != 0) return fail("want \"<Struct> instances D A\"");
    if (fscanf(f, "%lld %lld", &d, &a) != 2 || d < 0 || a < d || a > 0x7ffffffe) return fail("bad instance counts");
    out[s].a = (uint32_t)a;
    out[s].cols.assign(nparams[s], std::vector<long long>((size_t)a, 0));
    // Instance lines may be short: read line by line.
    int c = fgetc(f);
    while (c != '\n' && c != EOF) c = fgetc(f);
    for (long long j = 0; j < d; j++) {
      std::string line;
      for (;;) {
        line.clear();
        while ((c = fgetc(f)) != '\n' && c != EOF) line.push_back((char)c);
        if (line.find_first_not_of(" \t\r") != std::string::npos || c == EOF) break;
      }
      const char* q = line.c_str();
      for (int p = 0;; p++) {
        char* end = nullptr;
        while (*q == ' ' || *q == '\t' || *q == '\r') q++;
        if (!*q) break;
        if (p >= nparams[s]) return fail("too many values on an instance line");
        long long v = strtoll(q, &end, 10);
        if (end == q) return fail("malformed value");
        if (v == LLONG_MAX || v == LLONG_MIN) return fail("value out of range");
        out[s].cols[p][j] = v;
        q = end;
      }
      if (c == EOF && j + 1 < d) return fail("unexpected end of file");
    }
  }
  fclose(f);
  return true;
}
