/* cpu_internal.h: shared by src/cpu's files. */
#ifndef CXLA_CPU_INTERNAL_H
#define CXLA_CPU_INTERNAL_H

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

#include "cpu/blas.h"
#include "cpu/cpu.h"
#include "cxla/runtime.h"
#include "runtime/threadpool.h"

/* ---- runtime values (exec.c) ----
 * A value is an array or a tuple of values, refcounted. Its `lit` is a
 * Literal view (logical row-major, Literal storage) that the interpreter's
 * evaluators can read; the data belongs to `owner` (itself, another value
 * it is a view of, or nobody: borrowed from the caller or the module). */
typedef struct RVal RVal;
struct RVal {
  Literal lit;
  int refs;
  RVal *owner;     /* a view's base (holds a reference), or NULL */
  bool owns_data;
  RVal **elems;    /* tuple elements (references) */
  const struct RtHost *host; /* owned data from the runtime's allocator, or NULL */
  size_t alloc_bytes;        /* with host: the size given to rt_alloc */
  int64_t dims_inline[6]; /* lit.dims when rank <= 6 (no allocation) */
  /* rval_all_finite's answer, kept (0: not known yet, 1: finite, 2: not):
   * a loop's weights are scanned once, not before every GEMM; reset when a
   * kernel writes the buffer in place */
  int finite;
  /* The array packed as the B operand of f32 GEMMs on our kernel
   * (fgemm.h: f32_gemm_pack_b), kept for the products that read it again
   * (a loop's weights: packed once, not on every trip), or NULL; made on
   * the second product in a row of the same geometry (packed_seen: the
   * last geometry seen, packed_geometry's hash). Freed with the value, and
   * dropped when a kernel writes the buffer in place. */
  struct RvPacked *packed;
  uint64_t packed_seen;
  struct RvCache *cache; /* the execution's cache this struct (and its data,
                          * when small) goes back to, or NULL */
};

typedef struct RvPacked {
  int64_t batch, k, n; /* the geometry it is packed for (m does not matter) */
  bool trans_b;
  float *data;         /* f32_gemm_packed_floats floats, 64-byte aligned */
} RvPacked;
/* Frees v's packed form (v->packed) and forgets the geometry seen. */
void rval_drop_packed(RVal *v);

/* Per execution: freed values' structs and small buffers, kept for the
 * next allocation of the same size (a loop's steps allocate the same few
 * shapes every iteration) instead of going through malloc each time.
 * Used by the execution's thread only; emptied by rv_cache_clear once no
 * value allocated through it is left. */
#define RV_CACHE_BUFS 64
#define RV_CACHE_MAX_BYTES ((size_t)256 << 10)
typedef struct RvCache {
  RVal *vals; /* free structs, linked through ->owner */
  int nbufs;
  void *buf[RV_CACHE_BUFS];
  size_t bytes[RV_CACHE_BUFS];
} RvCache;
void rv_cache_clear(RvCache *c);
/* An execution's cache: the one the executable kept from a finished
 * execution (none is shared: two at once get two), or a fresh one (NULL
 * without memory: no cache). rv_cache_give keeps it for the next one, or
 * frees it when another is kept already. */
RvCache *rv_cache_take(CpuExecutable *x);
void rv_cache_give(CpuExecutable *x, RvCache *c);

cxla_status rval_array(ElemType t, int rank, const int64_t *dims, RVal **out);
/* rval_array with the data from the runtime's allocator (which keeps freed
 * large blocks for reuse); host NULL: as rval_array. */
cxla_status rval_array_in(const struct RtHost *host, ElemType t, int rank, const int64_t *dims, RVal **out);
cxla_status rval_tuple(int n, RVal **elems_taken, RVal **out);
cxla_status rval_borrow(const Literal *l, RVal **out);   /* no copy */
/* A value of shape s over base's data from byte offset on (base kept alive). */
cxla_status rval_view(RVal *base, const Shape *s, int64_t offset, RVal **out);
cxla_status rval_from_literal(Literal *l_taken, RVal **out);
cxla_status rval_to_literal(const RVal *v, Literal **out);  /* deep copy */
RVal *rval_ref(RVal *v);
void rval_unref(RVal *v);

