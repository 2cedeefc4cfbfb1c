/* cg_internal.h: shared by the emitter's files (private to src/codegen).
 *   cg.c         the Codegen object, kernels' loop nests, memo tables
 *   elemental.c  the elemental emitter: value of an instruction at an index
 *   scalar.c     scalar ops on values in storage form
 *   math.c       transcendental functions (the one place they are chosen)
 *   scatter.c    whole-op kernels: scatter and select-and-scatter
 *   rng.c        whole-op kernel: rng-bit-generator (threefry, philox)
 *   minifloat.c  f8/f4 values in contractions (decode table, encoder)
 *
 * Values: every element value is an LLVM value in *storage form*: the
 * Literal storage of its type (pred and the 2/4-bit integers as i8 holding
 * the (sign-)extended value, f16/bf16 as i16 bits, the f8/f4 types as i8
 * bits, f32 float, f64 double, c64/c128 as a {T, T} struct). Scalar ops
 * decode to a working type, compute, and encode back, rounding per op. */
#ifndef CXLA_CODEGEN_INTERNAL_H
#define CXLA_CODEGEN_INTERNAL_H

#include <llvm-c/Core.h>

#include "codegen/codegen.h"

#define CG_MAX_RANK 64
/* buffers a row kernel prefetches the rows ahead of (Em.rowpf) */
#define CG_PF_MAX 8
/* em_buf's slot for the stash row of a streamed row kernel (Em.stash_row) */
#define CG_SLOT_STASH (-2)

struct Codegen {
  LLVMContextRef ctx;
  LLVMModuleRef mod;
  LLVMTypeRef i1, i8, i16, i32, i64, f32, f64, ptr, vd;
  LLVMTypeRef kernel_ty;
  int nconst;                 /* globals made for constants */
};

/* An index into an array: rank i64 values, with an id for memoization. */
typedef struct Idx {
  int rank;
  int id;
  LLVMValueRef v[CG_MAX_RANK];
} Idx;

typedef struct MemoEnt MemoEnt;
struct MemoEnt {
  const Instr *in;
  int rank;
  LLVMValueRef *idx;   /* the index's values: equal values, same index */
  int depth;
  unsigned gen;
  int nvals;
  LLVMValueRef vals[8];
  MemoEnt *next;  /* in the same hash bucket */
};

