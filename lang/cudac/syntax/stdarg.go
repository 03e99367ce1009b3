package syntax

// stdargText is our own C for <stdarg.h> and <cstdarg> (C11 7.16) over
// sem's model of variadic functions (lang/cudac/sem/lib_stdarg.go): the
// arguments passed through "..." are 8-byte words in a block whose
// address a variadic function receives as __weft_va; a va_list points
// into it, and va_arg reads the promoted argument's bytes at it as a T
// (the low bytes of a word: ints and pointers as stored, double as
// itself, a struct its words) and moves it past them: sem's
// __weft_va_arg(&ap, sizeof(T), sizeof(T) % 16 == 0) returns where the
// argument is and moves ap on (a struct whose size is a multiple of 16
// starts at a multiple of 16 in the block, so float4 and the like are
// aligned).
const stdargText = `#ifndef __WEFT_STDARG
#define __WEFT_STDARG
typedef char *va_list;
#define va_start(ap, last) ((void)((ap) = __weft_va))
#define va_arg(ap, T) (*(T *)__weft_va_arg(&(ap), sizeof(T), sizeof(T) % 16 == 0))
#define va_end(ap) ((void)(ap))
#define va_copy(dst, src) ((void)((dst) = (src)))
#endif
`
