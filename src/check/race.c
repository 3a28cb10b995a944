/*
 * race.c — the sanitizer's data-race detector: shadow state for every word
 * a dispatch touches, fed by check.c's memory callback.
 *
 * Two layers, because two kinds of ordering exist:
 *
 * - Within a workgroup: accesses are ordered only by barriers. Each worker
 *   thread runs whole workgroups, so it keeps a cell per word (an array for
 *   workgroup memory, an open-addressing table for storage words) holding the
 *   accesses of the current barrier interval: the last writer, its value, and
 *   up to two distinct readers. A cell is valid only while its stamp equals
 *   the thread's current stamp; a barrier or a new workgroup bumps the stamp,
 *   which empties every cell at once.
 *
 * - Between workgroups of one dispatch: nothing orders them, so every
 *   writable storage word has an entry for the whole dispatch (writer
 *   workgroup, reader workgroup, "readers from several workgroups", and the
 *   accesses that name them in a report). Each worker thread keeps its own
 *   dense array of entries, written with plain stores: workgroups that ran on
 *   one thread meet there, in program order, exactly as before; workgroups
 *   that ran on different threads meet when the dispatch ends, when the
 *   blocks of words that two or more threads touched are compared entry by
 *   entry (chk_race_end). A thread owns its array, so the hot path has no
 *   atomic operation at all (a compare-and-swap per lane cost more than the
 *   rest of the checks together).
 *
 * Shadow memory is kept between dispatches and never cleared on the hot
 * path: workgroup numbers are stored biased by a generation base that grows
 * by the dispatch's workgroup count each dispatch, so an entry written by an
 * earlier dispatch reads as empty (its number is not above the base). Cells
 * of the within-workgroup layer carry a stamp for the same purpose. Storage
 * cells live in blocks of 64 consecutive words, so a coalesced access finds
 * its cells with one or two hash lookups instead of one per lane.
 *
 * Both layers summarise a block of 64 storage words while it is accessed in
 * lane order (the records in chk_hblock and chk_xsum): the common coalesced
 * access then updates one record per layer plus a stored value per word,
 * and the cells or entries are written out only for a block that an access
 * does not fit. A record decodes to exactly the per-word state, so what is
 * found does not change.
 *
 * A race exists iff two accesses from different invocations, at least one a
 * write, meet in the same interval (same workgroup) or in the dispatch
 * (different workgroups). Each layer keeps enough to see any such pair
 * whichever access comes first (a second reader is kept for the case
 * "read by A, read by B, write by A"), so whether a race is found does not
 * depend on the order the VM ran subgroups or workgroups in. Atomic
 * accesses never race (WGSL reaches atomic<T> only through the atomic
 * built-ins) and are not tracked.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "../util/bitfn.h"

/* The accesses to one word in the current interval of one workgroup. */
typedef struct chk_cell {
  uint32_t stamp;
  uint32_t wpc, wval;
  uint32_t rpc, rpc2;
  uint16_t wli, rli, rli2; /* local index + 1; 0 = none */
} chk_cell;

#define CHK_BLK_SHIFT 6
#define CHK_BLK ((uint64_t)1 << CHK_BLK_SHIFT) /* storage words per hash block */

/* A block of storage cells: the words key << 6 .. key << 6 | 63 of a slot. A
 * block is occupied while its stamp is the thread's storage stamp; its cells
 * are valid only where their own stamp is (a block reused in a later
 * interval holds stale cells that read as empty, with no clearing). */
/* The same block summarised, as long as its cells would be: words
 * [wlo, whi) last written by local index wd + k at pc wpc (values in val),
 * words [rlo, rhi) first read by local index rd + k at rpc, no second
 * reader, every other cell empty. A coalesced access by the lanes that
 * match (the common case: each invocation reads then writes its own word)
 * updates this instead of up to 64 cells. When an access does not fit, the
 * cells are written from it (materialised, mat = the block's stamp) and the
 * per-cell path takes over for the rest of the interval. */
typedef struct chk_hblock {
  uint64_t key; /* slot << 40 | word >> 6 */
  uint32_t stamp;
  uint32_t mat;       /* == stamp: the cells hold the block */
  uint32_t wpc, rpc;
  int16_t wd, rd;
  uint8_t wlo, whi, rlo, rhi; /* an empty part: lo == hi */
  uint32_t val[CHK_BLK];
  chk_cell c[CHK_BLK];
} chk_hblock;

#define CHK_HASH_MAX ((size_t)1 << 21) /* storage words per interval tracked */
#define CHK_HBLOCK_MAX (CHK_HASH_MAX / CHK_BLK)

/* Cross-workgroup entry of one storage word, in one thread's array. w and r
 * are workgroup linear index + 1 + the dispatch's generation base (not above
 * the base: empty); r's top bit: read by several workgroups of this thread. */
typedef struct chk_xent {
  uint32_t w, r;
  uint32_t winfo, rinfo; /* pc << 11 | local index */
  uint32_t wval;
} chk_xent;

#define CHK_XBLK_SHIFT 8 /* words per touch block: merge granularity */
#define CHK_SEVERAL 0x80000000u
#define CHK_GEN_MAX 0x7FFFFFF0u

/* Summary of the cross-workgroup entries of one block of 64 words
 * (CHK_BLK), so that the common coalesced access (a subgroup reading or
 * writing consecutive words in lane order) updates one record instead of 64
 * 20-byte entries: the per-word shadow was the race detector's main cost,
 * all memory traffic. The writer part says: words [wlo, whi) of the block
 * were last written by workgroup w, at pc wpc, word k by local index wd + k;
 * their values are in the slot's val array; other words have no writer. The
 * reader part says the same of the first reader (r as chk_xent's r, with
 * its CHK_SEVERAL bit). A part whose workgroup is not above the base is
 * empty. A block that an access cannot keep in this form is materialised:
 * its per-word entries are written from the summary, mat is set to the
 * dispatch's touch stamp, and every later access of the dispatch uses the
 * entries, exactly as before. Each summary decodes to the very entries the
 * per-word path would have built, so findings do not change. */
