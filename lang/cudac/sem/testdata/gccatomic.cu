// ---- gccatomic: GCC's __sync and __atomic builtins and ffs on the host (output pinned against g++ 12)
// MODE: run
#include <cstdio>
#include <strings.h>
int main() {
  int a = 10;
  unsigned u = 0xF0u;
  long l = 1L << 40;
  short s = 7;
  printf("%d ", __sync_fetch_and_add(&a, 5));
  printf("%d ", __sync_add_and_fetch(&a, 5));
  printf("%d ", __sync_fetch_and_sub(&a, 3));
  printf("%d ", __sync_sub_and_fetch(&a, 30));
  printf("%u ", __sync_fetch_and_or(&u, 0x0Fu));
  printf("%u ", __sync_and_and_fetch(&u, 0x3Cu));
  printf("%u ", __sync_xor_and_fetch(&u, 0xFFu));
  printf("%u ", __sync_fetch_and_nand(&u, 0x0Fu));
  printf("%ld ", __sync_fetch_and_add(&l, 1L));
  printf("%d\n", (int)__sync_fetch_and_add(&s, (short)-9));
  int r = __sync_val_compare_and_swap(&a, 0, 1);
  printf("%d %d ", r, a);
  r = __sync_val_compare_and_swap(&a, -13, 1);
  printf("%d %d ", r, a);
  r = __sync_bool_compare_and_swap(&a, 1, 2);
  printf("%d %d ", r, a);
  r = __sync_bool_compare_and_swap(&a, 1, 3);
  printf("%d %d ", r, a);
  r = __sync_lock_test_and_set(&a, 9);
  printf("%d %d ", r, a);
  __sync_lock_release(&a);
  __sync_synchronize();
  printf("%d %d\n", a, (int)s);
  int x = 4, expected = 3;
  bool okc = __atomic_compare_exchange_n(&x, &expected, 8, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
  printf("%d %d %d ", (int)okc, x, expected);
  okc = __atomic_compare_exchange_n(&x, &expected, 8, true, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
  printf("%d %d %d ", (int)okc, x, expected);
  __atomic_store_n(&x, 21, __ATOMIC_RELEASE);
  r = __atomic_load_n(&x, __ATOMIC_ACQUIRE);
  int r2 = __atomic_exchange_n(&x, 5, __ATOMIC_SEQ_CST);
  printf("%d %d ", r, r2);
  r = __atomic_fetch_add(&x, 2, __ATOMIC_RELAXED);
  r2 = __atomic_sub_fetch(&x, 1, __ATOMIC_RELAXED);
  int r3 = __atomic_or_fetch(&x, 8, __ATOMIC_SEQ_CST);
  printf("%d %d %d ", r, r2, r3);
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  printf("%d\n", x);
  printf("%d %d %d %d %d\n", ffs(0), ffs(1), ffs(0x80000000), ffsl(1L << 40), ffsll(0LL));
  return 0;
}
// OUT: 10 20 20 -13 240 60 195 195 1099511627776 7
// OUT: -13 -13 -13 1 1 2 0 2 2 9 0 -2
// OUT: 0 4 4 1 8 4 21 21 5 6 14 14
// OUT: 0 1 32 41 0
// ---- gccatomic: host __sync atomics on managed memory concurrent with atomicAdd_system do not race
#include <cstdio>
__global__ void bump(int *c, unsigned *bits) {
  atomicAdd_system(&c[0], 2);
  atomicOr_system(&bits[0], 1u << (threadIdx.x % 8));
}
int main() {
  int *c;
  unsigned *bits;
  cudaMallocManaged(&c, 2 * sizeof(int));
  cudaMallocManaged(&bits, sizeof(unsigned));
  c[0] = 0;
  c[1] = 0;
  *bits = 0;
  cudaDeviceSynchronize();
  bump<<<2, 32>>>(c, bits);
  for (int i = 0; i < 10; i++) {
    __sync_fetch_and_add(&c[0], 1);
    __sync_fetch_and_or(bits, 1u << (8 + i));
  }
  c[1] = 5;
  cudaDeviceSynchronize();
  printf("%d %d %x\n", c[0], c[1], *bits);
  return 0;
}
// OUT: 138 5 3ffff
// ---- gccatomic: a plain host update concurrent with the device's atomics races
#include <cstdio>
__global__ void bump(int *c, unsigned *bits) {
  atomicAdd_system(&c[0], 2); // ERROR C0501 col=3 "data race on pinned memory \(byte 0\): atomic write by thread 0 of block 0 \(kernel bump\) conflicts with an unordered write by the host"
  atomicOr_system(&bits[0], 1u << (threadIdx.x % 8));
}
int main() {
  int *c;
  unsigned *bits;
  cudaMallocManaged(&c, 2 * sizeof(int));
  cudaMallocManaged(&bits, sizeof(unsigned));
  c[0] = 0;
  c[1] = 0;
  *bits = 0;
  cudaDeviceSynchronize();
  bump<<<2, 32>>>(c, bits);
  for (int i = 0; i < 10; i++) {
    c[0] += 1; // NOTE "the other access: write by the host"
    __sync_fetch_and_or(bits, 1u << (8 + i));
  }
  c[1] = 5;
  cudaDeviceSynchronize();
  printf("%d %d %x\n", c[0], c[1], *bits);
  return 0;
}
// OUT: 138 5 3ffff
// ---- gccatomic: the GCC builtins are host code; their operands are integers
__global__ void k(int *p) {
  __sync_fetch_and_add(p, 1); // ERROR C0307 col=3 "__sync_fetch_and_add can only be called from host code"
}
int main() {
  float f = 0;
  __sync_fetch_and_add(&f, 1); // ERROR C0302 col=24 "__sync_fetch_and_add needs a pointer to an integer, not float\*"
  int i = 0;
  __atomic_fetch_add(&i, 1); // ERROR C0304 col=3 "__atomic_fetch_add takes 3 arguments, 2 given"
  __atomic_test_and_set(&i, __ATOMIC_SEQ_CST); // ERROR C0309 col=3 "__atomic_test_and_set: this GCC atomic builtin is not modeled"
  __sync_fetch_and_max(&i, 1); // ERROR C0301 col=3 "undeclared function __sync_fetch_and_max"
  return 0;
}