/* ---- JIT (jit.c) ---- */
typedef struct CpuJit CpuJit;
typedef void (*KernelFn)(void **bufs, int64_t lo, int64_t hi);
/* A JIT for the host CPU; build the module in jit_context(j). */
cxla_status jit_create(CpuJit **out);
LLVMContextRef jit_context(CpuJit *j);
/* Verifies, optimizes and compiles the module (taken) to object files,
 * as at most max_parts parts compiled at once (jit_parts.c; one when
 * dumping), and links them; *nparts says how many. keep != NULL: *keep is
 * a cxla_malloc'd object pack of them (*keep_len bytes, cache.h), whose
 * objects jit_add_object links in another process. */
#define JIT_MAX_PARTS 32
cxla_status jit_add_module(CpuJit *j, LLVMModuleRef mod, int opt_level, int max_parts,
                           const char *dump_dir, void **keep, size_t *keep_len, int *nparts);
/* The host's target machine (the caller disposes of it). */
cxla_status jit_target_machine(LLVMTargetMachineRef *out);
/* Optimizes mod (taken; part: first dropping the unreferenced internal
 * functions a part keeps, jit_parts.c) and emits it as an object file,
 * with the dumps after optimizing when dump_dir is given. */
cxla_status jit_compile_object(LLVMTargetMachineRef tm, LLVMModuleRef mod, int opt_level, bool part,
                               const char *dump_dir, LLVMMemoryBufferRef *out);
/* jit_parts.c: mod (taken) as *nobjs object files (objs, at most
 * JIT_MAX_PARTS, the caller's) of at most max_parts parts. */
cxla_status jit_compile_parts(LLVMTargetMachineRef tm, LLVMModuleRef mod, int opt_level, int max_parts,
                              const char *dump_dir, LLVMMemoryBufferRef *objs, int *nobjs);
/* Links an object file made by jit_add_module (copied): no LLVM IR, no
 * optimization, no code generation. */
cxla_status jit_add_object(CpuJit *j, const void *data, size_t len);
/* Defines data symbols at fixed addresses for the code to link against
 * (define them before adding the module or object that uses them). */
typedef struct JitSymbol {
  const char *name;
  const void *addr;
} JitSymbol;
cxla_status jit_define(CpuJit *j, const JitSymbol *syms, int n);
cxla_status jit_lookup(CpuJit *j, const char *name, KernelFn *out);
void jit_destroy(CpuJit *j);
/* The address of a runtime function emitted code calls by name (the
 * JIT's absolute symbols: cxla_cg_rt_scalar, the libm functions), or
 * NULL; the ELF loader (elfload.h) resolves with it too. */
void *jit_runtime_symbol(const char *name);

/* ---- dumps (dump.c) ---- */
/* The module's LLVM IR, whole and per kernel, before or after LLVM's
 * optimization; its assembly, whole and per kernel (made with tm). */
cxla_status cpu_dump_ir(LLVMModuleRef mod, const char *dir, bool optimized);
cxla_status cpu_dump_asm(LLVMTargetMachineRef tm, LLVMModuleRef mod, const char *dir);

/* ---- programs ---- */
typedef enum StepKind {
  ST_PARAM, ST_CONST, ST_KERNEL, ST_TUPLE, ST_GTE, ST_VIEW, ST_ALIAS, ST_TOKEN,
  ST_BLAS_DOT, ST_CONV, ST_WHILE, ST_COND, ST_CALL, ST_ROUTINE, ST_SORT
} StepKind;

typedef struct Program Program;

typedef struct GemmPlan {
  int64_t batch, m, n, k;
  bool trans_a, trans_b;
} GemmPlan;

