// ---- pthreads: workers sum slices and count under a mutex; pthread_join returns their results (output pinned against g++ -lpthread); weft check finds no race
#include <cstdio>
#include <pthread.h>
#define N 4
int counter = 0;
long partial[N];
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
struct Arg { int id; const int *data; int n; };
void *worker(void *p) {
  Arg *a = (Arg *)p;
  long s = 0;
  for (int i = a->id; i < a->n; i += N) s += a->data[i];
  partial[a->id] = s;
  pthread_mutex_lock(&lock);
  counter += 1;
  pthread_mutex_unlock(&lock);
  return (void *)(long)(a->id * 10);
}
int main() {
  int data[1000];
  for (int i = 0; i < 1000; i++) data[i] = i;
  pthread_t th[N];
  Arg args[N];
  for (int i = 0; i < N; i++) {
    args[i].id = i; args[i].data = data; args[i].n = 1000;
    pthread_create(&th[i], NULL, worker, &args[i]);
  }
  long total = 0;
  for (int i = 0; i < N; i++) {
    void *r;
    pthread_join(th[i], &r);
    total += partial[i];
    printf("thread %d returned %ld\n", i, (long)r);
  }
  printf("total %ld counter %d\n", total, counter);
  return 0;
}
// OUT: thread 0 returned 0
// OUT: thread 1 returned 10
// OUT: thread 2 returned 20
// OUT: thread 3 returned 30
// OUT: total 499500 counter 4
// ---- mutant: the counter without its mutex is a host-host data race, reported at both accesses
#include <cstdio>
#include <pthread.h>
int counter = 0;
void *worker(void *p) {
  counter += 1; // ERROR C0501 col=3 "data race on host memory counter \(byte 0\): read by host thread 2 \(pthread_create at .*pthreads.cu:54:5\) conflicts with an unordered write by host thread 1" // NOTE "the other access: write by host thread 1"
  return NULL;
}
int main() {
  pthread_t th[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&th[i], NULL, worker, NULL);
  for (int i = 0; i < 2; i++)
    pthread_join(th[i], NULL);
  printf("%d\n", counter);
  return 0;
}
// OUT: 2
// ---- mutant: the main thread reads a result before joining the thread that writes it
#include <cstdio>
#include <pthread.h>
int result;
void *worker(void *p) { result = 42; return NULL; } // ERROR C0501 col=25 "data race on host memory result \(byte 0\): write by host thread 1 .* conflicts with an unordered read by the host"
int main() {
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  printf("%d\n", result); // NOTE "the other access: read by the host"
  pthread_join(t, NULL);
  return 0;
}
// OUT: 0
// ---- pthread barriers order the phases of a stencil; pthread_exit's value reaches pthread_join; two host threads drive the GPU on their own streams
#include <cstdio>
#include <pthread.h>
#define T 3
#define STEPS 4
pthread_barrier_t bar;
int cur[T], nxt[T], serial;
void *stage(void *p) {
  int id = (int)(long)p;
  for (int s = 0; s < STEPS; s++) {
    nxt[id] = cur[id] + cur[(id + 1) % T];
    if (pthread_barrier_wait(&bar) == PTHREAD_BARRIER_SERIAL_THREAD)
      serial++;
    cur[id] = nxt[id];
    pthread_barrier_wait(&bar);
  }
  pthread_exit((void *)(long)(100 + id));
  return NULL;
}
__global__ void scale(int *d, int k) { d[threadIdx.x] *= k; }
void *gpuWorker(void *p) {
  int *h = (int *)p;
  int *d;
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMalloc(&d, 4 * sizeof(int));
  cudaMemcpyAsync(d, h, 4 * sizeof(int), cudaMemcpyHostToDevice, s);
  scale<<<1, 4, 0, s>>>(d, 3);
  cudaMemcpyAsync(h, d, 4 * sizeof(int), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  cudaFree(d);
  cudaStreamDestroy(s);
  return NULL;
}
int main() {
  pthread_barrier_init(&bar, NULL, T);
  for (int i = 0; i < T; i++) cur[i] = i + 1;
  pthread_t th[T];
  for (long i = 0; i < T; i++) pthread_create(&th[i], NULL, stage, (void *)i);
  long sum = 0;
  for (int i = 0; i < T; i++) {
    void *r;
    pthread_join(th[i], &r);
    sum += (long)r;
  }
  printf("%d %d %d serial=%d exits=%ld\n", cur[0], cur[1], cur[2], serial, sum);
  pthread_barrier_destroy(&bar);
  int a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8};
  pthread_t g1, g2;
  pthread_create(&g1, NULL, gpuWorker, a);
  pthread_create(&g2, NULL, gpuWorker, b);
  pthread_join(g1, NULL);
  pthread_join(g2, NULL);
  printf("%d %d %d %d | %d %d %d %d\n", a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]);
  return 0;
}
// OUT: 33 31 32 serial=4 exits=303
// OUT: 3 6 9 12 | 15 18 21 24
// ---- mutant: without the second barrier a thread's update races with its neighbour's read of the next step
#include <pthread.h>
#define T 3
pthread_barrier_t bar;
int cur[T], nxt[T];
void *stage(void *p) {
  int id = (int)(long)p;
  for (int s = 0; s < 2; s++) {
    nxt[id] = cur[id] + cur[(id + 1) % T]; // NOTE "the other access: read by host thread 3"
    pthread_barrier_wait(&bar);
    cur[id] = nxt[id]; // ERROR C0501 col=5 "data race on host memory cur \(byte 0\): write by host thread 1 .* conflicts with an unordered read by host thread 3"
  }
  return NULL;
}
int main() {
  pthread_barrier_init(&bar, NULL, T);
  pthread_t th[T];
  for (long i = 0; i < T; i++) pthread_create(&th[i], NULL, stage, (void *)i);
  for (int i = 0; i < T; i++) pthread_join(th[i], NULL);
  return 0;
}
// ---- two threads lock two mutexes in opposite orders: a deadlock, naming every wait
// MODE: run
#include <pthread.h>
pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
void *one(void *p) {
  pthread_mutex_lock(&a);
  for (volatile int i = 0; i < 100000; i++) {}
  pthread_mutex_lock(&b); // ERROR C0507 col=3 "deadlock: every host thread that has not finished waits \(the main thread waits in pthread_join at .*:177:3; host thread 1 waits in pthread_mutex_lock at .*:160:3; host thread 2 waits in pthread_mutex_lock at .*:168:3\)"
  pthread_mutex_unlock(&b);
  pthread_mutex_unlock(&a);
  return NULL;
}
void *two(void *p) {
  pthread_mutex_lock(&b);
  for (volatile int i = 0; i < 100000; i++) {}
  pthread_mutex_lock(&a);
  pthread_mutex_unlock(&a);
  pthread_mutex_unlock(&b);
  return NULL;
}
int main() {
  pthread_t x, y;
  pthread_create(&x, NULL, one, NULL);
  pthread_create(&y, NULL, two, NULL);
  pthread_join(x, NULL);
  pthread_join(y, NULL);
  return 0;
}
// ---- unlocking a mutex the thread does not hold
// MODE: run
#include <pthread.h>
pthread_mutex_t m;
void *w(void *p) {
  pthread_mutex_unlock(&m); // ERROR C0507 col=3 "pthread_mutex_unlock of a mutex this thread does not hold"
  return NULL;
}
int main() {
  pthread_mutex_init(&m, NULL);
  pthread_mutex_lock(&m);
  pthread_t t;
  pthread_create(&t, NULL, w, NULL);
  pthread_join(t, NULL);
  return 0;
}
// ---- relocking a held default mutex
// MODE: run
#include <pthread.h>
int main() {
  pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
  pthread_mutex_lock(&m);
  pthread_mutex_lock(&m); // ERROR C0507 col=3 "a thread locks a mutex it already holds"
  return 0;
}
// ---- condition variables: a bounded buffer with one producer and two consumers (output pinned against g++ -lpthread); weft check finds no race
#include <cstdio>
#include <pthread.h>
#define CAP 4
#define ITEMS 20
int buf[CAP], head = 0, tail = 0, count = 0;
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t notEmpty = PTHREAD_COND_INITIALIZER, notFull = PTHREAD_COND_INITIALIZER;
void *producer(void *p) {
  for (int i = 1; i <= ITEMS; i++) {
    pthread_mutex_lock(&mu);
    while (count == CAP) pthread_cond_wait(&notFull, &mu);
    buf[tail] = i * i;
    tail = (tail + 1) % CAP;
    count++;
    pthread_cond_signal(&notEmpty);
    pthread_mutex_unlock(&mu);
  }
  return NULL;
}
void *consumer(void *p) {
  long *sum = (long *)p;
  for (int i = 0; i < ITEMS / 2; i++) {
    pthread_mutex_lock(&mu);
    while (count == 0) pthread_cond_wait(&notEmpty, &mu);
    *sum += buf[head];
    head = (head + 1) % CAP;
    count--;
    pthread_cond_signal(&notFull);
    pthread_mutex_unlock(&mu);
  }
  return NULL;
}
int main() {
  pthread_t pr, c1, c2;
  long s1 = 0, s2 = 0;
  pthread_create(&c1, NULL, consumer, &s1);
  pthread_create(&c2, NULL, consumer, &s2);
  pthread_create(&pr, NULL, producer, NULL);
  pthread_join(pr, NULL);
  pthread_join(c1, NULL);
  pthread_join(c2, NULL);
  printf("total %ld\n", s1 + s2);
  return 0;
}
// OUT: total 2870
// ---- mutant: a consumer reads its slot after unlocking; the producer's next lap writes it unordered
#include <cstdio>
#include <pthread.h>
#define CAP 4
#define ITEMS 20
int buf[CAP], head = 0, tail = 0, count = 0;
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t notEmpty = PTHREAD_COND_INITIALIZER, notFull = PTHREAD_COND_INITIALIZER;
void *producer(void *p) {
  for (int i = 1; i <= ITEMS; i++) {
    pthread_mutex_lock(&mu);
    while (count == CAP) pthread_cond_wait(&notFull, &mu);
    buf[tail] = i * i; // ERROR C0501 col=5 "data race on host memory buf \(byte 4\): write by host thread 3 .* conflicts with an unordered read by host thread 1"
    tail = (tail + 1) % CAP;
    count++;
    pthread_cond_signal(&notEmpty);
    pthread_mutex_unlock(&mu);
  }
  return NULL;
}
void *consumer(void *p) {
  long *sum = (long *)p;
  for (int i = 0; i < ITEMS / 2; i++) {
    pthread_mutex_lock(&mu);
    while (count == 0) pthread_cond_wait(&notEmpty, &mu);
    int slot = head;
    head = (head + 1) % CAP;
    count--;
    pthread_cond_signal(&notFull);
    pthread_mutex_unlock(&mu);
    *sum += buf[slot]; // NOTE "the other access: read by host thread 1"
  }
  return NULL;
}
int main() {
  pthread_t pr, c1, c2;
  long s1 = 0, s2 = 0;
  pthread_create(&c1, NULL, consumer, &s1);
  pthread_create(&c2, NULL, consumer, &s2);
  pthread_create(&pr, NULL, producer, NULL);
  pthread_join(pr, NULL);
  pthread_join(c1, NULL);
  pthread_join(c2, NULL);
  printf("total %ld\n", s1 + s2);
  return 0;
}
// OUT: total 2870
// ---- mutant: the producer never signals; every thread ends up waiting
// MODE: run
#include <cstdio>
#include <pthread.h>
#define CAP 4
#define ITEMS 20
int buf[CAP], head = 0, tail = 0, count = 0;
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t notEmpty = PTHREAD_COND_INITIALIZER, notFull = PTHREAD_COND_INITIALIZER;
void *producer(void *p) {
  for (int i = 1; i <= ITEMS; i++) {
    pthread_mutex_lock(&mu);
    while (count == CAP) pthread_cond_wait(&notFull, &mu);
    buf[tail] = i * i;
    tail = (tail + 1) % CAP;
    count++;
    pthread_mutex_unlock(&mu);
  }
  return NULL;
}
void *consumer(void *p) {
  long *sum = (long *)p;
  for (int i = 0; i < ITEMS / 2; i++) {
    pthread_mutex_lock(&mu);
    while (count == 0) pthread_cond_wait(&notEmpty, &mu); // ERROR C0507 col=24 "deadlock: .*host thread 1 waits in pthread_cond_wait at .*host thread 3 waits in pthread_cond_wait"
    *sum += buf[head];
    head = (head + 1) % CAP;
    count--;
    pthread_cond_signal(&notFull);
    pthread_mutex_unlock(&mu);
  }
  return NULL;
}
int main() {
  pthread_t pr, c1, c2;
  long s1 = 0, s2 = 0;
  pthread_create(&c1, NULL, consumer, &s1);
  pthread_create(&c2, NULL, consumer, &s2);
  pthread_create(&pr, NULL, producer, NULL);
  pthread_join(pr, NULL);
  pthread_join(c1, NULL);
  pthread_join(c2, NULL);
  printf("total %ld\n", s1 + s2);
  return 0;
}
// ---- a thread-helper layer in the style of the samples' multithreading wrappers: a barrier struct of a mutex and a condition variable returned by value, one GPU stream per thread, the main thread waiting on the barrier; weft check is clean (sums computed by hand: 224 = 16*(0+1+4+9), times 4 and 9)
#include <cstdio>
#include <pthread.h>
// a helper header in the style of the samples' thread wrappers
typedef pthread_t Thread;
typedef void *(*ThreadFn)(void *);
struct Barrier { pthread_mutex_t mutex; pthread_cond_t cond; int release; int count; };
Thread startThread(ThreadFn fn, void *data) { pthread_t t; pthread_create(&t, NULL, fn, data); return t; }
void waitForThreads(const Thread *ts, int n) { for (int i = 0; i < n; i++) pthread_join(ts[i], NULL); }
Barrier createBarrier(int release) {
  Barrier b;
  b.count = 0;
  b.release = release;
  pthread_mutex_init(&b.mutex, 0);
  pthread_cond_init(&b.cond, 0);
  return b;
}
void arrive(Barrier *b) {
  pthread_mutex_lock(&b->mutex);
  int mine = ++b->count;
  pthread_mutex_unlock(&b->mutex);
  if (mine >= b->release) pthread_cond_signal(&b->cond);
}
void waitBarrier(Barrier *b) {
  pthread_mutex_lock(&b->mutex);
  while (b->count < b->release) pthread_cond_wait(&b->cond, &b->mutex);
  pthread_mutex_unlock(&b->mutex);
}
__global__ void square(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] = d[i] * d[i];
}
struct Job { int id; float data[64]; float sum; Barrier *done; };
void *worker(void *p) {
  Job *j = (Job *)p;
  float *d;
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMalloc(&d, sizeof j->data);
  cudaMemcpyAsync(d, j->data, sizeof j->data, cudaMemcpyHostToDevice, s);
  square<<<2, 32, 0, s>>>(d, 64);
  cudaMemcpyAsync(j->data, d, sizeof j->data, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  j->sum = 0;
  for (int i = 0; i < 64; i++) j->sum += j->data[i];
  cudaFree(d);
  cudaStreamDestroy(s);
  arrive(j->done);
  return NULL;
}
int main() {
  const int N = 3;
  Barrier done = createBarrier(N);
  Job jobs[N];
  Thread ts[N];
  for (int t = 0; t < N; t++) {
    jobs[t].id = t;
    jobs[t].done = &done;
    for (int i = 0; i < 64; i++) jobs[t].data[i] = (float)(t + 1) * (i % 4);
    ts[t] = startThread(worker, &jobs[t]);
  }
  waitBarrier(&done);
  for (int t = 0; t < N; t++) printf("job %d sum %g\n", jobs[t].id, jobs[t].sum);
  waitForThreads(ts, N);
  return 0;
}
// OUT: job 0 sum 224
// OUT: job 1 sum 896
// OUT: job 2 sum 2016