typedef struct chk_xsum {
  uint32_t w, r;
  uint32_t wpc, rpc;
  int16_t wd, rd;
  uint8_t wlo, whi, rlo, rhi;
  uint32_t mat; /* the touch stamp of the dispatch that materialised it */
} chk_xsum;

/* One thread's shadow of one writable storage slot. */
typedef struct chk_xshadow {
  chk_xent *ent;   /* per word; touched only in materialised blocks */
  chk_xsum *sum;   /* per block of 64 words */
  uint32_t *val;   /* per word: value stored, for summarised blocks */
  uint32_t *touch; /* per block of 256 words: dispatch stamp when touched */
  uint64_t words, cap;
} chk_xshadow;

typedef struct chk_rthread {
  uint32_t wg_stamp, st_stamp;
  chk_cell *wg;
  size_t nwg;
  chk_hblock *h;
  size_t hcap, hcount;
  uint32_t hstamp; /* the stamp hcount counts */
  /* the block chk_hget found last, while hstamp and h stay the same:
   * neighbouring subgroups, and a load and store of the same words, ask
   * for the same block in a row */
  chk_hblock *hlast;
  uint64_t hlast_key;
  chk_xshadow *xs; /* [nxs] */
  uint32_t nxs;
  char pad[64];
} chk_rthread;

struct chk_race {
  unsigned nthreads;
  chk_rthread *th;
  const ir_program *prog;
  uint32_t nsh;        /* slots with a shadow this dispatch (xs entries used) */
  uint32_t base;       /* generation base of this dispatch */
  uint32_t next_base;  /* the next dispatch's base */
  uint32_t touch;      /* this dispatch's touch stamp (never 0) */
  uint64_t glimit;     /* workgroups below this have cross-workgroup
                          entries (0 while the layer is off) */
  uint8_t *rw;         /* per slot: a writable binding, so raced on */
  int cross;           /* the cross-workgroup layer is on */
  uint32_t scale;      /* addresses come multiplied by this (2: the f16
                          detector, one cell per half-word) */
};

chk_race *chk_race_create(unsigned threads) {
  chk_race *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  r->nthreads = threads;
  r->scale = 1;
  r->th = calloc(threads, sizeof *r->th);
  if (!r->th) {
    free(r);
    return NULL;
  }
  return r;
}

void chk_race_halves(chk_race *r) {
  if (r) r->scale = 2;
}

static void chk_xs_free(chk_xshadow *x) {
  free(x->ent);
  free(x->sum);
  free(x->val);
  free(x->touch);
  memset(x, 0, sizeof *x);
}

void chk_race_destroy(chk_race *r) {
  if (!r) return;
  for (unsigned t = 0; t < r->nthreads; t++) {
    chk_rthread *th = &r->th[t];
    for (uint32_t i = 0; i < th->nxs; i++) chk_xs_free(&th->xs[i]);
    free(th->xs);
    free(th->wg);
    free(th->h);
  }
  free(r->th);
  free(r->rw);
  free(r);
}

/* Every entry of every thread reads as empty again (generation wrap). */
static void chk_xs_clear_all(chk_race *r) {
  for (unsigned t = 0; t < r->nthreads; t++)
    for (uint32_t i = 0; i < r->th[t].nxs; i++) {
      chk_xshadow *x = &r->th[t].xs[i];
      if (x->ent) memset(x->ent, 0, x->cap * sizeof *x->ent);
      if (x->sum) memset(x->sum, 0, ((x->cap >> CHK_BLK_SHIFT) + 1) * sizeof *x->sum);
      if (x->touch) memset(x->touch, 0, ((x->cap >> CHK_XBLK_SHIFT) + 1) * sizeof *x->touch);
    }
}

/* A new generation base for a dispatch of ngroups workgroups: entries of
 * earlier dispatches now read as empty. */
static void chk_race_generation(chk_race *r, uint64_t ngroups) {
  if (ngroups >= CHK_GEN_MAX) ngroups = CHK_GEN_MAX - 1; /* larger ids: not tracked */
  if ((uint64_t)r->next_base + ngroups + 1 >= CHK_GEN_MAX || r->touch == UINT32_MAX) {
    chk_xs_clear_all(r);
    r->next_base = 0;
    r->touch = 0;
  }
  r->base = r->next_base;
  r->next_base = r->base + (uint32_t)ngroups + 1;
  r->touch++;
}

/* Out of memory for the slots' tables: every slot's races go unseen. */
static int chk_race_unchecked(const uint64_t *sizes, uint32_t nslots, uint64_t per_word,
                              uint64_t *unchecked) {
  for (uint32_t i = 0; i < nslots; i++)
    if (sizes[i] / 4) unchecked[i] = sizes[i] / 4 * per_word;
  return 0;
}

