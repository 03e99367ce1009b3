// Package initfile reads and writes AuDaLaC initialisation files (.init),
// the input format of compiled AuDaLa programs (spec §5.11, from the
// AuDaLaC runtime; the thesis only says such files exist, §5.1):
//
//	ADL structures <K>
//	<Struct> <ParamType>...            K lines, structs in sorted name order
//	<Struct> instances <D> <A>         per struct, same order
//	<v1> <v2> ...                      D lines of integers, parameter order
//
// A >= D; instances D+1..A are all defaults. Lines may give fewer values
// than parameters. Bools are 0/1; references are 1-based labels in the
// target struct, 0 = null. File instance j becomes label j (label 0 is the
// null instance).
//
// Contract: Parse never panics; malformed input gets a diagnostic (A03xx)
// at the offending line and column.
package initfile