typedef struct Step {
  StepKind kind;
  const Instr *in;
  char *kname;        /* kernel symbol */
  KernelFn fn;
  uint8_t (*pred)(const void *const *args); /* sort: the compiled comparator */
  int64_t extent;
  int64_t min_slice;  /* kernel: fewest rows worth handing to another thread */
  /* kernel: it may write its outputs with non-temporal stores
   * (codegen_kernel_streams): each output buffer is 64-byte aligned, and
   * its slices start at multiples of `unit` rows (CODEGEN_STREAM_ALIGN for
   * one-dimensional outputs, else 1) */
  bool streams;
  int64_t unit;
  int nout;
  /* kernel: bit k set when output k may take operand k's buffer (the
   * kernel works in place and this step is the operand's last use); done
   * when the executor holds the operand's only reference */
  unsigned inplace;
  /* kernel: a row kernel emitted to read operand 0 from its output
   * buffer (codegen_emit_kernel_alias; this step is operand 0's last
   * use): run in operand 0's buffer, or over a copy of it */
  bool row_alias;
  /* kernel, GEMM, convolution, window routine or sort of the entry
   * program: 1 + the index of the result array leaf (depth-first) that
   * output k is, or 0; the executor then writes output
   * k straight into the caller's result array (ExecCtx.results) */
  int leaf1[8];
  RVal *constant;
  GemmPlan gemm;
  /* gemm: the plan computes the dot's result with its last two dims
   * transposed (operands swapped: C^T = B^T A^T), for the bitcast that
   * is its only use and views it (compile.c: gemm_transposes) */
  bool swap;
  /* gemm: a chain (compile.c: plan_chains) runs here: this GEMM, its lhs
   * (row kernel step chain_f) and that kernel's operand 0 (GEMM step
   * chain_d1), block of rows by block of rows (exec.c: run_chain), the
   * two intermediates never stored whole; chained: this step is such a
   * D1 or kernel, run by its chain (no value of its own) */
  bool chain, chained;
  int chain_d1, chain_f;
  int64_t chain_rows; /* rows of D1's product per block */
  /* chain_band: the kernel reads D1's product S only at columns
   * j <= i + chain_band_d of row i of each batch element (a causal mask:
   * compile.c: chain_band), so the chain computes S no further than that */
  bool chain_band;
  int64_t chain_band_d;
  /* kernel: dots of the fused computation computed by BLAS first (their
   * operands are fusion parameters), passed after the operands */
  int npre;
  const Instr *pre[4];
  GemmPlan pre_plan[4];
  int nsub;
  Program **sub;      /* while: cond, body; conditional: branches; call;
                       * async-start: its computation */
  /* routine: which one, and the plan it made at compile time (owned) */
  int routine;
  void *plan;
  void (*plan_free)(void *);
  int64_t view_offset; /* view of a contiguous slice: its first byte in the operand's */
} Step;

struct Program {
  const Computation *comp;
  int nsteps;
  Step *steps;        /* one per instruction, by id */
  int *last_use;      /* step after which the value is released (-1: never) */
};

struct CpuExecutable {
  const HloModule *module;
  Program *entry;
  Program **progs;    /* every program, for destruction */
  int nprogs, capprogs;
  CpuJit *jit;        /* compiled, or loaded by the JIT; or NULL when: */
  struct ElfImage **images; /* loaded from the disk cache by elfload.c: */
  int nimages;              /* one per object of the pack */
  CpuCompileStats stats;
  int64_t grain;      /* kernel slices: least estimated work (0: CPU_KERNEL_GRAIN) */
  /* For the disk cache (cache.c): the object file the kernels came from
   * (NULL when loaded from the cache or not kept), and whether it can run
   * in another process (no addresses of this process baked in). */
  void *object;
  size_t object_len;
  bool relocatable;
  /* The instructions the code refers to by symbol (the generic scalar
   * path's argument): "cxla_in.<computation index>.<instruction id>",
   * NUL-terminated back to back; linked to this process's addresses. */
  char *refs;
  size_t refs_len;
  int nrefs;
  RvCache *spare;     /* a finished execution's value cache (exec.c), or NULL */
  /* whether a step may call OpenBLAS: 0 not known yet, 1 no, 2 yes
   * (cpu_uses_blas; set by the first execution, atomically) */
  int blas_use;
};

/* Whether some step of x (any of its programs) may call OpenBLAS: GEMM,
 * convolution and routine steps, kernels with GEMMs run first. An
 * execution without such steps leaves OpenBLAS's thread count alone
 * (cpu_blas_enter takes a lock: a small program's call is ~0.4 us). */
bool cpu_uses_blas(CpuExecutable *x);

/* The instruction a reference symbol names in m, or NULL when the name is
 * not one (cache.c checks stored names with it). */
const Instr *cpu_ref_instr(const HloModule *m, const char *name);

/* Calls fn for each symbol of an executable's compiled code (kernels,
 * sort comparators), in the order build_program plans them; stops at the
 * first error. */
cxla_status cpu_symbols_each(const CpuExecutable *x, cxla_status (*fn)(void *arg, const char *name),
                             void *arg);

