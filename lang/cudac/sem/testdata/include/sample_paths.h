// Our own helper header in the style of CUDA samples' Common/ headers
// (issue 15 item 1): a search path built from the executable's name with
// std::string::erase/replace/insert, and a loader that copies a vector's
// elements out through &v.front().
#ifndef SAMPLE_PATHS_H
#define SAMPLE_PATHS_H
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

inline std::string exeBaseName(const char *argv0) {
  std::string name(argv0);
  size_t slash = name.find_last_of('/');
  if (slash != std::string::npos) {
    name.erase(0, slash + 1);
  }
  size_t dot = name.rfind(".exe");
  if (dot != std::string::npos && dot + 4 == name.size()) {
    name.erase(dot);
  }
  return name;
}

inline std::string searchPath(const char *pattern, const char *argv0) {
  std::string path(pattern);
  const char *tag = "<exe>";
  size_t at = path.find(tag);
  if (at != std::string::npos) {
    path.replace(at, strlen(tag), exeBaseName(argv0));
  }
  if (path.find("./") != 0) {
    path.insert(0, "./");
  }
  return path;
}

template <class T>
inline bool copyOut(const std::vector<T> &v, T **out, unsigned int *n) {
  if (v.empty()) return false;
  if (*out == NULL) *out = (T *)malloc(sizeof(T) * v.size());
  memcpy(*out, &v.front(), sizeof(T) * v.size());
  *n = (unsigned int)v.size();
  return true;
}
#endif