int chk_race_begin(chk_race *r, const ir_program *prog, const uint64_t *sizes, uint32_t nslots,
                   uint64_t ngroups, uint64_t cap_bytes, uint64_t *unchecked) {
  r->prog = prog;
  r->cross = 0;
  r->glimit = 0;
  r->nsh = 0;
  chk_race_generation(r, ngroups);
  /* counted as before (the entries are the bound when every block is
   * materialised), so the same slots fit under the cap and findings do not
   * depend on the summaries */
  const uint64_t per_word = (uint64_t)sizeof(chk_xent) * r->nthreads;
  uint8_t *rw = realloc(r->rw, nslots ? nslots : 1);
  if (!rw) return chk_race_unchecked(sizes, nslots, per_word, unchecked);
  r->rw = rw;
  /* read-only: no race (a storage texture arrives with a word per texel,
   * check.c) */
  for (uint32_t i = 0; i < nslots; i++) {
    const ir_binding_kind bk = prog && i < prog->nbindings ? prog->bindings[i].kind : IR_BIND_UNIFORM;
    rw[i] = bk == IR_BIND_STORAGE || bk == IR_BIND_WRITE_ONLY_STORAGE_TEXTURE ||
            bk == IR_BIND_READ_WRITE_STORAGE_TEXTURE;
  }
  /* grow every thread's table of slots to nslots */
  for (unsigned t = 0; t < r->nthreads; t++) {
    chk_rthread *th = &r->th[t];
    if (th->nxs < nslots) {
      chk_xshadow *n = realloc(th->xs, nslots * sizeof *n);
      if (!n) return chk_race_unchecked(sizes, nslots, per_word, unchecked);
      memset(n + th->nxs, 0, (nslots - th->nxs) * sizeof *n);
      th->xs = n;
      th->nxs = nslots;
    }
  }
  r->nsh = nslots;
  uint64_t used = 0;
  int ok = 1;
  for (uint32_t i = 0; i < nslots; i++) {
    uint64_t words = sizes[i] / 4;
    for (unsigned t = 0; t < r->nthreads; t++) r->th[t].xs[i].words = 0;
    if (!words) continue;
    if (used + words * per_word > cap_bytes) {
      ok = 0; /* too large to shadow: this slot's cross-workgroup races go unseen */
      unchecked[i] = words * per_word;
      continue;
    }
    int got = 1;
    for (unsigned t = 0; t < r->nthreads && got; t++) {
      chk_xshadow *x = &r->th[t].xs[i];
      if (x->cap >= words) continue; /* kept from an earlier dispatch */
      chk_xs_free(x);
      /* calloc: zero pages, touched only where dispatches go; kept after */
      x->ent = calloc(words, sizeof *x->ent);
      x->touch = calloc((words >> CHK_XBLK_SHIFT) + 1, sizeof *x->touch);
      x->sum = calloc((words >> CHK_BLK_SHIFT) + 1, sizeof *x->sum);
      x->val = calloc(words, sizeof *x->val);
      if (!x->ent || !x->touch || !x->sum || !x->val) {
        chk_xs_free(x);
        got = 0;
      } else {
        x->cap = words;
      }
    }
    if (!got) {
      ok = 0;
      unchecked[i] = words * per_word;
      continue;
    }
    for (unsigned t = 0; t < r->nthreads; t++) r->th[t].xs[i].words = words;
    used += words * per_word;
  }
  r->cross = 1;
  /* workgroup numbers from CHK_GEN_MAX - 1 - base on would not fit the
   * biased form: those workgroups keep no cross-workgroup entries */
  r->glimit = ngroups < CHK_GEN_MAX - 1 - r->base ? ngroups : CHK_GEN_MAX - 1 - r->base;
  return ok;
}

/* A new stamp; on wrap-around every cell is cleared so no stale one looks
 * current. */
static uint32_t chk_bump(uint32_t *stamp, chk_rthread *t, int wg) {
  if (++*stamp == 0) {
    if (wg && t->wg) memset(t->wg, 0, t->nwg * sizeof *t->wg);
    if (!wg && t->h) memset(t->h, 0, t->hcap * sizeof *t->h);
    if (!wg) t->hlast = NULL;
    *stamp = 1;
  }
  return *stamp;
}

void chk_race_group(chk_race *r, unsigned thread) {
  if (thread >= r->nthreads) return;
  chk_rthread *t = &r->th[thread];
  chk_bump(&t->wg_stamp, t, 1);
  chk_bump(&t->st_stamp, t, 0);
}

void chk_race_barrier(chk_race *r, unsigned thread, int orders_workgroup, int orders_storage) {
  if (thread >= r->nthreads) return;
  chk_rthread *t = &r->th[thread];
  if (orders_workgroup) chk_bump(&t->wg_stamp, t, 1);
  if (orders_storage) chk_bump(&t->st_stamp, t, 0);
}

static uint64_t chk_hash(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdull;
  k ^= k >> 33;
  return k;
}

/* The storage block of key in the current interval; NULL when the table is
 * at its limit (its words are then not tracked within the workgroup). */
static chk_hblock *chk_hget_slow(chk_rthread *t, uint64_t key);

static inline chk_hblock *chk_hget(chk_rthread *t, uint64_t key) {
  if (t->hlast && t->hlast_key == key && t->hstamp == t->st_stamp) return t->hlast;
  chk_hblock *h = chk_hget_slow(t, key);
  t->hlast = h;
  t->hlast_key = key;
  return h;
}

static chk_hblock *chk_hget_slow(chk_rthread *t, uint64_t key) {
  if (t->hstamp != t->st_stamp) {
    t->hstamp = t->st_stamp;
    t->hcount = 0;
  }
  if (t->hcap == 0 || (t->hcount + 1) * 2 > t->hcap) {
    size_t nc = t->hcap ? t->hcap * 2 : 64;
    if (nc > CHK_HBLOCK_MAX * 2 && t->hcap) nc = 0; /* full: look up, do not insert */
    if (nc) {
      chk_hblock *n = calloc(nc, sizeof *n);
      if (n) {
        for (size_t i = 0; i < t->hcap; i++) {
          if (t->h[i].stamp != t->st_stamp) continue;
          size_t j = chk_hash(t->h[i].key) & (nc - 1);
          while (n[j].stamp == t->st_stamp) j = (j + 1) & (nc - 1);
          n[j] = t->h[i];
        }
        free(t->h);
        t->h = n;
        t->hcap = nc;
      } else if (!t->hcap) {
        return NULL;
      }
    }
  }
  size_t mask = t->hcap - 1;
  size_t j = chk_hash(key) & mask;
  for (size_t probes = 0; probes < t->hcap; probes++, j = (j + 1) & mask) {
    chk_hblock *h = &t->h[j];
    if (h->stamp != t->st_stamp) {
      if ((t->hcount + 1) * 2 > t->hcap) return NULL;
      /* the cells keep older stamps: they read as empty */
      h->key = key;
      h->stamp = t->st_stamp;
      h->mat = 0; /* stamps are never 0: summarised, both parts empty */
      h->wlo = h->whi = h->rlo = h->rhi = 0;
      t->hcount++;
      return h;
    }
    if (h->key == key) return h;
  }
  return NULL;
}

