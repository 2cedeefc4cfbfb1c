/* Compiling an optimized module for the CPU: programs of steps, one LLVM
 * module of kernels, the JIT. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "codegen/codegen.h"
#include "cpu/cache.h"
#include "cpu/cpu_internal.h"
#include "cpu/elfload.h"
#include "cpu/fgemm.h"
#include "ir/rewrite.h"
#include "passes/fusion_util.h"

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A kernel step emitted, by the hash of what its kernel is made from
 * (Builder.seen). */
typedef struct SeenKernel {
  const Step *st; /* NULL: an empty slot */
  uint64_t hash;
} SeenKernel;

/* Plans the programs and, with cg, emits their kernels; without cg (a
 * program loaded from the disk cache) it only plans, and has_symbol says
 * which comparators the loaded code has. */
typedef struct Builder {
  CpuExecutable *x;
  Codegen *cg;
  bool (*has_symbol)(void *arg, const char *name);
  void *arg;
  /* kernels emitted so far (open addressing, a power of two of slots, at
   * most half full); share: identical kernels become aliases */
  SeenKernel *seen;
  size_t nseen, capseen;
  bool share;
  PtrIndex prog_of; /* computation -> its index in x->progs (a scan of the
                     * programs per call made 16000 branch computations
                     * cost 0.48 s) */
} Builder;

static void program_free(Program *p) {
  if (!p) return;
  for (int i = 0; i < p->nsteps; i++) {
    cxla_free(p->steps[i].kname);
    cxla_free(p->steps[i].sub);
    rval_unref(p->steps[i].constant);
    if (p->steps[i].plan_free) p->steps[i].plan_free(p->steps[i].plan);
  }
  cxla_free(p->steps);
  cxla_free(p->last_use);
  cxla_free(p);
}

void cpu_executable_destroy(CpuExecutable *x) {
  if (!x) return;
  for (int i = 0; i < x->nprogs; i++) program_free(x->progs[i]);
  cxla_free(x->progs);
  cxla_free(x->object);
  cxla_free(x->refs);
  if (x->spare) {
    rv_cache_clear(x->spare);
    cxla_free(x->spare);
  }
  jit_destroy(x->jit);
  for (int i = 0; i < x->nimages; i++) elf_unload(x->images[i]);
  cxla_free(x->images);
  cxla_free(x);
}

const CpuCompileStats *cpu_executable_stats(const CpuExecutable *x) { return &x->stats; }

static bool same_array(const Shape *a, const Shape *b) {
  return type_is_array(a->type) && a->type != T_TUPLE && a->type == b->type &&
         shape_elems(a) == shape_elems(b);
}

static cxla_status build_program(Builder *bd, const Computation *c, Program **out);

static cxla_status sub_programs(Builder *bd, Step *st, int n, Computation *const *comps) {
  st->sub = cxla_calloc((size_t)(n ? n : 1), sizeof *st->sub);
  if (!st->sub) return cxla_oom();
  st->nsub = n;
  for (int k = 0; k < n; k++) TRY(build_program(bd, comps[k], &st->sub[k]));
  return NULL;
}

/* Dots and convolutions in a fusion whose operands are the fusion's
 * parameters and whose shapes BLAS takes: computed by BLAS (convolutions
 * through im2col) before the kernel, which reads them. At most 4, the
 * first in order; their plans in plans (NULL: not wanted). */
static int pre_dots(const Computation *c, const Instr **out, GemmPlan *plans) {
  int n = 0;
  for (int i = 0; i < c->ninstrs && n < 4; i++) {
    const Instr *d = c->instrs[i];
    if ((d->op != OP_DOT && d->op != OP_CONVOLUTION) || d->operands[0]->op != OP_PARAMETER ||
        d->operands[1]->op != OP_PARAMETER)
      continue;
    GemmPlan p = {0};
    if (d->op == OP_CONVOLUTION ? !conv_gemm_plan_ok(d) : (!gemm_plan(d, &p) || p.m * p.n * p.k * p.batch < 4096))
      continue;
    if (plans) plans[n] = p;
    out[n++] = d;
  }
  return n;
}

static void plan_pre_dots(CpuExecutable *x, Step *st, const Instr *in) {
  st->npre = 0;
  if (in->op != OP_FUSION) return;
  st->npre = pre_dots(in->called[0], st->pre, st->pre_plan);
  for (int i = 0; i < st->npre; i++)
    if (st->pre[i]->op == OP_CONVOLUTION) conv_gemm_count(st->pre[i], &x->stats);
}

/* Whether a bf16 -> f32 convert need not run: every user is a dot that
 * the GEMMs run (ST_BLAS_DOT), or a fusion whose parameters it is are
 * read only by the fusion's dots computed before its kernel (pre_dots);
 * those dots then take the bf16 value (gemm_run multiplies bf16 operands
 * accumulating in f32: the same products and sums). Its step passes the
 * bf16 value on (ST_ALIAS; plan_inplace keeps it from being reused). */
static bool convert_skippable(const Computation *c, const Instr *cv, const Users *u) {
  if (cv->op != OP_CONVERT || cv->shape->type != T_F32 || cv->operands[0]->shape->type != T_BF16 ||
      cv == c->root || u->count[cv->id] == 0)
    return false;
  for (int k = 0; k < u->count[cv->id]; k++) {
    const Instr *us = u->list[cv->id][k];
    GemmPlan gp;
    if (us->op == OP_DOT) {
      if (!gemm_plan(us, &gp)) return false;
      continue;
    }
    if (us->op != OP_FUSION || us->ncalled != 1) return false;
    const Computation *f = us->called[0];
    const Instr *pre[4];
    int npre = pre_dots(f, pre, NULL);
    for (int j = 0; j < us->noperands; j++) {
      if (us->operands[j] != cv) continue;
      /* parameter j: its uses by the pre dots against all of its uses */
      int uses = 0, pre_uses = 0;
      for (int i = 0; i < f->ninstrs; i++) {
        const Instr *fi = f->instrs[i];
        bool is_pre = false;
        for (int q = 0; q < npre; q++) is_pre |= pre[q] == fi;
        for (int o = 0; o < fi->noperands; o++)
          if (fi->operands[o]->op == OP_PARAMETER && fi->operands[o]->param_number == j) {
            uses++;
            pre_uses += is_pre && fi->op == OP_DOT;
          }
        if (fi == f->root && fi->op == OP_PARAMETER && fi->param_number == j) return false;
      }
      if (uses != pre_uses) return false;
    }
  }
  return true;
}

/* A fusion that only rounds a product of two bf16 values to bf16,
 * convert(dot(p0, p1)) (float normalization's form of a bf16 dot) whose
 * operands are skipped converts (convert_skippable: bf16 values at run
 * time): one GEMM step with a bf16 result (gemm_run_into: the f32 sums
 * rounded once, to nearest even, as the convert rounds them) rather than
 * a GEMM into a temporary and a kernel that rounds it. Its plan in plan;
 * swap when the dot's lhs is parameter 1. */
