// Package syntax is the front end of the CUDA-C language (seed 004): a C
// preprocessor and a parser for C99 as CUDA programs use it, plus the CUDA
// extensions (__global__, __device__, __host__, __shared__, __constant__,
// <<<grid, block, shmem, stream>>> launches, dim3, simple templates).
//
// Contract: Preprocess turns a diag.File into a token stream whose tokens
// keep the position of the text the user wrote (a macro's expansion carries
// the position of its use), and Parse turns that stream into a *File syntax
// tree. Neither panics on any input: every problem is a diagnostic with a
// stable C-code (C01xx for the preprocessor and lexer, C02xx for the parser)
// in the diag.List passed in. Types are kept as syntax (TypeExpr); the sem
// package resolves them and lays them out.
package syntax
