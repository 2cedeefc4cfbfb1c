/* The CPU backend's streamed nests (src/codegen/cg.c emit_streamed:
 * elementwise kernels computing module results of 16 MiB and more write them with
 * non-temporal stores, their slices starting on 64-byte boundaries)
 * against the interpreter, bit for bit: one-dimensional outputs of odd
 * lengths (the last slice's last line partial), f32, f16 and s8 outputs,
 * two outputs of one fusion, rows of whole cache lines and rows that are
 * not (not streamed); on one thread and split over a pool of 2 into
 * slices of one unit (64 elements, one row). Then a
 * tanh and a sine (a speculating nest): within tolerance of the
 * interpreter, and split bit for bit as on one thread. Then row kernels
 * (cg.c streamed_rows: softmax, its stash in a scratch row, and layer
 * norm): their first rows bit for bit as a module of those rows alone
 * computes them (too small to stream), the whole within tolerance of the
 * interpreter, and their LLVM IR holding non-temporal stores or not. A
 * streamed kernel has one copy of its nest: as many loops and vectorized
 * loops as the same module too small to stream. And a caller's result
 * array that is not 64-byte aligned gets the same bits (exec.c
 * step_output: the kernel writes an aligned array, copied). */
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "cpu_vs_interp.h"
#include "interp/interp.h"
#include "verify/verify.h"
#include "runtime/backend.h"
#include "runtime/threadpool.h"

/* cpu_vs_interp_split: one thread, or a pool of 2 with every kernel
 * split into one-row slices; bit for bit against want (the interpreter's
 * when NULL). */
static bool check_run(const char *name, const char *text, bool split, const Literal *want) {
  return cpu_vs_interp_split(name, text, split, want);
}

static bool check_both(const char *name, const char *text) {
  return check_run(name, text, false, NULL) && check_run(name, text, true, NULL);
}

/* x * y + x, halved, less y, clamped at 0, squared (bench chain6) */
#define CHAIN(T, N)                                                                                   \
  "HloModule m\n\nENTRY e {\n  x = " T "[" N "] parameter(0)\n  y = " T "[" N "] parameter(1)\n"     \
  "  a = " T "[" N "] multiply(x, y)\n  b = " T "[" N "] add(a, x)\n  h = " T "[] constant(0.5)\n"    \
  "  hb = " T "[" N "] broadcast(h), dimensions={}\n  c = " T "[" N "] multiply(b, hb)\n"             \
  "  d = " T "[" N "] subtract(c, y)\n  z = " T "[] constant(0)\n  zb = " T "[" N "] broadcast(z), dimensions={}\n" \
  "  f = " T "[" N "] maximum(d, zb)\n  ROOT g = " T "[" N "] multiply(f, f)\n}\n"

TEST(one_dimensional) {
  /* 16 MiB + 60 bytes: slices of 524290 elements (not a multiple of 16) */
  CHECK(check_both("f32_odd", CHAIN("f32", "4194319")));
  CHECK(check_both("f64_odd", CHAIN("f64", "2097155")));
  CHECK(check_both("f16_out", "HloModule m\n\nENTRY e {\n  x = f32[8388617] parameter(0)\n"
                              "  y = f32[8388617] parameter(1)\n  a = f32[8388617] multiply(x, y)\n"
                              "  ROOT c = f16[8388617] convert(a)\n}\n"));
  CHECK(check_both("s8_out", "HloModule m\n\nENTRY e {\n  x = f32[16777233] parameter(0)\n"
                             "  c = s32[16777233] convert(x)\n  ROOT s = s8[16777233] convert(c)\n}\n"));
  CHECK(check_both("two_outputs", "HloModule m\n\nENTRY e {\n  x = f32[4194319] parameter(0)\n"
                                  "  y = f32[4194319] parameter(1)\n  a = f32[4194319] add(x, y)\n"
                                  "  b = f32[4194319] multiply(x, y)\n"
                                  "  ROOT t = (f32[4194319], f32[4194319]) tuple(a, b)\n}\n"));
}

TEST(rows) {
  /* rows of 8 KiB (streamed) and of 4100 bytes (not) */
  CHECK(check_both("rows_aligned", CHAIN("f32", "2049,2048")));
  CHECK(check_both("rows_odd", CHAIN("f32", "4099,1025")));
}

/* text (one f32[4194319] parameter): within tolerance of the
 * interpreter, and split bit for bit as on one thread. */