typedef void (*chk_report_fn)(void *user, unsigned thread, const chk_race_hit *h);

/* Fills the parts of a hit every report of one access shares. */
static void chk_hit_init(chk_race_hit *h, const vm_mem_event *e, chk_inv inv, uint32_t slot,
                         uint64_t offset) {
  memset(h, 0, sizeof *h);
  h->space = e->space;
  h->slot = slot;
  h->offset = offset;
  h->pc = e->pc;
  h->access = e->access;
  h->inv = inv;
}

/* The rare part of chk_cell_access: this access conflicts with what the cell
 * holds (kept out of line so the common path stays small). */
static void __attribute__((noinline))
chk_cell_report(const chk_cell *c, const vm_mem_event *e, uint16_t me, uint32_t v, chk_inv inv,
                uint64_t group_base, uint32_t slot, uint64_t offset, chk_report_fn report,
                void *user, unsigned thread) {
  chk_race_hit h;
  chk_hit_init(&h, e, inv, slot, offset);
  if (c->wli && c->wli != me) {
    h.same_value = e->access == VM_STORE && c->wval == v;
    h.other_pc = c->wpc;
    h.other_access = VM_STORE;
    h.other_inv = group_base + c->wli - 1;
    report(user, thread, &h);
  }
  if (e->access != VM_STORE) return;
  uint16_t other = c->rli && c->rli != me ? c->rli : c->rli2 && c->rli2 != me ? c->rli2 : 0;
  if (other) {
    h.same_value = 0;
    h.other_pc = other == c->rli ? c->rpc : c->rpc2;
    h.other_access = VM_LOAD;
    h.other_inv = group_base + other - 1;
    report(user, thread, &h);
  }
}

/* One lane's access against its cell in the current interval. */
static inline void chk_cell_access(chk_cell *c, uint32_t stamp, const vm_mem_event *e,
                                   unsigned lane, chk_inv inv, uint64_t group_base, uint32_t slot,
                                   uint64_t offset, chk_report_fn report, void *user,
                                   unsigned thread) {
  if (c->stamp != stamp) {
    memset(c, 0, sizeof *c);
    c->stamp = stamp;
  }
  uint16_t me = (uint16_t)(inv - group_base + 1);
  if (e->access == VM_STORE) {
    uint32_t v = e->value[lane];
    if ((c->wli && c->wli != me) || (c->rli && c->rli != me) || (c->rli2 && c->rli2 != me))
      chk_cell_report(c, e, me, v, inv, group_base, slot, offset, report, user, thread);
    c->wli = me;
    c->wpc = e->pc;
    c->wval = v;
  } else {
    if (c->wli && c->wli != me)
      chk_cell_report(c, e, me, 0, inv, group_base, slot, offset, report, user, thread);
    if (!c->rli) {
      c->rli = me;
      c->rpc = e->pc;
    } else if (c->rli != me && !c->rli2) {
      c->rli2 = me;
      c->rpc2 = e->pc;
    }
  }
}

/* The rare part of chk_cross_access: a conflict with another workgroup that
 * ran on this thread. */
static void __attribute__((noinline))
chk_cross_report(const chk_xent *x, uint32_t base, uint32_t G, const vm_mem_event *e,
                 unsigned lane, chk_inv inv, uint64_t group_linear, uint32_t slot, uint64_t w,
                 chk_report_fn report, void *user, unsigned thread) {
  chk_race_hit h;
  chk_hit_init(&h, e, inv, slot, w * 4);
  h.across_groups = 1;
  if (x->w > base && x->w != G) {
    h.same_value = e->access == VM_STORE && x->wval == e->value[lane];
    h.other_pc = x->winfo >> 11;
    h.other_access = VM_STORE;
    h.other_inv = (uint64_t)(x->w - base - 1) * 2048 + (x->winfo & 2047);
    report(user, thread, &h);
  }
  uint32_t rr = x->r & ~CHK_SEVERAL;
  if (e->access == VM_STORE && rr > base && (rr != G || (x->r & CHK_SEVERAL))) {
    h.same_value = 0;
    h.other_pc = x->rinfo >> 11;
    h.other_access = VM_LOAD;
    h.other_inv = (rr != G ? (uint64_t)(rr - base - 1) : group_linear) * 2048 + (x->rinfo & 2047);
    report(user, thread, &h);
  }
}

/* One lane's access against this thread's dispatch-wide entry of a storage
 * word (G: the workgroup's biased number). */
static inline void chk_cross_access(chk_xent *x, uint32_t base, uint32_t G, const vm_mem_event *e,
                                    unsigned lane, chk_inv inv, uint64_t group_linear,
                                    uint32_t slot, uint64_t w, chk_report_fn report, void *user,
                                    unsigned thread) {
  uint32_t info = (e->pc << 11) | (uint32_t)(inv % 2048);
  uint32_t rr = x->r & ~CHK_SEVERAL;
  int wother = x->w > base && x->w != G;
  if (e->access == VM_STORE) {
    if (wother || (rr > base && (rr != G || (x->r & CHK_SEVERAL))))
      chk_cross_report(x, base, G, e, lane, inv, group_linear, slot, w, report, user, thread);
    x->w = G;
    x->winfo = info;
    x->wval = e->value[lane];
  } else {
    if (wother)
      chk_cross_report(x, base, G, e, lane, inv, group_linear, slot, w, report, user, thread);
    if (rr <= base) {
      x->r = G;
      x->rinfo = info;
    } else if (rr != G) {
      x->r |= CHK_SEVERAL;
    }
  }
}

/* Writes the cells of summarised block h (see chk_hblock); other cells keep
 * older stamps and read as empty. */
static void chk_hmat(chk_hblock *h) {
  if (h->mat == h->stamp) return;
  for (unsigned k = h->wlo; k < h->whi; k++) {
    chk_cell *c = &h->c[k];
    memset(c, 0, sizeof *c);
    c->stamp = h->stamp;
    c->wli = (uint16_t)(h->wd + (int)k + 1);
    c->wpc = h->wpc;
    c->wval = h->val[k];
  }
  for (unsigned k = h->rlo; k < h->rhi; k++) {
    chk_cell *c = &h->c[k];
    if (c->stamp != h->stamp) {
      memset(c, 0, sizeof *c);
      c->stamp = h->stamp;
    }
    c->rli = (uint16_t)(h->rd + (int)k + 1);
    c->rpc = h->rpc;
  }
  h->mat = h->stamp;
}

