// Package lib holds the models of the C, C++ and CUDA runtime libraries
// that CUDA-C programs call, written as plain Go over values and byte
// slices, so that they can be tested on their own; package sem binds them
// to the interpreter's memory and threads.
//
// Contract: every function here is deterministic given its inputs (the
// file system is reached only through an FS, which confines a run to its
// working directory and the paths named on its command line), never
// panics on any input, and reports misuse as an error value that sem
// turns into a positioned diagnostic.
//
//   - device.go: the device a run models (default an H100 SXM, or an A100),
//     its cudaDeviceProp fields and cudaDeviceGetAttribute values.
//   - cstr.go: strtol/strtoul/strtoll/strtod (C11 7.22.1) and atoi/atof.
//   - scan.go: the conversions of scanf/sscanf/fscanf (C11 7.21.6.2).
//   - fs.go: fopen/fread/fwrite/fgetc/fgets/fclose over a confined
//     file system.
//   - libm.go (crlog.go, crmath.go, crglibc.go, crnan.go): the host's
//     <math.h> as glibc computes it: exp, log, pow, sin, cos, tan, atan,
//     atan2, asin, acos, hypot, ... correctly rounded in double-double
//     arithmetic, log10 and exp10 by glibc's formulas, NaNs with glibc's
//     signs (HostMath1, HostMath2).
package lib
