/* The Codegen object, a kernel's loop nest over its outputs, loops and the
 * memo table of the elemental emitter (see cg_internal.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "codegen/cg_internal.h"
#include "interp/ew_scalar.h"

cxla_status codegen_create(LLVMContextRef ctx, const char *module_name, Codegen **out) {
  *out = NULL;
  Codegen *cg = cxla_calloc(1, sizeof *cg);
  if (!cg) return cxla_oom();
  cg->ctx = ctx;
  cg->mod = LLVMModuleCreateWithNameInContext(module_name, cg->ctx);
  cg->i1 = LLVMInt1TypeInContext(cg->ctx);
  cg->i8 = LLVMInt8TypeInContext(cg->ctx);
  cg->i16 = LLVMInt16TypeInContext(cg->ctx);
  cg->i32 = LLVMInt32TypeInContext(cg->ctx);
  cg->i64 = LLVMInt64TypeInContext(cg->ctx);
  cg->f32 = LLVMFloatTypeInContext(cg->ctx);
  cg->f64 = LLVMDoubleTypeInContext(cg->ctx);
  cg->ptr = LLVMPointerTypeInContext(cg->ctx, 0);
  cg->vd = LLVMVoidTypeInContext(cg->ctx);
  LLVMTypeRef params[3] = {cg->ptr, cg->i64, cg->i64};
  cg->kernel_ty = LLVMFunctionType(cg->vd, params, 3, 0);
  *out = cg;
  return NULL;
}

void codegen_destroy(Codegen *cg) {
  if (!cg) return;
  if (cg->mod) LLVMDisposeModule(cg->mod);
  cxla_free(cg);
}

LLVMModuleRef codegen_take_module(Codegen *cg) {
  LLVMModuleRef m = cg->mod;
  cg->mod = NULL;
  return m;
}

void cxla_cg_rt_scalar(const void *in, const void *const *ops, void *out) {
  /* The emitter only calls it for combinations ew_scalar_eval defines
   * (checked at compile time by em_scalar_supported). */
  (void)ew_scalar_eval((const Instr *)in, ops, out);
}

/* ---- errors ---- */

void em_fail(Em *e, cxla_status s) {
  if (!e->err) e->err = s;
  else cxla_status_free(s);
}

cxla_status em_unsupported(const Instr *in, const char *what) {
  return ERR(UNIMPLEMENTED, "cpu backend: cannot compile %s %%%s%s%s", op_name(in->op), in->name,
             what ? ": " : "", what ? what : "");
}

/* ---- small builders ---- */

Idx *em_idx(Em *e, int rank) {
  Idx *x = arena_alloc(&e->arena, sizeof *x);
  if (!x) {
    em_fail(e, cxla_oom());
    static Idx dummy_never_written; /* unreachable in practice: callers check e->err */
    (void)dummy_never_written;
    return NULL;
  }
  memset(x, 0, sizeof *x);
  x->rank = rank;
  x->id = ++e->next_idx;
  return x;
}

LLVMValueRef em_i64(Em *e, int64_t v) { return LLVMConstInt(e->cg->i64, (unsigned long long)v, 1); }

LLVMValueRef em_alloca(Em *e, LLVMTypeRef t) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(e->cg->ctx);
  LLVMValueRef first = LLVMGetFirstInstruction(e->entry);
  if (first) LLVMPositionBuilderBefore(b, first);
  else LLVMPositionBuilderAtEnd(b, e->entry);
  LLVMValueRef a = LLVMBuildAlloca(b, t, "");
  LLVMDisposeBuilder(b);
  return a;
}

LLVMValueRef em_buf(Em *e, int slot) {
  if (slot == CG_SLOT_STASH) return e->stash_base;
  if (!e->bufs) return LLVMGetParam(e->fn, (unsigned)slot); /* the kernel body's noalias arguments */
  LLVMValueRef gep = LLVMBuildGEP2(e->b, e->cg->ptr, e->bufs, (LLVMValueRef[]){em_i64(e, slot)}, 1, "");
  LLVMValueRef p = LLVMBuildLoad2(e->b, e->cg->ptr, gep, "buf");
  return p;
}

LLVMValueRef em_linear(Em *e, const Idx *idx, const int64_t *dims) {
  LLVMValueRef lin = em_i64(e, 0);
  for (int i = 0; i < idx->rank; i++) {
    lin = LLVMBuildNSWMul(e->b, lin, em_i64(e, dims[i]), "");
    lin = LLVMBuildNSWAdd(e->b, lin, idx->v[i], "");
  }
  return lin;
}

/* ---- memo ---- */

void em_scope_push(Em *e) {
  if (e->depth + 1 >= (int)(sizeof e->gens / sizeof e->gens[0])) {
    em_fail(e, ERR(UNIMPLEMENTED, "cpu backend: loops nested too deeply"));
    return;
  }
  e->depth++;
  e->gens[e->depth] = ++e->next_gen;
}

void em_scope_pop(Em *e) {
  if (e->depth > 0) e->depth--;
}

/* Memo entries are keyed by the instruction and the index's LLVM values
 * (the same values reached through different broadcasts or reshapes are
 * the same index). */
static unsigned memo_hash(const Instr *in, const Idx *idx) {
  uintptr_t h = (uintptr_t)in >> 4;
  for (int i = 0; i < idx->rank; i++) h = h * 1000003u ^ ((uintptr_t)idx->v[i] >> 4);
  return (unsigned)(h ^ (h >> 29));
}

MemoEnt *em_memo_find(Em *e, const Instr *in, const Idx *idx) {
  unsigned h = memo_hash(in, idx) % (unsigned)e->nbuckets;
  for (MemoEnt *m = e->buckets[h]; m; m = m->next)
    if (m->in == in && m->rank == idx->rank && m->depth <= e->depth && e->gens[m->depth] == m->gen &&
        (idx->rank == 0 || memcmp(m->idx, idx->v, (size_t)idx->rank * sizeof *m->idx) == 0))
      return m;
  return NULL;
}

void em_memo_put(Em *e, const Instr *in, const Idx *idx, int n, const LLVMValueRef *vals) {
  if (n > 8) return;
  MemoEnt *m = arena_alloc(&e->arena, sizeof *m);
  LLVMValueRef *iv = idx->rank ? arena_alloc(&e->arena, (size_t)idx->rank * sizeof *iv) : NULL;
  if (!m || (idx->rank && !iv)) {
    em_fail(e, cxla_oom());
    return;
  }
  if (idx->rank) memcpy(iv, idx->v, (size_t)idx->rank * sizeof *iv);
  unsigned h = memo_hash(in, idx) % (unsigned)e->nbuckets;
  m->in = in;
  m->rank = idx->rank;
  m->idx = iv;
  m->depth = e->depth;
  m->gen = e->gens[e->depth];
  m->nvals = n;
  for (int i = 0; i < n; i++) m->vals[i] = vals[i];
  m->next = e->buckets[h];
  e->buckets[h] = m;
}

/* ---- control flow ---- */

void em_if_begin(Em *e, IfBlk *f, LLVMValueRef cond) {
  f->then = LLVMAppendBasicBlockInContext(e->cg->ctx, e->fn, "then");
  f->done = LLVMAppendBasicBlockInContext(e->cg->ctx, e->fn, "endif");
  LLVMBuildCondBr(e->b, cond, f->then, f->done);
  LLVMPositionBuilderAtEnd(e->b, f->then);
  em_scope_push(e);
}

void em_if_end(Em *e, IfBlk *f) {
  em_scope_pop(e);
  LLVMBuildBr(e->b, f->done);
  LLVMPositionBuilderAtEnd(e->b, f->done);
}

LLVMValueRef em_elem_ptr(Em *e, LLVMValueRef base, ElemType t, LLVMValueRef lin) {
  return LLVMBuildGEP2(e->b, cg_storage_type(e->cg, t), base, &lin, 1, "");
}

/* ---- loops ---- */

LLVMValueRef em_loop_begin(Em *e, Loop *l, LLVMValueRef lo, LLVMValueRef hi, const char *name) {
  Codegen *cg = e->cg;
  l->iv_slot = em_alloca(e, cg->i64);
  LLVMBuildStore(e->b, lo, l->iv_slot);
  l->cond = LLVMAppendBasicBlockInContext(cg->ctx, e->fn, name);
  l->body = LLVMAppendBasicBlockInContext(cg->ctx, e->fn, name);
  l->exit = LLVMAppendBasicBlockInContext(cg->ctx, e->fn, name);
  LLVMBuildBr(e->b, l->cond);
  LLVMPositionBuilderAtEnd(e->b, l->cond);
  LLVMValueRef iv = LLVMBuildLoad2(e->b, cg->i64, l->iv_slot, "");
  LLVMBuildCondBr(e->b, LLVMBuildICmp(e->b, LLVMIntSLT, iv, hi, ""), l->body, l->exit);
  LLVMPositionBuilderAtEnd(e->b, l->body);
  em_scope_push(e);
  l->outer_long_chain = e->long_chain;
  e->long_chain = 0;
  l->trip = LLVMIsAConstantInt(lo) && LLVMIsAConstantInt(hi)
                ? LLVMConstIntGetSExtValue(hi) - LLVMConstIntGetSExtValue(lo)
                : -1;
  return LLVMBuildLoad2(e->b, cg->i64, l->iv_slot, "i");
}

/* Attaches to the loop whose latch is br its loop id: a node of itself
 * and the n hints (each a node of a name and its operands). */
static void loop_hints(Em *e, LLVMValueRef br, LLVMMetadataRef *hints, int n) {
  LLVMContextRef ctx = e->cg->ctx;
  static const char kl[] = "llvm.loop";
  LLVMMetadataRef ops[4] = {LLVMTemporaryMDNode(ctx, NULL, 0)};
  for (int i = 0; i < n; i++) ops[1 + i] = hints[i];
  LLVMMetadataRef loop = LLVMMDNodeInContext2(ctx, ops, (size_t)n + 1);
  LLVMMetadataReplaceAllUsesWith(ops[0], loop); /* a loop id refers to itself */
  LLVMSetMetadata(br, LLVMGetMDKindIDInContext(ctx, kl, sizeof kl - 1), LLVMMetadataAsValue(ctx, loop));
}

/* The hint that LLVM is to interleave a (vectorized) loop n times
 * (Em.long_chain): n vectors of elements per iteration. A loop
 * computing a transcendental function is one long chain of dependent operations per vector (exp,
 * then a corrected quotient: 150 cycles or so); the out-of-order window
 * holds the start of the next iteration's chain only when it is in the
 * same iteration, and LLVM's cost model, seeing a big body, interleaves
 * once. Measured: tanh and GELU over f32[16M] 1.5x to 2x faster. */
static LLVMMetadataRef interleave_hint(Em *e, int n) {
  LLVMContextRef ctx = e->cg->ctx;
  static const char k[] = "llvm.loop.interleave.count";
  LLVMMetadataRef hint[2] = {LLVMMDStringInContext2(ctx, k, sizeof k - 1),
                             LLVMValueAsMetadata(LLVMConstInt(e->cg->i32, (unsigned long long)n, 0))};
  return LLVMMDNodeInContext2(ctx, hint, 2);
}

int em_host_f32_lanes(void) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (__builtin_cpu_supports("avx512f")) return 16;
  if (__builtin_cpu_supports("avx2")) return 8;
#endif
  return 4;
}

/* The interleave count for a loop of `trip` iterations (-1: unknown)
 * computing long chains (Em.long_chain n): n, at most 4 on hosts of 16
 * vector registers (below AVX-512: tanh's 8 chains, tuned on AVX-512's
 * 32, spilled to the stack there; tanh-GELU of f32[16M] on a Zen 2, one
 * binary, a compile each: 7.36 ms at 8, 6.77 at 4, 7.84 at 2), and no
 * more vectors than the loop has elements, or the vector loop never runs
 * and every element takes the scalar remainder (an RNN step's tanh over
 * rows of 32 on AVX2: 8 vectors of 8 asked for, all 32 scalar). */
static int chain_interleave(int n, int64_t trip) {
  int lanes = em_host_f32_lanes();
  if (lanes < 16 && n > 4) n = 4;
  if (trip < 0) return n;
  int64_t fit = trip / lanes;
  return fit < 1 ? 1 : fit < n ? (int)fit : n;
}

/* The hint that LLVM is not to vectorize a loop (Em.plain_loop). */
static LLVMMetadataRef no_vectorize_hint(Em *e) {
  LLVMContextRef ctx = e->cg->ctx;
  static const char kv[] = "llvm.loop.vectorize.enable";
  LLVMMetadataRef h[2] = {LLVMMDStringInContext2(ctx, kv, sizeof kv - 1),
                          LLVMValueAsMetadata(LLVMConstInt(LLVMInt1TypeInContext(ctx), 0, 0))};
  return LLVMMDNodeInContext2(ctx, h, 2);
}

/* The hint that LLVM is not to unroll a loop (Em.plain_loop, Em.no_unroll). */
static LLVMMetadataRef no_unroll_hint(Em *e) {
  static const char ku[] = "llvm.loop.unroll.disable";
  LLVMMetadataRef s = LLVMMDStringInContext2(e->cg->ctx, ku, sizeof ku - 1);
  return LLVMMDNodeInContext2(e->cg->ctx, &s, 1);
}

void em_loop_end(Em *e, Loop *l) {
  em_scope_pop(e);
  LLVMValueRef iv = LLVMBuildLoad2(e->b, e->cg->i64, l->iv_slot, "");
  LLVMBuildStore(e->b, LLVMBuildNSWAdd(e->b, iv, em_i64(e, 1), ""), l->iv_slot);
  LLVMValueRef br = LLVMBuildBr(e->b, l->cond);
  /* the loop's hints, in one loop id: a plain loop is left as it is
   * (neither vectorized nor unrolled), else unrolling and interleaving as
   * asked */
  LLVMMetadataRef hints[2];
  int nh = 0;
  if (e->plain_loop) {
    hints[nh++] = no_vectorize_hint(e);
    hints[nh++] = no_unroll_hint(e);
  } else {
    if (e->no_unroll) hints[nh++] = no_unroll_hint(e);
    if (e->long_chain) hints[nh++] = interleave_hint(e, chain_interleave(e->long_chain, l->trip));
  }
  if (nh) loop_hints(e, br, hints, nh);
  e->plain_loop = false;
  e->no_unroll = false;
  e->long_chain = l->outer_long_chain;
  LLVMPositionBuilderAtEnd(e->b, l->exit);
}

/* ---- whole-op kernels ---- */

bool cg_whole_op(Opcode op) {
  return op == OP_SCATTER || op == OP_SELECT_AND_SCATTER || op == OP_RNG_BIT_GENERATOR;
}

bool em_whole_supported(const Instr *in, char *why, size_t n) {
  switch (in->op) {
  case OP_SCATTER: return em_scatter_supported(in, why, n);
  case OP_SELECT_AND_SCATTER: return em_select_scatter_supported(in, why, n);
  case OP_RNG_BIT_GENERATOR: return em_rng_bits_supported(in, why, n);
  default:
    snprintf(why, n, "%s %%%s", op_name(in->op), in->name);
    return false;
  }
}

void em_whole_kernel(Em *e, const Instr *in, LLVMValueRef lo, LLVMValueRef hi) {
  IfBlk f;
  em_if_begin(e, &f, LLVMBuildICmp(e->b, LLVMIntSLT, lo, hi, ""));
  switch (in->op) {
  case OP_SCATTER: em_scatter(e, in, lo, hi); break;
  case OP_SELECT_AND_SCATTER: em_select_scatter(e, in); break;
  case OP_RNG_BIT_GENERATOR: em_rng_bits(e, in); break;
  default: em_fail(e, em_unsupported(in, "not a whole-op kernel")); break;
  }
  em_if_end(e, &f);
}

/* ---- kernels ---- */

/* The output shapes of the kernel for in: its array shape, or the elements
 * of its tuple shape. */
