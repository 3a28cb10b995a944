/*
 * pool.c — the worker threads a device runs its dispatches on. The API
 * creates one pool per device (vm_pool_create); vm_dispatch (vm.c) hands it a
 * job that every participating worker runs once, the calling thread being
 * worker 0, and keeps each worker's execution context in the pool's scratch
 * slots so that repeated dispatches do not allocate.
 *
 * Threads are persistent and sleep on a condition variable between jobs: a
 * job is published under the mutex with a new generation number, and the
 * caller waits for the pending count to drop to zero. They start when a
 * job first needs them (or at vm_pool_start), not when the pool is made:
 * a device on a 16-core machine would otherwise make its creator wait for
 * 15 threads, and a small job may never need one.
 */
#include "vm.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct pool_scratch {
  void *mem;
  size_t cap;
} pool_scratch;

typedef struct pool_worker {
  vm_pool *pool;
  unsigned index;
  uint64_t seen; /* the generation when it was started: jobs before it are not its */
  pthread_t tid;
} pool_worker;

struct vm_pool {
  unsigned threads;
  unsigned started; /* worker threads running: [1, started] */
  pool_worker *workers; /* [1, threads) are threads; [0] is unused */
  pool_scratch *scratch; /* one per worker, caller included */

  pthread_mutex_t mu;
  pthread_cond_t go;   /* a new job (or quit) was published */
  pthread_cond_t done; /* pending reached zero */
  uint64_t gen;        /* bumped for every published job */
  unsigned n;          /* workers taking part in the current job */
  unsigned pending;    /* of those, excluding worker 0, not yet finished */
  void (*job)(void *arg, unsigned w);
  void *arg;
  int quit;
};

static void *pool_main(void *p) {
  pool_worker *me = p;
  vm_pool *pool = me->pool;
  uint64_t seen = me->seen;
  pthread_mutex_lock(&pool->mu);
  for (;;) {
    while (!pool->quit && pool->gen == seen) pthread_cond_wait(&pool->go, &pool->mu);
    if (pool->quit) break;
    seen = pool->gen;
    if (me->index >= pool->n) continue; /* not needed this time */
    void (*job)(void *, unsigned) = pool->job;
    void *arg = pool->arg;
    pthread_mutex_unlock(&pool->mu);
    job(arg, me->index);
    pthread_mutex_lock(&pool->mu);
    if (--pool->pending == 0) pthread_cond_signal(&pool->done);
  }
  pthread_mutex_unlock(&pool->mu);
  return NULL;
}

static void pool_stop(vm_pool *pool) {
  pthread_mutex_lock(&pool->mu);
  pool->quit = 1;
  pthread_cond_broadcast(&pool->go);
  pthread_mutex_unlock(&pool->mu);
  for (unsigned i = 1; i <= pool->started; i++) pthread_join(pool->workers[i].tid, NULL);
  pool->started = 0;
}

static void pool_free(vm_pool *pool) {
  if (pool->scratch) {
    for (unsigned i = 0; i < pool->threads; i++) free(pool->scratch[i].mem);
  }
  free(pool->scratch);
  free(pool->workers);
  pthread_cond_destroy(&pool->done);
  pthread_cond_destroy(&pool->go);
  pthread_mutex_destroy(&pool->mu);
  free(pool);
}

vm_pool *vm_pool_create(unsigned threads) {
  if (threads == 0) threads = 1;
  vm_pool *pool = calloc(1, sizeof *pool);
  if (!pool) return NULL;
  if (pthread_mutex_init(&pool->mu, NULL) != 0) {
    free(pool);
    return NULL;
  }
  if (pthread_cond_init(&pool->go, NULL) != 0) {
    pthread_mutex_destroy(&pool->mu);
    free(pool);
    return NULL;
  }
  if (pthread_cond_init(&pool->done, NULL) != 0) {
    pthread_cond_destroy(&pool->go);
    pthread_mutex_destroy(&pool->mu);
    free(pool);
    return NULL;
  }
  pool->threads = threads;
  pool->workers = calloc(threads, sizeof *pool->workers);
  pool->scratch = calloc(threads, sizeof *pool->scratch);
  if (!pool->workers || !pool->scratch) {
    pool_free(pool);
    return NULL;
  }
  return pool;
}

