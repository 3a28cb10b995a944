/*
 * ir.c — utilities on the bytecode that lowering (lower.c) produces and the
 * VM (vm/) runs: opcode names and operand forms from op.def, freeing a
 * program, and the human-readable listing behind `lockstep disasm`.
 */
#include "ir.h"
#include "../util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const ir_names[IR_OPCODE_COUNT] = {
#define DEF(name, form, doc) #name,
#include "op.def"
#undef DEF
};

static const char *const ir_forms[IR_OPCODE_COUNT] = {
#define DEF(name, form, doc) form,
#include "op.def"
#undef DEF
};

static const char *const ir_atom_names[IR_ATOM_COUNT] = {
#define X_(n) #n,
    IR_ATOMS(X_)
#undef X_
};
static const char *const ir_sg_names[IR_SG_COUNT] = {
#define X_(n) #n,
    IR_SGS(X_)
#undef X_
};
static const char *const ir_sh_names[IR_SH_COUNT] = {
#define X_(n) #n,
    IR_SHS(X_)
#undef X_
};
static const char *const ir_vt_names[IR_VT_COUNT] = {
#define X_(n) #n,
    IR_VTS(X_)
#undef X_
};

/* The name of a subgroup opcode's sub-operation (operand d), or NULL. */
static const char *ir_sub_name(const ir_insn *in) {
  switch (in->op) {
  case IR_SRED: case IR_SCANI: case IR_SCANX:
    return in->d < IR_SG_COUNT ? ir_sg_names[in->d] : "?";
  case IR_SHUF: return in->d < IR_SH_COUNT ? ir_sh_names[in->d] : "?";
  case IR_VOTE: return in->d < IR_VT_COUNT ? ir_vt_names[in->d] : "?";
  default: return NULL;
  }
}

const char *ir_op_name(unsigned op) { return op < IR_OPCODE_COUNT ? ir_names[op] : "?"; }

const char *ir_op_form(unsigned op) { return op < IR_OPCODE_COUNT ? ir_forms[op] : "----"; }

void ir_program_free(ir_program *p) {
  if (!p) return;
  free(p->code);
  free(p->spans);
  free(p->consts);
  if (p->bindings) {
    for (uint32_t i = 0; i < p->nbindings; i++) free((char *)p->bindings[i].name);
  }
  free(p->bindings);
  free(p->samples);
  for (uint32_t i = 0; i < p->nwgvars; i++) free(p->wgvars[i].name);
  free(p->wgvars);
  free(p->entry_point);
  free(p);
}

/* ------------------------------------------------------------ disassembly */

static const char *const ir_builtin_names[IR_BI_COUNT] = {
    [IR_BI_LOCAL_INVOCATION_INDEX] = "local_invocation_index",
    [IR_BI_LOCAL_INVOCATION_ID] = "local_invocation_id",
    [IR_BI_GLOBAL_INVOCATION_ID] = "global_invocation_id",
    [IR_BI_WORKGROUP_ID] = "workgroup_id",
    [IR_BI_NUM_WORKGROUPS] = "num_workgroups",
    [IR_BI_SUBGROUP_INVOCATION_ID] = "subgroup_invocation_id",
    [IR_BI_SUBGROUP_SIZE] = "subgroup_size",
    [IR_BI_SUBGROUP_ID] = "subgroup_id",
    [IR_BI_NUM_SUBGROUPS] = "num_subgroups",
    [IR_BI_GLOBAL_INVOCATION_INDEX] = "global_invocation_index",
    [IR_BI_WORKGROUP_INDEX] = "workgroup_index",
};

/* Operands as op.def's form says; atomics spell out their sub-operation. */
static void ir_operands(char *out, size_t cap, const ir_insn *in) {
  const char *form = ir_op_form(in->op);
  const uint32_t v[4] = {in->a, in->b, in->c, in->d};
  size_t n = 0;
  out[0] = '\0';
  for (int k = 0; k < 4 && n < cap; k++) {
    if (form[k] == '-') continue;
    const char *sep = n ? ", " : "";
    int w;
    if (k == 3 && (in->op == IR_ATOMB || in->op == IR_ATOMW)) {
      unsigned sub = v[3] & 0xffu;
      const char *name = sub < IR_ATOM_COUNT ? ir_atom_names[sub] : "?";
      if (in->op == IR_ATOMB)
        w = snprintf(out + n, cap - n, "%s%s s%u", sep, name, (unsigned)(v[3] >> 8));
      else
        w = snprintf(out + n, cap - n, "%s%s", sep, name);
    } else if (k == 3 && ir_sub_name(in)) {
      w = snprintf(out + n, cap - n, "%s%s", sep, ir_sub_name(in));
    } else {
      switch (form[k]) {
      case 'r': w = snprintf(out + n, cap - n, "%sr%u", sep, (unsigned)v[k]); break;
      case 'm': w = snprintf(out + n, cap - n, "%sm%u", sep, (unsigned)v[k]); break;
      case 'j': w = snprintf(out + n, cap - n, "%s@%u", sep, (unsigned)v[k]); break;
      case 's': w = snprintf(out + n, cap - n, "%ss%u", sep, (unsigned)v[k]); break;
      default: w = snprintf(out + n, cap - n, "%s%u", sep, (unsigned)v[k]); break;
      }
    }
    if (w < 0) break;
    n += (size_t)w;
  }
}