/* One kernel being emitted. */
typedef struct Em {
  Codegen *cg;
  LLVMBuilderRef b;
  LLVMValueRef fn, bufs;
  LLVMBasicBlockRef entry;     /* allocas go here */
  const Instr *root;
  int nout;
  /* instructions whose value is a kernel argument (operands of an unfused
   * op, parameters of a fused computation): their buffer slot */
  const Instr **bound;
  int *bound_slot;
  int nbound;
  /* memo: hash of (instr, idx id) valid while its scope is open */
  MemoEnt **buckets;
  int nbuckets;
  Arena arena;
  int depth;
  unsigned gens[256];
  unsigned next_gen;
  int next_idx;
  cxla_status err;             /* first error; emission continues harmlessly */
  /* Speculation (cg.c emit_nest): while set, an i32 slot that functions
   * with a fast path for the common case (math.c: f32 sin, cos, tan) raise
   * (em_spec_raise*) for any element the fast path cannot compute; the
   * nest then computes that chunk of elements again with it unset.
   * spec_level says how fast a path may be taken while it is set: 2 the
   * fastest (f32 sin and cos reduce their argument in f32 arithmetic),
   * 1 the next (the reduction in double); a chunk that raises the flag at
   * level 2 is computed again at level 1, then without speculation. */
  LLVMValueRef spec_flag;
  int spec_level;
  /* The innermost loop being emitted as one of its pieces (cg.c
   * emit_pieces): its variable, whose values lie in [piece_lo, piece_hi),
   * a range in which each concatenate and pad over that dim reads one
   * operand (elemental.c concat_elem, pad_elem); NULL otherwise. */
  LLVMValueRef piece_var;
  int64_t piece_lo, piece_hi;
  /* Set by math.c's functions (em_vmath*): the innermost loop being
   * emitted computes one, a long chain of dependent operations per
   * element; the number of vectors its iterations are to compute side by
   * side (see em_loop_end; at most 4 below AVX-512): 8 for f32 tanh, 2
   * for the others, 0 none. */
  int long_chain;
  /* Set for the loop being emitted (em_loop_end reads and clears it): LLVM
   * is to leave it as it is, neither vectorized nor unrolled (the exact
   * pass of a speculating kernel, cg.c spec_pass; the row loop of a tiled
   * nest, emit_nest_tiled). */
  bool plain_loop;
  /* Likewise: LLVM is to vectorize the loop as it sees fit but not
   * unroll it (a tiled nest's rows, cg.c emit_nest_tiled). */
  bool no_unroll;
  /* row kernels: the reduce whose loop also writes its input's elements
   * into output 0 (of the input's dims and type), where the row's
   * elements read them back instead of computing them again; or NULL */
  const Instr *stash_red;
  /* a row kernel that streams its output (cg.c "streamed row kernels"):
   * the stash is a row of scratch on the stack instead (stash_row, an
   * alloca), read and written through the pointer stash_base, set for
   * each row (stash_row less the row's first linear index), which em_buf
   * gives for CG_SLOT_STASH; NULL otherwise */
  LLVMValueRef stash_row, stash_base;
  /* the row's elements never read output 0 (a row kernel neither over its
   * operand's buffer nor stashing there): fast_div_chunk stores every
   * element and then the exact values of those whose flag rose */
  bool out_unread;
  /* store_outputs writes with non-temporal (streaming) stores, to outputs
   * whose addresses it may take as 64-byte aligned (cg.c emit_streamed) */
  bool stream;
  /* While set (two i32 slots: the least |x| bits - 1 and the most |x|
   * bits, unsigned), an f32 division by a row's value takes the fast path
   * and folds each numerator into them, for the caller to test the
   * chunk's range once (scalar.c fast_row_div_range) */
  LLVMValueRef div_lo, div_hi;
  /* While set, the f32 exp being emitted has an argument at most 0 or
   * NaN (scalar.c below_own_max): math.c v_exp_f32 leaves out the clamps
   * that only larger arguments need */
  bool exp_le0;
  /* a row kernel whose elements divide so (cg.c fast_div_chunk) */
  bool row_fast_div;
  /* Row kernels (cg.c, "row kernels"): the rows ahead prefetched. While
   * `on`, the innermost loop of a pass over a row (em_row_loop_begin)
   * runs in chunks, each first prefetching the lines of the same elements
   * of the row at element offset `next` (a row `dist` rows ahead) in
   * every buffer buf[0 .. n). */
  struct {
    bool on;
    int n, k, rank;
    int64_t dist;
    LLVMValueRef buf[CG_PF_MAX], next;
    int esize[CG_PF_MAX];
    const int64_t *dims;
  } rowpf;
  /* Row kernels under a causal band (cg.c row_band): `inv` marks the
   * fused computation's instructions whose value at the columns past a
   * row's band is the same at every such column; `lim`, while a row's
   * passes are emitted, the chunks of CG_PF_CHUNK columns that hold the
   * row's band (the later ones hold none of it); NULL when none. */
  struct {
    const bool *inv;
    const Computation *comp;
    int64_t d;
    LLVMValueRef lim;
  } band;
  /* read (and cleared) by the next em_row_chunk_begin: the number of
   * chunks its loop runs (an i64 value), instead of all of them */
  LLVMValueRef chunk_lim;
  /* read (and cleared) by the next em_row_chunk_begin: where its loop
   * ends when it does not run in chunks (an i64 value), instead of n */
  LLVMValueRef row_end;
  /* the fused computation whose fused multiply-adds fma_plan holds
   * (ir/contract.h; in the arena), or NULL */
  const Computation *fma_comp;
  signed char *fma_plan;
} Em;

