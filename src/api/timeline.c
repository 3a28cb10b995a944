/*
 * timeline.c — the device's queue timeline: one thread per device that runs
 * queue operations (submits, writeBuffer, writeTexture, maps, work-done
 * notifications, the release of destroyed memory) one after another in the
 * order they were issued, as a GPU's queue does. The API functions validate
 * on the caller's thread and push an op here (queue.c, buffer.c); the caller
 * goes on at once, and the op's own callback tells it when the op is done.
 *
 * The queue thread holds a reference on the device so that the device
 * outlives it; ls_device_destroy stops it (dropping what has not run) and a
 * final unref frees the device once the thread is gone.
 */
#include <stdlib.h>

#include "api.h"

static void *api_timeline_main(void *arg) {
  ls_device *d = arg;
  vm_pool_start(d->pool); /* here, beside the creator, not in its way */
  API_LOCK(d);
  for (;;) {
    while (!d->qhead && !d->qquit) pthread_cond_wait(&d->qwake, &d->mu);
    api_op *op = d->qhead;
    if (!op) break; /* quit with nothing left */
    d->qhead = op->next;
    if (!d->qhead) d->qtail = NULL;
    const int drop = d->qquit || atomic_load(&d->lost);
    API_UNLOCK(d);
    if (drop) {
      if (op->drop) op->drop(d, op->arg);
    } else {
      op->run(d, op->arg);
    }
    API_LOCK(d);
    d->qdone = op->seq;
    pthread_cond_broadcast(&d->qidle);
    free(op);
  }
  atomic_store(&d->qstarted, 0);
  pthread_cond_broadcast(&d->qidle);
  API_UNLOCK(d);
  api_device_unref(d);
  return NULL;
}

int api_timeline_start(ls_device *d) {
  if (pthread_cond_init(&d->qwake, NULL) != 0) return 0;
  if (pthread_cond_init(&d->qidle, NULL) != 0) {
    pthread_cond_destroy(&d->qwake);
    return 0;
  }
  api_device_ref(d); /* the thread's */
  atomic_store(&d->qstarted, 1);
  if (pthread_create(&d->qthread, NULL, api_timeline_main, d) != 0) {
    atomic_store(&d->qstarted, 0);
    atomic_fetch_sub(&d->refs, 1);
    pthread_cond_destroy(&d->qidle);
    pthread_cond_destroy(&d->qwake);
    return 0;
  }
  /* Nobody joins it: ls_device_destroy may run on it (from a callback), and
   * the device's last reference, which may be the thread's, frees it. */
  pthread_detach(d->qthread);
  return 1;
}

void api_timeline_stop(ls_device *d) {
  API_LOCK(d);
  d->qquit = 1;
  atomic_store(&d->cancel, 1);
  pthread_cond_broadcast(&d->qwake);
  if (!api_timeline_is_queue_thread(d))
    while (atomic_load(&d->qstarted)) pthread_cond_wait(&d->qidle, &d->mu);
  API_UNLOCK(d);
}

uint64_t api_timeline_push_locked(ls_device *d, void (*run)(ls_device *, void *),
                                  void (*drop)(ls_device *, void *), void *arg) {
  api_op *op = calloc(1, sizeof *op);
  if (!op || !atomic_load(&d->qstarted) || d->qquit) {
    free(op);
    return 0;
  }
  op->run = run;
  op->drop = drop;
  op->arg = arg;
  op->seq = ++d->qissued;
  if (d->qtail) d->qtail->next = op;
  else d->qhead = op;
  d->qtail = op;
  pthread_cond_signal(&d->qwake);
  return op->seq;
}

uint64_t api_timeline_push(ls_device *d, void (*run)(ls_device *, void *),
                           void (*drop)(ls_device *, void *), void *arg) {
  API_LOCK(d);
  uint64_t seq = api_timeline_push_locked(d, run, drop, arg);
  API_UNLOCK(d);
  if (!seq && drop) drop(d, arg);
  return seq;
}

void api_timeline_wait(ls_device *d, uint64_t seq) {
  if (!seq || api_timeline_is_queue_thread(d)) return;
  API_LOCK(d);
  while (d->qdone < seq && atomic_load(&d->qstarted)) pthread_cond_wait(&d->qidle, &d->mu);
  API_UNLOCK(d);
}

int api_timeline_busy_locked(const ls_device *d) { return d->qdone != d->qissued; }

int api_timeline_is_queue_thread(const ls_device *d) {
  return atomic_load(&d->qstarted) && pthread_equal(pthread_self(), d->qthread);
}

/* ------------------------------------------------------ work-done markers */

typedef struct api_done {
  ls_work_done_callback fn;
  void *user;
} api_done;

static void api_done_run(ls_device *d, void *arg) {
  api_done *w = arg;
  if (w->fn) w->fn(w->user, atomic_load(&d->lost) ? LS_DEVICE_LOST : LS_OK);
  free(w);
}

static void api_done_drop(ls_device *d, void *arg) {
  api_done *w = arg;
  if (w->fn) w->fn(w->user, LS_DEVICE_LOST);
  free(w);
}

void ls_queue_on_submitted_work_done(ls_device *device, ls_work_done_callback fn, void *user) {
  if (!device) return;
  api_done *w = malloc(sizeof *w);
  if (!w) {
    if (fn) fn(user, LS_OUT_OF_MEMORY);
    return;
  }
  w->fn = fn;
  w->user = user;
  api_timeline_push(device, api_done_run, api_done_drop, w);
}

static void api_nothing(ls_device *d, void *arg) {}

void ls_queue_wait_idle(ls_device *device) {
  if (!device) return;
  api_timeline_wait(device, api_timeline_push(device, api_nothing, NULL, NULL));
}