static int out_shapes(const Instr *in, const Shape **shapes, int max) {
  const Shape *s = in->shape;
  if (s->type != T_TUPLE) {
    shapes[0] = s;
    return 1;
  }
  int n = s->ntuple < max ? s->ntuple : max;
  for (int i = 0; i < n; i++) shapes[i] = s->tuple[i];
  return s->ntuple;
}

int codegen_kernel_outputs(const Instr *in) {
  return in->shape->type == T_TUPLE ? in->shape->ntuple : 1;
}

static bool row_inplace(const Instr *in);

int codegen_kernel_inplace(const Instr *in) {
  if (cg_dus_inplace(in)) return 1;
  return in->op == OP_SCATTER ? codegen_kernel_outputs(in) : 0;
}

bool codegen_row_inplace(const Instr *in) { return row_inplace(in); }

static bool outputs_same_dims(const Instr *in) {
  const Shape *sh[8] = {0};
  int n = out_shapes(in, sh, 8);
  if (n > 8) return false;
  for (int i = 1; i < n; i++)
    if (sh[i]->rank != sh[0]->rank ||
        (sh[0]->rank > 0 && memcmp(sh[i]->dims, sh[0]->dims, (size_t)sh[0]->rank * sizeof(int64_t))))
      return false;
  return true;
}

/* How many leading dims of an output the kernel's rows range over,
 * flattened: the outermost one, or, when it has too few rows to split
 * well over threads, the fewest leading dims that have CG_SPLIT_ROWS
 * between them, never the innermost (its loop is the one vectorized). */
#define CG_SPLIT_ROWS 64
/* most reduces a row kernel computes per row */
#define CG_MAX_ROW_REDUCES 16
static int split_dims(const Shape *s) {
  if (s->rank <= 1) return s->rank;
  int k = 1;
  int64_t rows = s->dims[0];
  while (rows > 0 && rows < CG_SPLIT_ROWS && k < s->rank - 1) rows *= s->dims[k++];
  return k;
}

static int column_reduces(const Instr *in, const Instr *value, const Instr **red);
static bool should_tile(const Instr *in, const Shape *shape);
static int row_reduces(const Instr *in, const Shape *s, const Instr **red, int max);
static bool ew_readers(const Computation *c, const Instr *r, bool reduces_stop, bool *dep);

/* The leading dims of s a nest's [lo, hi) rows range over: split_dims,
 * or fewer for a row kernel whose reduces are values of the first rowk
 * dims (rowk: row_reduces, 0 for other kernels). */
static int nest_rows_dims(const Shape *s, int rowk) {
  int sd = split_dims(s);
  return rowk > 0 && rowk < sd ? rowk : sd;
}

/* How many leading output dims a kernel's [lo, hi) rows range over: the
 * column-reduction sweep and the tiled nest take the outermost dim only,
 * other nests nest_rows_dims. */
static int kernel_rows_dims(const Instr *in, const Shape *s) {
  const Instr *value = in->op == OP_FUSION ? in->called[0]->root : in;
  if (column_reduces(in, value, NULL) || should_tile(in, s)) return s->rank ? 1 : 0;
  return nest_rows_dims(s, row_reduces(in, s, NULL, 0));
}

/* How a transposing kernel is split (transpose_plan) */
typedef struct TPlan {
  const Instr *src; /* the operand it transposes */
  int64_t batch, rows, cols, units;
  bool by_cols;
} TPlan;
static bool transpose_plan(const Instr *in, TPlan *p);

int64_t codegen_kernel_extent(const Instr *in) {
  int64_t cols;
  if (in->op == OP_SCATTER && em_scatter_split(in, &cols)) return cols;
  TPlan tp;
  if (transpose_plan(in, &tp)) return tp.units;
  if (cg_whole_op(in->op) || !outputs_same_dims(in) || cg_dus_inplace(in)) return 1;
  const Shape *sh[8] = {0};
  out_shapes(in, sh, 8);
  int64_t rows = 1;
  for (int i = 0, k = kernel_rows_dims(in, sh[0]); i < k; i++) rows *= sh[0]->dims[i];
  return rows;
}

/* bytes of each input line a column-reduction slice reads at least */
#define CG_SWEEP_BYTES 128
/* input lines a column-reduction sweep combines per pass over its
 * accumulators (emit_column_reduce) */
#define CG_SWEEP_UNROLL 8
/* Block loops of at most this many iterations are not unrolled
 * (emit_column_reduce). */
#define CG_SWEEP_ROLLED 8

int64_t codegen_kernel_min_rows(const Instr *in) {
  const Instr *value = in->op == OP_FUSION ? in->called[0]->root : in, *red[8];
  int64_t cols;
  /* a split scatter: a cache line of columns per call at least */
  if (in->op == OP_SCATTER && em_scatter_split(in, &cols)) {
    int64_t es = type_bytes(in->operands[0]->shape->type);
    return es > 0 && es < 64 ? 64 / es : 1;
  }
  if (cg_whole_op(in->op) || !column_reduces(in, value, red)) return 1;
  const Instr *r = red[0];
  const Shape *is = r->operands[0]->shape;
  if (r->dimensions.v[0] > 0) return 1; /* a row: an outer position's whole sweep */
  int64_t per_row = type_bytes(is->type);
  for (int d = r->dimensions.n + 1; d < is->rank; d++) per_row *= is->dims[d];
  return per_row >= CG_SWEEP_BYTES ? 1 : (CG_SWEEP_BYTES + per_row - 1) / per_row;
}

bool codegen_supports(const Instr *in, char *why, size_t n) {
  if (!in->shape) {
    snprintf(why, n, "%s %%%s has no shape", op_name(in->op), in->name);
    return false;
  }
  if (in->shape->type == T_TUPLE) {
    if (in->shape->ntuple > 8 || in->shape->ntuple < 1) {
      snprintf(why, n, "%s %%%s: tuple of %d outputs", op_name(in->op), in->name,
               in->shape->ntuple);
      return false;
    }
    for (int i = 0; i < in->shape->ntuple; i++)
      if (!type_is_array(in->shape->tuple[i]->type) || in->shape->tuple[i]->type == T_TUPLE) {
        snprintf(why, n, "%s %%%s: nested tuple output", op_name(in->op), in->name);
        return false;
      }
  }
  for (int i = 0; i < in->noperands; i++)
    if (!in->operands[i]->shape || !type_is_array(in->operands[i]->shape->type)) {
      snprintf(why, n, "%s %%%s: operand %d is not an array", op_name(in->op), in->name, i);
      return false;
    }
  return em_elem_supported(in, why, n);
}

/* p with its low 6 bits cleared (llvm.ptrmask): the same pointer where
 * the code runs only for 64-byte aligned p, and LLVM then knows the
 * alignment of the vector stores made from it. */
static LLVMValueRef ptr_align64(Em *e, LLVMValueRef p) {
  static const char name[] = "llvm.ptrmask";
  unsigned id = LLVMLookupIntrinsicID(name, sizeof name - 1);
  LLVMTypeRef tys[2] = {e->cg->ptr, e->cg->i64};
  LLVMValueRef f = LLVMGetIntrinsicDeclaration(e->cg->mod, id, tys, 2);
  LLVMTypeRef ft = LLVMIntrinsicGetType(e->cg->ctx, id, tys, 2);
  return LLVMBuildCall2(e->b, ft, f, (LLVMValueRef[]){p, em_i64(e, -64)}, 2, "");
}

/* Stores vals[0 .. n) (values of `what` at idx) into the outputs. */
static void store_vals(Em *e, const Instr *what, const Idx *idx, const int64_t *dims, int first_out, int nout,
                       const LLVMValueRef *vals, int n) {
  LLVMValueRef lin = em_linear(e, idx, dims);
  for (int k = 0; k < nout && k < n; k++) {
    const Shape *s = what->shape->type == T_TUPLE ? what->shape->tuple[k] : what->shape;
    LLVMTypeRef st = cg_storage_type(e->cg, s->type);
    LLVMValueRef base = em_buf(e, first_out + k);
    if (e->stream) base = ptr_align64(e, base);
    LLVMValueRef p = LLVMBuildGEP2(e->b, st, base, &lin, 1, "");
    LLVMBuildStore(e->b, vals[k], p);
  }
}

/* Stores value(s) of `what` at idx into the outputs. */
static void store_outputs(Em *e, const Instr *what, const Idx *idx, const int64_t *dims,
                          int first_out, int nout) {
  LLVMValueRef vals[8];
  int n = em_elem(e, what, idx, vals, 8);
  if (e->err) return;
  store_vals(e, what, idx, dims, first_out, nout, vals, n);
}

static LLVMValueRef smin(Em *e, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSLT, a, b, ""), a, b, "");
}

static LLVMValueRef smax(Em *e, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSGT, a, b, ""), a, b, "");
}

/* ---- the rows ahead of a row kernel ----
 * A row kernel's first pass over a row (its first reduce) reads the row
 * from memory; the later passes (the other reduces, the row's elements)
 * find it in cache and compute, and memory idles while they do. So each
 * later pass prefetches the row `dist` rows ahead (Em.rowpf), spread over
 * its iterations: its innermost loop runs in chunks of CG_PF_CHUNK
 * elements (a whole number of vector iterations, vectorized as before),
 * each chunk first prefetching the lines of the same elements of the row
 * ahead. The first pass over that row then reads it from cache while
 * memory streams the next: the kernel runs at the larger of its compute
 * and its memory time, not their sum. */
#define CG_PF_CHUNK 128
/* llvm.prefetch's locality: 2, into L2 (prefetcht1). Measured on
 * softmax_4096, 1 thread, CPU time: 1 and 3 no different; prefetching
 * the output rows for writing too (prefetchw) no faster. */
#define CG_PF_LOCALITY 2

bool em_row_chunk_begin(Em *e, RowLoop *rl, const Idx *idx, int d, int64_t n) {
  LLVMValueRef lim = e->chunk_lim;
  e->chunk_lim = NULL;
  rl->end = e->row_end;
  e->row_end = NULL;
  rl->n = n;
  rl->chunked = e->rowpf.on && e->rowpf.n > 0 && n >= CG_PF_CHUNK;
  if (!rl->chunked) return false;
  LLVMBuilderRef B = e->b;
  LLVMValueRef C = em_i64(e, CG_PF_CHUNK);
  if (!lim) lim = em_i64(e, (n + CG_PF_CHUNK - 1) / CG_PF_CHUNK);
  LLVMValueRef ch = em_loop_begin(e, &rl->chunk, em_i64(e, 0), lim, "pf");
  rl->c0 = LLVMBuildNSWMul(B, ch, C, "");
  rl->c1 = LLVMBuildNSWAdd(B, rl->c0, C, "");
  if (n % CG_PF_CHUNK) rl->c1 = smin(e, rl->c1, em_i64(e, n));
  /* the chunk's first element in the row ahead: its offset in the row
   * (dims k .. d, row-major) after the row ahead's start */
  LLVMValueRef off = em_i64(e, 0);
  for (int i = e->rowpf.k; i < d; i++)
    off = LLVMBuildNSWAdd(B, LLVMBuildNSWMul(B, off, em_i64(e, e->rowpf.dims[i]), ""), idx->v[i], "");
  off = LLVMBuildNSWAdd(B, LLVMBuildNSWMul(B, off, em_i64(e, e->rowpf.dims[d]), ""), rl->c0, "");
  off = LLVMBuildNSWAdd(B, off, e->rowpf.next, "");
  for (int b = 0; b < e->rowpf.n; b++) {
    int es = e->rowpf.esize[b];
    LLVMValueRef p = LLVMBuildGEP2(B, e->cg->i8, e->rowpf.buf[b], (LLVMValueRef[]){LLVMBuildNSWMul(B, off, em_i64(e, es), "")}, 1, "");
    for (int l = 0; l < (CG_PF_CHUNK * es + 63) / 64; l++) {
      LLVMValueRef args[4] = {LLVMBuildGEP2(B, e->cg->i8, p, (LLVMValueRef[]){em_i64(e, 64 * l)}, 1, ""),
                              LLVMConstInt(e->cg->i32, 0, 0) /* read */,
                              LLVMConstInt(e->cg->i32, CG_PF_LOCALITY, 0), LLVMConstInt(e->cg->i32, 1, 0)};
      (void)em_intrinsic(e, "llvm.prefetch", e->cg->ptr, 4, args);
    }
  }
  e->rowpf.on = false; /* the chunk's loop nests none */
  return true;
}

LLVMValueRef em_row_inner_begin(Em *e, RowLoop *rl, const char *name) {
  if (!rl->chunked) return em_loop_begin(e, &rl->in, em_i64(e, 0), rl->end ? rl->end : em_i64(e, rl->n), name);
  return em_loop_begin(e, &rl->in, rl->c0, rl->c1, name);
}

void em_row_inner_end(Em *e, RowLoop *rl) { em_loop_end(e, &rl->in); }

void em_row_chunk_end(Em *e, RowLoop *rl) {
  if (!rl->chunked) return;
  em_loop_end(e, &rl->chunk);
  e->rowpf.on = true;
}

LLVMValueRef em_row_loop_begin(Em *e, RowLoop *rl, const Idx *idx, int d, int64_t n, const char *name) {
  (void)em_row_chunk_begin(e, rl, idx, d, n);
  return em_row_inner_begin(e, rl, name);
}

void em_row_loop_end(Em *e, RowLoop *rl) {
  em_row_inner_end(e, rl);
  em_row_chunk_end(e, rl);
}

/* ---- causal bands in row kernels ----
 * A row kernel over the last dim whose values past a row's band come
 * from the other side of a band select (codegen_band_pred: a causal
 * mask), through elementwise ops on values that do not vary along the
 * row (per-row reduces, constants), has the same value at every column
 * j > i + d of row i (row_band). Its later passes over the row (those run
 * in chunks, em_row_chunk_begin) then stop after the chunks that hold
 * the band, and the row's skipped elements are computed once:
 *  - a float sum whose input there is 0 (+0 or -0; tested per row) skips
 *    those chunks: each would add a partial sum of zeros, a zero, to an
 *    accumulator that started at a constant other than -0 and so is
 *    never -0 (round to nearest: a + b is -0 only when both are -0), and
 *    x + 0 is x for such x; the chunks it keeps are summed as before;
 *  - a float max or min covers the band's elements and that value once
 *    (exact in any order; the row's last element may count twice);
 *  - the elements' pass stores that one value past the chunks it keeps.
 * Only kernels whose later passes run in chunks (prefetched rows, Em.rowpf,
 * rows of CG_PF_CHUNK or more) have bands: the elements' pass must skip
 * whatever a stashing sum skips. */

/* The S dim whose index x's value is, at each position of S (x's dim k
 * is S's dim map[k]): an integer iota, broadcast any number of times. */
static bool band_coord(const Instr *x, const int *map, int *sdim) {
  if (x->op == OP_IOTA) {
    if (!type_is_int(x->shape->type) || x->index < 0 || x->index >= x->shape->rank) return false;
    *sdim = map[x->index];
    return true;
  }
  if (x->op == OP_BROADCAST && x->noperands == 1 && x->dimensions.n == x->operands[0]->shape->rank &&
      x->dimensions.n <= 8) {
    int sub[8];
    for (int k = 0; k < x->dimensions.n; k++) sub[k] = map[x->dimensions.v[k]];
    return band_coord(x->operands[0], sub, sdim);
  }
  return false;
}

/* x is the pred constant v everywhere (a scalar constant, broadcast). */
static bool pred_const(const Instr *x, bool v) {
  while (x->op == OP_BROADCAST && x->noperands == 1) x = x->operands[0];
  return x->op == OP_CONSTANT && x->shape->type == T_PRED && x->literal && x->literal->nelems == 1 &&
         (literal_get_i64(x->literal, 0) != 0) == v;
}

/* Whether pred x (its dim k is S's dim map[k]; S's rows are dim row, its
 * columns dim col) is true only where j <= i + *d, with *d found. */