static bool rounded_bf16_dot(const Program *p, const Instr *in, GemmPlan *plan, bool *swap) {
  if (in->op != OP_FUSION || in->ncalled != 1 || in->noperands != 2 || in->shape->type != T_BF16) return false;
  const Computation *f = in->called[0];
  const Instr *r = f->root;
  if (f->ninstrs != 4 || !r || r->op != OP_CONVERT || r->noperands != 1) return false;
  const Instr *d = r->operands[0];
  if (d->op != OP_DOT || d->shape->type != T_F32 || d->operands[0]->op != OP_PARAMETER ||
      d->operands[1]->op != OP_PARAMETER || d->operands[0] == d->operands[1])
    return false;
  for (int k = 0; k < 2; k++) {
    const Instr *o = in->operands[k];
    if (o->op != OP_CONVERT || o->operands[0]->shape->type != T_BF16 || p->steps[o->id].kind != ST_ALIAS)
      return false;
  }
  if (!gemm_plan(d, plan)) return false;
  *swap = d->operands[0]->param_number == 1;
  return true;
}

/* ---- what a kernel costs, to decide how finely to split it ---- */

/* Elements of a shape (array leaves of a tuple summed). */
static double elems_of(const Shape *s) {
  if (s->type != T_TUPLE) return type_is_array(s->type) ? (double)shape_elems(s) : 0;
  double n = 0;
  for (int i = 0; i < s->ntuple; i++) n += elems_of(s->tuple[i]);
  return n;
}

/* Element operations of one instruction: its output elements, weighted
 * for elementwise ops that cost tens of instructions per element; ops
 * that read many elements per output element (reductions, windows, dots,
 * convolutions) count what they read. Called computations (a reducer's
 * few scalar ops) multiply the per-element work. */
static double instr_cost(const Instr *in) {
  double out = elems_of(in->shape);
  switch (in->op) {
  case OP_PARAMETER: case OP_CONSTANT: case OP_TUPLE: case OP_GET_TUPLE_ELEMENT: case OP_BITCAST:
  case OP_RESHAPE:
    return 0;
  case OP_REDUCE: case OP_REDUCE_WINDOW: case OP_SELECT_AND_SCATTER: case OP_SCATTER: case OP_MAP: {
    double read = 0, body = 1;
    for (int k = 0; k < in->noperands; k++) read += elems_of(in->operands[k]->shape);
    if (in->ncalled >= 1 && in->called[0]) body = in->called[0]->ninstrs;
    if (in->op == OP_REDUCE_WINDOW) {
      double w = 1;
      for (int d = 0; d < in->nwindow; d++) w *= (double)in->window[d].size;
      read = out * w;
    }
    return (read > out ? read : out) * body;
  }
  case OP_DOT: {
    double k = 1;
    const Shape *a = in->operands[0]->shape;
    for (int i = 0; i < in->dot.lhs_contract.n; i++) k *= (double)a->dims[in->dot.lhs_contract.v[i]];
    return out * k;
  }
  case OP_CONVOLUTION: {
    /* per output element: the kernel's elements over its output features */
    const Shape *w = in->operands[1]->shape;
    double of = in->conv.k_out >= 0 && in->conv.k_out < w->rank ? (double)w->dims[in->conv.k_out] : 1;
    return out * (of > 0 ? elems_of(w) / of : 1);
  }
  case OP_SIN: case OP_COS: case OP_TAN: return 8 * out;
  default: return fusion_is_expensive(in) && (op_info(in->op)->flags & OPF_EW) ? 8 * out : out;
  }
}

/* Rows of `in`'s kernel worth giving a thread of their own: enough for
 * about `grain` element operations (cpu.h: CPU_KERNEL_GRAIN). */
static int64_t kernel_min_slice(const Instr *in, int64_t extent, int64_t grain) {
  double work = 0;
  if (in->op == OP_FUSION && in->ncalled == 1) {
    const Computation *c = in->called[0];
    for (int i = 0; i < c->ninstrs; i++) work += instr_cost(c->instrs[i]);
  } else {
    /* on its own, a bitcast or reshape that is no view moves every
     * element (instr_cost counts them free inside fusions) */
    work = instr_cost(in);
    if (work < elems_of(in->shape)) work = elems_of(in->shape);
  }
  if (extent < 1) return 1;
  double g = (double)(grain > 0 ? grain : CPU_KERNEL_GRAIN);
  double per_row = work / (double)extent;
  if (per_row >= g) return 1;
  double rows = g / (per_row > 1 ? per_row : 1);
  return rows >= (double)extent ? extent : (int64_t)rows + 1;
}

/* Whether row kernel `in` of p is to run over operand 0's buffer
 * (codegen_emit_kernel_alias): this is its last use, it is no other
 * operand, it is not a skipped convert (a value of another type), and it
 * can be a buffer of the execution's own (not an entry argument or a
 * constant, which are borrowed). The executor gives the kernel that
 * buffer when it holds its only reference (plan_inplace, reusable), and
 * a copy of it otherwise. */
static bool row_alias_possible(const Program *p, const Instr *in) {
  if (in->noperands < 1 || !codegen_row_inplace(in)) return false;
  const Instr *o = in->operands[0];
  for (int j = 1; j < in->noperands; j++)
    if (in->operands[j] == o) return false;
  bool entry_param = o->op == OP_PARAMETER && p->comp == p->comp->module->entry;
  return p->last_use[o->id] == in->id && !entry_param && o->op != OP_CONSTANT &&
         p->steps[o->id].kind != ST_ALIAS;
}

/* ---- identical kernels ----
 * A kernel is made from its step's instruction alone: the opcode, shapes
 * with layouts and attributes of the instruction and of the computation
 * it fuses, its operands' shapes, which operands are the same value (the
 * emitter binds a repeated operand once: cg.c bind), the fused dots
 * computed first (by position) and whether it runs in place (but for
 * large outputs: codegen_kernel_context_free). A kernel step equal to an
 * earlier one in all of these is not emitted again: its name becomes an
 * alias of the earlier kernel, which computes the same on the buffers it
 * is given (transformer layers, a gradient's repeated pieces, unrolled
 * loops). Steps are hashed; each is compared with the earlier ones of its
 * hash only (ir.h's structural comparisons, linear in the computations'
 * sizes). codegen_share_kernels then merges what is identical only in
 * LLVM IR. */

static uint64_t kernel_hash(const Step *st) {
  const Instr *in = st->in;
  uint64_t h = ir_hash_mix(instr_attrs_hash(in), (uint64_t)st->npre * 2 + st->row_alias);
  for (int k = 0; k < in->noperands; k++) {
    const Shape *sh = in->operands[k]->shape;
    h = ir_hash_mix(ir_hash_mix(h, (uint64_t)sh->type), (uint64_t)sh->rank);
    for (int d = 0; d < sh->rank; d++) h = ir_hash_mix(h, (uint64_t)sh->dims[d]);
  }
  for (int i = 0; i < st->npre; i++) h = ir_hash_mix(h, (uint64_t)st->pre[i]->id);
  return h;
}

/* The first operand of in that is the same value as operand k. */
static int first_same_operand(const Instr *in, int k) {
  int j = 0;
  while (in->operands[j] != in->operands[k]) j++;
  return j;
}

static bool kernels_same(const Step *a, const Step *b) {
  const Instr *x = a->in, *y = b->in;
  if (a->npre != b->npre || a->row_alias != b->row_alias || !instr_attrs_identical(x, y) ||
      !instr_called_identical(x, y))
    return false;
  for (int k = 0; k < x->noperands; k++)
    if (!shape_equal(x->operands[k]->shape, y->operands[k]->shape, true) ||
        first_same_operand(x, k) != first_same_operand(y, k))
      return false;
  for (int i = 0; i < a->npre; i++)
    if (a->pre[i]->id != b->pre[i]->id || a->pre[i]->parent != x->called[0] || b->pre[i]->parent != y->called[0])
      return false;
  return true;
}