static bool check_inexact(const char *name, const char *text) {
  bool ok = cpu_vs_interp(name, text, false);
  cxla_module *m = NULL;
  Literal **args = NULL, *one = NULL;
  CpuExecutable *x = NULL;
  cxla_status s = cxla_module_parse(text, strlen(text), name, &m);
  if (!s) s = verify_module(m);
  if (!s) s = cpu_vs_interp_args(m, &args);
  if (!s) s = cpu_compile(m, NULL, &x);
  CpuExecOptions o = {.num_threads = 1};
  if (!s) s = cpu_execute_opts(x, args, 1, &o, &one);
  if (s) fprintf(stderr, "%s: %s\n", name, cxla_status_message(s));
  ok = ok && !s && check_run(name, text, true, one);
  cxla_status_free(s);
  literal_free(one);
  cpu_vs_interp_free_args(m, args);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);
  return ok;
}

/* A tanh, and a sine (a speculating nest, cg.c: chunks computed again
 * without the fast path where an element needs it: arguments scaled
 * past 2^16 for some: the fallback) */
TEST(transcendental) {
  CHECK(check_inexact("tanh", "HloModule m\n\nENTRY e {\n  x = f32[4194319] parameter(0)\n"
                              "  t = f32[4194319] tanh(x)\n  ROOT r = f32[4194319] multiply(t, x)\n}\n"));
  CHECK(check_inexact("sin", "HloModule m\n\nENTRY e {\n  x = f32[4194319] parameter(0)\n"
                             "  c = f32[] constant(100000)\n  cb = f32[4194319] broadcast(c), dimensions={}\n"
                             "  y = f32[4194319] multiply(x, cb)\n  s = f32[4194319] sine(y)\n"
                             "  ROOT r = f32[4194319] multiply(s, s)\n}\n"));
}

/* ---- streamed row kernels ---- */

/* the entry of a module whose computation `fused` maps f32[R,C] to f32[R,C] */
#define ENTRY_OF(R, C)                                                       \
  "\nENTRY e {\n  p = f32[" R "," C "] parameter(0)\n"                       \
  "  ROOT f = f32[" R "," C "] fusion(p), kind=kInput, calls=fused\n}\n"

/* a module's reducers mx and sum, then the head of computation `fused` */
#define REDUCERS                                                                 \
  "HloModule m\n\nmx {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"    \
  "  ROOT m = f32[] maximum(a, b)\n}\n\nsum {\n  a = f32[] parameter(0)\n"       \
  "  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}\n\nfused {\n"

/* the rest of `fused`: softmax over the rows of x (f32[R,C]), the module's
 * entry after it */
#define SOFTMAX_OF_X(R, C)                                                       \
  "  m = f32[" R "] reduce(x, ninf), dimensions={1}, to_apply=mx\n"              \
  "  mb = f32[" R "," C "] broadcast(m), dimensions={0}\n"                       \
  "  d = f32[" R "," C "] subtract(x, mb)\n"                                     \
  "  ex = f32[" R "," C "] exponential(d)\n"                                     \
  "  z = f32[] constant(0)\n"                                                    \
  "  s = f32[" R "] reduce(ex, z), dimensions={1}, to_apply=sum\n"               \
  "  sb = f32[" R "," C "] broadcast(s), dimensions={0}\n"                       \
  "  ROOT y = f32[" R "," C "] divide(ex, sb)\n}\n" ENTRY_OF(R, C)

/* softmax over the rows of f32[R,C] */
#define SOFTMAX(R, C)                                                            \
  REDUCERS "  x = f32[" R "," C "] parameter(0)\n"                               \
  "  ninf = f32[] constant(-inf)\n" SOFTMAX_OF_X(R, C)

/* columns past row + 2 masked to -inf first (a causal mask) */
#define CAUSAL_SOFTMAX(R, C)                                                     \
  REDUCERS "  x0 = f32[" R "," C "] parameter(0)\n"                              \
  "  r = s32[" R "," C "] iota(), iota_dimension=0\n"                            \
  "  c = s32[" R "," C "] iota(), iota_dimension=1\n"                            \
  "  two = s32[] constant(2)\n"                                                  \
  "  twob = s32[" R "," C "] broadcast(two), dimensions={}\n"                    \
  "  r2 = s32[" R "," C "] add(r, twob)\n"                                       \
  "  keep = pred[" R "," C "] compare(c, r2), direction=LE\n"                    \
  "  ninf = f32[] constant(-inf)\n"                                              \
  "  nb = f32[" R "," C "] broadcast(ninf), dimensions={}\n"                     \
  "  x = f32[" R "," C "] select(keep, x0, nb)\n" SOFTMAX_OF_X(R, C)