bool codegen_band_pred(const Instr *x, const int *map, int row, int col, int64_t *d) {
  if (x->shape->type != T_PRED) return false;
  switch (x->op) {
  case OP_BROADCAST: {
    if (x->noperands != 1 || x->dimensions.n != x->operands[0]->shape->rank || x->dimensions.n > 8) return false;
    int sub[8];
    for (int k = 0; k < x->dimensions.n; k++) sub[k] = map[x->dimensions.v[k]];
    return codegen_band_pred(x->operands[0], sub, row, col, d);
  }
  case OP_SELECT: /* c ? t : false implies c and t */
    if (x->noperands != 3 || !pred_const(x->operands[2], false)) return false;
    if (pred_const(x->operands[1], true)) return codegen_band_pred(x->operands[0], map, row, col, d);
    return codegen_band_pred(x->operands[0], map, row, col, d) || codegen_band_pred(x->operands[1], map, row, col, d);
  case OP_AND:
    return x->noperands == 2 &&
           (codegen_band_pred(x->operands[0], map, row, col, d) || codegen_band_pred(x->operands[1], map, row, col, d));
  case OP_COMPARE: {
    int a, b;
    if (x->noperands != 2 || !band_coord(x->operands[0], map, &a) || !band_coord(x->operands[1], map, &b))
      return false;
    CmpDir dir = x->cmp_dir;
    if (a == col && b == row) { /* j op i: as i op' j */
      a = row;
      b = col;
      dir = dir == CMP_LE ? CMP_GE : dir == CMP_LT ? CMP_GT : dir == CMP_EQ ? CMP_EQ : CMP_NONE;
    }
    if (a != row || b != col) return false;
    if (dir == CMP_GE || dir == CMP_EQ) *d = 0; /* i >= j, i == j */
    else if (dir == CMP_GT) *d = -1;            /* i > j */
    else return false;
    return true;
  }
  default:
    return false;
  }
}

/* Whether row kernel `in` (output dims s, reduces over its last dim:
 * rowk == rank - 1) has a band (see above): inv[i] set for the fused
 * computation's instructions whose value past the band is the same at
 * every column, its root among them; *d the band's offset. Linear in the
 * fused computation's size. */
static bool row_band(const Instr *in, const Shape *s, int rowk, bool *inv, int64_t *d) {
  if (in->op != OP_FUSION || in->ncalled != 1 || s->rank < 2 || s->rank > 8 || rowk != s->rank - 1) return false;
  const Computation *c = in->called[0];
  int rank = s->rank, map[8];
  for (int k = 0; k < rank; k++) map[k] = k;
  bool found = false;
  for (int i = 0; i < c->ninstrs; i++) {
    const Instr *x = c->instrs[i];
    inv[i] = false;
    if (x->id != i) return false;
    if (!shape_same_dims(x->shape, s)) continue; /* read through broadcasts */
    bool ops = true; /* every operand of these dims, marked */
    for (int k = 0; k < x->noperands && ops; k++) {
      const Instr *o = x->operands[k];
      ops = o->id >= 0 && o->id < i && c->instrs[o->id] == o && shape_same_dims(o->shape, s) && inv[o->id];
    }
    int64_t dd;
    switch (x->op) {
    case OP_BROADCAST:
      inv[i] = x->noperands == 1;
      for (int k = 0; k < x->dimensions.n; k++) inv[i] &= x->dimensions.v[k] != rank - 1;
      break;
    case OP_IOTA:
      inv[i] = x->index != rank - 1;
      break;
    case OP_SELECT:
      if (x->noperands == 3 && codegen_band_pred(x->operands[0], map, rank - 2, rank - 1, &dd)) {
        /* past the band: operand 2 */
        const Instr *o = x->operands[2];
        if (found && dd != *d) return false;
        found = true;
        *d = dd;
        inv[i] = o->id >= 0 && o->id < i && c->instrs[o->id] == o && shape_same_dims(o->shape, s) && inv[o->id];
        break;
      }
      inv[i] = ops;
      break;
    default:
      inv[i] = (op_info(x->op)->flags & OPF_EW) && x->noperands > 0 && ops;
      break;
    }
  }
  return found && c->root && c->root->id >= 0 && c->root->id < c->ninstrs && c->instrs[c->root->id] == c->root &&
         inv[c->root->id];
}

/* The row's chunks that hold its band (Em.band.lim) for the row whose
 * index idx->v[rank - 2] is, n columns: at most all of them. */
/* The band's end in the row whose index idx->v[rank - 2] is (its band's
 * columns j < end), clamped to [0, n]. */
static LLVMValueRef band_end(Em *e, const Idx *idx, int rank, int64_t n) {
  LLVMBuilderRef B = e->b;
  LLVMValueRef end = LLVMBuildNSWAdd(B, idx->v[rank - 2], em_i64(e, e->band.d + 1), "");
  end = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, end, em_i64(e, 0), ""), em_i64(e, 0), end, "");
  return smin(e, end, em_i64(e, n));
}

static LLVMValueRef band_chunks(Em *e, const Idx *idx, int rank, int64_t n) {
  LLVMValueRef end = band_end(e, idx, rank, n);
  return LLVMBuildUDiv(e->b, LLVMBuildNSWAdd(e->b, end, em_i64(e, CG_PF_CHUNK - 1), ""), em_i64(e, CG_PF_CHUNK), "");
}

/* oi: idx at the columns' dim d set to the row's last column (past the
 * band wherever chunks are skipped). */
static Idx *band_tail_idx(Em *e, const Idx *idx, int rank, int64_t n) {
  Idx *t = em_idx(e, rank);
  if (!t) return NULL;
  for (int k = 0; k < rank - 1; k++) t->v[k] = idx->v[k];
  t->v[rank - 1] = em_i64(e, n - 1);
  return t;
}

/* Whether reduce `red` of one input reduces a row kernel's last dim d
 * alone under a band, its input the same past the band (Em.band.inv). */
static bool band_reduce(const Em *e, const Instr *red, int d) {
  const Instr *v = red->noperands == 2 ? red->operands[0] : NULL;
  return e->band.lim && v && red->parent == e->band.comp && v->parent == e->band.comp && v->id >= 0 &&
         v->id < e->band.comp->ninstrs && e->band.comp->instrs[v->id] == v && e->band.inv[v->id] &&
         d == v->shape->rank - 1 && red->dimensions.n == 1 && red->dimensions.v[0] == d;
}

/* The value of v (of the row kernel's dims) past the row's band: at the
 * row's last column (oi: the row's index); NULL on failure. */
static LLVMValueRef band_tail_value(Em *e, const Instr *v, const Idx *oi) {
  int rank = v->shape->rank;
  Idx *t = band_tail_idx(e, oi, rank, v->shape->dims[rank - 1]);
  if (!t) return NULL;
  em_scope_push(e);
  LLVMValueRef x = em_elem1(e, v, t);
  em_scope_pop(e);
  return e->err ? NULL : x;
}

LLVMValueRef em_band_minmax_tail(Em *e, const Instr *red, const Idx *oi, int d) {
  if (!band_reduce(e, red, d)) return NULL;
  const Instr *v = red->operands[0];
  LLVMValueRef x = band_tail_value(e, v, oi);
  if (!x) return NULL;
  e->row_end = band_end(e, oi, v->shape->rank, v->shape->dims[d]); /* past it, every element is x */
  e->chunk_lim = e->band.lim;
  return x;
}

LLVMValueRef em_band_sum_lim(Em *e, const Instr *red, const Idx *oi, int d) {
  if (!band_reduce(e, red, d)) return NULL;
  const Instr *v = red->operands[0], *init = red->operands[1];
  /* the accumulator starts at a constant other than -0 */
  if (init->op != OP_CONSTANT || !init->literal || init->literal->nelems != 1) return NULL;
  double z = literal_get_f64(init->literal, 0);
  if (z == 0 && signbit(z)) return NULL;
  int64_t n = v->shape->dims[d];
  LLVMValueRef x = band_tail_value(e, v, oi);
  if (!x) return NULL;
  LLVMValueRef zero = LLVMBuildFCmp(e->b, LLVMRealOEQ, x, LLVMConstNull(LLVMTypeOf(x)), "");
  return LLVMBuildSelect(e->b, zero, e->band.lim, em_i64(e, (n + CG_PF_CHUNK - 1) / CG_PF_CHUNK), "");
}

/* ---- speculation ----
 * Some functions have a fast path that covers nearly every argument and a
 * slow one for the rest (math.c: f32 sin, cos, tan reduce their argument
 * in three operations below 2^20 and take a long exact reduction beyond).
 * Choosing per element would put both in every vector lane. Instead the
 * innermost loop runs in chunks: a chunk is computed with the fast paths
 * only (Em.spec_flag set), each raising the flag for an element it cannot
 * compute, and when the flag is up the chunk is computed again the usual
 * way, overwriting it. Kernel outputs are never their operands (nests
 * compute each element from operands only), so computing a chunk twice
 * changes nothing but time. */
#define CG_SPEC_CHUNK 1024

/* The flag is an i32 slot holding the largest value (unsigned) raised
 * into it since the pass began (0); it is up from CG_SPEC_F32_UP's bits:
 * em_spec_raise_f32 raises an f32 |x|'s bits (up from CG_SPEC_F32_UP and
 * for inf and NaN), em_spec_raise all ones for a condition that holds. An
 * unsigned max per vector (vpmaxud) accumulates it; an i1 or of compares
 * took three instructions (compare, or, masked move of i8 lanes). */
static uint32_t f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static void spec_umax(Em *e, LLVMValueRef v) {
  LLVMValueRef f = LLVMBuildLoad2(e->b, e->cg->i32, e->spec_flag, "");
  LLVMBuildStore(e->b, em_intrinsic(e, "llvm.umax", e->cg->i32, 2, (LLVMValueRef[]){f, v}), e->spec_flag);
}

void em_spec_raise(Em *e, LLVMValueRef cond) { spec_umax(e, LLVMBuildSExt(e->b, cond, e->cg->i32, "")); }

void em_spec_raise_f32(Em *e, LLVMValueRef ax) { spec_umax(e, LLVMBuildBitCast(e->b, ax, e->cg->i32, "")); }

static LLVMValueRef spec_up(Em *e, LLVMValueRef flag) {
  return LLVMBuildICmp(e->b, LLVMIntUGE, LLVMBuildLoad2(e->b, e->cg->i32, flag, ""),
                       LLVMConstInt(e->cg->i32, f32_bits((float)CG_SPEC_F32_UP), 0), "");
}

/* How many speculation levels the kernel for `in` has (0: it computes no
 * function with a fast path): 2 with an f32 (or narrower) sin or cos, 1
 * with only tan. */
static int speculates(const Instr *in) {
  const Computation *c = in->op == OP_FUSION && in->ncalled == 1 ? in->called[0] : NULL;
  int n = c ? c->ninstrs : 1, levels = 0;
  for (int i = 0; i < n; i++) {
    const Instr *x = c ? c->instrs[i] : in;
    if ((x->op == OP_SIN || x->op == OP_COS || x->op == OP_TAN) && type_kind(x->shape->type) == TK_FLOAT &&
        x->shape->type != T_F64) {
      int l = x->op == OP_TAN ? 1 : 2;
      if (l > levels) levels = l;
    }
  }
  return levels;
}

static void store_outputs(Em *e, const Instr *what, const Idx *idx, const int64_t *dims,
                          int first_out, int nout);

/* One pass over the chunk [c0, c1) at speculation level `level` (0: none)
 * and, when it raises the flag, the passes below it. */
static void spec_pass(Em *e, const Instr *what, const Shape *shape, Idx *idx, int d, LLVMValueRef c0,
                      LLVMValueRef c1, int first_out, int nout, LLVMValueRef flag, int level) {
  LLVMBuilderRef B = e->b;
  Loop l;
  if (level > 0) {
    LLVMBuildStore(B, LLVMConstInt(e->cg->i32, 0, 0), flag);
    e->spec_flag = flag;
    e->spec_level = level;
  }
  idx->v[d] = em_loop_begin(e, &l, c0, c1, level > 0 ? "fast" : "exact");
  store_outputs(e, what, idx, shape->dims, first_out, nout);
  /* the exact pass runs only for arguments past every fast path's range
   * (f32 sin and cos: from 2^20): left scalar, as LLVM would otherwise
   * vectorize and unroll its long reduction for nothing (sin_sq_16m's
   * compile 145 -> 90 ms) */
  if (level == 0) e->plain_loop = true;
  em_loop_end(e, &l);
  e->spec_flag = NULL;
  e->spec_level = 0;
  if (level == 0) return;
  IfBlk redo;
  em_if_begin(e, &redo, spec_up(e, flag));
  spec_pass(e, what, shape, idx, d, c0, c1, first_out, nout, flag, level - 1);
  em_if_end(e, &redo);
}

/* After a chunk fails at level 2, the next CG_SPEC_SKIP chunks start at
 * level 1: arguments beyond level 2's range (f32 sin of values from 2^16)
 * tend to come together, and each failed pass costs a pass. */
#define CG_SPEC_SKIP 8

/* The innermost loop of a nest, idx->v[d] over [l, h), speculating in
 * chunks (see above) from level `levels` down. */
static void emit_inner_speculative(Em *e, const Instr *what, const Shape *shape, Idx *idx, int d,
                                   LLVMValueRef l, LLVMValueRef h, int first_out, int nout, int levels) {
  LLVMBuilderRef B = e->b;
  LLVMTypeRef i32 = e->cg->i32;
  LLVMValueRef flag = em_alloca(e, i32), skip = em_alloca(e, i32), C = em_i64(e, CG_SPEC_CHUNK);
  LLVMBuildStore(B, LLVMConstInt(i32, 0, 0), skip);
  LLVMValueRef nch = LLVMBuildSDiv(B, LLVMBuildAdd(B, LLVMBuildSub(B, h, l, ""), em_i64(e, CG_SPEC_CHUNK - 1), ""), C, "");
  Loop cl;
  LLVMValueRef ch = em_loop_begin(e, &cl, em_i64(e, 0), nch, "chunk");
  LLVMValueRef c0 = LLVMBuildAdd(B, l, LLVMBuildMul(B, ch, C, ""), "");
  LLVMValueRef c1 = smin(e, LLVMBuildAdd(B, c0, C, ""), h);
  if (levels < 2) {
    spec_pass(e, what, shape, idx, d, c0, c1, first_out, nout, flag, levels);
  } else {
    /* level 2 unless skipping (then as if it had failed); then below */
    LLVMValueRef sk = LLVMBuildLoad2(B, i32, skip, "");
    LLVMValueRef go = LLVMBuildICmp(B, LLVMIntEQ, sk, LLVMConstInt(i32, 0, 0), "");
    IfBlk top, skipped, below;
    em_if_begin(e, &top, go);
    LLVMBuildStore(B, LLVMConstInt(i32, 0, 0), flag);
    e->spec_flag = flag;
    e->spec_level = 2;
    Loop fl;
    idx->v[d] = em_loop_begin(e, &fl, c0, c1, "fast");
    store_outputs(e, what, idx, shape->dims, first_out, nout);
    em_loop_end(e, &fl);
    e->spec_flag = NULL;
    e->spec_level = 0;
    LLVMBuildStore(B, LLVMBuildSelect(B, spec_up(e, flag), LLVMConstInt(i32, CG_SPEC_SKIP, 0), sk, ""), skip);
    em_if_end(e, &top);
    em_if_begin(e, &skipped, LLVMBuildNot(B, go, ""));
    LLVMBuildStore(B, LLVMBuildSub(B, sk, LLVMConstInt(i32, 1, 0), ""), skip);
    LLVMBuildStore(B, LLVMConstInt(i32, UINT32_MAX, 0), flag);
    em_if_end(e, &skipped);
    em_if_begin(e, &below, spec_up(e, flag));
    spec_pass(e, what, shape, idx, d, c0, c1, first_out, nout, flag, 1);
    em_if_end(e, &below);
  }
  em_loop_end(e, &cl);
}