/* The earlier kernel step identical to st, or NULL after recording st as
 * emitted. */
static cxla_status seen_kernel(Builder *bd, const Step *st, const Step **same) {
  *same = NULL;
  if (2 * (bd->nseen + 1) > bd->capseen) {
    size_t cap = bd->capseen ? 2 * bd->capseen : 256;
    SeenKernel *v = cxla_calloc(cap, sizeof *v);
    if (!v) return cxla_oom();
    for (size_t i = 0; i < bd->capseen; i++) {
      if (!bd->seen[i].st) continue;
      size_t h = (size_t)bd->seen[i].hash & (cap - 1);
      while (v[h].st) h = (h + 1) & (cap - 1);
      v[h] = bd->seen[i];
    }
    cxla_free(bd->seen);
    bd->seen = v;
    bd->capseen = cap;
  }
  uint64_t hash = kernel_hash(st);
  size_t h = (size_t)hash & (bd->capseen - 1);
  for (; bd->seen[h].st; h = (h + 1) & (bd->capseen - 1))
    if (bd->seen[h].hash == hash && kernels_same(bd->seen[h].st, st)) {
      *same = bd->seen[h].st;
      return NULL;
    }
  bd->seen[h] = (SeenKernel){st, hash};
  bd->nseen++;
  return NULL;
}

static cxla_status kernel_step(Builder *bd, Step *st, const Instr *in, int prog) {
  st->kind = ST_KERNEL;
  st->kname = cxla_format("k%d_%d", prog, in->id);
  if (!st->kname) return cxla_oom();
  st->nout = codegen_kernel_outputs(in);
  st->extent = codegen_kernel_extent(in);
  st->min_slice = kernel_min_slice(in, st->extent, bd->x->grain);
  int64_t min_rows = codegen_kernel_min_rows(in);
  if (st->min_slice < min_rows) st->min_slice = min_rows;
  st->streams = codegen_kernel_streams(in);
  const Shape *o0 = in->shape->type == T_TUPLE && in->shape->ntuple > 0 ? in->shape->tuple[0] : in->shape;
  st->unit = st->streams && o0->rank == 1 ? CODEGEN_STREAM_ALIGN : 1;
  bd->x->stats.nkernels++;
  plan_pre_dots(bd->x, st, in);
  st->row_alias = row_alias_possible(bd->x->progs[prog], in);
  if (!bd->cg) return NULL;
  if (bd->share && codegen_kernel_context_free(in)) {
    const Step *same;
    TRY(seen_kernel(bd, st, &same));
    if (same) {
      bd->x->stats.nshared++;
      return codegen_alias_kernel(bd->cg, st->kname, same->kname);
    }
  }
  return codegen_emit_kernel_alias(bd->cg, in, st->kname, st->pre, st->npre, st->row_alias);
}

/* ---- transposed GEMM results ----
 * A dot's result that only a bitcast reads, the bitcast being a transpose
 * of its last two dims (a layout change: [.., m, n]{row-major} read as
 * [.., n, m] with those two dims' strides exchanged), is computed
 * transposed by the GEMM (C^T = B^T A^T: operands swapped, each one's
 * transpose flipped) and the bitcast is a view of it: no copy. */

/* Whether bitcast bc reads its operand's last two dims transposed and
 * keeps the others. */
static bool bitcast_swaps_last_two(const Instr *bc) {
  const Shape *rs = bc->shape, *os = bc->operands[0]->shape;
  int r = rs->rank;
  if (r < 2 || r > 16 || os->rank != r || rs->type != os->type || !type_is_array(rs->type)) return false;
  int64_t rst[16], ost[16];
  shape_layout_strides(rs, rst);
  shape_layout_strides(os, ost);
  for (int i = 0; i < r - 2; i++)
    if (rs->dims[i] != os->dims[i] || rst[i] != ost[i]) return false;
  return rs->dims[r - 2] == os->dims[r - 1] && rs->dims[r - 1] == os->dims[r - 2] && rst[r - 2] == ost[r - 1] &&
         rst[r - 1] == ost[r - 2];
}

/* Whether instruction i of c is such a bitcast of a dot the GEMMs run
 * (batch dims first, one free dim on each side) that has no other use
 * (the bitcast's one operand: one user is one use; nor is the dot the root). */
static bool gemm_transpose_view(const Computation *c, int i, const Users *u) {
  const Instr *bc = c->instrs[i];
  if (bc->op != OP_BITCAST || bc->noperands != 1) return false;
  const Instr *d = bc->operands[0];
  GemmPlan gp;
  if (d->op != OP_DOT || d == c->root || u->count[d->id] != 1 || !bitcast_swaps_last_two(bc) ||
      !gemm_plan(d, &gp))
    return false;
  const Shape *ds = d->shape;
  int r = ds->rank;
  return r == d->dot.lhs_batch.n + 2 && gp.m == ds->dims[r - 2] && gp.n == ds->dims[r - 1];
}

/* The plan of dot C = op(A) op(B) as C^T = op(B)^T op(A)^T, the operands
 * given swapped. */
static GemmPlan gemm_plan_swapped(const GemmPlan *p) {
  GemmPlan q = *p;
  q.m = p->n;
  q.n = p->m;
  q.trans_a = !p->trans_b;
  q.trans_b = !p->trans_a;
  return q;
}

