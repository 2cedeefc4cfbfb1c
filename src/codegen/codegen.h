/* codegen.h: the target-independent loop-nest emitter. It turns one
 * instruction of an optimized module (a fusion, or an op outside any fusion)
 * into an LLVM function, a "kernel", that computes the instruction's value
 * into output buffers. It knows nothing of the CPU: the target (src/cpu)
 * adds the JIT, the executor and the runtime routines.
 *
 * Kernel ABI:  void kernel(void **bufs, int64_t lo, int64_t hi)
 *   bufs[0 .. nout)            the outputs: the instruction's array, or each
 *                              element of its tuple (multi-output fusion,
 *                              variadic reduce), in order;
 *   bufs[nout .. nout + nops)  its operands, in operand order (arrays).
 * Buffers hold logical row-major arrays in Literal storage (ir.h). The
 * kernel computes rows [lo, hi) of its output (a rank-0 output: the whole
 * value when lo < hi), so a runtime may split one kernel over threads;
 * codegen_kernel_extent says how many rows there are. A row is an index
 * of the outermost output dimension, or, when that dimension is short, of
 * the few leading dimensions flattened in row-major order (see
 * codegen_kernel_extent). Each row is computed the same way whatever the
 * range it is called with.
 *
 * Ops are computed with the interpreter's (XLA's) semantics. Float arithmetic
 * assumes the caller runs the kernel with the FTZ and DAZ modes XLA:CPU uses.
 * Op and type combinations not emitted inline call ew_scalar_eval (the
 * interpreter's scalar definition) through cxla_cg_rt_scalar, so the
 * compiled code refers to the module's instructions: keep the module alive
 * while the code runs.
 *
 * Ownership: the caller owns the LLVM context (a JIT's); a Codegen owns its
 * module until codegen_take_module hands it to the caller. */
#ifndef CXLA_CODEGEN_H
#define CXLA_CODEGEN_H

#include <llvm-c/Core.h>

#include "ir/ir.h"

typedef struct Codegen Codegen;

cxla_status codegen_create(LLVMContextRef ctx, const char *module_name, Codegen **out);
void codegen_destroy(Codegen *cg);

/* Whether the emitter can compile `in` as a kernel (fills why on false:
 * a message naming the op). */
bool codegen_supports(const Instr *in, char *why, size_t n);

/* Emits the kernel for `in` as function `name`. */
cxla_status codegen_emit_kernel(Codegen *cg, const Instr *in, const char *name);

/* The same, with instructions of the fused computation whose values the
 * caller computes beforehand (e.g. a dot through BLAS): pre[i]'s value is
 * read from bufs[nout + noperands + i]. */
cxla_status codegen_emit_kernel_pre(Codegen *cg, const Instr *in, const char *name,
                                    const Instr *const *pre, int npre);

/* codegen_emit_kernel_pre for a row kernel that may write its output over
 * operand 0's buffer (codegen_row_inplace): with `alias`, the kernel reads
 * operand 0 from the output buffer bufs[0], which must hold operand 0's
 * values when it is called (operand 0's own buffer, or a copy); bufs[nout]
 * is not read. Without, as codegen_emit_kernel_pre (every buffer its own). */
cxla_status codegen_emit_kernel_alias(Codegen *cg, const Instr *in, const char *name,
                                      const Instr *const *pre, int npre, bool alias);

/* Emits a scalar computation (a sort comparator) as function `name`:
 *   uint8_t name(const void *const *args)
 * args[k] points at parameter k's element (Literal storage); the result is
 * the root's pred (0/1). Fails naming the op if the computation is not
 * scalar. */
cxla_status codegen_emit_predicate(Codegen *cg, const Computation *c, const char *name);

/* Rows of the output (1 for rank 0); what [lo, hi) ranges over: the
 * outermost dimension's size, or, when it is under 64, the product of the
 * fewest leading dimensions (the innermost never among them) that reaches
 * 64. A kernel whose outputs differ in shape computes everything on any
 * call with lo == 0 and nothing otherwise (extent 1). */
int64_t codegen_kernel_extent(const Instr *in);

/* The fewest rows worth a slice of their own (>= 1): a column-reduction
 * sweep reads every element of each input line, so a slice narrower than
 * a few cache lines of it would make each thread read the lines the
 * others read too. */
int64_t codegen_kernel_min_rows(const Instr *in);

/* Whether the kernel of `in` is made from `in` alone: its opcode,
 * attributes, shapes and fused computation, its operands' shapes. False
 * where it may also depend on where `in` sits (an output large enough to
 * be stored around the caches when it is an entry result: cg.c
 * streamed). */
bool codegen_kernel_context_free(const Instr *in);

/* Whether the kernel of `in` may write its outputs with non-temporal
 * stores (outputs of 16 MiB and more that are entry results: cg.c
 * streamed). Its caller must then pass every output 64-byte aligned and,
 * when output 0 is one-dimensional, call it on slices [lo, hi) whose lo
 * is a multiple of CODEGEN_STREAM_ALIGN (the kernel stores from lo as
 * from a 64-byte boundary). False for every kernel that does not. */
bool codegen_kernel_streams(const Instr *in);
#define CODEGEN_STREAM_ALIGN 64