/* The elements of a chunk of a row (rl, over dim d of idx) of a row
 * kernel whose elements divide by a row's value (Em.row_fast_div): first
 * with the fast division (scalar.c fast_row_div_range), the numerators'
 * range folded into two accumulators, then, if any numerator was out of
 * the range where the fast division is exact (rare: a quotient or
 * remainder out of the normal range), the whole chunk again with true
 * divisions. Where the elements never read the output (Em.out_unread)
 * the first pass stores them (whole vectors, which can stream). Else the
 * output still holds the inputs the second pass would read (a kernel over
 * its operand's buffer, or reading its stash, reads them from the
 * output): the first pass keeps the chunk's values in a stack buffer, and
 * they are copied out when the chunk is exact. Before, that case stored
 * an element only where its own flag stayed down (masked vector stores:
 * microcoded on AMD's Zen 2, a store every ~12 cycles) and kept a flag
 * per element (a per-element flag array cost softmax 10% on AVX-512).
 * Zen 2, softmax over f32[64,4096] in place, in cache, one thread:
 * 0.41 -> 0.22 ms. */
static void fast_div_chunk(Em *e, const Instr *what, const Shape *shape, Idx *idx, int d, RowLoop *rl,
                           int first_out, int nout) {
  LLVMBuilderRef B = e->b;
  LLVMTypeRef i32 = e->cg->i32;
  LLVMValueRef vals[8], stage[8] = {0};
  bool staged = !e->out_unread;
  if (staged)
    for (int k = 0; k < nout && k < 8; k++) {
      const Shape *s = what->shape->type == T_TUPLE ? what->shape->tuple[k] : what->shape;
      stage[k] = em_alloca(e, LLVMArrayType(cg_storage_type(e->cg, s->type), CG_PF_CHUNK));
      LLVMSetAlignment(stage[k], 64);
    }
  LLVMValueRef lo = em_alloca(e, i32), hi = em_alloca(e, i32);
  LLVMBuildStore(B, LLVMConstInt(i32, 0xffffffffu, 0), lo);
  LLVMBuildStore(B, LLVMConstInt(i32, 0, 0), hi);
  idx->v[d] = em_row_inner_begin(e, rl, "fast");
  e->div_lo = lo, e->div_hi = hi;
  int n = em_elem(e, what, idx, vals, 8);
  e->div_lo = e->div_hi = NULL;
  if (e->err) return;
  LLVMValueRef j = LLVMBuildNSWSub(B, idx->v[d], rl->c0, "");
  if (!staged) store_vals(e, what, idx, shape->dims, first_out, nout, vals, n);
  for (int k = 0; staged && k < nout && k < n; k++)
    LLVMBuildStore(B, vals[k], LLVMBuildGEP2(B, LLVMGetAllocatedType(stage[k]), stage[k],
                                             (LLVMValueRef[]){em_i64(e, 0), j}, 2, ""));
  em_row_inner_end(e, rl);
  LLVMValueRef exact = em_fast_div_exact(e, LLVMBuildLoad2(B, i32, lo, ""), LLVMBuildLoad2(B, i32, hi, ""));
  IfBlk again;
  em_if_begin(e, &again, LLVMBuildNot(B, exact, ""));
  idx->v[d] = em_row_inner_begin(e, rl, "exact");
  store_outputs(e, what, idx, shape->dims, first_out, nout);
  em_row_inner_end(e, rl);
  em_if_end(e, &again);
  if (staged) {
    IfBlk out;
    em_if_begin(e, &out, exact);
    idx->v[d] = em_row_inner_begin(e, rl, "copy");
    j = LLVMBuildNSWSub(B, idx->v[d], rl->c0, "");
    for (int k = 0; k < nout && k < n; k++) {
      LLVMTypeRef at = LLVMGetAllocatedType(stage[k]);
      vals[k] = LLVMBuildLoad2(B, LLVMGetElementType(at),
                               LLVMBuildGEP2(B, at, stage[k], (LLVMValueRef[]){em_i64(e, 0), j}, 2, ""), "");
    }
    store_vals(e, what, idx, shape->dims, first_out, nout, vals, n);
    em_row_inner_end(e, rl);
    em_if_end(e, &out);
  }
}

/* ---- pieces of the innermost loop ----
 * A concatenate or pad along the innermost dim, evaluated per element,
 * picks its operand by a compare and a select of every operand's element
 * read at a clamped index: LLVM cannot vectorize those reads (x ++ y
 * along dim 1 of f32[4096,2048] pairs: 8.2 ms against 1.2 ms along dim
 * 0). The innermost loop is split instead at the points where any of
 * them changes operand (concatenate's offsets, pad's edges), each piece a
 * loop of its own in which those ops read one operand at a plain index
 * (Em.piece_var). Only ops of the nest's dims are looked at: their index
 * is the nest's (through elementwise ops); others keep the select. */
#define CG_MAX_PIECES 8

static void add_point(int64_t *pt, int *n, int64_t v, int64_t len) {
  if (v <= 0 || v >= len || *n < 0) return;
  for (int i = 0; i < *n; i++)
    if (pt[i] == v) return;
  if (*n == CG_MAX_PIECES - 1) {
    *n = -1; /* too many: no pieces */
    return;
  }
  pt[(*n)++] = v;
}

/* The points inside (0, len) where `what`'s concatenates and pads over
 * the last dim of `shape` change operand, ascending, into pt; how many
 * (0: none, or too many). */
static int piece_points(const Instr *what, const Shape *shape, int64_t *pt) {
  const Computation *c = what->op == OP_FUSION && what->ncalled == 1 ? what->called[0] : NULL;
  int n = 0, rank = shape->rank, cnt = c ? c->ninstrs : 1;
  if (rank < 1) return 0;
  int64_t len = shape->dims[rank - 1];
  for (int i = 0; i < cnt && n >= 0; i++) {
    const Instr *x = c ? c->instrs[i] : what;
    if ((x->op != OP_CONCATENATE && x->op != OP_PAD) || !shape_same_dims(x->shape, shape)) continue;
    if (x->op == OP_CONCATENATE) {
      if (x->dimensions.n != 1 || x->dimensions.v[0] != rank - 1) continue;
      int64_t off = 0;
      for (int k = 0; k + 1 < x->noperands && n >= 0; k++) add_point(pt, &n, off += x->operands[k]->shape->dims[rank - 1], len);
    } else {
      const PadDim *p = &x->padding[rank - 1];
      int64_t m = x->operands[0]->shape->dims[rank - 1];
      if (p->interior != 0 && m > 1) continue;
      add_point(pt, &n, p->lo, len);
      add_point(pt, &n, p->lo + m, len);
    }
  }
  if (n <= 0) return 0;
  for (int i = 1; i < n; i++) /* insertion sort: a handful */
    for (int j = i; j > 0 && pt[j - 1] > pt[j]; j--) {
      int64_t t = pt[j];
      pt[j] = pt[j - 1];
      pt[j - 1] = t;
    }
  return n;
}

static void store_outputs(Em *e, const Instr *what, const Idx *idx, const int64_t *dims,
                          int first_out, int nout);

/* The innermost loop, idx->v[d] over [l, h), as one loop per piece of
 * [0, dims[d]) between the points pt[0 .. np). */
static void emit_pieces(Em *e, const Instr *what, const Shape *shape, Idx *idx, int d, LLVMValueRef l,
                        LLVMValueRef h, int first_out, int nout, const int64_t *pt, int np) {
  for (int j = 0; j <= np && !e->err; j++) {
    int64_t a = j ? pt[j - 1] : 0, b = j < np ? pt[j] : shape->dims[d];
    Loop lp;
    idx->v[d] = em_loop_begin(e, &lp, smax(e, l, em_i64(e, a)), smin(e, h, em_i64(e, b)), "piece");
    e->piece_var = idx->v[d];
    e->piece_lo = a;
    e->piece_hi = b;
    store_outputs(e, what, idx, shape->dims, first_out, nout);
    e->piece_var = NULL;
    em_loop_end(e, &lp);
  }
}

/* Loop nest over dims storing values of `what`: the outermost loop runs
 * over [lo, hi) of the first `split` dims flattened (row-major), the
 * others over their whole extent; the innermost speculates from level `spec`
 * down when `spec` > 0 (never where the kernel reads its own output). */
static void emit_nest_rows(Em *e, const Instr *what, const Shape *shape, int first_out, int nout,
                           LLVMValueRef lo, LLVMValueRef hi, int split, int spec, int k,
                           const Instr *const *red, int nred);
static cxla_status bind(Em *e, const Instr *in, int slot);

static void emit_nest(Em *e, const Instr *what, const Shape *shape, int first_out, int nout,
                      LLVMValueRef lo, LLVMValueRef hi, int split, int spec) {
  emit_nest_rows(e, what, shape, first_out, nout, lo, hi, split, spec, 0, NULL, 0);
}

/* emit_nest that computes reduces red[0 .. nred) (each a value of the
 * first k output dims) once per row: after the loops over dims 0 .. k-1
 * open, before the inner ones (split <= k). */
static void emit_nest_rows(Em *e, const Instr *what, const Shape *shape, int first_out, int nout,
                           LLVMValueRef lo, LLVMValueRef hi, int split, int spec, int k,
                           const Instr *const *red, int nred) {
  int rank = shape->rank;
  for (int i = 0; i < rank; i++)
    if (shape->dims[i] == 0) return;
  Idx *idx = em_idx(e, rank);
  if (!idx) return;
  Loop loops[CG_MAX_RANK];
  int nloops = 0;
  LLVMValueRef tail[8]; /* the row's value past its band (Em.band) */
  int ntail = 0;
  if (split > 1) {
    LLVMValueRef f = em_loop_begin(e, &loops[nloops++], lo, hi, "l");
    for (int i = split - 1; i > 0; i--) {
      LLVMValueRef d = em_i64(e, shape->dims[i]);
      idx->v[i] = LLVMBuildURem(e->b, f, d, "");
      f = LLVMBuildUDiv(e->b, f, d, "");
    }
    idx->v[0] = f;
  }
  for (int i = split > 1 ? split : 0; i <= rank; i++) {
    if (i == k && nred > 0) {
      Idx *ri = em_idx(e, k);
      if (!ri) return;
      for (int d = 0; d < k; d++) ri->v[d] = idx->v[d];
      if (e->stash_row) {
        /* the stash row, addressed by the output's linear index */
        int64_t len = 1;
        for (int d = k; d < rank; d++) len *= shape->dims[d];
        LLVMValueRef first = LLVMBuildNSWMul(e->b, em_linear(e, ri, shape->dims), em_i64(e, len), "");
        LLVMTypeRef st = cg_storage_type(e->cg, e->stash_red->operands[0]->shape->type);
        LLVMValueRef neg = LLVMBuildNeg(e->b, first, "");
        e->stash_base = LLVMBuildGEP2(e->b, st, e->stash_row, &neg, 1, "");
      }
      if (e->rowpf.n) {
        /* the row ahead: `dist` rows on, the last row past the end */
        int64_t rows = 1, len = 1;
        for (int d = 0; d < rank; d++) *(d < k ? &rows : &len) *= shape->dims[d];
        LLVMValueRef r = em_linear(e, ri, shape->dims);
        r = smin(e, LLVMBuildNSWAdd(e->b, r, em_i64(e, e->rowpf.dist), ""), em_i64(e, rows - 1));
        e->rowpf.next = LLVMBuildNSWMul(e->b, r, em_i64(e, len), "");
      }
      /* a band (Em.band): the chunks that hold it, and the value past it */
      e->band.lim = NULL;
      if (e->band.inv && k == rank - 1) e->band.lim = band_chunks(e, idx, rank, shape->dims[rank - 1]);
      for (int q = 0; q < nred; q++) {
        e->rowpf.on = e->rowpf.n > 0 && q > 0; /* not the first pass */
        (void)em_elem1(e, red[q], ri);
      }
      if (e->band.lim) {
        /* before the stash is bound: the value computed, not read back */
        Idx *t = band_tail_idx(e, idx, rank, shape->dims[rank - 1]);
        em_scope_push(e);
        ntail = t ? em_elem(e, what, t, tail, 8) : 0;
        em_scope_pop(e);
        if (!ntail) e->band.lim = NULL;
      }
      e->rowpf.on = e->rowpf.n > 0;
      /* the row's elements read the stashed values from the output */
      if (e->stash_red && bind(e, e->stash_red->operands[0], e->stash_row ? CG_SLOT_STASH : 0))
        em_fail(e, cxla_oom());
    }
    if (i == rank) break;
    bool ranged = i == 0;
    LLVMValueRef l = ranged ? lo : em_i64(e, 0), h = ranged ? hi : em_i64(e, shape->dims[i]);
    if (spec && i == rank - 1) {
      emit_inner_speculative(e, what, shape, idx, i, l, h, first_out, nout, spec);
      for (int j = nloops - 1; j >= 0; j--) em_loop_end(e, &loops[j]);
      return;
    }
    if (nred > 0 && i == rank - 1 && i >= k) {
      /* the innermost loop over the row's elements */
      RowLoop rl;
      LLVMValueRef lim = e->band.lim;
      e->chunk_lim = lim;
      if (em_row_chunk_begin(e, &rl, idx, i, shape->dims[i]) && e->row_fast_div) {
        fast_div_chunk(e, what, shape, idx, i, &rl, first_out, nout);
      } else {
        idx->v[i] = em_row_inner_begin(e, &rl, "l");
        store_outputs(e, what, idx, shape->dims, first_out, nout);
        em_row_inner_end(e, &rl);
      }
      em_row_chunk_end(e, &rl);
      if (lim && rl.chunked) {
        /* the chunks past the band: the one value */
        Loop f;
        LLVMValueRef j0 = LLVMBuildNSWMul(e->b, lim, em_i64(e, CG_PF_CHUNK), "");
        idx->v[i] = em_loop_begin(e, &f, j0, em_i64(e, shape->dims[i]), "tail");
        store_vals(e, what, idx, shape->dims, first_out, nout, tail, ntail);
        em_loop_end(e, &f);
      }
      e->band.lim = NULL;
      e->rowpf.on = false;
      for (int j = nloops - 1; j >= 0; j--) em_loop_end(e, &loops[j]);
      return;
    }
    int64_t pt[CG_MAX_PIECES];
    int np = i == rank - 1 ? piece_points(what, shape, pt) : 0;
    if (np > 0) {
      emit_pieces(e, what, shape, idx, i, l, h, first_out, nout, pt, np);
      for (int j = nloops - 1; j >= 0; j--) em_loop_end(e, &loops[j]);
      return;
    }
    idx->v[i] = em_loop_begin(e, &loops[nloops++], l, h, "l");
  }
  if (rank == 0) {
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(e->cg->ctx, e->fn, "once");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(e->cg->ctx, e->fn, "done");
    LLVMBuildCondBr(e->b, LLVMBuildICmp(e->b, LLVMIntSLT, lo, hi, ""), body, done);
    LLVMPositionBuilderAtEnd(e->b, body);
    em_scope_push(e);
    store_outputs(e, what, idx, shape->dims, first_out, nout);
    em_scope_pop(e);
    LLVMBuildBr(e->b, done);
    LLVMPositionBuilderAtEnd(e->b, done);
    return;
  }
  store_outputs(e, what, idx, shape->dims, first_out, nout);
  for (int i = nloops - 1; i >= 0; i--) em_loop_end(e, &loops[i]);
}

/* ---- streamed nests ----
 * An elementwise kernel whose outputs are results of the module, larger
 * than the middle-level caches, writes them with non-temporal stores: a
 * cache line written whole is not read from memory first (a third of the
 * traffic of a one-in, one-out kernel), and the caller reads results later
 * if at all. Values are those of emit_nest, bit for bit. Such a kernel
 * has one copy of its nest, the streamed one, and relies on its caller
 * for aligned outputs and slices (codegen_kernel_streams): a plain copy
 * for unaligned ones cost as much compile time again (softmax_4096's
 * LLVM 48 -> 34 ms without it, sin_sq_16m's 75 -> 55). */
#define CG_STREAM_MIN_BYTES (16 << 20)