/* (x - mean) / sqrt(variance + 1e-5) over rows (NC: C as a float) */
#define LAYERNORM(R, C, NC)                                                       \
  "HloModule m\n\nsum {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"    \
  "  ROOT s = f32[] add(a, b)\n}\n\nfused {\n"                                    \
  "  x = f32[" R "," C "] parameter(0)\n"                                         \
  "  z = f32[] constant(0)\n"                                                     \
  "  n = f32[] constant(" NC ")\n"                                                \
  "  nb = f32[" R "] broadcast(n), dimensions={}\n"                               \
  "  s = f32[" R "] reduce(x, z), dimensions={1}, to_apply=sum\n"                 \
  "  mean = f32[" R "] divide(s, nb)\n"                                           \
  "  mb = f32[" R "," C "] broadcast(mean), dimensions={0}\n"                     \
  "  d = f32[" R "," C "] subtract(x, mb)\n"                                      \
  "  dd = f32[" R "," C "] multiply(d, d)\n"                                      \
  "  v = f32[" R "] reduce(dd, z), dimensions={1}, to_apply=sum\n"                \
  "  var = f32[" R "] divide(v, nb)\n"                                            \
  "  eps = f32[] constant(1e-05)\n"                                               \
  "  eb = f32[" R "] broadcast(eps), dimensions={}\n"                             \
  "  ve = f32[" R "] add(var, eb)\n"                                              \
  "  rs = f32[" R "] rsqrt(ve)\n"                                                 \
  "  rb = f32[" R "," C "] broadcast(rs), dimensions={0}\n"                       \
  "  ROOT y = f32[" R "," C "] multiply(d, rb)\n}\n" ENTRY_OF(R, C)

/* Element e of the argument: a hash of e spread over [-100, 100), the
 * same for the module of the first rows: exponentials of a row's
 * differences down to e^-200, among them the small ones the fast row
 * division leaves to the exact one (cg.c fast_div_chunk). */
static double spread(void *ctx, int param, int64_t e, double u) {
  (void)ctx, (void)param, (void)u;
  uint64_t h = (uint64_t)e * 0x9E3779B97F4A7C15ull;
  h ^= h >> 29;
  return ((double)(h >> 11) / 9007199254740992.0 - 0.5) * 200.0;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *f) {
  (void)st, (void)flag, (void)f;
  return remove(path);
}

/* A module compiled for the cpu backend with spread arguments: split, a
 * pool of 2 and slices of one row ($CXLA_CPU_GRAIN, while it is open). */
typedef struct Run {
  cxla_module *m;
  Literal **args;
  CpuExecutable *x;
  RtPool *pool;
  bool split;
} Run;

static cxla_status run_open(Run *r, const char *name, const char *text, bool split, const char *dump_dir) {
  *r = (Run){.split = split};
  if (split) setenv("CXLA_CPU_GRAIN", "1", 1);
  CpuCompileOptions co = {.struct_size = sizeof co, .dump_dir = dump_dir};
  cxla_status s = cxla_module_parse(text, strlen(text), name, &r->m);
  if (!s) s = verify_module(r->m);
  if (!s) s = cpu_vs_interp_args_fn(r->m, 1, spread, NULL, &r->args);
  if (!s) s = cpu_compile(r->m, &co, &r->x);
  if (!s && split) s = rt_pool_create(2, &r->pool);
  return s;
}

static cxla_status run_execute(const Run *r, Literal **out) {
  CpuExecOptions o = {.pool = r->pool, .num_threads = r->split ? 2 : 1};
  return cpu_execute_opts(r->x, r->args, r->m->entry->nparams, &o, out);
}

static void run_close(Run *r) {
  if (r->m) cpu_vs_interp_free_args(r->m, r->args);
  cpu_executable_destroy(r->x);
  rt_pool_destroy(r->pool);
  cxla_module_destroy(r->m);
  if (r->split) unsetenv("CXLA_CPU_GRAIN");
}