/* A coalesced access to words [a, b) of summarised block h, word k by
 * local index d + k: updates the summary and returns 1 when no other
 * invocation touched those words and the result is one summary; else
 * returns 0 having changed nothing. */
static inline int chk_hsum_access(chk_hblock *h, uint32_t pc, int store, unsigned a, unsigned b, int d,
                           const uint32_t *v) {
  int wv = h->wlo < h->whi, rv = h->rlo < h->rhi;
  if (wv && h->wd != d && a < h->whi && h->wlo < b) return 0; /* a conflict */
  if (store) {
    if (rv && h->rd != d && a < h->rhi && h->rlo < b) return 0; /* a conflict */
    if (!wv) {
      h->wpc = pc;
      h->wd = (int16_t)d;
      h->wlo = (uint8_t)a;
      h->whi = (uint8_t)b;
    } else if (a > h->whi || h->wlo > b) {
      return 0; /* a gap */
    } else if (pc == h->wpc && d == h->wd) {
      if (a < h->wlo) h->wlo = (uint8_t)a;
      if (b > h->whi) h->whi = (uint8_t)b;
    } else if (a <= h->wlo && h->whi <= b) {
      h->wpc = pc;
      h->wd = (int16_t)d;
      h->wlo = (uint8_t)a;
      h->whi = (uint8_t)b;
    } else {
      return 0;
    }
    memcpy(h->val + a, v, (b - a) * sizeof *v);
    return 1;
  }
  if (!rv) {
    h->rpc = pc;
    h->rd = (int16_t)d;
    h->rlo = (uint8_t)a;
    h->rhi = (uint8_t)b;
    return 1;
  }
  if (h->rd != d) return 0; /* a second reader, or two first readers */
  if (h->rlo <= a && b <= h->rhi) return 1; /* the first reader is kept */
  if (a > h->rhi || h->rlo > b || pc != h->rpc) return 0;
  if (a < h->rlo) h->rlo = (uint8_t)a;
  if (b > h->rhi) h->rhi = (uint8_t)b;
  return 1;
}

/* Word w's entry as the per-word path would hold it: from ent where its
 * block is materialised this dispatch, else decoded from the summary. */
static const chk_xent *chk_xget(const chk_xshadow *x, uint64_t w, uint32_t base, uint32_t touch,
                                chk_xent *tmp) {
  const chk_xsum *s = &x->sum[w >> CHK_BLK_SHIFT];
  if (s->mat == touch) return &x->ent[w];
  unsigned k = (unsigned)(w & (CHK_BLK - 1));
  memset(tmp, 0, sizeof *tmp);
  if (s->w > base && k >= s->wlo && k < s->whi) {
    tmp->w = s->w;
    tmp->winfo = (s->wpc << 11) | (uint32_t)(s->wd + (int)k);
    tmp->wval = x->val[w];
  }
  if ((s->r & ~CHK_SEVERAL) > base && k >= s->rlo && k < s->rhi) {
    tmp->r = s->r;
    tmp->rinfo = (s->rpc << 11) | (uint32_t)(s->rd + (int)k);
  }
  return tmp;
}

/* Writes block b's per-word entries from its summary; from now on this
 * dispatch, the block's accesses use them. */
static void chk_xmat(chk_xshadow *x, uint64_t b, uint32_t base, uint32_t touch) {
  chk_xsum *s = &x->sum[b];
  if (s->mat == touch) return;
  /* Only words a part covers need writing: every other entry of the block
   * was last written in an earlier dispatch (this one had the block
   * summarised), so it already reads as empty. This keeps a scattered
   * access from paying for 64 words. */
  uint64_t w0 = b << CHK_BLK_SHIFT;
  unsigned lo = CHK_BLK, hi = 0;
  if (s->w > base) {
    lo = s->wlo;
    hi = s->whi;
  }
  if ((s->r & ~CHK_SEVERAL) > base) {
    if (s->rlo < lo) lo = s->rlo;
    if (s->rhi > hi) hi = s->rhi;
  }
  for (unsigned k = lo; k < hi; k++) {
    chk_xent e;
    x->ent[w0 + k] = *chk_xget(x, w0 + k, base, touch, &e);
  }
  s->mat = touch;
}

/* A coalesced access to words [a, b) of summarised block s, word k by local
 * index d + k, with no conflicting access in the summary: updates it and
 * returns 1. Returns 0, changing nothing, when the access conflicts (the
 * per-word path then reports it) or its result is not one summary. */
static inline int chk_xsum_access(chk_xsum *s, uint32_t *val, uint32_t base, uint32_t G, uint32_t pc,
                           int store, unsigned a, unsigned b, int d, const uint32_t *v) {
  uint32_t rr = s->r & ~CHK_SEVERAL;
  int wv = s->w > base, rv = rr > base;
  if (store) {
    if (wv && s->w != G) return 0; /* a conflict, or two writers in one block */
    if (rv && (rr != G || (s->r & CHK_SEVERAL)) && a < s->rhi && s->rlo < b) return 0;
    if (!wv) {
      s->w = G;
      s->wpc = pc;
      s->wd = (int16_t)d;
      s->wlo = (uint8_t)a;
      s->whi = (uint8_t)b;
    } else {
      if (a > s->whi || s->wlo > b) return 0; /* a gap */
      if (pc == s->wpc && d == s->wd) {
        if (a < s->wlo) s->wlo = (uint8_t)a;
        if (b > s->whi) s->whi = (uint8_t)b;
      } else if (a <= s->wlo && s->whi <= b) {
        s->wpc = pc;
        s->wd = (int16_t)d;
        s->wlo = (uint8_t)a;
        s->whi = (uint8_t)b;
      } else {
        return 0;
      }
    }
    memcpy(val + a, v, (b - a) * sizeof *val);
    return 1;
  }
  if (wv && s->w != G && a < s->whi && s->wlo < b) return 0; /* a conflict */
  if (!rv) {
    s->r = G;
    s->rpc = pc;
    s->rd = (int16_t)d;
    s->rlo = (uint8_t)a;
    s->rhi = (uint8_t)b;
    return 1;
  }
  if (s->r != G) return 0; /* another reader: the several-readers bit per word */
  if (s->rlo <= a && b <= s->rhi) return 1; /* a first reader is kept */
  if (a > s->rhi || s->rlo > b || pc != s->rpc || d != s->rd) return 0;
  if (a < s->rlo) s->rlo = (uint8_t)a;
  if (b > s->rhi) s->rhi = (uint8_t)b;
  return 1;
}