/* Whether in's value is a result of its module's entry computation (its
 * root or an operand of a root tuple): what the caller takes, not read
 * again by the next kernel (which may find an intermediate still in the
 * last-level cache: this host's is 480 MiB). Linear in the root's
 * operands; asked only of kernels with outputs of CG_STREAM_MIN_BYTES. */
static bool entry_result(const Instr *in) {
  const Computation *c = in->parent;
  if (!c || !c->is_entry || !c->root) return false;
  if (c->root == in) return true;
  if (c->root->op != OP_TUPLE) return false;
  for (int i = 0; i < c->root->noperands; i++)
    if (c->root->operands[i] == in) return true;
  return false;
}

bool codegen_kernel_streams(const Instr *in) { return !codegen_kernel_context_free(in) && entry_result(in); }

bool codegen_kernel_context_free(const Instr *in) {
  const Shape *s = in->shape;
  int n = s->type == T_TUPLE ? s->ntuple : 1;
  for (int k = 0; k < n; k++) {
    const Shape *o = s->type == T_TUPLE ? s->tuple[k] : s;
    if (o->type != T_TUPLE && shape_elems(o) * type_bits(o->type) / 8 >= CG_STREAM_MIN_BYTES) return false;
  }
  return true;
}

/* Whether the nest of kernel `in` over outputs sh[0 .. nout) (same dims,
 * rows over the first `split` dims) streams: every output
 * CG_STREAM_MIN_BYTES or more, and either one-dimensional (slices start
 * at multiples of CODEGEN_STREAM_ALIGN elements) or with rows of whole
 * 64-byte lines; and in's value an entry result. */
static bool streamed(const Instr *in, const Shape *const *sh, int nout, int split) {
  if (nout < 1 || nout > 8 || sh[0]->rank < 1) return false;
  for (int k = 0; k < nout; k++) {
    int64_t b = type_bits(sh[k]->type);
    if (b != 8 && b != 16 && b != 32 && b != 64) return false;
    int64_t bytes = shape_elems(sh[k]) * b / 8, row = b / 8;
    for (int i = split; i < sh[k]->rank; i++) row *= sh[k]->dims[i];
    if (bytes < CG_STREAM_MIN_BYTES || (sh[k]->rank > 1 && row % 64)) return false;
  }
  return entry_result(in);
}

/* emit_nest over [lo, hi) with streamed stores (Em.stream), under the
 * contract codegen_kernel_streams states: every output 64-byte aligned
 * and, rank 1, lo a multiple of CODEGEN_STREAM_ALIGN elements. Rank 1:
 * lo rounded up to a multiple of g elements all the same (no change under
 * the contract), so that LLVM knows the vector stores are aligned. The
 * fence at the end makes the streamed stores visible before the slice
 * counts as done. */
static void emit_streamed(Em *e, const Instr *what, const Shape *const *sh, int nout, LLVMValueRef lo,
                          LLVMValueRef hi, int split, int spec) {
  int64_t g = 1;
  for (int k = 0; k < nout; k++) {
    int64_t gk = 512 / type_bits(sh[k]->type);
    if (gk > g) g = gk;
  }
  LLVMValueRef s2 = lo;
  if (sh[0]->rank == 1) s2 = LLVMBuildAnd(e->b, LLVMBuildAdd(e->b, lo, em_i64(e, g - 1), ""), em_i64(e, -g), "");
  em_scope_push(e);
  e->stream = true;
  emit_nest(e, what, sh[0], 0, nout, s2, hi, split, spec);
  e->stream = false;
  em_scope_pop(e);
  LLVMBuildFence(e->b, LLVMAtomicOrderingSequentiallyConsistent, 0, "");
}

/* ---- streamed row kernels ----
 * A row kernel (reduces per row, then the row's elements) whose output is
 * streamed (as `streamed` says) writes the row's elements with
 * non-temporal stores. A stash (Em.stash_red) written into the output row
 * would bring each line of it into the cache first, so it goes to a row
 * of scratch on the stack instead, which the elements read back: the
 * kernel reads its input once and writes its output once. Rows of a
 * stash longer than CG_STASH_MAX bytes do not stream. */
#define CG_STASH_MAX (32 << 10)

static bool streamed_rows(Em *e, const Instr *in, const Shape *const *sh, int nout, int split, int rowk) {
  if (sh[0]->rank < 2 || split < 1 || !streamed(in, sh, nout, split)) return false;
  if (!e->stash_red) return true;
  const Shape *vs = e->stash_red->operands[0]->shape;
  int64_t len = 1;
  for (int d = rowk; d < vs->rank; d++) len *= vs->dims[d];
  int64_t bytes = len * type_bits(vs->type) / 8;
  if (bytes > CG_STASH_MAX) return false;
  LLVMTypeRef at = LLVMArrayType(cg_storage_type(e->cg, vs->type), (unsigned)len);
  e->stash_row = em_alloca(e, at);
  LLVMSetAlignment(e->stash_row, 64);
  return true;
}

/* emit_nest_rows over [lo, hi) as emit_streamed emits a nest (rows of
 * whole lines: streamed_rows). */
static void emit_rows_streamed(Em *e, const Instr *what, const Shape *const *sh, int nout, LLVMValueRef lo,
                               LLVMValueRef hi, int split, int rowk, const Instr *const *red, int nred) {
  e->out_unread = true;
  em_scope_push(e);
  e->stream = true;
  emit_nest_rows(e, what, sh[0], 0, nout, lo, hi, split, 0, rowk, red, nred);
  e->stream = false;
  em_scope_pop(e);
  LLVMBuildFence(e->b, LLVMAtomicOrderingSequentiallyConsistent, 0, "");
}

/* Whether store st writes through an address computed from llvm.ptrmask
 * (GEPs of it), which only emit_streamed's stores do. */
static bool stores_via_ptrmask(LLVMValueRef st) {
  LLVMValueRef p = LLVMGetOperand(st, 1);
  while (p && LLVMIsAGetElementPtrInst(p)) p = LLVMGetOperand(p, 0);
  if (!p || !LLVMIsACallInst(p)) return false;
  LLVMValueRef f = LLVMGetCalledValue(p);
  size_t n = 0;
  const char *name = f && LLVMIsAFunction(f) ? LLVMGetValueName2(f, &n) : NULL;
  return name && n >= 12 && !strncmp(name, "llvm.ptrmask", 12);
}

void codegen_mark_streams(LLVMModuleRef mod) {
  static const char nt[] = "nontemporal";
  LLVMContextRef ctx = LLVMGetModuleContext(mod);
  unsigned kind = LLVMGetMDKindIDInContext(ctx, nt, sizeof nt - 1);
  LLVMMetadataRef one = LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(ctx), 1, 0));
  LLVMValueRef md = LLVMMetadataAsValue(ctx, LLVMMDNodeInContext2(ctx, &one, 1));
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
      for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
        if (!LLVMIsAStoreInst(i)) continue;
        LLVMTypeRef t = LLVMTypeOf(LLVMGetOperand(i, 0));
        if (LLVMGetTypeKind(t) != LLVMVectorTypeKind) continue;
        LLVMTypeRef et = LLVMGetElementType(t);
        unsigned eb = LLVMGetTypeKind(et) == LLVMFloatTypeKind    ? 32
                      : LLVMGetTypeKind(et) == LLVMDoubleTypeKind ? 64
                      : LLVMGetTypeKind(et) == LLVMHalfTypeKind || LLVMGetTypeKind(et) == LLVMBFloatTypeKind
                          ? 16
                      : LLVMGetTypeKind(et) == LLVMIntegerTypeKind ? LLVMGetIntTypeWidth(et)
                                                                   : 0;
        unsigned bytes = LLVMGetVectorSize(t) * eb / 8;
        if (eb % 8 || bytes < 16 || LLVMGetAlignment(i) < bytes || !stores_via_ptrmask(i)) continue;
        LLVMSetMetadata(i, kind, md);
      }
}

/* ---- tiled nests ----
 * A kernel that reads an operand transposed (its output's innermost dim
 * walks a non-innermost dim of what it reads) touches a new cache line per
 * element in row order. Its two innermost output dims are walked in square
 * tiles instead, so that the lines read for one row of a tile serve the
 * next rows. Every output element is computed independently, so the order
 * changes nothing but speed. */
#define CG_TILE 32

/* Whether s's last logical dim is its innermost in memory (a dim of 1
 * aside: a rank-0 or -1 array, or a row-major one, has it). */
static bool last_dim_innermost(const Shape *s) {
  if (s->rank < 2 || !s->has_layout || !s->minor_to_major) return true;
  for (int k = 0; k < s->rank; k++) {
    int64_t d = s->minor_to_major[k];
    if (s->dims[d] != 1) return d == s->rank - 1;
  }
  return true;
}

/* A bitcast or copy whose last logical dim is innermost in memory on both
 * sides (a transpose of whole rows: attention's [B, S, H, D] <-> [B, H, S,
 * D], {1,0,2}) reads each output row's elements consecutively: rows of at
 * least 2 CG_TILE elements (should_tile) are whole cache lines, which
 * tiles would only reorder (f32[8,1024,16,128] {0,2,1,3}, two threads:
 * 7.8 ms in 32 x 32 tiles over [S, D], whose inner loop walked S). */
static bool reads_transposed(const Instr *x) {
  if (x->op == OP_TRANSPOSE) {
    int r = x->shape->rank;
    return r >= 2 && x->dimensions.n == r && x->dimensions.v[r - 1] != r - 1;
  }
  if (x->op == OP_BITCAST || x->op == OP_COPY) {
    if (x->noperands != 1 || !type_is_array(x->shape->type)) return false;
    const Shape *o = x->operands[0]->shape;
    if (shape_physically_row_major(x->shape) && shape_physically_row_major(o)) return false;
    return !last_dim_innermost(x->shape) || !last_dim_innermost(o);
  }
  return false;
}

static bool should_tile(const Instr *in, const Shape *shape) {
  int r = shape->rank;
  if (r < 2 || shape->dims[r - 1] < 2 * CG_TILE || shape->dims[r - 2] < 2 * CG_TILE) return false;
  if (in->op != OP_FUSION) return reads_transposed(in);
  const Computation *c = in->called[0];
  for (int i = 0; i < c->ninstrs; i++)
    if (reads_transposed(c->instrs[i])) return true;
  return false;
}

/* emit_nest with the two innermost dims in CG_TILE x CG_TILE tiles (rank
 * >= 2, no zero dims); the outermost dim still ranges over [lo, hi). */
static void emit_nest_tiled(Em *e, const Instr *what, const Shape *shape, int first_out, int nout,
                            LLVMValueRef lo, LLVMValueRef hi) {
  int rank = shape->rank, a = rank - 2, b = rank - 1;
  Idx *idx = em_idx(e, rank);
  if (!idx) return;
  Loop loops[CG_MAX_RANK], tl[2], il[2];
  for (int i = 0; i < a; i++)
    idx->v[i] = em_loop_begin(e, &loops[i], i == 0 ? lo : em_i64(e, 0), i == 0 ? hi : em_i64(e, shape->dims[i]), "l");
  LLVMValueRef T = em_i64(e, CG_TILE);
  LLVMValueRef alo = a == 0 ? lo : em_i64(e, 0), ahi = a == 0 ? hi : em_i64(e, shape->dims[a]);
  LLVMValueRef na = LLVMBuildSDiv(e->b, LLVMBuildAdd(e->b, LLVMBuildSub(e->b, ahi, alo, ""), em_i64(e, CG_TILE - 1), ""), T, "");
  LLVMValueRef ta = em_loop_begin(e, &tl[0], em_i64(e, 0), na, "ta");
  LLVMValueRef tb = em_loop_begin(e, &tl[1], em_i64(e, 0), em_i64(e, (shape->dims[b] + CG_TILE - 1) / CG_TILE), "tb");
  LLVMValueRef a0 = LLVMBuildAdd(e->b, alo, LLVMBuildMul(e->b, ta, T, ""), "");
  LLVMValueRef b0 = LLVMBuildMul(e->b, tb, T, "");
  LLVMValueRef a1 = smin(e, LLVMBuildAdd(e->b, a0, T, ""), ahi);
  LLVMValueRef b1 = smin(e, LLVMBuildAdd(e->b, b0, T, ""), em_i64(e, shape->dims[b]));
  idx->v[a] = em_loop_begin(e, &il[0], a0, a1, "ia");
  idx->v[b] = em_loop_begin(e, &il[1], b0, b1, "ib");
  store_outputs(e, what, idx, shape->dims, first_out, nout);
  /* the tile's row vectorized but not unrolled: LLVM unrolled its 32
   * elements whole (their trip count is at most 32), into gathers of 8
   * scalar loads the SLP vectorizer and the backend then spent 50 ms
   * each on (conv_transpose's weight transform, 73K elements: its
   * compile 101 -> 50 ms on a Zen 2; f32[2048,2048] transposed plus
   * another, run 6.8-7.2 -> 5.9 ms) */
  e->no_unroll = true;
  em_loop_end(e, &il[1]);
  /* the tile's rows one after the other: LLVM unrolled this loop around
   * the vectorized row (a kernel of transformer_fwd_bwd then had 129
   * gathers, and loop strength reduction took 150 ms on each of three
   * such kernels: its compile 0.79 -> 0.40 s, transformer_fwd's 0.30 ->
   * 0.17 s, run times unchanged; the row loop left scalar as well made
   * transformer_fwd 10% slower) */
  e->plain_loop = true;
  em_loop_end(e, &il[0]);
  em_loop_end(e, &tl[1]);
  em_loop_end(e, &tl[0]);
  for (int i = a - 1; i >= 0; i--) em_loop_end(e, &loops[i]);
}

/* ---- 2-D transposes of 32-bit elements ----
 * A kernel that only transposes a 2-D operand (out[i][j] = in[j][i]) moves
 * 16 x 16 blocks: 16 rows of 16 elements loaded as vectors, transposed in
 * registers by four rounds of two-vector shuffles, stored as 16 rows (the
 * runtime's cxla_cg_rt_transpose32, rt_transpose.c). Each cache line of
 * both arrays is then read or written whole, once; the element-wise tiles
 * read 32 lines whose addresses differ by a power of two (one cache set)
 * per output row. Blocks of CG_TBLOCK (codegen.h). */

/* The operand `in`'s kernel transposes whole, if it is one, with the
 * batch, rows and columns of the transpose into *bt, *br, *bc: its value
 * (under fused copies) is a transpose (of a row-major array) or a bitcast
 * of a 32-bit array the kernel reads, and each output element (b, i, j)
 * over the output's dims grouped into batch, rows and columns is element
 * b R C + j R + i of the operand's memory (out[b][i][j] = src[b][j][i]):
 * 2-D transposes {1,0} and the bitcasts that swap both dims and layout,
 * [N, C, H*W] <-> [N, H*W, C] (NCHW to NHWC and back, {0,2,3,1} and
 * {0,3,1,2}), batches of matrices {0,2,1}, and layout assignment's
 * bitcasts of any of them. Columns a multiple of CG_TBLOCK, and rows too
 * in a batch (a block never straddles two matrices; rows after the last
 * whole block of a single matrix are moved one by one). */
