/*
 * subgroup.h — the cross-lane operations of the SIMT VM (opcodes SRED,
 * SCANI, SCANX, SHUF, VOTE, BALLOT of op.def), shared by every width the
 * interpreter (vm_exec.inc) is compiled for. Each call works on a whole
 * subgroup: rows of w lanes and the mask of its active (live) lanes.
 * Internal to src/vm.
 */
#ifndef LS_VM_SUBGROUP_H
#define LS_VM_SUBGROUP_H

#include <stdint.h>

/* Reduction op (IR_SG_*) of x over the active lanes, in lane order. */
uint32_t vm_sg_reduce(const uint32_t *x, uint64_t live, unsigned op, unsigned w);
/* Inclusive or exclusive scan op (the IR_SG_ ADD and MUL ones) of x into d, lane by
 * lane in order; d may be x. Lanes that are not active get the running
 * value (no lane reads them). */
void vm_sg_scan(uint32_t *d, const uint32_t *x, uint64_t live, unsigned op, int exclusive,
                unsigned w);
/* d[l] = x[src(l)] with src from sel (IR_SH_*) and y[l]; 0 where src is not
 * an active lane. d may be x or y. Returns the active lanes that got 0 that
 * way (for the sanitizer). */
uint64_t vm_sg_shuffle(uint32_t *d, const uint32_t *x, const uint32_t *y, uint64_t live,
                   unsigned sel, unsigned w);
/* d[l] = vote op (IR_VT_*) over the lanes where x != 0 (nz). */
void vm_sg_vote(uint32_t *d, uint64_t nz, uint64_t live, unsigned op, unsigned w);

#endif