/* What one access to a storage slot works on: the thread's tables, the
 * slot's cross-workgroup shadow (NULL when not kept) and the workgroup's
 * biased number. */
typedef struct chk_at {
  chk_rthread *t;
  chk_xshadow *xs;
  uint32_t G, base, touch;
} chk_at;

/* 0 when the slot's accesses cannot race (not a writable binding) or have
 * no shadow; else fills *at. */
static inline int chk_at_slot(chk_race *r, unsigned thread, uint32_t slot,
                              uint64_t group_linear, chk_at *at) {
  /* nsh: every thread's xs has the slot (chk_race_begin) */
  if (thread >= r->nthreads || slot >= r->nsh || !r->rw[slot]) return 0;
  chk_rthread *t = &r->th[thread];
  at->t = t;
  at->xs = group_linear < r->glimit && t->xs[slot].ent ? &t->xs[slot] : NULL;
  at->G = (uint32_t)(r->base + group_linear + 1);
  at->base = r->base;
  at->touch = r->touch;
  return 1;
}

/* n lanes from l0 on, at words w0 .. w0 + n - 1 of the slot (local index
 * of lane 0: sw), through the block summaries of both layers; value: the
 * words stored, from lane l0's (NULL for a load). Sets in *fastc and
 * *fastm the lanes whose within-workgroup and cross-workgroup access is
 * then done; the others, and every conflict, are the per-word path's. */
static inline __attribute__((always_inline)) void chk_race_run(const chk_at *at, uint32_t slot, uint32_t pc, int store,
                                unsigned sw, unsigned l0, uint64_t w0, unsigned n,
                                const uint32_t *value, uint64_t *fastc, uint64_t *fastm) {
  const uint64_t slotkey = (uint64_t)slot << 40;
  const unsigned k0 = (unsigned)(w0 & (CHK_BLK - 1));
  if (k0 + n <= CHK_BLK) {
    /* the usual case, every word in one block (an aligned subgroup): one
     * record per layer, no loop */
    const uint64_t lanes = (n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1) << l0;
    const int d = (int)(sw + l0) - (int)k0;
    chk_hblock *h = chk_hget(at->t, slotkey | (w0 >> CHK_BLK_SHIFT));
    if (!h || (h->mat != h->stamp && chk_hsum_access(h, pc, store, k0, k0 + n, d, value)))
      *fastc |= lanes;
    chk_xshadow *xs = at->xs;
    if (!xs || w0 >= xs->words || xs->words - w0 < n) return;
    const uint64_t b = w0 >> CHK_BLK_SHIFT;
    xs->touch[w0 >> CHK_XBLK_SHIFT] = at->touch;
    if (xs->sum[b].mat != at->touch &&
        chk_xsum_access(&xs->sum[b], xs->val + (b << CHK_BLK_SHIFT), at->base, at->G, pc, store,
                        k0, k0 + n, d, value))
      *fastm |= lanes;
    return;
  }
  for (unsigned i = 0; i < n;) {
    uint64_t w = w0 + i;
    unsigned k = (unsigned)(w & (CHK_BLK - 1)), cnt = (unsigned)CHK_BLK - k;
    if (cnt > n - i) cnt = n - i;
    uint64_t lanes = (cnt >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << cnt) - 1) << (l0 + i);
    chk_hblock *h = chk_hget(at->t, slotkey | (w >> CHK_BLK_SHIFT));
    /* no block: the table is full and these words are not tracked */
    if (!h || (h->mat != h->stamp && chk_hsum_access(h, pc, store, k, k + cnt,
                                                     (int)(sw + l0 + i) - (int)k,
                                                     store ? value + i : NULL)))
      *fastc |= lanes;
    i += cnt;
  }
  chk_xshadow *xs = at->xs;
  if (!xs || w0 >= xs->words || xs->words - w0 < n) return;
  for (unsigned i = 0; i < n;) {
    uint64_t w = w0 + i, b = w >> CHK_BLK_SHIFT;
    unsigned k = (unsigned)(w & (CHK_BLK - 1)), cnt = (unsigned)CHK_BLK - k;
    if (cnt > n - i) cnt = n - i;
    chk_xsum *sm = &xs->sum[b];
    xs->touch[w >> CHK_XBLK_SHIFT] = at->touch;
    if (sm->mat != at->touch &&
        chk_xsum_access(sm, xs->val + (b << CHK_BLK_SHIFT), at->base, at->G, pc, store, k,
                        k + cnt, (int)(sw + l0 + i) - (int)k, store ? value + i : NULL))
      *fastm |= (cnt >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << cnt) - 1) << (l0 + i);
    i += cnt;
  }
}

/* The lanes of inbounds that chk_race_run did not finish (fastc, fastm),
 * word by word against the cells and entries. */