/* Starts workers up to n - 1 (those not yet running); returns how many
 * workers the pool has now, the caller's thread included. A thread that
 * cannot be created leaves the pool smaller, not broken. */
static unsigned pool_grow(vm_pool *pool, unsigned n) {
  if (n > pool->threads) n = pool->threads;
  while (pool->started + 1 < n) {
    pool_worker *w = &pool->workers[pool->started + 1];
    w->pool = pool;
    w->index = pool->started + 1;
    pthread_mutex_lock(&pool->mu);
    w->seen = pool->gen;
    pthread_mutex_unlock(&pool->mu);
    if (pthread_create(&w->tid, NULL, pool_main, w) != 0) break;
    pool->started++;
  }
  return pool->started + 1;
}

void vm_pool_start(vm_pool *pool) {
  if (pool) pool_grow(pool, pool->threads);
}

void vm_pool_destroy(vm_pool *pool) {
  if (!pool) return;
  pool_stop(pool);
  pool_free(pool);
}

unsigned vm_pool_threads(const vm_pool *pool) { return pool ? pool->threads : 1; }

void vm_pool_run(vm_pool *pool, unsigned n, void (*job)(void *arg, unsigned w), void *arg) {
  if (pool && n > pool->started + 1) n = pool_grow(pool, n);
  if (!pool || n <= 1) {
    job(arg, 0);
    return;
  }
  pthread_mutex_lock(&pool->mu);
  pool->job = job;
  pool->arg = arg;
  pool->n = n;
  pool->pending = n - 1;
  pool->gen++;
  pthread_cond_broadcast(&pool->go);
  pthread_mutex_unlock(&pool->mu);

  job(arg, 0);

  pthread_mutex_lock(&pool->mu);
  while (pool->pending) pthread_cond_wait(&pool->done, &pool->mu);
  pthread_mutex_unlock(&pool->mu);
}

void vm_pool_trim(vm_pool *pool, unsigned n, size_t bytes, uint64_t limit) {
  if (!pool || !limit) return;
  if (n > pool->threads) n = pool->threads;
  /* what will be kept once workers [0, n) have at least bytes each */
  uint64_t kept = 0;
  for (unsigned i = 0; i < pool->threads; i++) {
    const size_t cap = pool->scratch[i].cap;
    kept += i < n && cap < bytes ? bytes : cap;
  }
  for (unsigned i = pool->threads; i-- > n && kept > limit;) {
    kept -= pool->scratch[i].cap;
    free(pool->scratch[i].mem);
    pool->scratch[i].mem = NULL;
    pool->scratch[i].cap = 0;
  }
  for (unsigned i = 0; i < n && kept > limit; i++) {
    if (pool->scratch[i].cap <= bytes) continue;
    kept -= pool->scratch[i].cap - bytes;
    free(pool->scratch[i].mem); /* vm_pool_scratch allocates it again at bytes */
    pool->scratch[i].mem = NULL;
    pool->scratch[i].cap = 0;
  }
}

void *vm_pool_scratch(vm_pool *pool, unsigned w, size_t bytes) {
  if (!pool || w >= pool->threads) return NULL;
  pool_scratch *s = &pool->scratch[w];
  if (s->mem && s->cap >= bytes) return s->mem;
  /* Round up so that aligned_alloc's size rule holds and small growth steps
   * do not reallocate every time. */
  size_t want = bytes < 4096 ? 4096 : bytes;
  if (want > SIZE_MAX - 4095) return NULL;
  want = (want + 4095) & ~(size_t)4095;
  free(s->mem);
  s->mem = aligned_alloc(64, want);
  s->cap = s->mem ? want : 0;
  return s->mem;
}