static cxla_status plan_step(Builder *bd, Step *st, const Instr *in, int prog) {
  st->in = in;
  const Shape *s = in->shape;
  switch (in->op) {
  case OP_PARAMETER: st->kind = ST_PARAM; return NULL;
  case OP_CONSTANT:
    if (!in->literal || in->literal->unknown)
      return ERR(UNIMPLEMENTED, "cpu backend: constant %%%s has an elided value {...}; cxla cannot run it",
                 in->name);
    st->kind = ST_CONST;
    return rval_borrow(in->literal, &st->constant);
  case OP_TUPLE: st->kind = ST_TUPLE; return NULL;
  case OP_GET_TUPLE_ELEMENT: st->kind = ST_GTE; return NULL;
  case OP_OPT_BARRIER: case OP_ADD_DEPENDENCY: case OP_DOMAIN: st->kind = ST_ALIAS; return NULL;
  case OP_AFTER_ALL: st->kind = ST_TOKEN; return NULL;
  case OP_WHILE:
    if (in->ncalled != 2 || in->noperands != 1) break;
    st->kind = ST_WHILE;
    return sub_programs(bd, st, 2, in->called);
  case OP_CONDITIONAL:
    if (in->ncalled < 1 || in->noperands != in->ncalled + 1) break;
    st->kind = ST_COND;
    return sub_programs(bd, st, in->ncalled, in->called);
  case OP_CALL:
    if (in->ncalled != 1) break;
    st->kind = ST_CALL;
    return sub_programs(bd, st, 1, in->called);
  case OP_RESHAPE: case OP_COPY:
    if (in->noperands == 1 && same_array(s, in->operands[0]->shape)) {
      st->kind = ST_VIEW;
      return NULL;
    }
    break;
  case OP_SLICE: {
    /* one contiguous run of the operand (slice-views moves such slices
     * out of fusions): its address, no copy */
    int64_t off;
    if (in->noperands == 1 && s->type == in->operands[0]->shape->type &&
        shape_slice_contiguous(in->operands[0]->shape, in->slice, s, &off)) {
      st->kind = ST_VIEW;
      st->view_offset = off * type_bytes(s->type);
      return NULL;
    }
    break;
  }
  case OP_BITCAST:
    if (in->noperands == 1 && type_bytes(s->type) * shape_elems(s) ==
                                  type_bytes(in->operands[0]->shape->type) * shape_elems(in->operands[0]->shape) &&
        s->type == in->operands[0]->shape->type && shape_physically_row_major(s) &&
        shape_physically_row_major(in->operands[0]->shape)) {
      st->kind = ST_VIEW;
      return NULL;
    }
    break;
  case OP_SORT: {
    bool ok = in->ncalled == 1 && in->dimensions.n == 1 && in->noperands >= 1 && in->noperands <= 64;
    for (int k = 0; ok && k < in->noperands; k++) ok = type_is_array(in->operands[k]->shape->type);
    if (!ok) break;
    st->kind = ST_SORT;
    st->kname = cxla_format("cmp%d_%d", prog, in->id);
    if (!st->kname) return cxla_oom();
    cxla_status s = !bd->cg ? bd->has_symbol(bd->arg, st->kname)
                                  ? NULL
                                  : ERR(UNIMPLEMENTED, "not in the loaded code")
                            : codegen_emit_predicate(bd->cg, in->called[0], st->kname);
    if (!s) {
      TRY(sort_plan(in, (SortPlan **)&st->plan));
      if (st->plan) {
        st->plan_free = sort_plan_free;
        bd->x->stats.nradix++;
      }
      return NULL;
    }
    if (cxla_status_code_of(s) != CXLA_UNIMPLEMENTED) return s;
    /* a comparator the emitter cannot compile: the sort routine with the
     * interpreted comparator (listed in routines.c) */
    cxla_status_free(s);
    cxla_free(st->kname);
    st->kname = NULL;
    st->kind = ST_ROUTINE;
    bd->x->stats.nroutines++;
    return routine_prepare(st, in);
  }
  case OP_CONVOLUTION: case OP_REDUCE_WINDOW: case OP_SELECT_AND_SCATTER:
    /* depthwise convolutions, NHWC pooling, scans: rt_window.c */
    if (rt_window_supported(in)) {
      st->kind = ST_ROUTINE;
      bd->x->stats.nroutines++;
      return routine_prepare(st, in);
    }
    if (in->op == OP_CONVOLUTION && conv_gemm_plan_ok(in)) {
      st->kind = ST_CONV;
      conv_gemm_count(in, &bd->x->stats);
      return NULL;
    }
    break;
  case OP_ASYNC_START:
    /* its computation as a compiled program; the routine wraps its result */
    if (in->ncalled != 1) break;
    st->kind = ST_ROUTINE;
    bd->x->stats.nroutines++;
    TRY(routine_prepare(st, in));
    return sub_programs(bd, st, 1, in->called);
  case OP_FUSION:
    if (rounded_bf16_dot(bd->x->progs[prog], in, &st->gemm, &st->swap)) {
      st->kind = ST_BLAS_DOT;
      bd->x->stats.nbf16_rounded++;
      return NULL;
    }
    break;
  case OP_DOT:
    if (gemm_plan(in, &st->gemm)) {
      st->kind = ST_BLAS_DOT;
      return NULL;
    }
    break;
  default: break;
  }
  char why[256];
  if (codegen_supports(in, why, sizeof why)) return kernel_step(bd, st, in, prog);
  if (in->op == OP_FUSION && in->ncalled == 1) {
    /* Not one kernel: run the fused computation's instructions as a
     * program of their own (each a kernel, a routine, ...). */
    st->kind = ST_CALL;
    return sub_programs(bd, st, 1, in->called);
  }
  if (routine_supported(in)) {
    st->kind = ST_ROUTINE;
    bd->x->stats.nroutines++;
    return routine_prepare(st, in);
  }
  if (in->op == OP_BATCH_NORM_TRAINING || in->op == OP_BATCH_NORM_INFERENCE || in->op == OP_BATCH_NORM_GRAD ||
      in->op == OP_CUSTOM_CALL)
    return routine_prepare(st, in); /* the error that says why */
  return ERR(UNIMPLEMENTED, "cpu backend: cannot compile %s", why);
}

/* Which of kernel step i's outputs may reuse an operand's buffer: the
 * kernel works in place (codegen_kernel_inplace) or was emitted to run
 * over operand 0's buffer (row_alias); the operand's last use is this
 * step, and it is no other operand too. */
static void plan_inplace(Program *p, int i) {
  Step *st = &p->steps[i];
  if (st->kind != ST_KERNEL) return;
  const Instr *in = st->in;
  int n = st->row_alias ? 1 : codegen_kernel_inplace(in);
  for (int k = 0; k < n && k < 32 && k < in->noperands; k++) {
    const Instr *o = in->operands[k];
    bool once = true;
    for (int j = 0; j < in->noperands; j++) once &= j == k || in->operands[j] != o;
    /* a skipped convert's value is not of its instruction's type */
    bool skipped = p->steps[o->id].kind == ST_ALIAS && o->op == OP_CONVERT;
    if (once && !skipped && p->last_use[o->id] == i) st->inplace |= 1u << k;
  }
}

/* ---- results written in place ----
 * The runtime hands the executor the entry's result arrays, allocated: a
 * kernel, GEMM or convolution whose output is one of them (through views, aliases and tuple
 * elements) writes it there directly instead of into a buffer of its own
 * that is copied afterwards. */

static int array_leaves(const Shape *s) {
  if (s->type == T_TUPLE) {
    int n = 0;
    for (int i = 0; i < s->ntuple; i++) n += array_leaves(s->tuple[i]);
    return n;
  }
  return type_is_array(s->type) ? 1 : 0;
}

static const Instr *skip_aliases(const Program *p, const Instr *in) {
  while (p->steps[in->id].kind == ST_ALIAS && in->noperands >= 1) in = in->operands[0];
  return in;
}

/* The kernel output (step *step, output *k), the sort's result (output k:
 * its operand k's) or the GEMM's, convolution's or window routine's result
 * (*k 0) whose buffer holds array value `in` of p, if any. */
static bool kernel_output_of(const Program *p, const Instr *in, int *step, int *k) {
  for (int hops = 0; hops < p->nsteps; hops++) {
    in = skip_aliases(p, in);
    const Step *st = &p->steps[in->id];
    if (st->kind == ST_BLAS_DOT || st->kind == ST_CONV || (routine_writes_leaf(st) && in->shape->type != T_TUPLE)) {
      *step = in->id, *k = 0;
      return true;
    }
    if (st->kind == ST_SORT && in->shape->type != T_TUPLE) {
      *step = in->id, *k = 0;
      return true;
    }
    if (st->kind == ST_KERNEL) {
      if (in->shape->type == T_TUPLE || st->nout != 1) return false;
      *step = in->id, *k = 0;
      return true;
    }
    if (st->kind == ST_VIEW) {
      /* a view of part of its operand's buffer (a slice) is not the
       * buffer a kernel would write */
      const Shape *o = in->operands[0]->shape;
      if (st->view_offset || shape_elems(in->shape) * type_bytes(in->shape->type) != shape_elems(o) * type_bytes(o->type))
        return false;
      in = in->operands[0];
      continue;
    }
    if (st->kind != ST_GTE) return false;
    const Instr *t = skip_aliases(p, in->operands[0]);
    if (p->steps[t->id].kind == ST_TUPLE && in->index >= 0 && in->index < t->noperands) {
      in = t->operands[in->index];
      continue;
    }
    if (p->steps[t->id].kind == ST_SORT && in->index >= 0 && in->index < t->noperands && in->index < 8) {
      *step = t->id, *k = (int)in->index;
      return true;
    }
    if (p->steps[t->id].kind != ST_KERNEL || in->index < 0 || in->index >= p->steps[t->id].nout ||
        in->index >= 8)
      return false;
    *step = t->id, *k = (int)in->index;
    return true;
  }
  return false;
}