static void chk_race_words(const chk_at *at, unsigned thread, const vm_mem_event *e,
                           uint64_t group_linear, uint64_t inbounds, uint64_t fastc,
                           uint64_t fastm, chk_report_fn report, void *user) {
  chk_rthread *t = at->t;
  chk_xshadow *xs = at->xs;
  const vm_where *wh = e->where;
  uint64_t group_base = group_linear * 2048;
  chk_inv sub_base = group_base + (uint64_t)wh->subgroup * wh->width;
  uint64_t lastb = UINT64_MAX, lastx = UINT64_MAX, lastm = UINT64_MAX;
  chk_hblock *blk = NULL;
  const uint64_t slotkey = (uint64_t)e->slot << 40;
  for (uint64_t m = inbounds; m; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctzll(m);
    uint64_t w = e->addr[l] / 4;
    /* neighbouring lanes mostly share a block: one lookup per block */
    if ((w >> CHK_BLK_SHIFT) != lastb) {
      lastb = w >> CHK_BLK_SHIFT;
      blk = chk_hget(t, slotkey | lastb);
    }
    if (blk && !((fastc >> l) & 1)) {
      chk_hmat(blk);
      chk_cell_access(&blk->c[w & (CHK_BLK - 1)], t->st_stamp, e, l, sub_base + l, group_base,
                      e->slot, e->addr[l], report, user, thread);
    }
    if (xs && w < xs->words && !((fastm >> l) & 1)) {
      if ((w >> CHK_BLK_SHIFT) != lastm) {
        lastm = w >> CHK_BLK_SHIFT;
        chk_xmat(xs, lastm, at->base, at->touch);
      }
      if ((w >> CHK_XBLK_SHIFT) != lastx) {
        lastx = w >> CHK_XBLK_SHIFT;
        xs->touch[lastx] = at->touch;
      }
      chk_cross_access(&xs->ent[w], at->base, at->G, e, l, sub_base + l, group_linear, e->slot,
                       w, report, user, thread);
    }
  }
}

/* Workgroup memory: chk_cell_access's work with the event's fields read
 * once (the cells' stores would otherwise make the compiler read them
 * again for every lane) and a store's conflict test without branches,
 * since it almost never fires. */
static inline __attribute__((always_inline)) void
chk_wg_lanes(chk_rthread *t, const vm_mem_event *e, uint64_t lanes, chk_inv sub_base,
             uint64_t group_base, uint32_t slot, chk_report_fn report, void *user,
             unsigned thread, const int store) {
  chk_cell *const wg = t->wg;
  const uint64_t nwg = t->nwg, *const addr = e->addr;
  const uint32_t stamp = t->wg_stamp, pc = e->pc, *const val = e->value;
  const uint16_t me0 = (uint16_t)(sub_base - group_base + 1);
  for (uint64_t m = lanes; m; m &= m - 1) {
    const unsigned l = (unsigned)__builtin_ctzll(m);
    const uint64_t w = addr[l] / 4;
    if (w >= nwg) continue;
    chk_cell *c = &wg[w];
    const uint16_t me = (uint16_t)(me0 + l);
    if (store) {
      const uint32_t v = val[l];
      if (c->stamp != stamp) {
        *c = (chk_cell){.stamp = stamp, .wpc = pc, .wval = v, .wli = me};
        continue;
      }
      if (((c->wli != 0) & (c->wli != me)) | ((c->rli != 0) & (c->rli != me)) |
          ((c->rli2 != 0) & (c->rli2 != me)))
        chk_cell_report(c, e, me, v, sub_base + l, group_base, slot, addr[l], report, user,
                        thread);
      c->wli = me;
      c->wpc = pc;
      c->wval = v;
      continue;
    }
    if (c->stamp != stamp) {
      *c = (chk_cell){.stamp = stamp, .rpc = pc, .rli = me};
      continue;
    }
    if (c->wli && c->wli != me)
      chk_cell_report(c, e, me, 0, sub_base + l, group_base, slot, addr[l], report, user, thread);
    if (!c->rli) {
      c->rli = me;
      c->rpc = pc;
    } else if (c->rli != me && !c->rli2) {
      c->rli2 = me;
      c->rpc2 = pc;
    }
  }
}

/* chk_wg_lanes with the kind of access fixed: a loop for each */
static void chk_wg_access(chk_rthread *t, const vm_mem_event *e, uint64_t lanes, chk_inv sub_base,
                          uint64_t group_base, uint32_t slot, chk_report_fn report, void *user,
                          unsigned thread) {
  if (e->access == VM_STORE)
    chk_wg_lanes(t, e, lanes, sub_base, group_base, slot, report, user, thread, 1);
  else
    chk_wg_lanes(t, e, lanes, sub_base, group_base, slot, report, user, thread, 0);
}

void chk_race_access(chk_race *r, unsigned thread, const vm_mem_event *e, uint64_t group_linear,
                     uint64_t inbounds, int consecutive, chk_report_fn report, void *user) {
  if (thread >= r->nthreads || e->access == VM_ATOMIC) return;
  if (e->space == VM_SPACE_WORKGROUP) {
    chk_rthread *t = &r->th[thread];
    const vm_where *wh = e->where;
    uint64_t group_base = group_linear * 2048;
    chk_inv sub_base = group_base + (uint64_t)wh->subgroup * wh->width;
    const ir_program *p = r->prog;
    size_t need = p ? (size_t)p->wg_mem_size / 4 * r->scale : 0;
    if (t->nwg < need) {
      chk_cell *n = calloc(need, sizeof *n);
      if (!n) return;
      free(t->wg);
      t->wg = n;
      t->nwg = need;
    }
    uint32_t slot = p && e->pc < p->ncode ? p->code[e->pc].flags : 0;
    chk_wg_access(t, e, inbounds, sub_base, group_base, slot, report, user, thread);
    return;
  }
  chk_at at;
  if (e->space != VM_SPACE_BUFFER || !chk_at_slot(r, thread, e->slot, group_linear, &at)) return;
  /* a run of consecutive lanes on consecutive words goes through the block
   * summaries first */
  uint64_t fastm = 0, fastc = 0;
  if (inbounds) {
    unsigned l0 = (unsigned)__builtin_ctzll(inbounds);
    uint64_t run = inbounds >> l0;
    unsigned n = (unsigned)bitfn_popcount64(run);
    uint64_t w0 = e->addr[l0] / 4;
    int ok = (run & (run + 1)) == 0 && w0 + n > w0;
    if (ok && !consecutive) {
      /* stricter than consecutive words (no byte offset may differ), but
       * branch-free so it vectorizes; what fails takes the per-word path */
      const uint64_t a0 = e->addr[l0];
      int bad = 0;
      for (unsigned i = 1; i < n; i++) bad |= e->addr[l0 + i] != a0 + 4 * (uint64_t)i;
      ok = !bad;
    }
    if (ok)
      chk_race_run(&at, e->slot, e->pc, e->access == VM_STORE,
                   e->where->subgroup * e->where->width, l0, w0, n,
                   e->access == VM_STORE ? e->value + l0 : NULL, &fastc, &fastm);
  }
  if ((fastc & (at.xs ? fastm : ~(uint64_t)0)) == inbounds) return; /* all done above */
  chk_race_words(&at, thread, e, group_linear, inbounds, fastc, fastm, report, user);
}