void ir_line_col(const ir_program *p, uint32_t pc, uint32_t *line, uint32_t *col) {
  *line = *col = 0;
  if (!p->source || !p->spans || pc >= p->ncode) return;
  const uint32_t off = p->spans[pc].start;
  if (p->line_starts && p->nlines)
    diag_line_col_in(p->line_starts, p->nlines, p->source_len, off, line, col);
  else
    diag_line_col(p->source, p->source_len, off, line, col);
}

char *ir_disassemble(const ir_program *p) {
  strbuf b = {malloc(1024), 0, 1024, 0};
  if (!b.s) return NULL;
  b.s[0] = '\0';
  if (!p) return b.s;

  strbuf_printf(&b, "; entry %s, workgroup_size(%u, %u, %u), %u regs (%u constants), %u masks\n",
         p->entry_point ? p->entry_point : "?", (unsigned)p->wg_size[0],
         (unsigned)p->wg_size[1], (unsigned)p->wg_size[2], (unsigned)p->nregs,
         (unsigned)p->nconsts, (unsigned)p->nmasks);
  strbuf_printf(&b, "; workgroup memory %u bytes, private memory %u bytes per invocation\n",
         (unsigned)p->wg_mem_size, (unsigned)p->priv_mem_size);
  for (uint32_t i = 0; i < p->nbindings && p->bindings; i++) {
    const ir_binding *bd = &p->bindings[i];
    static const char *const kinds[] = {"?",
                                        "uniform",
                                        "storage",
                                        "read-only storage",
                                        "sampled texture",
                                        "write-only storage texture",
                                        "read-only storage texture",
                                        "read-write storage texture",
                                        "sampler",
                                        "sampler_comparison",
                                        "immediate"};
    strbuf_printf(&b, "; s%u = @group(%u) @binding(%u) %s %s, min size %llu\n", (unsigned)i,
           (unsigned)bd->group, (unsigned)bd->binding,
           (unsigned)bd->kind < sizeof kinds / sizeof kinds[0] ? kinds[bd->kind] : "?",
           bd->name ? bd->name : "?",
           (unsigned long long)bd->min_size);
  }
  for (unsigned i = 0; i < IR_BI_COUNT; i++) {
    uint32_t r = p->builtin_reg[i];
    if (r == IR_NO_REG) continue;
    if (i == IR_BI_LOCAL_INVOCATION_INDEX || i >= IR_BI_SUBGROUP_INVOCATION_ID)
      strbuf_printf(&b, "; r%u = %s\n", (unsigned)r, ir_builtin_names[i]);
    else
      strbuf_printf(&b, "; r%u..r%u = %s\n", (unsigned)r, (unsigned)r + 2, ir_builtin_names[i]);
  }
  for (uint32_t i = 0; i < p->nconsts && p->consts; i++) {
    uint32_t c = p->consts[i];
    float f;
    memcpy(&f, &c, sizeof f);
    strbuf_printf(&b, "; r%u = 0x%08x (%d, %g)\n", (unsigned)i, (unsigned)c, (int)(int32_t)c, (double)f);
  }

  for (uint32_t pc = 0; pc < p->ncode && p->code; pc++) {
    const ir_insn *in = &p->code[pc];
    char ops[128];
    ir_operands(ops, sizeof ops, in);
    strbuf_printf(&b, "%4u  %-7s %-20s", (unsigned)pc, ir_op_name(in->op), ops);
    if (p->source && p->spans && p->spans[pc].start <= p->source_len) {
      uint32_t line, col;
      ir_line_col(p, pc, &line, &col);
      strbuf_printf(&b, " ; line %u", (unsigned)line);
    }
    /* Trim the padding of lines without a comment. */
    while (b.n && b.s[b.n - 1] == ' ') b.s[--b.n] = '\0';
    strbuf_printf(&b, "\n");
  }
  if (b.failed) {
    free(b.s);
    return NULL;
  }
  return b.s;
}