/* The executable of module m from an object file made by a compile of the
 * same module with the same binary (cpu_compile's `object`): the steps are
 * planned again without emitting code; a comparator is compiled code when
 * has_symbol says the object has its symbol; check (before any linking)
 * says whether the plan's symbols are the object's. Fails (and the caller
 * recompiles) when they are not, or the object does not link. */
cxla_status cpu_load(const HloModule *m, const void *object, size_t object_len,
                     const char *refs, size_t refs_len, int nrefs,
                     bool (*has_symbol)(void *arg, const char *name),
                     cxla_status (*check)(void *arg, const CpuExecutable *x), void *arg,
                     CpuExecutable **out);

/* One execution: the executable, the runtime's cancellation/deadline
 * control (NULL: none) and the threads it may use: the client's pool
 * (NULL: the caller's thread only) and at most nthreads of them (>= 1);
 * see CpuExecOptions. */
typedef struct ExecCtx {
  CpuExecutable *x;
  const struct RtControl *control;
  const struct RtHost *host; /* the runtime's allocator, or NULL */
  uint64_t *rng_state; /* the legacy rng op's generator, per execution */
  RtPool *pool;
  int nthreads;
  int64_t *nsplit;    /* NULL, or += kernel calls split over threads */
  int64_t *ninplace;  /* NULL, or += kernel outputs written in place */
  RvCache *cache;     /* NULL, or where this execution's values are recycled */
  /* The entry program's result arrays, depth-first (the runtime's,
   * allocated, to be filled), or NULL: kernels whose output is one
   * (Step.leaf1) write into them directly */
  const struct RtArray *results;
  int nresults;
  /* the step profile (cxla_execute_options.profile), or NULL */
  void (*profile)(void *arg, const cxla_profile_step *step);
  void *profile_arg;
  /* with a profile, the most threads the timed step running now split a
   * part of its work over (cx_parallel_for), else NULL */
  int *step_threads;
  /* the client's host callback (custom-call "cxla_host_callback"), or NULL */
  cxla_host_callback_fn host_callback;
  void *host_callback_arg;
} ExecCtx;

cxla_status exec_program(const ExecCtx *cx, const Program *p, RVal *const *args, int nargs, RVal **out);
/* rt_pool_parallel_for on cx's pool for a routine's or a sort's work,
 * noting in cx->step_threads the threads it is split over. */
cxla_status cx_parallel_for(const ExecCtx *cx, int64_t n, int64_t min_slice, int max_threads, RtSliceFn fn,
                            void *arg);
/* An array value for the execution: through its cache (cx->cache) when it
 * has one, else rval_array_in(cx->host, ...). */
cxla_status rval_array_x(const ExecCtx *cx, ElemType t, int rank, const int64_t *dims, RVal **out);
/* The buffer for output k (of shape sh) of a kernel, GEMM, window
 * routine or sort step: the caller's result array when the output is one
 * (Step.leaf1: written in place, never copied), else a fresh array. */
cxla_status step_output(const ExecCtx *x, const Step *st, int k, const Shape *sh, RVal **out);
/* bytes from src to dst (not overlapping): a copy this large split over
 * cx's threads in stores that bypass the caches, else memcpy. For results
 * the program did not write in place (a parameter or constant returned). */
cxla_status exec_copy(const ExecCtx *cx, void *dst, const void *src, size_t bytes);
/* rval_borrow of an array literal with the struct from cx's cache. */
cxla_status rval_borrow_x(const ExecCtx *cx, const Literal *l, RVal **out);

/* XLA:CPU's floating-point mode, FTZ and DAZ, on the calling thread (as
 * compiled code runs); leave restores the mode enter returned. */
unsigned cpu_fp_mode_enter(void);
void cpu_fp_mode_leave(unsigned old);

/* ---- OpenBLAS inside cxla's threads: cpu/blas.h ---- */

/* ---- routines (routines.c dispatches; rt_*.c) ---- */
/* Plans the routine that runs `in` (st->routine, st->plan), or the
 * UNIMPLEMENTED compile error naming an op no routine runs. */
cxla_status routine_prepare(Step *st, const Instr *in);
/* Whether some routine runs `in`. */
bool routine_supported(const Instr *in);
cxla_status routine_run(const ExecCtx *cx, const Step *st, RVal *const *ops, RVal **out);
/* Whether the routine a step runs writes its one array output wherever
 * step_output puts it (so into a result array, Step.leaf1), every element. */