void chk_race_seq(chk_race *r, unsigned thread, const vm_where *w, uint32_t pc, vm_access access,
                  uint32_t slot, uint64_t addr, const uint32_t *value, uint64_t size,
                  uint64_t group_linear, chk_report_fn report, void *user) {
  chk_at at;
  if (access == VM_ATOMIC || !chk_at_slot(r, thread, slot, group_linear, &at)) return;
  const unsigned W = w->width;
  const uint64_t all = W >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << W) - 1;
  uint64_t fastm = 0, fastc = 0;
  const int store = access == VM_STORE;
  chk_race_run(&at, slot, pc, store, w->subgroup * W, 0, addr / 4, W, store ? value : NULL,
               &fastc, &fastm);
  if ((fastc & (at.xs ? fastm : ~(uint64_t)0)) == all) return;
  /* a conflict, or a block the summaries cannot hold: the lanes left go
   * word by word, as the full event would */
  uint64_t a[64];
  const vm_mem_event e = chk_seq_event(w, pc, access, slot, addr, value, size, a);
  chk_race_words(&at, thread, &e, group_linear, all, fastc, fastm, report, user);
}

/* Entries of the same word from two threads (so from different workgroups):
 * a writer in either meets every access of the other. */
static void chk_merge_pair(const chk_xent *a, const chk_xent *b, uint32_t base, uint32_t slot,
                           uint64_t w, chk_report_fn report, void *user) {
  uint32_t ar = a->r & ~CHK_SEVERAL, br = b->r & ~CHK_SEVERAL;
  int aw = a->w > base, bw = b->w > base, arv = ar > base, brv = br > base;
  if (!(aw && (bw || brv)) && !(bw && arv)) return;
  chk_race_hit h;
  memset(&h, 0, sizeof h);
  h.space = VM_SPACE_BUFFER;
  h.slot = slot;
  h.offset = w * 4;
  h.across_groups = 1;
  if (bw) {
    h.pc = b->winfo >> 11;
    h.access = VM_STORE;
    h.inv = (uint64_t)(b->w - base - 1) * 2048 + (b->winfo & 2047);
    if (aw) {
      h.same_value = a->wval == b->wval;
      h.other_pc = a->winfo >> 11;
      h.other_access = VM_STORE;
      h.other_inv = (uint64_t)(a->w - base - 1) * 2048 + (a->winfo & 2047);
      report(user, 0, &h);
    }
    if (arv) {
      h.same_value = 0;
      h.other_pc = a->rinfo >> 11;
      h.other_access = VM_LOAD;
      h.other_inv = (uint64_t)(ar - base - 1) * 2048 + (a->rinfo & 2047);
      report(user, 0, &h);
    }
  }
  if (aw && brv) {
    h.same_value = 0;
    h.pc = a->winfo >> 11;
    h.access = VM_STORE;
    h.inv = (uint64_t)(a->w - base - 1) * 2048 + (a->winfo & 2047);
    h.other_pc = b->rinfo >> 11;
    h.other_access = VM_LOAD;
    h.other_inv = (uint64_t)(br - base - 1) * 2048 + (b->rinfo & 2047);
    report(user, 0, &h);
  }
}

/* Workgroups that ran on different threads meet here: for every block of
 * words touched by two or more threads this dispatch, each pair of
 * threads' entries is compared. Runs on one thread, after the dispatch;
 * reports go to thread 0's records. */
void chk_race_end(chk_race *r, chk_report_fn report, void *user) {
  if (!r->cross || r->nthreads < 2 || !report) {
    r->cross = 0;
    r->glimit = 0;
    return;
  }
  for (uint32_t i = 0; i < r->nsh; i++) {
    uint64_t words = r->th[0].xs[i].words;
    if (!words) continue;
    uint64_t nblk = (words >> CHK_XBLK_SHIFT) + 1;
    for (uint64_t b = 0; b < nblk; b++) {
      unsigned users = 0;
      for (unsigned t = 0; t < r->nthreads; t++)
        users += r->th[t].xs[i].ent && r->th[t].xs[i].touch[b] == r->touch;
      if (users < 2) continue;
      uint64_t w0 = b << CHK_XBLK_SHIFT, w1 = w0 + ((uint64_t)1 << CHK_XBLK_SHIFT);
      if (w1 > words) w1 = words;
      for (unsigned ta = 0; ta < r->nthreads; ta++) {
        const chk_xshadow *xa = &r->th[ta].xs[i];
        if (!xa->ent || xa->touch[b] != r->touch) continue;
        for (unsigned tb = ta + 1; tb < r->nthreads; tb++) {
          const chk_xshadow *xb = &r->th[tb].xs[i];
          if (!xb->ent || xb->touch[b] != r->touch) continue;
          for (uint64_t w = w0; w < w1; w++) {
            chk_xent ea, eb;
            chk_merge_pair(chk_xget(xa, w, r->base, r->touch, &ea),
                           chk_xget(xb, w, r->base, r->touch, &eb), r->base, i, w, report, user);
          }
        }
      }
    }
  }
  r->cross = 0;
  r->glimit = 0;
}