/* Number of output buffers of the kernel for `in`. */
int codegen_kernel_outputs(const Instr *in);

/* How many leading operands' buffers may also be the kernel's outputs of
 * the same index (in place: output k starts as a copy of operand k, so
 * passing operand k's buffer as output k saves the copy). Scatter: its
 * operands; a dynamic-update-slice (unfused, or the root of a fusion
 * whose parameter 0 is its base and read nowhere else): operand 0; others:
 * 0. */
int codegen_kernel_inplace(const Instr *in);

/* Whether `in` is a row kernel (softmax, layer norm) that can write its
 * output over operand 0's buffer when emitted by codegen_emit_kernel_alias
 * with alias: operand 0 has the output's type and dims and the fused
 * computation reads it only at the output's index (cg.c: row_inplace). */
bool codegen_row_inplace(const Instr *in);

/* Whether pred x (of a fused computation; its dim k is dim map[k] of an
 * array whose rows are dim `row` and columns dim `col`) is true only where
 * column j <= row i + *d, with *d found: a mask built from iotas (a
 * compare of the row and column iotas, broadcast, selected or and-ed
 * with other preds), as jnp.tril's is. */
bool codegen_band_pred(const Instr *x, const int *map, int row, int col, int64_t *d);

/* Makes each kernel whose IR equals another kernel's (but for their
 * names; LLVM's MergeFunctions decides) an alias of that kernel, so that
 * LLVM compiles one copy (share.c); *nshared: how many became aliases.
 * Call after emitting every kernel, before codegen_take_module. */
cxla_status codegen_share_kernels(Codegen *cg, int *nshared);

/* Names kernel `name` an alias of kernel `existing`, emitted before
 * (the caller knows the two compute the same: share.c). */
cxla_status codegen_alias_kernel(Codegen *cg, const char *name, const char *existing);

/* Marks the module's small kernels (optimized for size: under 2048
 * element operations) optnone: LLVM then compiles them without
 * optimizing, about 4x faster (3333 slice-exp-multiply kernels of 16
 * elements: 7.8 -> 1.9 s) for code slower by a fraction of a microsecond
 * per call; the caller decides when that pays (compile.c: thousands of
 * distinct kernels). *nlight: how many. Call after codegen_share_kernels. */
cxla_status codegen_light_small_kernels(Codegen *cg, int *nlight);

/* Whether every function the module defines for its callers is a small
 * kernel (optimized for size, as above; or made light); true for a module
 * that defines none. */
bool codegen_all_kernels_small(Codegen *cg);

/* Hands the LLVM module to the caller (who disposes of it or gives it to a
 * JIT); the Codegen keeps nothing. */
LLVMModuleRef codegen_take_module(Codegen *cg);

/* After LLVM's optimization of mod: marks non-temporal the vector stores
 * of the streamed nests (cg.c emit_streamed: addresses from llvm.ptrmask)
 * that LLVM knows to be aligned to their size, which x86 then emits as
 * streaming stores. (Marked before, the stores would not be vectorized:
 * the element loop's scalar stores are not aligned as a vector's.) Linear
 * in the module's size. */
void codegen_mark_streams(LLVMModuleRef mod);

/* The runtime helper the emitted code calls for scalar ops not emitted
 * inline: ew_scalar_eval(in, ops, out) (ops: one element per operand). The
 * JIT must resolve the symbol "cxla_cg_rt_scalar" to it. */
void cxla_cg_rt_scalar(const void *in, const void *const *ops, void *out);

/* The side of the square blocks a 2-D transpose of 32-bit elements moves
 * (cg.c splits the work in them, rt_transpose.c moves them). */
#define CG_TBLOCK 16

/* The runtime helper that moves the 16 x 16 blocks of a 2-D transpose of
 * 32-bit elements (rt_transpose.c; cg.c emit_transpose): output rows
 * [i_lo, i_lo + 16 nb) by columns [j_lo, j_lo + 16 nj) of the batch of
 * rows x cols matrices at out (rows counted over the batch; a block
 * within one matrix) = their transpose in src (batch x cols x rows); nt:
 * non-temporal stores where out's rows are 64-byte aligned. The JIT
 * resolves the symbol "cxla_cg_rt_transpose32" to it. */
void cxla_cg_rt_transpose32(const void *src, void *out, int64_t rows, int64_t cols, int64_t i_lo, int64_t nb,
                            int64_t j_lo, int64_t nj, int32_t nt);
/* The same with the path chosen (tests): AVX-512 or AVX2 vectors (x86-64
 * only, and the caller checked the CPU), or plain element moves (nt
 * ignored; every build). cxla_cg_rt_transpose32 takes the widest the CPU
 * has. */
enum { CG_TPATH_PLAIN, CG_TPATH_AVX2, CG_TPATH_AVX512 };
void codegen_rt_transpose32_path(int path, const void *src, void *out, int64_t rows, int64_t cols, int64_t i_lo,
                                 int64_t nb, int64_t j_lo, int64_t nj, bool nt);

/* The runtime helper that rounds an f32 to f8/f4 type `type` (an ElemType)
 * for contractions on those types; the JIT resolves the symbol
 * "cxla_cg_rt_f8_encode" to it. */
uint8_t cxla_cg_rt_f8_encode(int32_t type, float v);

#endif