/* ---- cg.c ---- */
void em_fail(Em *e, cxla_status s);
cxla_status em_unsupported(const Instr *in, const char *what);
Idx *em_idx(Em *e, int rank);            /* fresh index (arena), new id */
LLVMValueRef em_i64(Em *e, int64_t v);
LLVMValueRef em_alloca(Em *e, LLVMTypeRef t);
void em_scope_push(Em *e);
void em_scope_pop(Em *e);
MemoEnt *em_memo_find(Em *e, const Instr *in, const Idx *idx);
void em_memo_put(Em *e, const Instr *in, const Idx *idx, int n, const LLVMValueRef *vals);
typedef struct Loop {
  LLVMValueRef iv_slot;
  LLVMBasicBlockRef cond, body, exit;
  int outer_long_chain; /* Em.long_chain when the loop began */
  int64_t trip;         /* its trip count where lo and hi are constants, else -1 */
} Loop;
/* for (iv = lo; iv < hi; iv++): returns iv in the body block (scope pushed). */
LLVMValueRef em_loop_begin(Em *e, Loop *l, LLVMValueRef lo, LLVMValueRef hi, const char *name);
void em_loop_end(Em *e, Loop *l);
/* The innermost loop of a pass over a row of a row kernel, over dim d of
 * idx (rank Em.rowpf.rank; idx->v[k .. d) set) from 0 to n: em_loop_begin,
 * or, while Em.rowpf.on, that loop in chunks prefetching the row ahead.
 * em_row_loop_begin/_end; or in two steps, code at each chunk's start
 * and end: em_row_chunk_begin (whether it chunks), em_row_inner_begin,
 * em_row_inner_end, em_row_chunk_end. */
typedef struct RowLoop {
  Loop chunk, in;
  bool chunked;
  int64_t n;
  LLVMValueRef c0, c1; /* the chunk's elements */
  LLVMValueRef end;    /* not chunked: the loop's end (Em.row_end), or NULL for n */
} RowLoop;
LLVMValueRef em_row_loop_begin(Em *e, RowLoop *rl, const Idx *idx, int d, int64_t n, const char *name);
void em_row_loop_end(Em *e, RowLoop *rl);
bool em_row_chunk_begin(Em *e, RowLoop *rl, const Idx *idx, int d, int64_t n);
LLVMValueRef em_row_inner_begin(Em *e, RowLoop *rl, const char *name);
void em_row_inner_end(Em *e, RowLoop *rl);
void em_row_chunk_end(Em *e, RowLoop *rl);
/* For a float sum reduce `red` over a row kernel's last dim d (oi: the
 * row's index), the chunks its pass over the row need run (cg.c, "causal
 * bands in row kernels"), or NULL for all: to be set as Em.chunk_lim. */
LLVMValueRef em_band_sum_lim(Em *e, const Instr *red, const Idx *oi, int d);
/* For a float max or min reduce `red` over a row kernel's last dim d (oi:
 * the row's index, its dims before d set): its input's value past the
 * row's band, with the band's chunks set as Em.chunk_lim and its end as
 * Em.row_end (the loop then covers the band, that value the rest); or
 * NULL for the whole row. */
LLVMValueRef em_band_minmax_tail(Em *e, const Instr *red, const Idx *oi, int d);
/* if (cond) { ... }: the then block is current after em_if_begin (scope
 * pushed); em_if_end closes it. */
typedef struct IfBlk { LLVMBasicBlockRef then, done; } IfBlk;
void em_if_begin(Em *e, IfBlk *f, LLVMValueRef cond);
void em_if_end(Em *e, IfBlk *f);
/* Raises the speculation flag (Em.spec_flag, which must be set) when the
 * i1 `cond` holds. */
