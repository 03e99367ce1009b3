// Package npy reads and writes NumPy .npy arrays (format versions 1.0, 2.0
// and 3.0) for `weft run` arguments, --out/--inputs/--compare files and the
// harness of `weft build`.
//
// Contract (issue 14):
//
//   - Read never panics and never lies: every malformed header (bad magic,
//     unknown version, header length beyond the file, a dict that is not
//     numpy's, an unknown or structured dtype, a negative or overflowing
//     shape) is an error saying what is wrong; the data's size is computed
//     from the header and checked against the bytes that remain before
//     anything of that size is allocated, so a 100-byte file claiming 10^12
//     elements is an error, not an out-of-memory crash; a truncated data
//     section is an error (never padded), and so are bytes after the data.
//   - Arrays are kept at their dtype's width (Array.Data is the file's
//     bytes in the file's byte order; Float64 converts one element).
//   - ReadFile reads through a buffer and only regular files.
//   - Write produces what numpy.save writes (version 1.0, or 2.0 when the
//     header needs it, padded so the data starts at a multiple of 64).
package npy
