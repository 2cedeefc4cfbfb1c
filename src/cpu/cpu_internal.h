/* cpu_internal.h: shared by src/cpu's files. */
#ifndef CXLA_CPU_INTERNAL_H
#define CXLA_CPU_INTERNAL_H

#include <llvm-c/Core.h>

#include "cpu/cpu.h"

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
};

cxla_status rval_array(ElemType t, int rank, const int64_t *dims, RVal **out);
cxla_status rval_tuple(int n, RVal **elems_taken, RVal **out);
cxla_status rval_borrow(const Literal *l, RVal **out);   /* no copy */
cxla_status rval_view(RVal *base, const Shape *s, RVal **out);
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
/* Verifies, optimizes and compiles the module (taken). */
cxla_status jit_add_module(CpuJit *j, LLVMModuleRef mod, int opt_level, const char *dump_dir);
cxla_status jit_lookup(CpuJit *j, const char *name, KernelFn *out);
void jit_destroy(CpuJit *j);

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
  int nout;
  RVal *constant;
  GemmPlan gemm;
  /* kernel: dots of the fused computation computed by BLAS first (their
   * operands are fusion parameters), passed after the operands */
  int npre;
  const Instr *pre[4];
  GemmPlan pre_plan[4];
  int nsub;
  Program **sub;      /* while: cond, body; conditional: branches; call */
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
  CpuJit *jit;
  CpuCompileStats stats;
};

/* One execution: the executable and the runtime's cancellation/deadline
 * control (NULL: none). */
typedef struct ExecCtx {
  CpuExecutable *x;
  const struct RtControl *control;
} ExecCtx;

cxla_status exec_program(const ExecCtx *cx, const Program *p, RVal *const *args, int nargs, RVal **out);

/* ---- routines (routines.c) ---- */
/* Whether `in` runs as a runtime routine on the interpreter's evaluator. */
bool routine_supported(const Instr *in);
cxla_status routine_run(const ExecCtx *cx, const Instr *in, RVal *const *ops, RVal **out);
bool gemm_plan(const Instr *dot, GemmPlan *p);
/* sort along dimensions[0] with the compiled comparator (stable). */
cxla_status sort_run(const Step *st, RVal *const *ops, RVal **out);
cxla_status gemm_run(const Instr *in, const GemmPlan *p, RVal *a, RVal *b, RVal **out);

/* s8/u8 x s8/u8 -> s32 products, exact (intdot.c: the AVX512-VNNI kernel
 * where the CPU has it, else sgemm); o is the allocated result. */
cxla_status gemm_int8(const GemmPlan *p, RVal *a, RVal *b, RVal *o);

/* ---- convolutions as GEMMs (conv.c) ---- */
/* Whether convolution `in` runs as im2col + BLAS (f32/f64, batch groups 1,
 * enough work). */
bool conv_gemm_plan_ok(const Instr *in);
cxla_status conv_gemm_run(const Instr *in, RVal *lhs, RVal *rhs, RVal **out);

#endif
