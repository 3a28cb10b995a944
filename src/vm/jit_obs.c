/*
 * jit_obs.c — the observer calls of observed compiled code (jit_emit.c
 * with obs; vm_jit_abi.h's obs_* helpers): the events the observed
 * interpreter (vm_loop.inc, VM_OBS_*) would make at the same instruction,
 * for an observer in a workgroup it does not see in detail.
 * The generated code decides, as vm_loop.inc does, which requests are
 * counted and which are reported (a summarising observer, the profiler,
 * hears of fewer: observe.h); these functions build the events.
 */
#include "observe.h"
#include "vm_interp.h"
#include "vm_jit.h"

static vm_where jit_where(const vm_ctx *cx, uint32_t s) {
  const vm_where w = {{cx->gid[0], cx->gid[1], cx->gid[2]}, s, cx->width};
  return w;
}

void vm_jit_obs_mem(void *vcx, uint32_t s, uint32_t pc, unsigned access, unsigned space,
                    uint32_t slot, uint32_t aop, const uint32_t *addr, uint32_t disp,
                    const uint32_t *val, uint64_t size, uint64_t exec, int seq, int uni,
                    unsigned bytes) {
  const vm_ctx *cx = vcx;
  const vm_observer *O = cx->obs;
  const vm_where wh = jit_where(cx, s);
  uint64_t a[64];
  for (uint32_t l = 0; l < cx->width; l++) a[l] = (uint64_t)addr[l] + disp;
  const vm_mem_event ev = {pc,   (vm_access)access, (vm_space)space, slot, aop, exec, a, val,
                           size, &wh,               seq,             uni,  bytes};
  O->mem(O->user, cx->thread, &ev);
}

void vm_jit_obs_mem_seq(void *vcx, uint32_t s, uint32_t pc, unsigned access, uint32_t slot,
                        uint64_t addr, const uint32_t *val, uint64_t size) {
  const vm_ctx *cx = vcx;
  const vm_observer *O = cx->obs;
  const vm_where wh = jit_where(cx, s);
  O->mem_seq(O->user, cx->thread, &wh, pc, (vm_access)access, slot, addr, val, size);
}

void vm_jit_obs_loop(void *vcx, uint32_t s, uint32_t pc, uint64_t exec) {
  const vm_ctx *cx = vcx;
  const vm_observer *O = cx->obs;
  if (!O->loop) return;
  const vm_where wh = jit_where(cx, s);
  O->loop(O->user, cx->thread, &wh, pc, exec);
}

/* Summarising, called only when some lane returned early (JIT_OEND): a
 * subgroup whose lanes all stayed gives the observer nothing to count. */
void vm_jit_obs_end(void *vcx, uint32_t s, uint64_t alive, uint64_t wrote) {
  const vm_ctx *cx = vcx;
  const vm_observer *O = cx->obs;
  if (!O->subgroup_end) return;
  const vm_where wh = jit_where(cx, s);
  O->subgroup_end(O->user, cx->thread, &wh, alive, wrote);
}

void vm_jit_obs_xlane(void *vcx, uint32_t s, uint32_t pc, uint64_t exec, uint64_t miss) {
  const vm_ctx *cx = vcx;
  const vm_observer *O = cx->obs;
  if (!O->cross_lane) return;
  const vm_where wh = jit_where(cx, s);
  O->cross_lane(O->user, cx->thread, &wh, pc, exec, miss);
}

void vm_jit_obs_branch(void *vcx, uint32_t s, uint32_t pc, uint64_t before, uint64_t after) {
  const vm_ctx *cx = vcx;
  const vm_observer *O = cx->obs;
  const vm_where wh = jit_where(cx, s);
  O->branch(O->user, cx->thread, &wh, pc, before, after);
}

void vm_jit_obs_barrier(void *vcx, uint32_t s, uint32_t pc, uint64_t exec, uint64_t alive) {
  const vm_ctx *cx = vcx;
  const vm_observer *O = cx->obs;
  const vm_where wh = jit_where(cx, s);
  O->barrier(O->user, cx->thread, &wh, pc, exec, alive);
}

void vm_jit_obs_release(void *vcx, const uint32_t *pc, uint32_t nsub) {
  vm_ctx *cx = vcx;
  const vm_observer *O = cx->obs;
  if (!O->barrier_release) return;
  for (uint32_t t = 0; t < nsub; t++) cx->obs_pcs[t] = pc[t] == UINT32_MAX ? UINT32_MAX : pc[t] - 1;
  O->barrier_release(O->user, cx->thread, cx->gid, cx->obs_pcs, nsub);
}