static const Instr *transposed_operand(const Instr *in, const Instr *value, int64_t *bt, int64_t *br,
                                       int64_t *bc) {
  /* a fused copy (layout assignment's copy(bitcast(p)) of a transpose) is
   * its operand: the kernel writes the same logical elements */
  while (in->op == OP_FUSION && value->op == OP_COPY && value->noperands == 1 &&
         shape_same_dims(value->shape, value->operands[0]->shape))
    value = value->operands[0];
  if (in->shape->type == T_TUPLE || value->noperands != 1) return NULL;
  if (value->op != OP_TRANSPOSE && value->op != OP_BITCAST) return NULL;
  const Instr *o = value->operands[0];
  const Shape *s = value->shape, *os = o->shape;
  int r = s->rank;
  if (r < 2 || r > CG_MAX_RANK || s->type != os->type || type_bytes(s->type) != 4 || !type_is_array(s->type) ||
      !shape_same_dims(in->shape, s) || shape_elems(s) == 0)
    return NULL;
  /* what it transposes is the kernel's own operand or fused parameter */
  if (in->op == OP_FUSION ? o->op != OP_PARAMETER : value != in) return NULL;
  /* each output dim's stride in the operand's memory */
  int64_t st[CG_MAX_RANK];
  if (value->op == OP_TRANSPOSE) {
    if (value->dimensions.n != r || os->rank != r || !shape_physically_row_major(os)) return NULL;
    int64_t ost[CG_MAX_RANK], cur = 1;
    for (int d = r - 1; d >= 0; d--) {
      ost[d] = cur;
      cur *= os->dims[d];
    }
    for (int d = 0; d < r; d++) st[d] = ost[value->dimensions.v[d]];
  } else {
    if (!s->has_layout || !s->minor_to_major || s->layout_tail) return NULL;
    int64_t cur = 1;
    for (int k = 0; k < r; k++) {
      int d = (int)s->minor_to_major[k];
      st[d] = cur;
      cur *= s->dims[d];
    }
  }
  /* groups of consecutive output dims contiguous in the operand (dims of
   * one left out) */
  int64_t ge[CG_MAX_RANK], gs[CG_MAX_RANK];
  int ng = 0;
  for (int d = 0; d < r; d++) {
    if (s->dims[d] == 1) continue;
    if (ng > 0 && gs[ng - 1] == st[d] * s->dims[d]) {
      ge[ng - 1] *= s->dims[d];
      gs[ng - 1] = st[d];
    } else {
      ge[ng] = s->dims[d];
      gs[ng++] = st[d];
    }
  }
  int64_t B = 1, R, C;
  if (ng == 2 && gs[0] == 1 && gs[1] == ge[0]) {
    R = ge[0], C = ge[1];
  } else if (ng == 3 && gs[1] == 1 && gs[2] == ge[1] && gs[0] == ge[1] * ge[2]) {
    B = ge[0], R = ge[1], C = ge[2];
    if (R % CG_TBLOCK) return NULL;
  } else {
    return NULL;
  }
  if (C % CG_TBLOCK) return NULL;
  *bt = B, *br = R, *bc = C;
  return o;
}

/* Outputs of at least this many bytes are written by non-temporal
 * stores (x86 hosts): the output then bypasses the caches, with no read
 * of each line before it is written. A block's 16 rows lie cols * 4 bytes
 * apart, so the lines of a pass over the output rows (one column block)
 * fall in a few cache sets and are evicted before they fill; measured on
 * f32[4096,4096] (64 MiB), 2 threads: 23-37 ms with plain stores, 6-10
 * ms with these. Smaller outputs (4 MiB and less in the benchmarks)
 * are mostly read back from the caches soon: plain stores. */
#define CG_TRANSPOSE_NT_BYTES ((int64_t)16 << 20)

/* How a transposing kernel (transposed_operand: src) is split: `batch`
 * matrices of `rows` x `cols` output elements (batch 1: 2-D), in `units`
 * of the kernel's range: 16-row blocks of the batch's rows (the last one
 * of a 2-D output maybe short), or, where a 2-D output has fewer than
 * CG_TCOL_ROWS rows, 16-column blocks of all rows (f32[1048576,16]
 * transposed: 16 output rows; as row blocks one unit, one thread, and
 * as rows the threads' slices had no whole block and moved every element
 * alone: 28 ms, against 2.4 ms on one thread in blocks). */
#define CG_TCOL_ROWS 128

static bool transpose_plan(const Instr *in, TPlan *p) {
  const Instr *value = in->op == OP_FUSION ? in->called[0]->root : in;
  if (cg_whole_op(in->op) || !(p->src = transposed_operand(in, value, &p->batch, &p->rows, &p->cols))) return false;
  p->by_cols = p->batch == 1 && p->rows < CG_TCOL_ROWS;
  p->units = p->by_cols ? p->cols / CG_TBLOCK : (p->batch * p->rows + CG_TBLOCK - 1) / CG_TBLOCK;
  return true;
}

/* The element offset in src (batch x cols x rows) of output row i
 * (counted over the batch) and column j. */
static LLVMValueRef tsrc_off(Em *e, const TPlan *p, LLVMValueRef i, LLVMValueRef j) {
  LLVMBuilderRef B = e->b;
  LLVMValueRef R = em_i64(e, p->rows);
  if (p->batch == 1) return LLVMBuildAdd(B, LLVMBuildMul(B, j, R, ""), i, "");
  LLVMValueRef b = LLVMBuildUDiv(B, i, R, ""), ii = LLVMBuildSub(B, i, LLVMBuildMul(B, b, R, ""), "");
  LLVMValueRef base = LLVMBuildMul(B, b, em_i64(e, p->rows * p->cols), "");
  return LLVMBuildAdd(B, base, LLVMBuildAdd(B, LLVMBuildMul(B, j, R, ""), ii, ""), "");
}

/* Output rows [i_lo, i_lo + nb * 16) by columns [j_lo, j_lo + nj * 16)
 * (i_lo, j_lo multiples of 16: blocks never straddle matrices of a
 * batch) = their transpose in src: a call of the runtime's block mover
 * (rt_transpose.c), which streams the stores where nt and out's rows are
 * 64-byte aligned (an sfence then, so that they are visible when the
 * slice returns). Emitted here, the unrolled blocks cost LLVM 45-50 ms a
 * kernel. */
static void emit_tblocks(Em *e, const TPlan *p, LLVMValueRef src, LLVMValueRef out, LLVMValueRef i_lo,
                         LLVMValueRef nb, LLVMValueRef j_lo, LLVMValueRef nj, bool nt) {
  Codegen *cg = e->cg;
  static const char name[] = "cxla_cg_rt_transpose32";
  LLVMTypeRef i64 = cg->i64;
  LLVMTypeRef ft = LLVMFunctionType(cg->vd, (LLVMTypeRef[]){cg->ptr, cg->ptr, i64, i64, i64, i64, i64, i64, cg->i32},
                                    9, 0);
  LLVMValueRef f = LLVMGetNamedFunction(cg->mod, name);
  if (!f) f = LLVMAddFunction(cg->mod, name, ft);
  LLVMValueRef args[9] = {src, out, em_i64(e, p->rows), em_i64(e, p->cols), i_lo, nb, j_lo, nj,
                          LLVMConstInt(cg->i32, nt, 0)};
  LLVMBuildCall2(e->b, ft, f, args, 9, "");
}

/* Units [lo, hi) of a transposing kernel (transpose_plan) from operand
 * buffer `src`, 32-bit elements: the whole blocks by the runtime's block
 * mover, the rows and columns past them here. */
static void emit_transpose(Em *e, int src_slot, const TPlan *p, LLVMValueRef lo, LLVMValueRef hi) {
  Codegen *cg = e->cg;
  LLVMBuilderRef B = e->b;
  LLVMValueRef out = em_buf(e, 0), src = em_buf(e, src_slot), T = em_i64(e, CG_TBLOCK);
  int64_t nrows = p->batch * p->rows;
  /* the unit's blocks, and the rows after them (moved one by one) over
   * columns [c0, c1) */
  LLVMValueRef i_lo, nb, j_lo, nj, r0, r1, c0, c1;
  if (p->by_cols) {
    i_lo = em_i64(e, 0);
    nb = em_i64(e, p->rows / CG_TBLOCK);
    j_lo = LLVMBuildMul(B, lo, T, "");
    nj = LLVMBuildSub(B, hi, lo, "");
    r0 = em_i64(e, p->rows / CG_TBLOCK * CG_TBLOCK);
    r1 = em_i64(e, p->rows);
    c0 = j_lo;
    c1 = LLVMBuildMul(B, hi, T, "");
  } else {
    i_lo = LLVMBuildMul(B, lo, T, "");
    LLVMValueRef i_hi = smin(e, LLVMBuildMul(B, hi, T, ""), em_i64(e, nrows));
    nb = LLVMBuildSDiv(B, LLVMBuildSub(B, i_hi, i_lo, ""), T, "");
    j_lo = em_i64(e, 0);
    nj = em_i64(e, p->cols / CG_TBLOCK);
    r0 = LLVMBuildAdd(B, i_lo, LLVMBuildMul(B, nb, T, ""), "");
    r1 = i_hi;
    c0 = em_i64(e, 0);
    c1 = em_i64(e, p->cols);
  }
  bool nt = false;
#if defined(__x86_64__)
  nt = nrows * p->cols * 4 >= CG_TRANSPOSE_NT_BYTES;
#endif
  emit_tblocks(e, p, src, out, i_lo, nb, j_lo, nj, nt);
  Loop rl, cl;
  LLVMValueRef i = em_loop_begin(e, &rl, r0, r1, "tr");
  LLVMValueRef j = em_loop_begin(e, &cl, c0, c1, "tc");
  LLVMValueRef so = tsrc_off(e, p, i, j);
  LLVMValueRef oo = LLVMBuildAdd(B, LLVMBuildMul(B, i, em_i64(e, p->cols), ""), j, "");
  LLVMValueRef v = LLVMBuildLoad2(B, cg->i32, LLVMBuildGEP2(B, cg->i32, src, &so, 1, ""), "");
  LLVMBuildStore(B, v, LLVMBuildGEP2(B, cg->i32, out, &oo, 1, ""));
  em_loop_end(e, &cl);
  em_loop_end(e, &rl);
}

/* Elements computed by the inner loops of one instruction per output
 * element (reductions, windows, contractions), else 1. */
static int64_t inner_trip(const Instr *in) {
  int64_t t = 1;
  switch (in->op) {
  case OP_REDUCE:
    for (int k = 0; k < in->dimensions.n; k++) t *= in->operands[0]->shape->dims[in->dimensions.v[k]];
    return t;
  case OP_REDUCE_WINDOW: case OP_CONVOLUTION:
    for (int k = 0; k < in->nwindow; k++) t *= in->window[k].size;
    if (in->op == OP_CONVOLUTION) t *= in->operands[1]->shape->dims[in->conv.k_in];
    return t;
  case OP_DOT:
    for (int k = 0; k < in->dot.lhs_contract.n; k++) t *= in->operands[0]->shape->dims[in->dot.lhs_contract.v[k]];
    return t;
  default: return 1;
  }
}

/* Rough element operations of a kernel: small ones are optimized for size
 * (LLVM then spends little time vectorizing and unrolling code that runs
 * for a few elements). */
/* Lets LLVM's vectorizer use the host's widest vectors: X86 targets that
 * have AVX-512 prefer 256-bit ones unless told (frequency concerns of
 * older chips), which halves the lanes of compute-bound elementwise code
 * (f32 sin, tanh, exp: 8 lanes instead of 16). Where the host has no
 * 512-bit vectors the attribute changes nothing. */
static void prefer_wide_vectors(Codegen *cg, LLVMValueRef fn) {
  static const char k[] = "prefer-vector-width", v[] = "512";
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                          LLVMCreateStringAttribute(cg->ctx, k, sizeof k - 1, v, sizeof v - 1));
}

/* Kernels of fewer element operations than this are optimized for size
 * (optsize, minsize): their run time is the call's, not the loop's. */
#define CG_SMALL_WORK 2048

static bool has_fn_attr(LLVMValueRef fn, unsigned kind) {
  return LLVMGetEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, kind) != NULL;
}

/* Whether f is a function the module defines for its callers (a kernel),
 * not a declaration or an internal body. */
static bool defined_kernel(LLVMValueRef f) {
  return LLVMGetLinkage(f) == LLVMExternalLinkage && LLVMCountBasicBlocks(f) > 0;
}

cxla_status codegen_light_small_kernels(Codegen *cg, int *nlight) {
  *nlight = 0;
  unsigned os = LLVMGetEnumAttributeKindForName("optsize", 7), ms = LLVMGetEnumAttributeKindForName("minsize", 7);
  unsigned on = LLVMGetEnumAttributeKindForName("optnone", 7), ni = LLVMGetEnumAttributeKindForName("noinline", 8);
  for (LLVMValueRef f = LLVMGetFirstFunction(cg->mod); f; f = LLVMGetNextFunction(f)) {
    if (!defined_kernel(f) || !has_fn_attr(f, ms)) continue;
    LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, os);
    LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, ms);
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(cg->ctx, on, 0));
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(cg->ctx, ni, 0));
    ++*nlight;
  }
  return NULL;
}

bool codegen_all_kernels_small(Codegen *cg) {
  unsigned ms = LLVMGetEnumAttributeKindForName("minsize", 7), on = LLVMGetEnumAttributeKindForName("optnone", 7);
  for (LLVMValueRef f = LLVMGetFirstFunction(cg->mod); f; f = LLVMGetNextFunction(f))
    if (defined_kernel(f) && !has_fn_attr(f, ms) && !has_fn_attr(f, on)) return false;
  return true;
}

static int64_t kernel_work(const Instr *in) {
  int64_t out = 0, inner = inner_trip(in);
  if (in->shape->type == T_TUPLE) {
    for (int i = 0; i < in->shape->ntuple; i++) out += shape_elems(in->shape->tuple[i]);
  } else {
    out = shape_elems(in->shape);
  }
  if (in->op == OP_FUSION)
    for (int i = 0; i < in->called[0]->ninstrs; i++) {
      int64_t t = inner_trip(in->called[0]->instrs[i]);
      if (t > inner) inner = t;
    }
  return out * inner;
}

/* ---- row kernels ----
 * A fusion that reduces rows of an array of its output's dims (over the
 * trailing dims k .. rank-1) and broadcasts the results back along them
 * (softmax: a row max, a row sum of exp(x - max), x's row scaled by 1 /
 * sum; layer norm) computes each reduce once per row, before the row's
 * elements: the elemental emitter then finds the row's value memoized
 * wherever the row's elements read it, and the row's input, read by every
 * pass over it, stays in cache. Each reduce still sees its elements in
 * the per-element loop's order, so results are those of that loop.
 * Which fusions qualify: comp_row_reductions (ir.h). */

/* k (> 0) and the reduces of a row kernel for `in` with output shape s
 * (comp_row_reductions), or 0 when `in` is not one. */
static int row_reduces(const Instr *in, const Shape *s, const Instr **red, int max) {
  if (in->op != OP_FUSION || in->shape->type == T_TUPLE) return 0;
  return comp_row_reductions(in->called[0], s, red, max);
}

/* The reduce whose input a row kernel keeps in its output row (see
 * Em.stash_red): the last one, when its input is computed in the kernel
 * (not read from a buffer) from a reduce's value, of the output's type
 * and dims, read by other instructions too, and the reduce is a sum;
 * or NULL. */
static const Instr *row_stash(const Instr *in, const Shape *out, const Instr *last) {
  const Instr *v = last->operands[0];
  if (codegen_kernel_outputs(in) != 1 || v->op == OP_PARAMETER || v->shape->type != out->type ||
      !shape_same_dims(v->shape, out) || last->called[0]->root->op != OP_ADD)
    return NULL;
  /* v must depend on a reduce: comp_row_reductions then has every use of
   * it read it at the output's index (or in a reduce's loop) */
  const Computation *c = in->called[0];
  bool *dep = cxla_calloc((size_t)c->ninstrs + 1, sizeof *dep), used = false;
  if (!dep) return NULL;
  for (int i = 0; i < c->ninstrs; i++) {
    const Instr *x = c->instrs[i];
    dep[i] = x->op == OP_REDUCE;
    for (int k = 0; k < x->noperands; k++) {
      int id = x->operands[k]->id;
      if (id >= 0 && id < i && c->instrs[id] == x->operands[k]) dep[i] |= dep[id];
      used |= x != last && x->operands[k] == v;
    }
  }
  bool ok = used && v->id >= 0 && v->id < c->ninstrs && c->instrs[v->id] == v && dep[v->id];
  cxla_free(dep);
  return ok ? last : NULL;
}

/* Rows of more than CG_PF_MAX_ROW bytes (of all buffers together) are
 * not prefetched (Em.rowpf): the row ahead would evict the row the later
 * passes read (this host's L2: 2 MiB a core). Shorter rows prefetch the
 * row about CG_PF_AHEAD bytes ahead: memory's latency and more. */
