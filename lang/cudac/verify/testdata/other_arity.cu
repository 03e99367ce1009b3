//pass
//--blockDim=8 --gridDim=1
// RESULT: configs=0 excluded=0 findings=0
// A group predicate called with the wrong number of arguments is an error
// of the file (C0304), positioned at the call.
__global__ void k(int *a) {
  __assert(__other_int() == 0); // ERROR C0304 col=12 "__other_int takes 1 argument\(s\), 0 given"
  __assert(__same_group(1)); // ERROR C0304 col=12 "__same_group takes 0 argument\(s\), 1 given"
}
