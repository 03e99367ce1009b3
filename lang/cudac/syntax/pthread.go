package syntax

// pthreadText is our own <pthread.h>: the types of the POSIX threads API
// that lang/cudac/sem/pthread.go models (threads, mutexes, barriers). A
// mutex or barrier is known by its address, so its bytes are only storage;
// PTHREAD_MUTEX_INITIALIZER initializes a mutex where it is first locked.
const pthreadText = `#ifndef __WEFT_PTHREAD
#define __WEFT_PTHREAD
typedef unsigned long pthread_t;
typedef struct { long __weft_attr[7]; } pthread_attr_t;
typedef struct { long __weft_mutex[5]; } pthread_mutex_t;
typedef struct { int __weft_attr; } pthread_mutexattr_t;
typedef struct { long __weft_barrier[4]; } pthread_barrier_t;
typedef struct { int __weft_attr; } pthread_barrierattr_t;
typedef struct { long __weft_cond[6]; } pthread_cond_t;
typedef struct { int __weft_attr; } pthread_condattr_t;
#define PTHREAD_MUTEX_INITIALIZER {{0}}
#define PTHREAD_COND_INITIALIZER {{0}}
#define PTHREAD_BARRIER_SERIAL_THREAD (-1)
#endif
`