#define CG_PF_MAX_ROW (1 << 20)
#define CG_PF_AHEAD (16 << 10)

/* Em.rowpf for row kernel `in` (rows of its output dims rowk ..): the
 * buffers of its parameters of the output's dims (read a row at a time;
 * the outputs are written, and prefetching them for writing measured no
 * faster). */
static void row_prefetch_setup(Em *e, const Instr *in, const Shape *out, int rowk) {
  const Computation *c = in->called[0];
  int64_t len = 1, bytes = 0;
  for (int d = rowk; d < out->rank; d++) len *= out->dims[d];
  e->rowpf.n = 0;
  for (int i = 0; i < c->nparams && e->rowpf.n < CG_PF_MAX; i++) {
    const Shape *ps = c->params[i]->shape;
    if (!type_is_array(ps->type) || !shape_same_dims(ps, out)) continue;
    int es = type_bits(ps->type) < 8 ? 1 : type_bits(ps->type) / 8;
    int b = e->rowpf.n++;
    e->rowpf.buf[b] = em_buf(e, e->nout + i);
    e->rowpf.esize[b] = es;
    bytes += len * es;
  }
  if (bytes == 0 || bytes > CG_PF_MAX_ROW) {
    e->rowpf.n = 0;
    return;
  }
  e->rowpf.k = rowk;
  e->rowpf.rank = out->rank;
  e->rowpf.dims = out->dims;
  e->rowpf.dist = (CG_PF_AHEAD + bytes - 1) / bytes;
}

/* Whether a row kernel may write its output over its operand 0, the
 * buffer of parameter 0 (the executor then reuses that buffer when the
 * kernel is its last use: softmax over a dot's scores needs no second
 * array of their size). Parameter 0 must have the output's type and dims
 * and be read only at the output's index: every instruction reading it,
 * or reading a value read so, is elementwise with the output's dims, up
 * to the row reduces. A row's reduces then read the row before any of it
 * is written, and each element is read before it is written, at the same
 * index, on the thread that owns the row. With a stash (row_stash: the
 * last reduce's input written into the output row while reducing) the
 * row's elements must read parameter 0 only through the stashed value.
 * codegen_emit_kernel_alias emits such a kernel reading parameter 0
 * through the output's pointer (bufs[nout] is not read). */
static bool row_inplace(const Instr *in) {
  if (in->op != OP_FUSION || in->ncalled != 1 || in->noperands < 1 || in->shape->type == T_TUPLE ||
      !outputs_same_dims(in))
    return false;
  const Computation *c = in->called[0];
  const Instr *value = c->root, *red[CG_MAX_ROW_REDUCES + 1] = {0};
  TPlan tp;
  /* the row kernel's path in codegen_emit_kernel_pre, not one before it */
  if (c->nparams < 1 || cg_dus_inplace(in) || column_reduces(in, value, NULL) ||
      transpose_plan(in, &tp) || should_tile(in, in->shape) ||
      row_reduces(in, in->shape, red, CG_MAX_ROW_REDUCES) <= 0)
    return false;
  const Instr *p0 = c->params[0];
  if (p0->shape->type != in->shape->type || !shape_same_dims(p0->shape, in->shape)) return false;
  int nred = 0;
  while (nred < CG_MAX_ROW_REDUCES && red[nred]) nred++;
  const Instr *stash = row_stash(in, in->shape, red[nred - 1]);
  bool *direct = cxla_calloc((size_t)c->ninstrs + 1, sizeof *direct);
  if (!direct) return false;
  bool ok = ew_readers(c, p0, true, direct);
  if (ok && stash) {
    /* what the row's elements evaluate: the root's operands down to the
     * stashed value (read back from the output) and the reduces (each
     * row's value computed before) */
    const Instr *v = stash->operands[0];
    bool *need = direct; /* reused: cleared first */
    memset(need, 0, (size_t)c->ninstrs * sizeof *need);
    need[value->id] = true;
    for (int i = c->ninstrs - 1; i >= 0 && ok; i--) {
      const Instr *x = c->instrs[i];
      if (!need[i]) continue;
      if (x == p0) ok = false;
      else if (x != v && x->op != OP_REDUCE)
        for (int k = 0; k < x->noperands; k++) need[x->operands[k]->id] = true;
    }
  }
  cxla_free(direct);
  return ok;
}

/* ---- column reductions ----
 * A reduce whose kept dims are the innermost dims of its input (every
 * reduced dim before every kept one: a column reduction) computed per output
 * element reads its input with a stride, once per output element. Instead
 * the output buffer holds the accumulators: initialized, then the input is
 * swept once in memory order, reduced dims outer and kept dims inner,
 * combining into them. Each accumulator sees its elements in the order of
 * the per-element loop, so the results are identical. A kernel whose value
 * is elementwise over the reduce's result (same dims, same type) computes
 * that afterwards, reading the reduce's value back from the output. A
 * multi-output fusion of column reduces over inputs of the same dims
 * keeps one accumulator per output and sweeps once for all of them. The
 * runtime's slices cover at least CG_SWEEP_BYTES of each input line
 * (codegen_kernel_min_rows), so that no two threads read the same line. */

/* Marks in dep (c->ninstrs entries) the instructions of c that read r,
 * directly or through others (not through a reduce when reduces_stop);
 * whether each of them is elementwise with r's dims (or such a reduce,
 * reading r's values only as its input). Instructions must be in
 * definition order. */
static bool ew_readers(const Computation *c, const Instr *r, bool reduces_stop, bool *dep) {
  for (int i = 0; i < c->ninstrs; i++) {
    const Instr *x = c->instrs[i];
    dep[i] = x == r;
    if (x == r) continue;
    bool d = false;
    for (int k = 0; k < x->noperands; k++) {
      int id = x->operands[k]->id;
      if (id < 0 || id >= i || c->instrs[id] != x->operands[k]) return false;
      d |= dep[id];
    }
    if (!d) continue;
    if (reduces_stop && x->op == OP_REDUCE) {
      if (x->noperands != 2 || dep[x->operands[1]->id]) return false;
      continue;
    }
    if (!(op_info(x->op)->flags & OPF_EW) || !shape_same_dims(x->shape, r->shape)) return false;
    dep[i] = true;
  }
  return true;
}

/* Whether every instruction of c on a path from r to c's root is
 * elementwise with r's dims (instructions are in definition order). */
static bool elementwise_above(const Computation *c, const Instr *r) {
  bool *dep = cxla_calloc((size_t)c->ninstrs, sizeof *dep);
  if (!dep) return false;
  bool ok = ew_readers(c, r, false, dep) && dep[c->root->id];
  cxla_free(dep);
  return ok;
}

/* Whether reduce r is a column reduction whose result is of output shape
 * os: its reduced dims one run b .. b+nr-1 followed by at least one kept
 * dim, the innermost long enough to vectorize. The dims before the run (b
 * of them, kept) are outer: each outer position is a column reduction of
 * its own ([N, H, W, C] over H and W; the partials of reduce-splitter's
 * split column sums). One input, or a variadic reduce (argmax: values
 * and indices) whose inputs and outputs have the same dims, os the tuple
 * of its outputs. */
static bool column_shaped(const Instr *r, const Shape *os) {
  if (r->op != OP_REDUCE || r->noperands < 2 || r->noperands % 2) return false;
  int m = r->noperands / 2;
  if (m == 1 ? r->shape->type != os->type || !shape_same_dims(r->shape, os)
             : r->shape->type != T_TUPLE || os->type != T_TUPLE || r->shape->ntuple != m || os->ntuple != m)
    return false;
  for (int j = 0; j < m && m > 1; j++) /* a variadic reduce (argmax): every input and output alike */
    if (!shape_same_dims(r->shape->tuple[j], r->shape->tuple[0]) || !type_is_array(r->shape->tuple[j]->type) ||
        !shape_same_dims(r->operands[j]->shape, r->operands[0]->shape))
      return false;
  const Shape *is = r->operands[0]->shape;
  if (r->dimensions.n == 0 || r->dimensions.n >= is->rank) return false;
  int64_t b = r->dimensions.v[0];
  for (int k = 0; k < r->dimensions.n; k++)
    if (r->dimensions.v[k] != b + k) return false;
  return b + r->dimensions.n < is->rank && is->dims[is->rank - 1] >= 8;
}

/* The column reduces the kernel for `in` computes by sweeping, one per
 * output (into red[0 .. n) when red is not NULL): a single-output kernel
 * whose value is a column reduce or elementwise over its only reduce, a
 * multi-output fusion whose root is a tuple of column reduces over inputs
 * of the same dims (batch-norm statistics: one sweep computes all of
 * them), or one variadic column reduce whose outputs are the kernel's (1:
 * its outputs are 0 .. m-1). 0 when it is none of these. */
static int column_reduces(const Instr *in, const Instr *value, const Instr **red) {
  if (in->shape->type == T_TUPLE && value->op == OP_REDUCE) {
    /* one variadic reduce, its outputs the kernel's */
    if (in->shape->ntuple > 8 || !column_shaped(value, in->shape)) return 0;
    if (red) red[0] = value;
    return 1;
  }
  if (in->shape->type == T_TUPLE) {
    int n = in->shape->ntuple;
    if (in->op != OP_FUSION || value->op != OP_TUPLE || value->noperands != n || n < 1 || n > 8) return 0;
    const Instr *r0 = value->operands[0];
    for (int k = 0; k < n; k++) {
      const Instr *r = value->operands[k];
      if (r->noperands != 2 || !column_shaped(r, in->shape->tuple[k]) || r->dimensions.n != r0->dimensions.n ||
          r->dimensions.v[0] != r0->dimensions.v[0] ||
          !shape_same_dims(r->operands[0]->shape, r0->operands[0]->shape) || !shape_same_dims(r->shape, r0->shape))
        return 0;
      if (red) red[k] = r;
    }
    return n;
  }
  if (!type_is_array(in->shape->type)) return 0;
  const Instr *r = NULL;
  if (value->op == OP_REDUCE) {
    r = value;
  } else if (in->op == OP_FUSION) {
    const Computation *c = in->called[0];
    for (int i = 0; i < c->ninstrs; i++)
      if (c->instrs[i]->op == OP_REDUCE) {
        if (r) return 0; /* one reduce only */
        r = c->instrs[i];
      }
    if (!r || !elementwise_above(c, r)) return 0;
  } else {
    return 0;
  }
  if (!column_shaped(r, in->shape)) return 0;
  if (red) red[0] = r;
  return 1;
}

/* Opens the loops over output dims b .. rank-1 of os (the kept dims after
 * a column reduce's run) into idx: dim 0's over rows [lo, hi) (no outer
 * dims), the others whole. */
static void kept_loops(Em *e, Loop *loops, Idx *idx, int b, const Shape *os, LLVMValueRef lo, LLVMValueRef hi,
                       const char *name) {
  for (int d = b; d < os->rank; d++)
    idx->v[d] = em_loop_begin(e, &loops[d], d == 0 ? lo : em_i64(e, 0), d == 0 ? hi : em_i64(e, os->dims[d]), name);
}

/* Sweeps column reduces red[0 .. n) (the same reduced dims of inputs of
 * the same dims) into outputs 0 .. n-1 over output rows [lo, hi): one
 * pass over the reduced positions combines every accumulator, the values
 * the reduces share computed once per element; a variadic reduce (n is 1)
 * keeps one accumulator per output, outputs 0 .. m-1, all folded by each
 * call of its computation. With outer dims (b > 0:
 * column_shaped), the rows are outer positions, each swept in turn over
 * its own input (contiguous in a row-major input); without, the rows are
 * the first kept dim's. */
static void emit_column_reduce(Em *e, const Instr *const *red, int n, LLVMValueRef lo, LLVMValueRef hi) {
  const Instr *r = red[0];
  /* a variadic reduce (n == 1): m accumulators, outputs 0 .. m-1 */
  int m = r->noperands / 2;
  const Shape *is = r->operands[0]->shape, *os = m > 1 ? r->shape->tuple[0] : r->shape;
  int nr = r->dimensions.n, b = (int)r->dimensions.v[0], nk = os->rank;
  for (int d = 0; d < is->rank; d++)
    if (is->dims[d] == 0 && (d < b || d >= b + nr)) return; /* no outputs */
  Loop ol[CG_MAX_RANK], loops[CG_MAX_RANK], rl[CG_MAX_RANK];
  Idx *oi = em_idx(e, nk), *ii = em_idx(e, is->rank), *ko = em_idx(e, nk);
  if (!oi || !ii || !ko || e->err) return;
  /* the outer positions: rows [lo, hi) of outer dim 0 */
  for (int d = 0; d < b; d++) {
    oi->v[d] = em_loop_begin(e, &ol[d], d == 0 ? lo : em_i64(e, 0), d == 0 ? hi : em_i64(e, os->dims[d]), "co");
    ii->v[d] = ko->v[d] = oi->v[d];
  }
  /* accumulators = init */
  kept_loops(e, loops, oi, b, os, lo, hi, "ci");
  LLVMValueRef lin = em_linear(e, oi, os->dims);
  for (int k = 0; k < n * m && !e->err; k++) {
    const Instr *rk = red[m > 1 ? 0 : k];
    int j = m > 1 ? k : 0;
    LLVMValueRef init = em_elem1(e, rk->operands[m + j], em_idx(e, 0));
    if (e->err) break;
    LLVMTypeRef st = cg_storage_type(e->cg, rk->operands[j]->shape->type);
    LLVMBuildStore(e->b, init, LLVMBuildGEP2(e->b, st, em_buf(e, k), &lin, 1, ""));
  }
  for (int d = nk - 1; d >= b; d--) em_loop_end(e, &loops[d]);
  bool empty = false;
  for (int d = b; d < b + nr; d++) empty |= is->dims[d] == 0;
  /* for each reduced position, for each kept position: acc = f(acc, x).
   * The innermost reduced dim goes in blocks of CG_SWEEP_UNROLL positions
   * (then one at a time for its last positions): each accumulator is
   * loaded once per block and combined with the block's elements in
   * order, so it sees the same sequence as in the per-element loop, but a
   * block reads CG_SWEEP_UNROLL input lines at once (more memory streams
   * in flight) and loads and stores the accumulators CG_SWEEP_UNROLL times
   * less often. Measured: reduce over dim 0 of f32[4096,4096] 1.4x to 1.9x
   * faster. */
  int last = b + nr - 1;
  int64_t inner = is->dims[last], nblk = inner / CG_SWEEP_UNROLL;
  for (int d = b; d < last && !empty; d++)
    ii->v[d] = em_loop_begin(e, &rl[d], em_i64(e, 0), em_i64(e, is->dims[d]), "cr");
  for (int pass = 0; pass < 2 && !e->err && !empty; pass++) {
    int u = pass == 0 ? CG_SWEEP_UNROLL : 1;
    int64_t first = pass == 0 ? 0 : nblk * CG_SWEEP_UNROLL, end = pass == 0 ? nblk : inner;
    if (first >= end) continue;
    LLVMValueRef iv = em_loop_begin(e, &rl[last], em_i64(e, first), em_i64(e, end), "cr");
    LLVMValueRef base = u > 1 ? LLVMBuildNSWMul(e->b, iv, em_i64(e, u), "") : iv;
    kept_loops(e, loops, ko, b, os, lo, hi, "ck");
    for (int d = b; d < nk; d++) ii->v[nr + d] = ko->v[d];
    lin = em_linear(e, ko, os->dims);
    /* the block's positions, built once: the values the reduces share are
     * memoized by these (em_memo_find) */
    LLVMValueRef pos[CG_SWEEP_UNROLL];
    for (int j = 0; j < u; j++) pos[j] = j ? LLVMBuildNSWAdd(e->b, base, em_i64(e, j), "") : base;
    for (int k = 0; k < n && !e->err; k++) {
      LLVMValueRef p[8], acc[8];
      for (int q = 0; q < m; q++) { /* output slot k + q: n is 1 when m is not */
        LLVMTypeRef st = cg_storage_type(e->cg, red[k]->operands[q]->shape->type);
        p[q] = LLVMBuildGEP2(e->b, st, em_buf(e, k + q), &lin, 1, "");
        acc[q] = LLVMBuildLoad2(e->b, st, p[q], "");
      }
      for (int j = 0; j < u && !e->err; j++) {
        ii->v[last] = pos[j];
        LLVMValueRef args[16], res[8];
        for (int q = 0; q < m; q++) args[q] = acc[q], args[m + q] = em_elem1(e, red[k]->operands[q], ii);
        if (e->err) break;
        em_call_scalar_comp(e, red[k]->called[0], args, res, m);
        for (int q = 0; q < m; q++) acc[q] = res[q];
      }
      for (int q = 0; q < m && !e->err; q++) LLVMBuildStore(e->b, acc[q], p[q]);
    }
    for (int d = nk - 1; d >= b; d--) em_loop_end(e, &loops[d]);
    /* A block loop of few iterations stays rolled: LLVM would unroll it
     * in full, each copy of the kept-position loops vectorized with its
     * epilogue (the 16-row combine of a split column sum: 7 vector loops,
     * 15% of reduce_cols_4096's compile; the remainder pass's up to 7
     * rows, 7 copies). The run time is the kept-position loops'. */
    if (end - first <= CG_SWEEP_ROLLED) e->plain_loop = true;
    em_loop_end(e, &rl[last]);
  }
  for (int d = last - 1; d >= b && !empty; d--) em_loop_end(e, &rl[d]);
  for (int d = b - 1; d >= 0; d--) em_loop_end(e, &ol[d]);
}

