//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=1
// RESULT: configs=4 excluded=0 findings=1
// A texture reference's fetch yields a value chosen like an input: 0, then
// a hashed value (--nondet-seed=1), so an assertion on it fails.
texture<unsigned, 1, cudaReadModeElementType> keys;
texture<float, cudaTextureType2D, cudaReadModeElementType> img;
__global__ void k(unsigned *a, float *b) {
  unsigned key = tex1Dfetch(keys, threadIdx.x);
  b[threadIdx.x] = tex2D(img, 0.5f, threadIdx.x + 0.5f);
  __assert(key == 0); // ERROR C0621 col=3 "^__assert violated \(thread 0 of block 0, kernel k\)$" // NOTE "--nondet-seed=1"
  a[threadIdx.x] = key;
}