bool routine_writes_leaf(const Step *st);
/* Whether BLAS-like GEMMs run dot `in`: f32/f64/c64/c128, s8/u8 -> s32,
 * bf16 x bf16 -> f32 or bf16 (the plan: batch, m, n, k, transposes). */
bool gemm_plan(const Instr *dot, GemmPlan *p);
/* sort along dimensions[0] (sort.c), stable: a radix sort where the
 * comparator is a plain order on one operand (sort_plan makes the plan
 * st->plan then, else NULL), else a merge sort with the compiled
 * comparator st->pred. */
typedef struct SortPlan SortPlan;
cxla_status sort_plan(const Instr *in, SortPlan **out);
void sort_plan_free(void *plan);
cxla_status sort_run(const ExecCtx *cx, const Step *st, RVal *const *ops, RVal **out);
/* Runs a planned dot on the execution's threads. An f32 dot's operand may
 * be bf16 (the program skips a bf16 -> f32 convert whose only users are
 * such dots: see compile.c): bf16 x bf16 then runs the bf16 kernels. */
cxla_status gemm_run(const ExecCtx *cx, const Instr *in, const GemmPlan *p, RVal *a, RVal *b, RVal **out);
/* gemm_run into o, an allocated array of the dot's shape (every element
 * written). */
cxla_status gemm_run_into(const ExecCtx *cx, const GemmPlan *p, RVal *a, RVal *b, RVal *o);

/* s8/u8 x s8/u8 -> s32 products, exact (intdot.c: AMX or AVX512-VNNI
 * kernels where the CPU has them, else sgemm); o is the allocated result. */
cxla_status gemm_int8(const GemmPlan *p, RVal *a, RVal *b, RVal *o, RtPool *pool, int nthreads);

/* Whether an f32/f64 (c64/c128: n2 = 2) array holds no infinity or NaN
 * (routines.c; vectorized): BLAS may skip zero factors, so the GEMM-based
 * routines take a plain loop otherwise. */
bool rval_all_finite(RVal *v, int64_t n2);
/* The same, large arrays scanned over at most nthreads of pool's threads. */
bool rval_all_finite_on(RVal *v, int64_t n2, RtPool *pool, int nthreads);

/* ---- convolutions as GEMMs (conv.c) ---- */
/* Whether convolution `in` runs as im2col + BLAS (f32/f64, batch groups 1,
 * enough work). */
bool conv_gemm_plan_ok(const Instr *in);
/* Counts a convolution that conv_gemm_plan_ok accepts in the statistics,
 * by the path conv_gemm_run takes for it. */
void conv_gemm_count(const Instr *in, CpuCompileStats *stats);
/* cx: the allocator and the threads the im2col blocks split over (the BLAS
 * then single-threaded per block); NULL: the caller's thread. Sets the
 * BLAS's thread count itself. */
cxla_status conv_gemm_run(const ExecCtx *cx, const Instr *in, RVal *lhs, RVal *rhs, RVal **out);
/* As conv_gemm_run, into `out`, an array of the convolution's shape the
 * caller allocated (a result array: written in place, never copied). */
cxla_status conv_gemm_run_into(const ExecCtx *cx, const Instr *in, RVal *lhs, RVal *rhs, RVal *out);

/* dconv.c: direct f32 convolution on AVX-512 or AVX2 over a channels-last input
 * (one feature group, 1 or 2 spatial dims as H x W; 1-D: H = KH = OH = 1),
 * output positions oh, ow reading input row oh * sh - ph + kh * dh, column
 * ow * sw - pw + kw * dw (padding may be negative) for window tap kh, kw.
 * Strides are in elements; the kernel's may be negative (reversal). */
typedef struct DConvPlan {
  int64_t N, C, O;                        /* batch, input and output features */
  int64_t H, W, KH, KW, OH, OW;           /* input, window, output extents */
  int64_t sh, sw, ph, pw, dh, dw;         /* stride, low padding, window dilation */
  int64_t xs_b, xs_h, xs_w;               /* input */
  int64_t xs_c;                           /* input features' stride: 0 or 1 contiguous, else
                                           * (Winograd only) rows are staged channels-last */
  int64_t ks_i, ks_o, ks_h, ks_w, kbase;  /* kernel */
  int64_t os_b, os_f, os_h, os_w, obase;  /* output */
} DConvPlan;
/* Whether this machine runs dconv_run (AVX-512F, or AVX2 and FMA). */
bool dconv_available(void);
/* Whether dconv_run computes p by Winograd F(2x2, 3x3): a 3x3 window,
 * unit stride, no dilation, at least 16 input features, C x O (rounded
 * up to 16) at most 16384. */
