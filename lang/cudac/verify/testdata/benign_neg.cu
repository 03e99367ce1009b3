//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=1
// RESULT: configs=2 excluded=0 findings=1
// Equal stores of an input value are a race: another input makes them differ.
__global__ void k(int *a, int *b) {
  a[0] = b[0]; // ERROR C0501 col=3 "write by thread 1 of block 0 .*unordered write by thread 0" // NOTE "the other access" // NOTE "--random-buffers --seed=1 --max-configs=1$"
}
