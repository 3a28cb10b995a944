/*
 * observe.h — how observers (the sanitizer, the profiler) watch a dispatch.
 *
 * The VM is compiled twice per subgroup width: a plain interpreter, and an
 * observed one that reports to a vm_observer. vm_dispatch picks the plain
 * one when desc->observer is NULL, so an unobserved run pays nothing at all.
 * The observed interpreter reports every memory access (with its lane mask
 * and per-lane addresses), every branch that narrows or rebuilds the mask,
 * every loop back edge, barrier and subgroup end, every shuffle that read a
 * lane that is not active and every texel request, and counts issued
 * instructions and live lanes per pc into arrays the observer owns.
 *
 * Callbacks run on the worker thread that runs the workgroup; `thread`
 * (0 .. threads-1) lets an observer keep per-thread state without locks.
 * An observer may ask for a single thread (vm_observer.serial) when its
 * bookkeeping is global.
 *
 * A dispatch has one vm_observer. When several watch it (the sanitizer and
 * a profiler), the API hands the VM a multiplexer (observe_mux.h) that
 * replays the rules below for each of them, so that each sees what it
 * would see alone.
 */
#ifndef LS_VM_OBSERVE_H
#define LS_VM_OBSERVE_H

#include <stdint.h>

#include "../ir/ir.h"

struct vm_texture;

/* Where a memory access went. */
typedef enum vm_space {
  VM_SPACE_BUFFER,    /* a binding slot (storage or uniform) */
  VM_SPACE_WORKGROUP,
  VM_SPACE_PRIVATE
} vm_space;

typedef enum vm_access {
  VM_LOAD,
  VM_STORE,
  VM_ATOMIC /* read-modify-write, load or store through an atomic built-in */
} vm_access;

/* Which invocation: enough to rebuild every built-in id. */
typedef struct vm_where {
  uint32_t group[3];  /* workgroup_id */
  uint32_t subgroup;  /* subgroup index s in the workgroup */
  uint32_t width;     /* W */
} vm_where;

typedef struct vm_mem_event {
  uint32_t pc;
  vm_access access;
  vm_space space;
  uint32_t slot;           /* VM_SPACE_BUFFER: binding slot */
  uint32_t atomic_op;      /* VM_ATOMIC: ir_atom */
  uint64_t mask;           /* lanes that made the access */
  const uint64_t *addr;    /* [W] byte address per lane (register + displacement,
                              64-bit: never wraps); meaningful for lanes in mask */
  const uint32_t *value;   /* [W] value stored (VM_STORE, VM_ATOMIC operand) */
  uint64_t size;           /* bytes in the space or binding the access is checked
                              against (out of bounds: addr + bytes > size) */
  const vm_where *where;
  /* Patterns of all W addresses, computed once by the VM so that observers
   * need no lane walk for the common requests: addr[l] == addr[0] + 4*l for
   * every lane (consecutive words), or addr[l] == addr[0] for every lane
   * (one word). Set only when mask is the whole subgroup; 0 otherwise. */
  int consecutive;
  int uniform;
  uint32_t bytes;          /* bytes each lane accesses: 4, or 2 for an f16 */
} vm_mem_event;

/* One texel request: a textureLoad or textureStore by a subgroup (one event
 * per instruction, never per lane), reported after the access so that the
 * out-of-bounds lanes are known. The coordinates are rows of W words, as
 * the shader computed them (u32 bits; a negative i32 is a huge u32 and out
 * of bounds): x, y, z (the depth of a 3D texture or the array layer) and
 * the mip level; a coordinate the access lacks is NULL and reads as 0 (a
 * store always writes level 0). A sampled read can reuse the event with
 * the texel it fetched. */
typedef struct vm_texel_event {
  uint32_t pc;
  vm_access access;        /* VM_LOAD or VM_STORE */
  uint32_t slot;           /* texture binding slot */
  uint64_t mask;           /* lanes that made the request (never 0) */
  uint64_t oob;            /* lanes of mask whose texel was outside the view:
                              the load gave (0, 0, 0, 0), the store was dropped */
  const uint32_t *coord[4]; /* [W] x, y, z, level per lane; NULL = 0 */
  const uint32_t *value;   /* VM_STORE: 4 rows of W, the vec4 bits the shader
                              stored (before the format's conversion); NULL
                              for a load */
  const struct vm_texture *tex; /* the view: geometry and format (vm.h) */
  const vm_where *where;
} vm_texel_event;

