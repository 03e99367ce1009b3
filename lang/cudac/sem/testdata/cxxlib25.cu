// ---- anonymous struct and union members: a union of an anonymous struct and a word, as DXT colour codecs write it (outputs from g++ 12.2)
#include <stdio.h>
union Color32 {
  struct { unsigned char b, g, r, a; };
  unsigned int u;
};
struct S { int k; union { float f; int i; }; struct { short lo, hi; }; };
int main() {
  Color32 c;
  c.u = 0x11223344u;
  printf("%x %x %x %x %d\n", c.b, c.g, c.r, c.a, (int)sizeof(Color32));
  c.r = 0xff;
  printf("%x\n", c.u);
  S s; s.k = 1; s.f = 1.0f; s.lo = 2; s.hi = 3;
  printf("%x %d %d %d %d\n", s.i, s.lo, s.hi, (int)sizeof(S), s.k);
  return 0;
}
// MODE: run
// OUT: 44 33 22 11 4
// OUT: 11ff3344
// OUT: 3f800000 2 3 12 1
// ---- NVTX annotations have no effect; without a tool attached push and pop answer NVTX_NO_PUSH_POP_TRACKING
#include <nvtx3/nvToolsExt.h>
#include <stdio.h>
struct Tracer { Tracer(const char *n) { nvtxRangePushA(n); } ~Tracer() { nvtxRangePop(); } };
int main() {
  Tracer t("main");
  nvtxEventAttributes_t a = {0};
  a.version = NVTX_VERSION; a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE; a.colorType = NVTX_COLOR_ARGB; a.color = 0xff00ff00;
  a.messageType = NVTX_MESSAGE_TYPE_ASCII; a.message.ascii = "x";
  int l = nvtxRangePushEx(&a);
  nvtxRangeId_t id = nvtxRangeStartA("r");
  nvtxMarkA("m");
  nvtxRangeEnd(id);
  printf("%d %d %llu\n", l, nvtxRangePop(), id);
  return 0;
}
// MODE: run
// OUT: -2 -2 0