/* Kernel step st's output k is result leaf leaf1 - 1: where it updates
 * operand k in place (plan_inplace) and that operand is a kernel's only
 * output, used last there, that kernel writes into the result too (the
 * update then happens where the result lies: no copy; a scatter into a
 * broadcast), and so on up the chain. */
static void leaf_through_inplace(Program *p, int st, int k, int leaf1) {
  for (int hops = 0; hops < p->nsteps; hops++) {
    const Step *s = &p->steps[st];
    if (s->kind != ST_KERNEL || k >= 32 || !((s->inplace >> k) & 1) || k >= s->in->noperands) return;
    const Instr *o = s->in->operands[k];
    Step *os = &p->steps[o->id];
    if (os->kind != ST_KERNEL || os->nout != 1 || o->shape->type == T_TUPLE || os->leaf1[0] ||
        p->last_use[o->id] != st)
      return;
    os->leaf1[0] = leaf1;
    st = o->id;
    k = 0;
  }
}

/* Numbers the array leaves of value `in` (the root, or a part of it) from
 * *leaf on, and marks the kernel outputs that are one. */
static void plan_leaves(Program *p, const Instr *in, int *leaf) {
  const Shape *s = in->shape;
  if (s->type != T_TUPLE) {
    int st, k;
    if (!type_is_array(s->type)) return;
    if (shape_elems(s) > 0 && kernel_output_of(p, in, &st, &k) && !p->steps[st].leaf1[k]) {
      p->steps[st].leaf1[k] = *leaf + 1;
      leaf_through_inplace(p, st, k, *leaf + 1);
    }
    (*leaf)++;
    return;
  }
  const Instr *t = skip_aliases(p, in);
  const Step *ts = &p->steps[t->id];
  if (ts->kind == ST_TUPLE && t->noperands == s->ntuple) {
    for (int i = 0; i < t->noperands; i++) plan_leaves(p, t->operands[i], leaf);
    return;
  }
  if (((ts->kind == ST_KERNEL && ts->nout == s->ntuple) || (ts->kind == ST_SORT && t->noperands == s->ntuple)) &&
      s->ntuple <= 8) {
    for (int i = 0; i < s->ntuple; i++) {
      const Shape *e = s->tuple[i];
      if (e->type != T_TUPLE && type_is_array(e->type) && shape_elems(e) > 0 && !ts->leaf1[i]) {
        p->steps[t->id].leaf1[i] = *leaf + 1;
        leaf_through_inplace(p, t->id, i, *leaf + 1);
      }
      *leaf += array_leaves(e);
    }
    return;
  }
  *leaf += array_leaves(s);
}

/* ---- GEMM chains ----
 * S = A1 B1 (a batched f32 GEMM), P = F(S) (a row kernel: softmax, layer
 * norm... reading S only at its own index), C = P B2 (a GEMM with P as
 * its untransposed lhs), where S and P have no other use: attention's
 * QK^T -> softmax -> PV. Run one step after another, S and P are written
 * whole to memory and read back (48 MiB each for 12 heads of 1024^2);
 * run as a chain, each block of rows of S is made, turned into P and
 * multiplied by B2 while it is in the cache (exec.c: run_chain). Chains
 * form only where both GEMMs would run on the f32 kernel of fgemm.c, and
 * every element is computed as the steps compute it (that kernel sums
 * each element in the same order however the rows are split; the same
 * row kernel), so the results are the same bits (but for the sign of a
 * zero where the second product skips zero columns: see run_chain). */

/* Whether step st of p is a GEMM the chain can slice by rows of its lhs:
 * f32 on the kernel of fgemm.c (no operand a skipped convert, whose value
 * is bf16), operands not swapped, lhs rows contiguous. */
static bool chain_gemm(const Program *p, const Step *st) {
  const Instr *in = st->in;
  return st->kind == ST_BLAS_DOT && !st->swap && in->shape->type == T_F32 &&
         in->operands[0]->shape->type == T_F32 && in->operands[1]->shape->type == T_F32 &&
         p->steps[in->operands[0]->id].kind != ST_ALIAS && p->steps[in->operands[1]->id].kind != ST_ALIAS &&
         !st->gemm.trans_a && st->gemm.batch > 0 && st->gemm.m > 0 && st->gemm.n > 0 && st->gemm.k > 0;
}

/* CHAIN_MIN_BYTES: below this many bytes of S, the steps' own buffers
 * stay in the cache (no chain); CHAIN_BLOCK_BYTES: about the bytes of S
 * per block (rows of it), which stays in a core's L2 with P over it
 * (512 KiB: 256 KiB and 1 MiB measured the same on gpt2_block_1024). */
enum { CHAIN_MIN_BYTES = 1 << 20, CHAIN_BLOCK_BYTES = 1 << 19 };
/* CHAIN_BAND_ROWS: the most rows of a block under a band (plan_chains).
 * gpt2_block_1024's attention (12 x 1024 x 1024 x 64, causal) alone, CPU
 * time on 2 threads, 6 alternating rounds: blocks of 128 rows 15.13 ms,
 * 64 rows 14.50 (the two products' triangles past the band: 12% of
 * their work, 6%); 32 rows no faster than 64 */
enum { CHAIN_BAND_ROWS = 64 };

/* ---- causal masks in a chain's kernel ----
 * A chain's kernel F reads S = D1's product (its parameter 0). When every
 * path from S to F's output goes through elementwise ops (value (i, j)
 * from operands' (i, j)) into a data operand of a select whose predicate
 * is true only where j <= i + d (i, j: S's last two dims; the predicate
 * built from iotas, as jnp.tril's mask is), then F's output does not
 * depend on S(i, j) for j > i + d: the chain leaves those columns out of
 * D1's product (exec.c: chain_slice). */

/* Whether kernel f (a fusion) reads its operand 0 (S) only in a band
 * j <= i + *d of its last two dims (see above). One pass over f's fused
 * computation in post order, marking what carries S's values. */
