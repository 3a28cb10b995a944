/*
 * observe_mux.h — several observers on one dispatch. vm_dispatch takes one
 * vm_observer (observe.h); when more than one watches a dispatch (the
 * sanitizer and a profiler, say), the API hands the VM a multiplexer that
 * fans every event out to its children.
 *
 * Each child sees exactly what it would see alone. The multiplexer asks
 * the VM for every event (it never summarises) and does for each child
 * what the VM would have done for that child: for one that summarises it
 * counts the full-subgroup coalesced and one-word buffer requests into
 * that child's own arrays instead of calling it, counts divergent branches
 * into its divergent[], and leaves out the branch, barrier, private-memory
 * and all-lanes subgroup-end calls, as observe.h says; a workgroup that a
 * child asks to see in detail is detail for that child only. The per-pc
 * issued / lanes counts go into the multiplexer's own arrays and reach
 * each counting child as they would alone: added in when the dispatch
 * ends, and kept current while that child watches a workgroup in detail
 * (the counts other children's detail workgroups caused are held back
 * until the end). serial is any child's serial.
 *
 * Where it stands: api/observe.c owns one multiplexer per device and binds
 * the dispatch's observers to it before each dispatch of two or more.
 */
#ifndef LS_VM_OBSERVE_MUX_H
#define LS_VM_OBSERVE_MUX_H

#include "observe.h"

typedef struct vm_mux vm_mux;

/* threads: the most worker threads a dispatch may use (callbacks come with
 * thread < threads). NULL when memory runs out. */
vm_mux *vm_mux_create(unsigned threads);
void vm_mux_destroy(vm_mux *m);

/* The children of the next dispatch (the pointers are kept; the observers
 * must live until it ends). Returns the observer to hand vm_dispatch, or
 * NULL when memory runs out. A child's fields other than serial are read
 * after its dispatch_begin, as the VM reads them. */
const vm_observer *vm_mux_bind(vm_mux *m, const vm_observer *const *children, unsigned n);

/* After the dispatch: nonzero when the multiplexer ran out of memory
 * during it, so some child's counts are incomplete. */
int vm_mux_failed(const vm_mux *m);

#endif