void em_spec_raise(Em *e, LLVMValueRef cond);
/* Raises it when the f32 ax, |x| for some x, is at least CG_SPEC_F32_UP,
 * infinite or NaN: one instruction per vector (an unsigned max of ax's
 * bits; em_spec_raise of the compare takes three). */
#define CG_SPEC_F32_UP 0x1p16
void em_spec_raise_f32(Em *e, LLVMValueRef ax);
/* Pointer to element `lin` of a buffer holding elements of type t. */
LLVMValueRef em_elem_ptr(Em *e, LLVMValueRef base, ElemType t, LLVMValueRef lin);
/* Linear row-major offset of idx in dims. */
LLVMValueRef em_linear(Em *e, const Idx *idx, const int64_t *dims);
/* The i-th kernel buffer pointer. */
LLVMValueRef em_buf(Em *e, int slot);

/* ---- scalar.c ---- */
LLVMTypeRef cg_storage_type(Codegen *cg, ElemType t);
/* Whether `in` is an f32 division that takes the fast path while
 * Em.div_lo is set (by a value the same along the innermost dim). */
bool em_fast_div_applies(const Instr *in);
/* Whether a chunk whose numerators folded into Em.div_lo/div_hi the
 * values lo and hi got exact quotients from the fast path (i1). */
LLVMValueRef em_fast_div_exact(Em *e, LLVMValueRef lo, LLVMValueRef hi);
/* The value of an elementwise instruction `in` on operand values. */
LLVMValueRef em_scalar_op(Em *e, const Instr *in, const LLVMValueRef *ops);
/* fma(a, b, c) of float type t with one rounding, a or c negated first
 * (ir/contract.h). */
LLVMValueRef em_fma(Em *e, ElemType t, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c, bool neg_a, bool neg_c);
/* Helpers for reductions and contractions. */
LLVMValueRef em_zero(Em *e, ElemType t);
LLVMValueRef em_add(Em *e, ElemType t, LLVMValueRef a, LLVMValueRef b);
LLVMValueRef em_mul(Em *e, ElemType t, LLVMValueRef a, LLVMValueRef b);
/* convert between element types (XLA semantics) */
LLVMValueRef em_convert(Em *e, ElemType from, ElemType to, LLVMValueRef v);
/* an i64 value read from an integer element (sign/zero-extended) */
LLVMValueRef em_to_i64(Em *e, ElemType t, LLVMValueRef v);
LLVMValueRef em_const_elem(Em *e, ElemType t, const void *bytes);
LLVMValueRef em_retype(Em *e, ElemType from, ElemType to, LLVMValueRef v);
/* Inlines a scalar computation on arguments; *nout values written to outs. */
void em_call_scalar_comp(Em *e, const Computation *c, const LLVMValueRef *args,
                         LLVMValueRef *outs, int max_out);

/* ---- math.c ---- */
/* A double -> double libm-style function for a unary op, or NULL. */
const char *cg_math_unary_name(Opcode op);
LLVMValueRef em_math_call1(Em *e, const char *name, LLVMValueRef x);  /* double */
LLVMValueRef em_math_call2(Em *e, const char *name, LLVMValueRef x, LLVMValueRef y);
LLVMValueRef em_intrinsic(Em *e, const char *name, LLVMTypeRef t, int n, LLVMValueRef *args);
/* Our vectorizable (straight-line) implementation of a float op on double
 * operands (f32/bf16/f16 values widened when from_f32; f64 values flushed
 * under DAZ), a double result; NULL when there is none for this width, and
 * the caller calls the C library's function instead. */
LLVMValueRef em_vmath1(Em *e, Opcode op, bool from_f32, LLVMValueRef x);
LLVMValueRef em_vmath2(Em *e, Opcode op, bool from_f32, LLVMValueRef x, LLVMValueRef y);
/* The same on an f32 operand computed in f32 arithmetic (16 lanes), an f32
 * result; NULL where there is none (the caller widens to double). */