static bool chain_band(const Instr *f, int64_t *d) {
  if (f->op != OP_FUSION || f->ncalled != 1) return false;
  const Computation *fc = f->called[0];
  const Shape *ss = f->operands[0]->shape;
  int rank = ss->rank;
  if (rank < 2 || rank > 8 || fc->nparams < 1 || !fc->params[0]) return false;
  bool *carries = cxla_calloc((size_t)fc->ninstrs, sizeof *carries);
  if (!carries) return false;
  int map[8];
  for (int k = 0; k < rank; k++) map[k] = k;
  bool ok = true, found = false;
  int64_t band = INT64_MAX;
  for (int i = 0; i < fc->ninstrs && ok; i++) {
    const Instr *x = fc->instrs[i];
    if (x->id != i) {
      ok = false;
      break;
    }
    if (x == fc->params[0]) {
      carries[i] = true;
      continue;
    }
    int nc = 0;
    for (int k = 0; k < x->noperands; k++) nc += carries[x->operands[k]->id];
    if (!nc) continue;
    if (x->op == OP_SELECT && x->noperands == 3 && !carries[x->operands[0]->id] && shape_same_dims(x->shape, ss) &&
        shape_same_dims(x->operands[0]->shape, ss)) {
      /* the S branch taken only in the band: the select's values outside
       * it do not depend on S */
      int64_t dd;
      int sel = carries[x->operands[1]->id] ? 1 : 2;
      if (carries[x->operands[1]->id] && carries[x->operands[2]->id]) ok = false;
      else if (sel == 1 && codegen_band_pred(x->operands[0], map, rank - 2, rank - 1, &dd)) {
        found = true;
        if (dd < band) band = dd;
      } else {
        ok = false;
      }
      continue;
    }
    /* carried on, position by position */
    bool ew = (op_info(x->op)->flags & OPF_EW) && shape_same_dims(x->shape, ss);
    for (int k = 0; k < x->noperands && ew; k++)
      if (carries[x->operands[k]->id] && !shape_same_dims(x->operands[k]->shape, ss)) ew = false;
    if (!ew || x == fc->root) ok = false;
    carries[i] = true;
  }
  if (ok && fc->root && carries[fc->root->id]) ok = false;
  cxla_free(carries);
  if (!ok || !found) return false;
  *d = band;
  return true;
}

/* Marks the chains of p (the GEMM step that runs each, the two it runs
 * instead of their own steps), their block size, and keeps the chained
 * steps' operands until the chain's step (last_use). Before plan_inplace,
 * so that no step between writes over such an operand. */
static void plan_chains(Program *p, const Users *u) {
  if (!f32_gemm_small_available()) return;
  const Computation *c = p->comp;
  for (int i = 0; i < c->ninstrs; i++) {
    Step *s2 = &p->steps[i];
    if (!s2->in || !chain_gemm(p, s2)) continue;
    const Instr *d2 = s2->in, *f = d2->operands[0];
    Step *sf = &p->steps[f->id];
    if (f == c->root || d2->operands[1] == f || u->count[f->id] != 1 || sf->kind != ST_KERNEL || sf->nout != 1 ||
        sf->npre || sf->chained || sf->chain || sf->streams || f->shape->type != T_F32 || f->noperands < 1 ||
        !codegen_row_inplace(f))
      continue;
    const Instr *d1 = f->operands[0];
    Step *s1 = &p->steps[d1->id];
    bool once = true;
    for (int k = 1; k < f->noperands; k++) once &= f->operands[k] != d1;
    if (!once || d1 == c->root || u->count[d1->id] != 1 || !chain_gemm(p, s1) || s1->chain || s1->chained) continue;
    const GemmPlan *g1 = &s1->gemm, *g2 = &s2->gemm;
    if (g2->batch != g1->batch || g2->m != g1->m || g2->k != g1->n) continue;
    /* only where the steps themselves would run on the kernel: the same
     * bits, and never the kernel where BLAS is the faster */
    F32Gemm f1 = {.batch = g1->batch, .m = g1->m, .n = g1->n, .k = g1->k, .trans_a = g1->trans_a, .trans_b = g1->trans_b};
    F32Gemm f2 = {.batch = g2->batch, .m = g2->m, .n = g2->n, .k = g2->k, .trans_a = g2->trans_a, .trans_b = g2->trans_b};
    if (!f32_gemm_kernel_fits(&f1) || !f32_gemm_kernel_fits(&f2)) continue;
    int64_t rows = g1->batch * g1->m;
    if ((double)rows * (double)g1->n * 4 < CHAIN_MIN_BYTES || sf->extent < 1 || rows % sf->extent) continue;
    int64_t per = rows / sf->extent; /* GEMM rows per kernel row */
    if (g1->m % per) continue;
    int64_t r = CHAIN_BLOCK_BYTES / (g1->n * 4);
    r = r < per ? per : r / per * per;
    if (r > g1->m) r = g1->m;
    s2->chain = true;
    s2->chain_d1 = d1->id;
    s2->chain_f = f->id;
    /* S's last two dims are the product's rows and columns */
    const Shape *ss = d1->shape;
    s2->chain_band = ss->rank >= 2 && ss->dims[ss->rank - 2] == g1->m && ss->dims[ss->rank - 1] == g1->n &&
                     chain_band(f, &s2->chain_band_d);
    /* with a band, at least 4 blocks per matrix: a block computes S up to
     * its last row's band, so a whole-matrix block (256 x 256) would save
     * nothing, 4 blocks save 3/8 of the first product */
    if (s2->chain_band && r > g1->m / 4 && g1->m / 4 >= per) r = g1->m / 4 / per * per;
    /* and blocks of at most CHAIN_BAND_ROWS rows: each computes a
     * triangle of r x r / 2 past the band in both products */
    if (s2->chain_band && r > CHAIN_BAND_ROWS && CHAIN_BAND_ROWS >= per) r = CHAIN_BAND_ROWS / per * per;
    s2->chain_rows = r;
    s1->chained = sf->chained = true;
    /* the operands of D1 and F live until the chain has run */
    const Instr *parts[2] = {d1, f};
    for (int k = 0; k < 2; k++)
      for (int o = 0; o < parts[k]->noperands; o++) {
        int j = parts[k]->operands[o]->id;
        if (j != d1->id && p->last_use[j] >= 0 && p->last_use[j] < i) p->last_use[j] = i;
      }
  }
}

static cxla_status build_program(Builder *bd, const Computation *c, Program **out) {
  CpuExecutable *x = bd->x;
  int known = ptrindex_get(&bd->prog_of, c);
  if (known >= 0 && known < x->nprogs && x->progs[known]->comp == c) {
    *out = x->progs[known];
    return NULL;
  }
  for (int i = 0; i < c->ninstrs; i++)
    if (c->instrs[i]->id != i)
      return ERR(INTERNAL, "cpu backend: instruction ids of %s are not positions", c->name);
  Program *p = cxla_calloc(1, sizeof *p);
  if (!p) return cxla_oom();
  if (x->nprogs == x->capprogs) {
    int cap = x->capprogs ? 2 * x->capprogs : 8;
    Program **np = cxla_realloc(x->progs, (size_t)cap * sizeof *np);
    if (!np) {
      cxla_free(p);
      return cxla_oom();
    }
    x->progs = np;
    x->capprogs = cap;
  }
  int index = x->nprogs;
  x->progs[x->nprogs++] = p;
  p->comp = c;
  if (!ptrindex_set(&bd->prog_of, c, index)) return cxla_oom();
  p->nsteps = c->ninstrs;
  p->steps = cxla_calloc((size_t)(c->ninstrs ? c->ninstrs : 1), sizeof *p->steps);
  p->last_use = cxla_calloc((size_t)(c->ninstrs ? c->ninstrs : 1), sizeof *p->last_use);
  if (!p->steps || !p->last_use) return cxla_oom();
  for (int i = 0; i < c->ninstrs; i++) p->last_use[i] = -1;
  for (int i = 0; i < c->ninstrs; i++) {
    const Instr *in = c->instrs[i];
    for (int k = 0; k < in->noperands; k++) p->last_use[in->operands[k]->id] = i;
  }
  if (c->root) p->last_use[c->root->id] = -1;
  Users u = {0};
  TRY(users_build(c, &u));
  cxla_status s = NULL;
  for (int i = 0; i < c->ninstrs && !s; i++) {
    const Instr *in = c->instrs[i];
    if (gemm_transpose_view(c, i, &u)) {
      Step *dot = &p->steps[in->operands[0]->id];
      dot->gemm = gemm_plan_swapped(&dot->gemm);
      dot->swap = true;
      p->steps[i].in = in;
      p->steps[i].kind = ST_VIEW;
      continue;
    }
    if (convert_skippable(c, in, &u)) {
      p->steps[i].in = in;
      p->steps[i].kind = ST_ALIAS;
      x->stats.nbf16_direct++;
      continue;
    }
    s = plan_step(bd, &p->steps[i], in, index);
  }
  if (!s) plan_chains(p, &u);
  users_free(&u);
  TRY(s);
  for (int i = 0; i < c->ninstrs; i++) plan_inplace(p, i);
  if (c == x->module->entry && c->root) {
    int leaf = 0;
    plan_leaves(p, c->root, &leaf);
  }
  *out = p;
  return NULL;
}