static cxla_status bind(Em *e, const Instr *in, int slot) {
  for (int i = 0; i < e->nbound; i++)
    if (e->bound[i] == in) return NULL;
  const Instr **b = cxla_realloc(e->bound, (size_t)(e->nbound + 1) * sizeof *b);
  if (!b) return cxla_oom();
  e->bound = b;
  int *s = cxla_realloc(e->bound_slot, (size_t)(e->nbound + 1) * sizeof *s);
  if (!s) return cxla_oom();
  e->bound_slot = s;
  e->bound[e->nbound] = in;
  e->bound_slot[e->nbound++] = slot;
  return NULL;
}

cxla_status codegen_emit_kernel(Codegen *cg, const Instr *in, const char *name) {
  return codegen_emit_kernel_pre(cg, in, name, NULL, 0);
}

cxla_status codegen_emit_kernel_pre(Codegen *cg, const Instr *in, const char *name,
                                    const Instr *const *pre, int npre) {
  return codegen_emit_kernel_alias(cg, in, name, pre, npre, false);
}

cxla_status codegen_emit_kernel_alias(Codegen *cg, const Instr *in, const char *name,
                                      const Instr *const *pre, int npre, bool alias) {
  char why[256];
  if (!codegen_supports(in, why, sizeof why)) return ERR(UNIMPLEMENTED, "cpu backend: %s", why);
  Em e = {0};
  bool *band_inv = NULL; /* Em.band.inv */
  e.cg = cg;
  e.root = in;
  arena_init(&e.arena);
  e.nbuckets = 4096;
  e.buckets = cxla_calloc((size_t)e.nbuckets, sizeof *e.buckets);
  cxla_status s = e.buckets ? NULL : cxla_oom();
  e.nout = codegen_kernel_outputs(in);
  /* What the kernel reads: the fused computation's parameters, or the
   * unfused op's operands. */
  const Instr *value = in;
  if (!s && in->op == OP_FUSION) {
    const Computation *c = in->called[0];
    for (int i = 0; i < c->nparams && !s; i++) s = bind(&e, c->params[i], e.nout + i);
    value = c->root;
  } else {
    for (int i = 0; i < in->noperands && !s; i++) s = bind(&e, in->operands[i], e.nout + i);
  }
  for (int i = 0; i < npre && !s; i++) s = bind(&e, pre[i], e.nout + in->noperands + i);
  if (s) goto done;
  e.fn = LLVMAddFunction(cg->mod, name, cg->kernel_ty);
  e.bufs = LLVMGetParam(e.fn, 0);
  LLVMAddAttributeAtIndex(e.fn, 1, LLVMCreateEnumAttribute(cg->ctx, LLVMGetEnumAttributeKindForName("noalias", 7), 0));
  LLVMAddAttributeAtIndex(e.fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(cg->ctx, LLVMGetEnumAttributeKindForName("nounwind", 8), 0));
  prefer_wide_vectors(cg, e.fn);
  if (kernel_work(in) < CG_SMALL_WORK) {
    unsigned kinds[2] = {LLVMGetEnumAttributeKindForName("optsize", 7), LLVMGetEnumAttributeKindForName("minsize", 7)};
    for (int k = 0; k < 2; k++)
      LLVMAddAttributeAtIndex(e.fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(cg->ctx, kinds[k], 0));
  }
  e.entry = LLVMAppendBasicBlockInContext(cg->ctx, e.fn, "entry");
  e.b = LLVMCreateBuilderInContext(cg->ctx);
  LLVMPositionBuilderAtEnd(e.b, e.entry);
  LLVMValueRef lo = LLVMGetParam(e.fn, 1), hi = LLVMGetParam(e.fn, 2);
  LLVMValueRef kernel = e.fn;
  bool row_alias = alias && row_inplace(in);
  if (!codegen_kernel_inplace(in) || row_alias) {
    /* Every buffer is its own (scatter and dynamic-update-slice work in
     * place; a row kernel's output may be its parameter 0: those two are
     * not noalias): the body takes them as noalias arguments and is
     * inlined into the kernel, where LLVM keeps that as alias scopes, so
     * that loads from one buffer (a gather's indices) are not redone after
     * each store to another. */
    int nb = e.nout + (in->op == OP_FUSION ? in->called[0]->nparams : in->noperands) + npre;
    LLVMTypeRef *pt = cxla_malloc((size_t)(nb + 2) * sizeof *pt);
    LLVMValueRef *args = cxla_malloc((size_t)(nb + 2) * sizeof *args);
    char *bname = cxla_format("%s.body", name);
    if (!pt || !args || !bname) {
      s = cxla_oom();
    } else {
      for (int i = 0; i < nb; i++) pt[i] = cg->ptr, args[i] = em_buf(&e, i);
      pt[nb] = pt[nb + 1] = cg->i64;
      args[nb] = lo;
      args[nb + 1] = hi;
      LLVMTypeRef bt = LLVMFunctionType(LLVMVoidTypeInContext(cg->ctx), pt, (unsigned)nb + 2, 0);
      LLVMValueRef body = LLVMAddFunction(cg->mod, bname, bt);
      LLVMSetLinkage(body, LLVMInternalLinkage);
      unsigned noalias = LLVMGetEnumAttributeKindForName("noalias", 7);
      for (int i = 0; i < nb; i++)
        if (!row_alias || (i != 0 && i != e.nout))
          LLVMAddAttributeAtIndex(body, (unsigned)i + 1, LLVMCreateEnumAttribute(cg->ctx, noalias, 0));
      const char *fattrs[] = {"alwaysinline", "nounwind"};
      for (int k = 0; k < 2; k++)
        LLVMAddAttributeAtIndex(body, LLVMAttributeFunctionIndex,
                                LLVMCreateEnumAttribute(cg->ctx, LLVMGetEnumAttributeKindForName(fattrs[k], strlen(fattrs[k])), 0));
      prefer_wide_vectors(cg, body);
      /* a row kernel over one buffer reads parameter 0 from its output
       * (the executor copies it there when it could not give the kernel
       * its buffer): LLVM then sees each element read before it is
       * written, at the same index, and vectorizes */
      if (row_alias) args[e.nout] = args[0];
      LLVMBuildCall2(e.b, bt, body, args, (unsigned)nb + 2, "");
      LLVMBuildRetVoid(e.b);
      e.fn = body;
      e.bufs = NULL;
      e.entry = LLVMAppendBasicBlockInContext(cg->ctx, body, "entry");
      LLVMPositionBuilderAtEnd(e.b, e.entry);
      lo = LLVMGetParam(body, (unsigned)nb);
      hi = LLVMGetParam(body, (unsigned)nb + 1);
    }
    cxla_free(pt);
    cxla_free(args);
    cxla_free(bname);
    if (s) {
      LLVMDisposeBuilder(e.b);
      LLVMDeleteFunction(kernel);
      goto done;
    }
  }
  const Shape *sh[8];
  int nout = out_shapes(in, sh, 8);
  const Instr *colr[8] = {0};
  TPlan tp;
  int ncol = cg_whole_op(in->op) ? 0 : column_reduces(in, value, colr);
  const Instr *red[CG_MAX_ROW_REDUCES + 1] = {0};
  int rowk = 0;
  const Instr *dus = cg_dus_inplace(in);
  if (cg_whole_op(in->op)) {
    em_whole_kernel(&e, in, lo, hi);
  } else if (dus) {
    IfBlk f;
    em_if_begin(&e, &f, LLVMBuildICmp(e.b, LLVMIntSLT, lo, hi, ""));
    em_dus_inplace(&e, dus);
    em_if_end(&e, &f);
  } else if (ncol) {
    /* rows: the outermost dim only (kernel_rows_dims) */
    emit_column_reduce(&e, colr, ncol, lo, hi);
    if (ncol == 1 && colr[0] != value && !e.err) {
      /* the epilogue reads the reduce's value from the output */
      s = bind(&e, colr[0], 0);
      if (s) em_fail(&e, s), s = NULL;
      emit_nest(&e, value, sh[0], 0, nout, lo, hi, 1, 0); /* in place: never twice */
    }
  } else if (transpose_plan(in, &tp)) {
    int slot = -1;
    for (int i = 0; i < e.nbound; i++)
      if (e.bound[i] == tp.src) slot = e.bound_slot[i];
    if (slot < 0) em_fail(&e, em_unsupported(in, "transposed operand not bound"));
    else emit_transpose(&e, slot, &tp, lo, hi);
  } else if (outputs_same_dims(in) && should_tile(in, sh[0])) {
    emit_nest_tiled(&e, value, sh[0], 0, nout, lo, hi);
  } else if (outputs_same_dims(in) && (rowk = row_reduces(in, sh[0], red, CG_MAX_ROW_REDUCES)) > 0) {
    int nred = 0;
    while (nred < CG_MAX_ROW_REDUCES && red[nred]) nred++;
    e.stash_red = row_stash(in, sh[0], red[nred - 1]);
    row_prefetch_setup(&e, in, sh[0], rowk);
    for (int i = 0; i < in->called[0]->ninstrs; i++) e.row_fast_div |= em_fast_div_applies(in->called[0]->instrs[i]);
    /* a band only where every later pass runs in chunks: the elements'
     * pass skips whatever a sum's pass skips (its stash there unwritten) */
    if (e.rowpf.n > 0 && sh[0]->rank >= 1 && sh[0]->dims[sh[0]->rank - 1] >= CG_PF_CHUNK) {
      band_inv = cxla_calloc((size_t)in->called[0]->ninstrs + 1, sizeof *band_inv);
      if (band_inv && row_band(in, sh[0], rowk, band_inv, &e.band.d)) {
        e.band.inv = band_inv;
        e.band.comp = in->called[0];
      }
    }
    /* not a column reduction nor tiled (above): kernel_rows_dims is */
    int split = nest_rows_dims(sh[0], rowk);
    if (!row_alias && streamed_rows(&e, in, sh, nout, split, rowk)) {
      emit_rows_streamed(&e, value, sh, nout, lo, hi, split, rowk, red, nred);
    } else {
      e.out_unread = !row_alias && !e.stash_red;
      emit_nest_rows(&e, value, sh[0], 0, nout, lo, hi, split, 0, rowk, red, nred);
    }
  } else if (outputs_same_dims(in)) {
    int spec = speculates(in), split = split_dims(sh[0]);
    if (streamed(in, sh, nout, split)) emit_streamed(&e, value, sh, nout, lo, hi, split, spec);
    else emit_nest(&e, value, sh[0], 0, nout, lo, hi, split, spec);
  } else {
    /* Outputs of different dims (a multi-output fusion of siblings): one
     * nest per output, on the call that starts at row 0. */
    LLVMBasicBlockRef run = LLVMAppendBasicBlockInContext(cg->ctx, e.fn, "run");
    LLVMBasicBlockRef end = LLVMAppendBasicBlockInContext(cg->ctx, e.fn, "end");
    LLVMBuildCondBr(e.b, LLVMBuildICmp(e.b, LLVMIntEQ, lo, em_i64(&e, 0), ""), run, end);
    LLVMPositionBuilderAtEnd(e.b, run);
    for (int k = 0; k < nout && !e.err; k++) {
      if (value->op != OP_TUPLE) {
        em_fail(&e, em_unsupported(in, "outputs of different shapes from one tuple-shaped op"));
        break;
      }
      const Shape *os = sh[k];
      em_scope_push(&e);
      emit_nest(&e, value->operands[k], os, k, 1, em_i64(&e, 0),
                em_i64(&e, os->rank ? os->dims[0] : 1), 1, speculates(in));
      em_scope_pop(&e);
    }
    LLVMBuildBr(e.b, end);
    LLVMPositionBuilderAtEnd(e.b, end);
  }
  LLVMBuildRetVoid(e.b);
  LLVMDisposeBuilder(e.b);
  s = e.err;
  if (s) {
    if (e.fn != kernel) LLVMDeleteFunction(e.fn);
    LLVMDeleteFunction(kernel);
  }
done:
  cxla_free(band_inv);
  cxla_free(e.buckets);
  cxla_free(e.bound);
  cxla_free(e.bound_slot);
  arena_destroy(&e.arena);
  return s;
}

cxla_status codegen_emit_predicate(Codegen *cg, const Computation *c, const char *name) {
  if (!c->root || c->root->shape->type != T_PRED || c->root->shape->rank != 0)
    return ERR(UNIMPLEMENTED, "cpu backend: computation %s does not return a pred scalar", c->name);
  for (int i = 0; i < c->nparams; i++)
    if (!c->params[i] || c->params[i]->shape->rank != 0 || !type_is_array(c->params[i]->shape->type) ||
        c->params[i]->shape->type == T_TUPLE)
      return ERR(UNIMPLEMENTED, "cpu backend: computation %s takes a non-scalar", c->name);
  Em e = {0};
  e.cg = cg;
  arena_init(&e.arena);
  e.nbuckets = 16;
  e.buckets = cxla_calloc((size_t)e.nbuckets, sizeof *e.buckets);
  LLVMValueRef *args = cxla_calloc((size_t)(c->nparams ? c->nparams : 1), sizeof *args);
  cxla_status s = e.buckets && args ? NULL : cxla_oom();
  if (!s) {
    LLVMTypeRef ft = LLVMFunctionType(cg->i8, (LLVMTypeRef[]){cg->ptr}, 1, 0);
    e.fn = LLVMAddFunction(cg->mod, name, ft);
    e.entry = LLVMAppendBasicBlockInContext(cg->ctx, e.fn, "entry");
    e.b = LLVMCreateBuilderInContext(cg->ctx);
    LLVMPositionBuilderAtEnd(e.b, e.entry);
    e.bufs = LLVMGetParam(e.fn, 0);
    for (int i = 0; i < c->nparams; i++) {
      LLVMTypeRef st = cg_storage_type(cg, c->params[i]->shape->type);
      args[i] = LLVMBuildLoad2(e.b, st, em_buf(&e, i), "");
    }
    LLVMValueRef out = NULL;
    em_call_scalar_comp(&e, c, args, &out, 1);
    if (!e.err && out) LLVMBuildRet(e.b, out);
    else LLVMBuildRet(e.b, LLVMConstInt(cg->i8, 0, 0));
    LLVMDisposeBuilder(e.b);
    s = e.err;
    if (s) LLVMDeleteFunction(e.fn);
  }
  cxla_free(args);
  cxla_free(e.buckets);
  arena_destroy(&e.arena);
  return s;
}
