/* cpu.h: the compiled CPU backend.
 *
 *   compile.c   an optimized module -> a CpuExecutable: one program (a list
 *               of steps) per computation that runs as such (the entry,
 *               while bodies and conditions, branches, called computations,
 *               fusions the emitter cannot compile as one kernel), one
 *               kernel per fusion or unfused op, all in one LLVM module
 *   jit.c       LLVM optimization, machine code as an object file, ORC LLJIT
 *               for the host CPU
 *   cache.c     programs in the runtime's disk cache: object file + kernel
 *               names, target id; loading re-plans steps without LLVM IR
 *   elfload.c   links a cached object file without LLVM (the JIT takes
 *               what it does not handle)
 *   dump.c      --dump-to: LLVM IR and assembly, whole and per kernel
 *   exec.c      the executor over programs, and runtime values
 *   blas_threads.c  OpenBLAS on one thread while executions run (the
 *               application's count put back after), and GEMMs split
 *               over the execution's pool in single-threaded BLAS calls
 *   routines.c  runtime routines: BLAS dots, and the dispatch to the
 *               routines on raw buffers below (a few ops still run on the
 *               interpreter's evaluators: routines.c lists them)
 *   intdot.c    low-precision dots: s8/u8 -> s32 and bf16 -> f32/bf16
 *               (intdot.h), choosing among amx.c (AMX tiles),
 *               intdot_vnni.c (AVX512-VNNI) and widening + sgemm
 *   rt_fft.c    fft: mixed-radix / Bluestein, planned at compile time
 *   rt_linalg.c cholesky, triangular-solve, the LAPACK custom-calls
 *               (OpenBLAS's LAPACK and CBLAS)
 *   rt_topk.c   topk;  rt_rng.c  the legacy rng op
 *   conv.c      convolutions as im2col + BLAS GEMMs;  wgrad.c  weight
 *               gradients (the window-sum form) as a direct AVX-512 kernel
 *   rt_window.c depthwise convolution, NHWC pooling and its gradient
 *               (reduce-window max/add, select-and-scatter), whole-prefix
 *               scans: vectorized over channels, rows over the threads
 *   rt_control.c  one-replica collectives, async/copy wrappers, ids,
 *               dimension sizes
 *
 * The executable borrows the module it was compiled from (instructions are
 * referenced by the code and the steps): keep the module alive until the
 * executable is destroyed. Executing is reentrant: several threads may run
 * one executable at once. */
#ifndef CXLA_CPU_H
#define CXLA_CPU_H

#include "ir/ir.h"

typedef struct CpuExecutable CpuExecutable;

typedef struct CpuCompileOptions {
  size_t struct_size;
  /* LLVM optimization, 1..3; 0: $CXLA_CPU_OPT if set (0..3), else the
   * level cpu_compile picks: 2, or 1 for a module of small kernels only
   * (CPU_SMALL_MODULE_OPT) */
  int opt_level;
  const char *dump_dir; /* write LLVM IR before/after optimization and assembly here, or NULL */
  bool keep_object;     /* keep the object file for the disk cache (cpu/cache.c) */
  int compile_threads;  /* LLVM compiles the kernels as this many parts at once
                           (jit_parts.c); 0 or 1: one part, on the caller's thread */
} CpuCompileOptions;

typedef struct CpuCompileStats {
  double codegen_s, llvm_s; /* emitting IR; optimizing + JIT compiling */
  int nkernels, nroutines;
  int nshared;              /* of the kernels: aliases of an identical one (codegen_share_kernels) */
  int nconvs;               /* convolutions run as GEMMs (conv.c), of them: */
  int nconvs_shift;         /* window-sum form, one GEMM per output position */
  int nconvs_phased;        /* lhs-dilated (transposed), per output phase */
  int nconvs_direct;        /* on the direct kernel (dconv.c), phased ones too */
  int nconvs_winograd;      /* of them by Winograd F(2x2, 3x3) */
  int nconvs_wgrad;         /* of the window-sum ones: the direct AVX-512 kernel (wgrad.c) */
  int nradix;               /* sorts whose comparator is a plain order: radix sorted */
  int nbf16_direct;         /* bf16 -> f32 converts skipped: their dots read bf16 */
  int nbf16_rounded;        /* fusions convert(dot) to bf16 run as one GEMM step (bf16 result) */
  int nlight;               /* small kernels compiled unoptimized (codegen_light_small_kernels) */
  int opt_level;            /* the LLVM pipeline's level (default<O1>, <O2>, ...) */
  int nparts;               /* object files: the parts LLVM compiled at once (jit_parts.c) */
  /* loaded from the disk cache: planning the steps, linking the object
   * (codegen_s and llvm_s are then 0: no IR, no LLVM compile) */
  double plan_s, load_s;
  bool loaded;
  /* loaded, and linked by LLVM's JIT: the object had something the ELF
   * loader (elfload.c) does not handle, or $CXLA_CPU_LINKER is "jit" */
  bool jit_linked;
} CpuCompileStats;

/* Compiles an optimized module (the default pipeline has run on it). An op
 * the backend cannot compile is an UNIMPLEMENTED error naming it. */
cxla_status cpu_compile(const HloModule *m, const CpuCompileOptions *opts, CpuExecutable **out);
void cpu_executable_destroy(CpuExecutable *e);
const CpuCompileStats *cpu_executable_stats(const CpuExecutable *e);

/* Runs the entry computation on args (borrowed) and returns a fresh result
 * literal (a tuple for tuple-shaped results). */
cxla_status cpu_execute(CpuExecutable *e, Literal *const *args, int nargs, Literal **out);

/* cpu_execute with a runtime control (src/runtime/backend.h's RtControl:
 * cancellation and deadline, checked between steps and loop iterations;
 * NULL: none). */
struct RtControl;
cxla_status cpu_execute_ctl(CpuExecutable *e, Literal *const *args, int nargs,
                            const struct RtControl *control, Literal **out);

/* How one execution may use threads. Kernels are split over the pool's
 * threads in slices of whole rows of their outermost output dimension,
 * none smaller than the kernel's estimated work warrants (see
 * CXLA_CPU_GRAIN below); every row is computed the same way whatever the
 * split, so results do not depend on the thread count. */
struct RtPool;
typedef struct CpuExecOptions {
  const struct RtControl *control; /* NULL: none */
  struct RtPool *pool;             /* NULL: everything on the calling thread */
  int num_threads;                 /* at most this many of the pool's threads; 0: all */
  int64_t *kernels_split;          /* if not NULL: += kernel calls split over threads */
  int64_t *kernels_inplace;        /* if not NULL: += kernel outputs written in an operand's buffer */
} CpuExecOptions;
cxla_status cpu_execute_opts(CpuExecutable *e, Literal *const *args, int nargs,
                             const CpuExecOptions *o, Literal **out);

/* Kernel slices: a kernel is split only into slices of at least
 * CPU_KERNEL_GRAIN estimated element operations (tens of microseconds of
 * work), so that handing a slice to another thread never costs more than
 * the slice. $CXLA_CPU_GRAIN (a positive integer, read by cpu_compile)
 * overrides it; tests set it to 1 to split every kernel row by row. */
#define CPU_KERNEL_GRAIN 65536

#endif