LLVMValueRef em_vmath1_f32(Em *e, Opcode op, LLVMValueRef x);
/* The f32 lanes of the host's widest vectors (what LLVM's vectorizer
 * uses: prefer_wide_vectors): 16, 8 or 4. */
int em_host_f32_lanes(void);

/* ---- elemental.c ---- */
/* Storage-form value(s) of `in` at idx; tuple-shaped instructions give
 * one value per element (returns the count). */
int em_elem(Em *e, const Instr *in, const Idx *idx, LLVMValueRef *out, int max_out);
LLVMValueRef em_elem1(Em *e, const Instr *in, const Idx *idx);
/* The operand position that output position `out` (of an output of
 * out_dims) and window position w read through window `win` (rank dims;
 * stride, padding, lhs and rhs dilation) into pos, and whether it lies
 * inside the operand (dims), not in padding or a dilation hole. */
LLVMValueRef em_window_pos(Em *e, const WindowDim *win, int rank, const Idx *out, const int64_t *out_dims,
                           const LLVMValueRef *w, const int64_t *dims, Idx *pos);
bool em_elem_supported(const Instr *in, char *why, size_t n);
/* Whether em_call_scalar_comp can inline computation c. */
bool em_scalar_comp_ok(const Computation *c, char *why, size_t n);

/* ---- minifloat.c ---- */
/* The f8 types (and f4e2m1fn) contractions compute in f32. */
bool cg_is_f8(ElemType t);
LLVMValueRef em_f8_decode(Em *e, ElemType t, LLVMValueRef v);   /* -> f32, exact */
LLVMValueRef em_f8_encode(Em *e, ElemType t, LLVMValueRef f32); /* rounded once */
/* Accumulation in a contraction (dot, convolution): the type it sums in
 * (its result type, or f32 for f8 operands or results), an operand of
 * type `from` converted to it, the sum converted to the result type t. */
ElemType cg_acc_type(const Instr *contraction);
LLVMValueRef em_to_acc(Em *e, ElemType from, ElemType acc, LLVMValueRef v);
LLVMValueRef em_from_acc(Em *e, ElemType acc, ElemType t, LLVMValueRef v);
/* Whether a contraction with result t that involves an f8 type takes an
 * operand of type ot (f8 results: operands of that type; f32, f64, f16
 * and bf16 results: f8 operands). */
bool cg_f8_contraction_ok(ElemType t, ElemType ot);

/* ---- whole-op kernels (scatter.c, rng.c) ----
 * Ops whose output elements are not each a function of their own index
 * (updates land anywhere, generators advance a state): the kernel computes
 * all its outputs on one call with lo < hi, and its extent is 1. */
bool cg_whole_op(Opcode op);
bool em_whole_supported(const Instr *in, char *why, size_t n);
/* Emits the body of the whole-op kernel for `in` (guarded by lo < hi). */
void em_whole_kernel(Em *e, const Instr *in, LLVMValueRef lo, LLVMValueRef hi);
/* scatter.c */
bool em_scatter_supported(const Instr *in, char *why, size_t n);
void em_scatter(Em *e, const Instr *in, LLVMValueRef lo, LLVMValueRef hi);
bool em_scatter_split(const Instr *in, int64_t *cols);
bool em_select_scatter_supported(const Instr *in, char *why, size_t n);
void em_select_scatter(Em *e, const Instr *in);
/* The dynamic-update-slice a kernel computes in place (its buffer 0
 * starts as operand 0 and only the update's elements are written), or NULL
 * when `in` is not such a kernel. Its extent is 1. */
const Instr *cg_dus_inplace(const Instr *in);
void em_dus_inplace(Em *e, const Instr *dus);
/* rng.c */
bool em_rng_bits_supported(const Instr *in, char *why, size_t n);
void em_rng_bits(Em *e, const Instr *in);

#endif