/* A kernel's address: from the ELF images when the loader linked the
 * code (a few parts: each looked in), else from the JIT. */
static cxla_status lookup(CpuExecutable *x, const char *name, KernelFn *out) {
  if (!x->images) return jit_lookup(x->jit, name, out);
  void *a = NULL;
  for (int i = 0; i < x->nimages && !a; i++) a = elf_symbol(x->images[i], name);
  if (!a) return ERR(DATA_LOSS, "cpu backend: the cached code has no symbol %s", name);
  *out = (KernelFn)a;
  return NULL;
}

static cxla_status lookup_kernels(CpuExecutable *x) {
  for (int i = 0; i < x->nprogs; i++) {
    Program *p = x->progs[i];
    for (int k = 0; k < p->nsteps; k++)
      if (p->steps[k].kind == ST_KERNEL) {
        TRY(lookup(x, p->steps[k].kname, &p->steps[k].fn));
      } else if (p->steps[k].kind == ST_SORT) {
        KernelFn f;
        TRY(lookup(x, p->steps[k].kname, &f));
        p->steps[k].pred = (uint8_t(*)(const void *const *))(void *)f;
      }
  }
  return NULL;
}

/* ---- instruction references ----
 * The generic scalar path (codegen's fallback) passes the instruction it
 * evaluates to cxla_cg_rt_scalar as a constant address. Before LLVM sees
 * the module, each such address becomes an external symbol naming the
 * instruction by position ("cxla_in.<computation index>.<id>"), defined
 * in the JIT at the instruction's address: the object code then holds no
 * address of this process and can be loaded by another (cache.c). */

#define REF_PREFIX "cxla_in."

const Instr *cpu_ref_instr(const HloModule *m, const char *name) {
  if (strncmp(name, REF_PREFIX, strlen(REF_PREFIX)) != 0) return NULL;
  const char *p = name + strlen(REF_PREFIX);
  char *end = NULL;
  long ci = strtol(p, &end, 10);
  if (end == p || *end != '.' || ci < 0 || ci >= m->ncomps) return NULL;
  p = end + 1;
  long id = strtol(p, &end, 10);
  const Computation *c = m->comps[ci];
  if (end == p || *end || id < 0 || id >= c->ninstrs) return NULL;
  return c->instrs[id];
}

static cxla_status relocate_refs(CpuExecutable *x, LLVMModuleRef mod) {
  x->relocatable = true;
  LLVMValueRef f = LLVMGetNamedFunction(mod, "cxla_cg_rt_scalar");
  if (!f) return NULL;
  const HloModule *m = x->module;
  PtrIndex index = {0};
  for (int i = 0; i < m->ncomps; i++)
    if (!ptrindex_set(&index, m->comps[i], i)) {
      ptrindex_free(&index);
      return cxla_oom();
    }
  StrBuf names;
  sb_init(&names);
  LLVMTypeRef i8 = LLVMInt8TypeInContext(LLVMGetModuleContext(mod));
  cxla_status s = NULL;
  for (LLVMUseRef u = LLVMGetFirstUse(f); u && !s; u = LLVMGetNextUse(u)) {
    LLVMValueRef call = LLVMGetUser(u);
    LLVMValueRef arg = LLVMIsACallInst(call) ? LLVMGetOperand(call, 0) : NULL;
    if (!arg || !LLVMIsAConstantExpr(arg) || LLVMGetConstOpcode(arg) != LLVMIntToPtr) {
      x->relocatable = false;
      continue;
    }
    const Instr *in = (const Instr *)(uintptr_t)LLVMConstIntGetZExtValue(LLVMGetOperand(arg, 0));
    int ci = in ? ptrindex_get(&index, in->parent) : -1;
    if (ci < 0 || in->id < 0 || in->id >= in->parent->ninstrs || in->parent->instrs[in->id] != in) {
      x->relocatable = false;
      continue;
    }
    char name[64];
    snprintf(name, sizeof name, REF_PREFIX "%d.%d", ci, in->id);
    LLVMValueRef g = LLVMGetNamedGlobal(mod, name);
    if (!g) {
      g = LLVMAddGlobal(mod, i8, name);
      sb_putn(&names, name, strlen(name) + 1);
      x->nrefs++;
    }
    LLVMSetOperand(call, 0, g);
  }
  ptrindex_free(&index);
  if (names.oom) s = cxla_oom();
  x->refs_len = names.len;
  x->refs = sb_take(&names);
  if (!s && !x->refs) s = cxla_oom();
  return s;
}

/* Defines x's reference symbols in its JIT. */
static cxla_status define_refs(CpuExecutable *x) {
  if (!x->nrefs) return NULL;
  JitSymbol *syms = cxla_calloc((size_t)x->nrefs, sizeof *syms);
  if (!syms) return cxla_oom();
  const char *p = x->refs;
  cxla_status s = NULL;
  for (int i = 0; i < x->nrefs && !s; i++, p += strlen(p) + 1) {
    syms[i] = (JitSymbol){p, cpu_ref_instr(x->module, p)};
    if (!syms[i].addr) s = ERR(INTERNAL, "cpu backend: bad instruction symbol %s", p);
  }
  if (!s) s = jit_define(x->jit, syms, x->nrefs);
  cxla_free(syms);
  return s;
}

/* From this many distinct kernels on, the small ones are compiled without
 * LLVM's optimizations (codegen_light_small_kernels): a program of
 * thousands of tiny kernels (a loop unrolled over slices at different
 * offsets) spends seconds in LLVM per thousand, more than such kernels
 * could ever win back per call; no bench case has more than 40.
 * $CXLA_CPU_LIGHT_MIN overrides it (0: never). */
#define CPU_LIGHT_MIN_KERNELS 2048

static int light_min_kernels(void) {
  const char *e = getenv("CXLA_CPU_LIGHT_MIN");
  if (!e || !*e) return CPU_LIGHT_MIN_KERNELS;
  char *end = NULL;
  long v = strtol(e, &end, 10);
  return *end == '\0' && v >= 0 && v <= 1 << 30 ? (int)v : CPU_LIGHT_MIN_KERNELS;
}

/* The LLVM pipeline for a module whose kernels are all small (optimized
 * for size, codegen.h codegen_all_kernels_small: scalar programs, a
 * scan's per-step updates): their run time is the call's, and the O2
 * pipeline's fixed cost is most of their compile (tiny_scalar3: 12 ->
 * 8.4 ms a compile at O1). Unless a level is chosen ($CXLA_CPU_OPT,
 * CpuCompileOptions.opt_level). */