bool dconv_winograd(const DConvPlan *p);
/* Writes every output element of p; cx: the threads the output rows split
 * over (NULL: the caller's thread). An input with strided features (xs_c
 * above 1) only where dconv_winograd(p). */
cxla_status dconv_run(const ExecCtx *cx, const DConvPlan *p, const float *x, const float *k, float *o);

/* wgrad.c: f32 weight-gradient convolutions (conv.c's window-sum form) as
 * a direct kernel, where the CPU has AVX-512F or AVX2 and FMA
 * (wgrad_available; the same results on both):
 *   out[oh, ow, b, o] = sum over f, kh, kw of
 *                       x[b, f, oh + kh - ph, ow + kw - pw] * dy[f, kh, kw, o]
 * x (the lhs) read through strides l*, dy (the rhs) through r* with its
 * o contiguous, out written through os_*; one spatial dim: H, KH, OH 1. */
typedef struct WgradConv {
  int64_t B, F, O;              /* lhs batch, contracted features, rhs output features */
  int64_t H, W, KH, KW, OH, OW; /* lhs, rhs (window) and output spatial extents */
  int64_t ph, pw;               /* low padding */
  int64_t lb, lf, lh, lw;       /* lhs strides */
  int64_t ri, rh, rw;           /* rhs strides (o: 1) */
  int64_t os_h, os_w, os_b, os_o; /* output strides */
} WgradConv;
bool wgrad_available(void);
/* Whether wgrad_run takes every product of w (its position tiles, over a
 * zero-padded lhs): then operands with infinities or NaNs may run on it
 * too, and give the interpreter's results except for NaN where a
 * non-finite rhs value meets the padding (0 x inf: the interpreter skips
 * those taps). The other tiles skip them too: they must not see such
 * operands. */
bool wgrad_all_taps(const WgradConv *w);
cxla_status wgrad_run(const ExecCtx *cx, const WgradConv *w, const float *x, const float *dy, float *out);

/* rt_fft.c */
cxla_status rt_fft_plan(const Instr *in, void **plan);
void rt_fft_free(void *plan);
cxla_status rt_fft_run(const void *plan, RVal *const *ops, RVal **out);
/* rt_linalg.c: cholesky, triangular-solve, the LAPACK custom-calls */
bool rt_linalg_supported(const Instr *in);
cxla_status rt_linalg_check(const Instr *in); /* shapes, at compile time */
cxla_status rt_linalg_run(const Instr *in, RVal *const *ops, RVal **out);
/* rt_window.c: depthwise convolutions, NHWC pooling and its gradient
 * (reduce-window, select-and-scatter) and scans (reduce-windows over a
 * whole prefix) on raw buffers, vectorized over channels, rows over the
 * execution's threads; rt_window_supported says which instructions.
 * rt_window_plan makes the plan at compile time (the routine, the vector
 * variant, the geometry; free it with cxla_free); a run only loops. */
bool rt_window_supported(const Instr *in);
cxla_status rt_window_plan(const Instr *in, void **plan);
cxla_status rt_window_run(const ExecCtx *cx, const Step *st, RVal *const *ops, RVal **out);
/* rt_topk.c: topk and the "TopK" custom-call */
cxla_status rt_topk_check(const Instr *in, int64_t *k, bool *largest);
cxla_status rt_topk_run(const Instr *in, RVal *const *ops, RVal **out);
/* rt_rng.c: the legacy rng op */
cxla_status rt_rng_check(const Instr *in);
cxla_status rt_rng_run(const Instr *in, uint64_t *state, RVal *const *ops, RVal **out);
/* rt_control.c: collectives on one replica, ids, async and copy wrappers,
 * dimension sizes, dynamic-reshape, annotating custom-calls */
bool rt_identity_target(const char *target);
cxla_status rt_control_check(const Instr *in);
cxla_status rt_control_run(const ExecCtx *cx, const Step *st, RVal *const *ops, RVal **out);

#endif