typedef struct vm_observer {
  void *user;
  int serial; /* run the dispatch on one thread */

  /* Per-pc counters, each an array of prog->ncode + 1 entries per thread
   * (the last one counts running off the end): issued[thread][pc] += 1 and
   * lanes[thread][pc] += live lanes for every instruction executed. NULL =
   * not counted. They are complete when the dispatch ends; during a
   * workgroup for which group_begin returned 0 the VM counts per
   * straight-line run and adds the runs in when the worker finishes, so
   * only a workgroup run in detail sees them move. */
  uint64_t **issued;
  uint64_t **lanes;
  /* empty[thread][pc] += 1 for every instruction executed with no live
   * lane (counted in issued[] too), kept like lanes[]; NULL = not counted
   * (also when issued or lanes is NULL). Complete only at the end of the
   * dispatch, even for a workgroup run in detail under a multiplexer. */
  uint64_t **empty;

  /* With summarise set, outside a detail workgroup, the VM counts instead
   * of calling back:
   * - a buffer load or store (not atomic) by all W lanes whose addresses
   *   are W consecutive words (first byte address a, a % 4 == 0) or one
   *   word, all in bounds: coalesced[thread][pc << coalesce_log2 |
   *   (a / 4) % (1 << coalesce_log2)] += 1, or uniform[thread][pc] += 1
   *   (arrays of (ncode + 1) << coalesce_log2 and ncode + 1 entries);
   *   mem is called for every other access but those of private memory,
   *   which are not reported;
   * - branch is not called (divergent[] below has its figure), nor
   *   barrier (the barriers a pc saw are issued[pc]);
   * - subgroup_end is called only when some lane returned early.
   * divergent[thread][pc] (ncode + 1 entries, NULL = not counted) gets 1 at
   * every MAND / MANDN whose result is neither empty nor the mask before,
   * summarising or not; the evaluations are issued[pc]. */
  int summarise;
  unsigned coalesce_log2;
  uint64_t **coalesced;
  uint64_t **uniform;
  uint64_t **divergent;
  /* Loads the observer has no use for: per binding slot (prog->nbindings
   * entries; NULL = every load is reported), a 4-byte buffer load whose
   * live lanes all read below quiet_loads[slot] bytes is neither reported
   * nor counted (the VM tests full subgroups and constant addresses). The
   * sanitizer sets the logical size of a binding it keeps no race shadow
   * for: such a load has nothing to find. */
  const uint64_t *quiet_loads;

  void (*dispatch_begin)(void *user, const ir_program *prog, const uint32_t groups[3],
                         uint32_t width);
  void (*dispatch_end)(void *user);
  /* Returns nonzero to see this workgroup in detail: every event called
   * back and issued[] / lanes[] counted as each instruction runs. */
  int (*group_begin)(void *user, unsigned thread, const uint32_t group[3]);
  void (*group_end)(void *user, unsigned thread, const uint32_t group[3]);
  void (*mem)(void *user, unsigned thread, const vm_mem_event *e);
  /* The most common request in short (NULL: mem gets it as any other): a
   * buffer load or store (not atomic, 4 bytes a lane) by all W lanes of
   * the W consecutive words from byte addr (addr % 4 == 0), all inside
   * the binding (addr + 4W <= size). value: the W words stored, NULL for
   * a load. The same access mem would see, without the address per lane
   * and the patterns the observer would only test again; where summarise
   * counts the request, neither is called. */
  void (*mem_seq)(void *user, unsigned thread, const vm_where *w, uint32_t pc, vm_access access,
                  uint32_t slot, uint64_t addr, const uint32_t *value, uint64_t size);
  /* MAND / MANDN: the mask before and after narrowing at pc. */
  void (*branch)(void *user, unsigned thread, const vm_where *w, uint32_t pc, uint64_t before,
                 uint64_t after);
  /* JANY taken or not: exec = lanes still in the loop. */
  void (*loop)(void *user, unsigned thread, const vm_where *w, uint32_t pc, uint64_t exec);
  /* BARRIER reached: exec = lanes that reached it, alive = lanes that have
   * not returned (the entry point's slot 0). */
  void (*barrier)(void *user, unsigned thread, const vm_where *w, uint32_t pc, uint64_t exec,
                  uint64_t alive);
  /* Every subgroup still running in the workgroup waits at a barrier: pcs
   * holds each subgroup's barrier pc (UINT32_MAX for one that ended). Called
   * once per release, before the subgroups go on. */
  void (*barrier_release)(void *user, unsigned thread, const uint32_t group[3],
                          const uint32_t *pcs, uint32_t nsub);
  /* SHUF (a shuffle, broadcast or quad operation) at pc: inactive = the
   * active lanes (in exec) whose source lane was not active or not in the
   * subgroup, so they got 0. Called only when inactive != 0. */
  void (*cross_lane)(void *user, unsigned thread, const vm_where *w, uint32_t pc, uint64_t exec,
                     uint64_t inactive);
  /* Every TLD / TST / TSMP with live lanes, summarising or not
   * (vm_texel_event; a sampling reports the first texel of each lane's
   * footprint). */
  void (*texel)(void *user, unsigned thread, const vm_texel_event *e);
  /* The subgroup reached END; alive = lanes that did not return early,
   * wrote = lanes that stored to buffer or workgroup memory (a store, or an
   * atomic other than atomicLoad). */
  void (*subgroup_end)(void *user, unsigned thread, const vm_where *w, uint64_t alive,
                       uint64_t wrote);
} vm_observer;

#endif