/* Runs text on the cpu backend with spread arguments (split: a pool of 2,
 * slices of one row), into *out; *nt: the non-temporal stores in its
 * optimized LLVM IR (NULL: not asked), *nvec (when not NULL) its
 * vectorized loops (blocks LLVM names vector.body...) and *nloop (when
 * not NULL) its loops (latches with !llvm.loop). interp: the
 * interpreter's result wanted within tolerance, or not. */
static bool run_spread(const char *name, const char *text, bool split, Literal **out, int *nt, int *nvec,
                       int *nloop, bool interp) {
  Run r;
  Literal *want = NULL;
  char dir[] = "/tmp/cxla_stream_XXXXXX";
  bool dumped = nt && mkdtemp(dir);
  cxla_status s = run_open(&r, name, text, split, dumped ? dir : NULL);
  if (!s && interp) s = cxla_interp_run(r.m, r.args, r.m->entry->nparams, &want);
  if (!s) s = run_execute(&r, out);
  bool ok = !s && (!nt || dumped) && (!want || cpu_vs_interp_close(name, want, *out, false));
  if (s) fprintf(stderr, "%s: %s\n", name, cxla_status_message(s));
  if (dumped) {
    char path[256];
    snprintf(path, sizeof path, "%s/llvm_after_opt.ll", dir);
    FILE *f = fopen(path, "r");
    char line[4096];
    *nt = 0;
    if (nvec) *nvec = 0;
    if (nloop) *nloop = 0;
    while (f && fgets(line, sizeof line, f)) {
      if (strstr(line, "store <") && strstr(line, "!nontemporal")) (*nt)++;
      if (nvec && !strncmp(line, "vector.body", 11)) (*nvec)++;
      if (nloop && strstr(line, " br ") && strstr(line, "!llvm.loop")) (*nloop)++;
    }
    ok = ok && f;
    if (f) fclose(f);
    nftw(dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
  }
  cxla_status_free(s);
  literal_free(want);
  run_close(&r);
  return ok;
}

/* big (rows of cols f32, streamed when `streams`) on one thread and split:
 * within tolerance of the interpreter (on one thread), the same bits
 * split, and its first `rows` rows those of `small` (the same module over
 * them, too small to stream: the plain row kernel, its stash in the
 * output); and as many loops vectorized, and no more loops, in big's
 * optimized IR as in small's: a streamed kernel has one copy of its nest,
 * vectorized as the plain kernel's is (LLVM may drop a scalar remainder
 * loop from one and not the other: for AVX2, softmax's 4096 columns). */
static bool check_rows(const char *name, const char *big, const char *small, int64_t rows, int64_t cols,
                       bool streams) {
  Literal *one = NULL, *two = NULL, *part = NULL;
  int nt = 0, nt_small = 0, nvec = 0, nvec_small = 0, nloop = 0, nloop_small = 0;
  bool ok = run_spread(name, big, false, &one, &nt, &nvec, &nloop, true) &&
            run_spread(name, big, true, &two, NULL, NULL, NULL, false) &&
            run_spread(name, small, false, &part, &nt_small, &nvec_small, &nloop_small, false);
  if (ok && !literal_equal(one, two)) ok = false, fprintf(stderr, "%s: split run differs\n", name);
  if (ok && memcmp(one->data, part->data, (size_t)(rows * cols) * sizeof(float)))
    ok = false, fprintf(stderr, "%s: first %lld rows differ from the small module's\n", name, (long long)rows);
  if (ok && ((nt > 0) != streams || nt_small != 0))
    ok = false, fprintf(stderr, "%s: %d non-temporal stores (small: %d)\n", name, nt, nt_small);
  if (ok && (nvec != nvec_small || nvec_small < 1 || nloop > nloop_small))
    ok = false, fprintf(stderr, "%s: %d loops, %d vectorized (small: %d, %d)\n", name, nloop, nvec, nloop_small,
                        nvec_small);
  literal_free(one);
  literal_free(two);
  literal_free(part);
  return ok;
}

/* A one-dimensional streamed kernel has one copy of its nest (cg.c
 * emit_streamed; the caller gives it aligned outputs and slices): as many
 * loops and vectorized loops in the optimized IR of big as in that of
 * small (the same module over fewer elements, not streamed), which has
 * some, and non-temporal stores in big's only. */
static bool check_one_copy(const char *name, const char *big, const char *small) {
  Literal *a = NULL, *b = NULL;
  int nt = 0, nt_small = 0, nvec = 0, nvec_small = 0, nloop = 0, nloop_small = 0;
  bool ok = run_spread(name, big, false, &a, &nt, &nvec, &nloop, false) &&
            run_spread(name, small, false, &b, &nt_small, &nvec_small, &nloop_small, false);
  if (ok && (nvec != nvec_small || nvec_small < 1 || nloop != nloop_small || nt < 1 || nt_small != 0))
    ok = false, fprintf(stderr, "%s: %d loops, %d vectorized, %d non-temporal stores (small: %d, %d, %d)\n", name,
                        nloop, nvec, nt, nloop_small, nvec_small, nt_small);
  literal_free(a);
  literal_free(b);
  return ok;
}

#define SINE(N)                                                                                      \
  "HloModule m\n\nENTRY e {\n  x = f32[" N "] parameter(0)\n  s = f32[" N "] sine(x)\n"             \
  "  ROOT r = f32[" N "] multiply(s, s)\n}\n"

TEST(one_copy) {
  CHECK(check_one_copy("chain", CHAIN("f32", "4194319"), CHAIN("f32", "4099")));
  CHECK(check_one_copy("sine", SINE("4194319"), SINE("4099")));
}

/* text run through the backend's execute with its one result array at
 * 4 bytes past a 64-byte boundary (split: over a pool of 2, slices of one
 * unit), against cpu_execute_opts's result (the executor's own aligned
 * array), bit for bit. */
static bool check_unaligned_result(const char *name, const char *text, bool split) {
  Run r;
  Literal *want = NULL;
  void *raw = NULL;
  cxla_status s = run_open(&r, name, text, split, NULL);
  if (!s) s = run_execute(&r, &want);
  bool ok = !s;
  if (ok) {
    size_t bytes = (size_t)want->nelems * (size_t)type_bytes(want->type);
    raw = aligned_alloc(64, (bytes + 127) / 64 * 64); /* a multiple of the alignment */
    char *data = raw ? (char *)raw + 4 : NULL;
    RtArray in[4], res = {.type = want->type, .rank = want->rank, .dims = want->dims, .data = data, .size = bytes};
    int n = r.m->entry->nparams < 4 ? r.m->entry->nparams : 4;
    for (int i = 0; i < n; i++)
      in[i] = (RtArray){.type = r.args[i]->type, .rank = r.args[i]->rank, .dims = r.args[i]->dims,
                        .data = r.args[i]->data,
                        .size = (size_t)r.args[i]->nelems * (size_t)type_bytes(r.args[i]->type)};
    BackendExecuteArgs a = {.program = r.x, .nargs = n, .args = in, .nresults = 1, .results = &res,
                            .num_threads = split ? 2 : 1, .pool = r.pool};
    s = raw ? cpu_backend.execute(&a) : cxla_oom();
    ok = !s && !memcmp(data, want->data, bytes);
    /* a parameter returned: its argument's bytes, whatever the executor's own gave */
    if (ok && r.m->entry->root->op == OP_PARAMETER) ok = !memcmp(data, r.args[0]->data, bytes);
    if (!s && !ok) fprintf(stderr, "%s: the unaligned result differs\n", name);
  }
  if (s) fprintf(stderr, "%s: %s\n", name, cxla_status_message(s));
  cxla_status_free(s);
  free(raw);
  literal_free(want);
  run_close(&r);
  return ok;
}

TEST(unaligned_result) {
  CHECK(check_unaligned_result("chain", CHAIN("f32", "4194319"), false));
  CHECK(check_unaligned_result("chain_split", CHAIN("f32", "4194319"), true));
  CHECK(check_unaligned_result("rows_split", CHAIN("f32", "2049,2048"), true));
  CHECK(check_unaligned_result("softmax_split", SOFTMAX("1024", "4096"), true));
  /* a parameter returned: copied by the executor (exec.c exec_copy), 16
   * MiB and more in streamed stores from the destination's 32-byte
   * boundary on, over the threads: a head, whole 64-byte blocks, a tail */
  static const char k_param[] = "HloModule m\n\nENTRY e {\n  ROOT p = f32[4194319] parameter(0)\n}\n";
  CHECK(check_unaligned_result("param", k_param, false));
  CHECK(check_unaligned_result("param_split", k_param, true));
  /* a streamed transpose (cg.c emit_transpose: streamed blocks only, its
   * output aligned by the executor) */
  static const char k_tr[] = "HloModule m\n\nENTRY e {\n  x = f32[2048,2053] parameter(0)\n"
                             "  ROOT t = f32[2053,2048] transpose(x), dimensions={1,0}\n}\n";
  CHECK(check_unaligned_result("transpose", k_tr, false));
  CHECK(check_unaligned_result("transpose_split", k_tr, true));
}

TEST(row_kernels) {
  /* 16 MiB outputs; a softmax's stash row of 16 KiB and 32 KiB (scratch
   * on the stack), then of 64 KiB (not streamed: its stash in the output) */
  CHECK(check_rows("softmax", SOFTMAX("1024", "4096"), SOFTMAX("4", "4096"), 4, 4096, true));
  CHECK(check_rows("softmax_32k", SOFTMAX("512", "8192"), SOFTMAX("3", "8192"), 3, 8192, true));
  CHECK(check_rows("softmax_64k", SOFTMAX("256", "16384"), SOFTMAX("2", "16384"), 2, 16384, false));
  CHECK(check_rows("causal_softmax", CAUSAL_SOFTMAX("1024", "4096"), CAUSAL_SOFTMAX("5", "4096"), 5, 4096, true));
  CHECK(check_rows("layernorm", LAYERNORM("1024", "4096", "4096"), LAYERNORM("4", "4096", "4096"), 4, 4096, true));
}

/* The host's f32 lanes (what LLVM's vectorizer uses). */
static int host_lanes(void) {
#if defined(__x86_64__) && defined(__GNUC__)
  return __builtin_cpu_supports("avx512f") ? 16 : __builtin_cpu_supports("avx2") ? 8 : 4;
#else
  return 4;
#endif
}

/* Runs text (a kernel computing tanh) against the interpreter and puts
 * the interleave counts its emitted IR asks LLVM for into counts (at most
 * max; *n: how many). */
static bool interleave_counts(const char *name, const char *text, int *counts, int max, int *n) {
  char dir[] = "/tmp/cxla_stream_XXXXXX";
  bool ok = mkdtemp(dir) != NULL;
  Run r;
  Literal *want = NULL, *got = NULL;
  cxla_status s = run_open(&r, name, text, false, ok ? dir : NULL);
  if (!s) s = cxla_interp_run(r.m, r.args, r.m->entry->nparams, &want);
  if (!s) s = run_execute(&r, &got);
  if (s) fprintf(stderr, "%s: %s\n", name, cxla_status_message(s));
  ok = ok && !s && cpu_vs_interp_close(name, want, got, false);
  char path[256], line[4096];
  snprintf(path, sizeof path, "%s/llvm_before_opt.ll", dir);
  FILE *f = fopen(path, "r");
  ok = ok && f;
  static const char key[] = "llvm.loop.interleave.count\", i32 ";
  *n = 0;
  while (f && fgets(line, sizeof line, f)) {
    const char *k = strstr(line, key);
    if (k && *n < max) counts[(*n)++] = atoi(k + strlen(key));
  }
  if (f) fclose(f);
  nftw(dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
  cxla_status_free(s);
  literal_free(want);
  literal_free(got);
  run_close(&r);
  return ok;
}

/* A long chain (tanh) in a loop of few elements (an RNN step: rows of
 * 32 after a product) asks LLVM to interleave no more vectors than the
 * loop has elements: 8 vectors of 8 or 16 lanes would need 64 or 128, and
 * every element would take the scalar remainder loop. Checked on the
 * interleave counts in the emitted IR (each times the host's f32 lanes
 * at most 32), and the results against the interpreter. */
TEST(short_rows_interleave) {
  static const char *text = "HloModule m\n\nENTRY e {\n"
                            "  h = f32[8,32] parameter(0)\n  w = f32[32,32] parameter(1)\n"
                            "  b = f32[32] parameter(2)\n"
                            "  d = f32[8,32] dot(h, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
                            "  bb = f32[8,32] broadcast(b), dimensions={1}\n  a = f32[8,32] add(d, bb)\n"
                            "  ROOT t = f32[8,32] tanh(a)\n}\n";
  int lanes = host_lanes(), counts[16], n = 0;
  CHECK(interleave_counts("short_rows", text, counts, 16, &n));
  CHECK(n > 0); /* the tanh's loop asked for some */
  for (int i = 0; i < n; i++) {
    if (counts[i] * lanes > 32)
      fprintf(stderr, "short_rows: interleave count %d of %d lanes over 32 elements\n", counts[i], lanes);
    CHECK(counts[i] * lanes <= 32);
  }
}

/* Whether every loop of text (computing op over f32[65536], then a
 * multiply) asks LLVM to interleave `want` vectors; results against the
 * interpreter. */
static bool long_rows_ask(const char *op, int want) {
  char text[512];
  snprintf(text, sizeof text,
           "HloModule m\n\nENTRY e {\n  x = f32[65536] parameter(0)\n"
           "  h = f32[] constant(0.5)\n  hb = f32[65536] broadcast(h), dimensions={}\n"
           "  t = f32[65536] %s(x)\n  ROOT y = f32[65536] multiply(t, hb)\n}\n",
           op);
  int counts[16], n = 0;
  bool ok = interleave_counts(op, text, counts, 16, &n) && n > 0;
  for (int i = 0; i < n; i++)
    if (counts[i] != want) {
      fprintf(stderr, "long_rows %s: interleave count %d, want %d\n", op, counts[i], want);
      ok = false;
    }
  return ok;
}

/* The interleave count of a long loop computing tanh (a GELU's): 8
 * vectors side by side where the host has AVX-512's 32 vector registers,
 * 4 where it has 16 (8 chains spilled to the stack there). exp and
 * logistic (softmax's, an LSTM's gates): 2 vectors of 16 lanes, 4 of 8;
 * sin 2 on both. */
TEST(long_rows_interleave) {
  bool wide = host_lanes() >= 16;
  CHECK(long_rows_ask("tanh", wide ? 8 : 4));
  CHECK(long_rows_ask("exponential", wide ? 2 : 4));
  CHECK(long_rows_ask("logistic", wide ? 2 : 4));
  CHECK(long_rows_ask("sine", 2));
}

/* text (one parameter) on the interpreter and compiled (dump_dir: its
 * IR there, or NULL), on arguments from value(): both results, or false
 * (a message printed) when a step fails. The caller frees them. */
static bool both_results(const char *name, const char *text, double (*value)(void *, int, int64_t, double),
                         const char *dump_dir, Literal **want, Literal **got) {
  cxla_module *m = NULL;
  Literal **args = NULL;
  CpuExecutable *x = NULL;
  CpuCompileOptions co = {.struct_size = sizeof co, .dump_dir = dump_dir};
  *want = *got = NULL;
  cxla_status s = cxla_module_parse(text, strlen(text), name, &m);
  if (!s) s = cpu_vs_interp_args_fn(m, 3, value, NULL, &args);
  if (!s) s = cxla_interp_run(m, args, 1, want);
  if (!s) s = cpu_compile(m, &co, &x);
  CpuExecOptions o = {0};
  if (!s) s = cpu_execute_opts(x, args, 1, &o, got);
  if (s) fprintf(stderr, "%s: %s\n", name, cxla_status_message(s));
  bool ok = !s;
  cxla_status_free(s);
  cpu_executable_destroy(x);
  if (m) cpu_vs_interp_free_args(m, args);
  cxla_module_destroy(m);
  return ok;
}

/* exp(x - max(x)) (softmax's) knows its argument is at most 0 or NaN
 * (scalar.c below_own_max) and leaves out exp's upper clamps: the same
 * values as an exp of the same argument the pattern does not see (x -
 * max(x) + -0, the same value) in the same fused kernel, bit for bit, on
 * rows that reach every case: all -inf (NaN), an inf (0 and NaN), a NaN,
 * a range down past exp's underflow, all equal (exp(0) and exp(-0)),
 * spread values; the kernel clamps at 88.8 once, for the second. */
static double le0_value(void *ctx, int param, int64_t e, double u) {
  (void)ctx, (void)param;
  int64_t row = e / 300, col = e % 300;
  switch (row) {
  case 0: return -INFINITY;
  case 1: return col == 7 ? INFINITY : u * 10;
  case 2: return col == 100 ? NAN : u;
  case 3: return -(double)col * 0.4;
  case 4: return 3.0;
  default: return (u - 0.5) * 60;
  }
}

TEST(exp_below_row_max) {
  static const char *text =
      "HloModule m\n\nmx {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT r = f32[] maximum(a, b)\n}\n\n"
      "fused {\n  x = f32[8,300] parameter(0)\n  ninf = f32[] constant(-inf)\n"
      "  m = f32[8] reduce(x, ninf), dimensions={1}, to_apply=mx\n  mb = f32[8,300] broadcast(m), dimensions={0}\n"
      "  s = f32[8,300] subtract(x, mb)\n  e1 = f32[8,300] exponential(s)\n"
      "  nz = f32[] constant(-0)\n  nzb = f32[8,300] broadcast(nz), dimensions={}\n"
      "  s2 = f32[8,300] add(s, nzb)\n  e2 = f32[8,300] exponential(s2)\n"
      "  ROOT t = (f32[8,300], f32[8,300]) tuple(e1, e2)\n}\n\n"
      "ENTRY e {\n  a = f32[8,300] parameter(0)\n"
      "  ROOT f = (f32[8,300], f32[8,300]) fusion(a), kind=kInput, calls=fused\n}\n";
  char dir[] = "/tmp/cxla_stream_XXXXXX";
  bool ok = mkdtemp(dir) != NULL;
  Literal *want = NULL, *got = NULL;
  ok = ok && both_results("exp_le0", text, le0_value, dir, &want, &got) &&
       cpu_vs_interp_close("exp_le0", want, got, false);
  if (ok) {
    const Literal *a = got->tuple[0], *b = got->tuple[1];
    ok = a->nelems == 2400 && b->nelems == 2400 && !memcmp(a->data, b->data, 2400 * 4);
    const float *fa = a->data;
    if (!ok) fprintf(stderr, "exp_le0: the two exps differ\n");
    /* the rows reached their cases */
    ok = ok && isnan(fa[0]) && isnan(fa[300 + 7]) && fa[300 + 8] == 0.0f && isnan(fa[600]) && fa[900] == 1.0f &&
         fa[900 + 299] == 0.0f && fa[1200] == 1.0f;
    if (!ok) fprintf(stderr, "exp_le0: a row missed its case\n");
  }
  char path[256], line[4096];
  snprintf(path, sizeof path, "%s/llvm_before_opt.ll", dir);
  FILE *f = fopen(path, "r");
  int clamps = 0;
  while (f && fgets(line, sizeof line, f)) /* x > 88.8 */
    clamps += strstr(line, "fcmp ogt float") && strstr(line, "0x4056333340000000");
  if (f) fclose(f);
  if (clamps != 1) fprintf(stderr, "exp_le0: %d clamps at 88.8, want 1\n", clamps);
  ok = ok && f && clamps == 1;
  nftw(dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
  literal_free(want);
  literal_free(got);
  CHECK(ok);
}

/* log's NaNs, bit for bit as the interpreter's (the C library's): a NaN
 * argument comes back with its sign and payload, a negative one gives the
 * invalid-operation NaN; compared as the s32 bits of the results. */
static double lognan_value(void *ctx, int param, int64_t e, double u) {
  (void)ctx, (void)param, (void)u;
  static const double v[8] = {NAN, -NAN, -1, -0.0, 0, INFINITY, -INFINITY, 2};
  return v[e % 8];
}

TEST(log_nan_bits) {
  static const char *text = "HloModule m\n\nENTRY e {\n  x = f32[64] parameter(0)\n  l = f32[64] log(x)\n"
                            "  ROOT b = s32[64] bitcast-convert(l)\n}\n";
  Literal *want = NULL, *got = NULL;
  bool ok = both_results("log_nan", text, lognan_value, NULL, &want, &got) && want->nelems == 64 &&
            got->nelems == 64 && !memcmp(want->data, got->data, 64 * 4);
  const uint32_t *w = want ? want->data : NULL;
  /* the interpreter's own: +NaN and -NaN kept */
  ok = ok && w[0] == 0x7fc00000u && w[1] == 0xffc00000u;
  if (!ok && got && want)
    fprintf(stderr, "log_nan: got %08x %08x %08x want %08x %08x %08x\n", ((uint32_t *)got->data)[0],
            ((uint32_t *)got->data)[1], ((uint32_t *)got->data)[2], w[0], w[1], w[2]);
  literal_free(want);
  literal_free(got);
  CHECK(ok);
}

int main(void) {
  RUN(one_dimensional);
  RUN(rows);
  RUN(transcendental);
  RUN(row_kernels);
  RUN(one_copy);
  RUN(unaligned_result);
  RUN(short_rows_interleave);
  RUN(long_rows_interleave);
  RUN(exp_below_row_max);
  RUN(log_nan_bits);
  return test_summary(__FILE__);
}