#define CPU_SMALL_MODULE_OPT 1

cxla_status cpu_compile(const HloModule *m, const CpuCompileOptions *opts, CpuExecutable **out) {
  *out = NULL;
  if (!m || !m->entry) return ERR(INVALID_ARGUMENT, "cpu backend: no entry computation");
  const char *env_opt = getenv("CXLA_CPU_OPT");
  int opt_level = env_opt ? atoi(env_opt) : 2;
  bool chosen = env_opt != NULL;
  const char *dump = NULL;
  int parts = 1;
  if (opts && opts->struct_size >= sizeof *opts) {
    if (opts->opt_level > 0) opt_level = opts->opt_level, chosen = true;
    dump = opts->dump_dir;
    if (opts->compile_threads > 1) parts = opts->compile_threads;
  }
  CpuExecutable *x = cxla_calloc(1, sizeof *x);
  if (!x) return cxla_oom();
  x->module = m;
  const char *g = getenv("CXLA_CPU_GRAIN");
  if (g && *g) {
    char *end = NULL;
    long long v = strtoll(g, &end, 10);
    if (*end == '\0' && v > 0) x->grain = v; /* anything else: the default */
  }
  double t0 = now_s();
  cxla_status s = jit_create(&x->jit);
  Builder bd = {.x = x, .share = !getenv("CXLA_CPU_NO_SHARE")};
  if (!s) s = codegen_create(jit_context(x->jit), m->name ? m->name : "cxla", &bd.cg);
  if (!s) s = build_program(&bd, m->entry, &x->entry);
  cxla_free(bd.seen);
  ptrindex_free(&bd.prog_of);
  int nmerged = 0;
  if (!s && bd.share) s = codegen_share_kernels(bd.cg, &nmerged);
  x->stats.nshared += nmerged;
  int light_min = light_min_kernels();
  if (!s && light_min > 0 && x->stats.nkernels - x->stats.nshared >= light_min)
    s = codegen_light_small_kernels(bd.cg, &x->stats.nlight);
  if (!s && !chosen && opt_level > CPU_SMALL_MODULE_OPT && codegen_all_kernels_small(bd.cg))
    opt_level = CPU_SMALL_MODULE_OPT;
  x->stats.opt_level = opt_level;
  double t1 = now_s();
  if (!s) {
    LLVMModuleRef mod = codegen_take_module(bd.cg);
    s = relocate_refs(x, mod);
    if (!s) s = define_refs(x);
    bool keep = opts && opts->struct_size >= sizeof *opts && opts->keep_object && x->relocatable;
    if (s) LLVMDisposeModule(mod);
    else
      s = jit_add_module(x->jit, mod, opt_level, parts, dump, keep ? &x->object : NULL, &x->object_len,
                         &x->stats.nparts);
  }
  if (!s) s = lookup_kernels(x);
  double t2 = now_s();
  codegen_destroy(bd.cg);
  x->stats.codegen_s = t1 - t0;
  x->stats.llvm_s = t2 - t1;
  if (s) {
    cpu_executable_destroy(x);
    return s;
  }
  *out = x;
  return NULL;
}

cxla_status cpu_symbols_each(const CpuExecutable *x, cxla_status (*fn)(void *arg, const char *name),
                             void *arg) {
  for (int i = 0; i < x->nprogs; i++)
    for (int k = 0; k < x->progs[i]->nsteps; k++)
      if (x->progs[i]->steps[k].kname) TRY(fn(arg, x->progs[i]->steps[k].kname));
  return NULL;
}

/* An external symbol of loaded code, resolved as the JIT resolves it: an
 * instruction reference (define_refs), a runtime function (the JIT's
 * absolute symbols), else the process's symbol (the JIT's process
 * search: memcpy, memset, ...). */
static void *resolve_symbol(void *arg, const char *name) {
  const CpuExecutable *x = arg;
  const Instr *in = x->nrefs ? cpu_ref_instr(x->module, name) : NULL;
  if (in) return (void *)(uintptr_t)in;
  void *a = jit_runtime_symbol(name);
  return a ? a : dlsym(RTLD_DEFAULT, name);
}

/* Links a cached object pack: each object with the ELF loader (no LLVM:
 * creating an LLJIT and linking costs milliseconds, the loader tens of
 * microseconds), or all with the JIT when the loader does not handle
 * something in one (UNIMPLEMENTED) or $CXLA_CPU_LINKER is "jit". A
 * malformed object fails either way. */
static cxla_status link_object(CpuExecutable *x, const void *pack, size_t pack_len) {
  int n = objpack_count(pack, pack_len);
  if (n < 1) return ERR(DATA_LOSS, "cpu backend: the cached object files have bad lengths");
  x->stats.nparts = n;
  const char *linker = getenv("CXLA_CPU_LINKER");
  if (!linker || strcmp(linker, "jit") != 0) {
    if (!(x->images = cxla_calloc((size_t)n, sizeof *x->images))) return cxla_oom();
    cxla_status s = NULL;
    for (int i = 0; i < n && !s; i++) {
      size_t len;
      const void *obj = objpack_at(pack, i, &len);
      s = elf_load(obj, len, resolve_symbol, x, &x->images[i]);
      if (!s) x->nimages++;
    }
    if (cxla_status_code_of(s) != CXLA_UNIMPLEMENTED) return s;
    cxla_status_free(s);
    for (int i = 0; i < x->nimages; i++) elf_unload(x->images[i]);
    cxla_free(x->images);
    x->images = NULL;
    x->nimages = 0;
  }
  x->stats.jit_linked = true;
  TRY(jit_create(&x->jit));
  TRY(define_refs(x));
  for (int i = 0; i < n; i++) {
    size_t len;
    const void *obj = objpack_at(pack, i, &len);
    TRY(jit_add_object(x->jit, obj, len));
  }
  return NULL;
}

cxla_status cpu_load(const HloModule *m, const void *object, size_t object_len,
                     const char *refs, size_t refs_len, int nrefs,
                     bool (*has_symbol)(void *arg, const char *name),
                     cxla_status (*check)(void *arg, const CpuExecutable *x), void *arg,
                     CpuExecutable **out) {
  *out = NULL;
  if (!m || !m->entry) return ERR(INVALID_ARGUMENT, "cpu backend: no entry computation");
  CpuExecutable *x = cxla_calloc(1, sizeof *x);
  if (!x) return cxla_oom();
  x->module = m;
  x->relocatable = true;
  if (nrefs > 0) {
    if (!(x->refs = cxla_malloc(refs_len))) {
      cxla_free(x);
      return cxla_oom();
    }
    memcpy(x->refs, refs, refs_len);
    x->refs_len = refs_len;
    x->nrefs = nrefs;
  }
  double t0 = now_s();
  Builder bd = {.x = x, .has_symbol = has_symbol, .arg = arg};
  cxla_status s = build_program(&bd, m->entry, &x->entry);
  ptrindex_free(&bd.prog_of);
  if (!s) s = check(arg, x);
  double t1 = now_s();
  if (!s) s = link_object(x, object, object_len);
  if (!s) s = lookup_kernels(x);
  x->stats.codegen_s = 0; /* nothing emitted, nothing compiled */
  x->stats.llvm_s = 0;
  x->stats.plan_s = t1 - t0;
  x->stats.load_s = now_s() - t1;
  x->stats.loaded = true;
  if (s) {
    cpu_executable_destroy(x);
    return s;
  }
  *out = x;
  return NULL;
}
