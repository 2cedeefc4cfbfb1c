/* Row kernels (src/codegen/cg.c, comp_row_reductions in src/ir/rows.c):
 * fusions that reduce rows and broadcast the results back along them
 * (softmax, layer norm) compute each reduce once per row. Checked two
 * ways: which fused computations qualify, and with which k (including
 * ones that must not: a column broadcast of a reduce, a reduce read
 * through a reverse, a column reduction, a root of row dims); and the
 * kernels' results against the interpreter's (sums to a relative 1e-5 of
 * the largest result, NaN rows where NaN), over several row ranks, and
 * fusions that take the per-element path; the rows a row kernel's
 * calls range over (its row dims at most); and which row kernels write
 * their output over their operand's buffer (and which must not). */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "cpu_vs_interp.h"
#include "codegen_probe.h"

#define REGIONS                                                                                       \
  "mx {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT r = f32[] maximum(a, b)\n}\n\n" \
  "add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT r = f32[] add(a, b)\n}\n\n"

/* softmax over the last dim of f32[R,N]: XLA's own fusion */
#define SOFTMAX(R, N)                                                                                 \
  "HloModule m\n\n" REGIONS                                                                           \
  "fused {\n  p = f32[" R "," N "] parameter(0)\n  ninf = f32[] constant(-inf)\n"                    \
  "  m = f32[" R "] reduce(p, ninf), dimensions={1}, to_apply=mx\n"                                  \
  "  mb = f32[" R "," N "] broadcast(m), dimensions={0}\n  s = f32[" R "," N "] subtract(p, mb)\n"   \
  "  x = f32[" R "," N "] exponential(s)\n  z = f32[] constant(0)\n"                                 \
  "  sum = f32[" R "] reduce(x, z), dimensions={1}, to_apply=add\n"                                  \
  "  one = f32[] constant(1)\n  oneb = f32[" R "] broadcast(one), dimensions={}\n"                   \
  "  inv = f32[" R "] divide(oneb, sum)\n  ib = f32[" R "," N "] broadcast(inv), dimensions={0}\n"   \
  "  ROOT o = f32[" R "," N "] multiply(x, ib)\n}\n\n"                                               \
  "ENTRY e {\n  a = f32[" R "," N "] parameter(0)\n"                                                 \
  "  ROOT f = f32[" R "," N "] fusion(a), kind=kInput, calls=fused\n}\n"

/* layer norm of f32[64,64] rows (square: a row vector and a column
 * vector have the same dims), gamma and beta broadcast along dim 1 */
static const char kLayerNorm[] =
    "HloModule m\n\n" REGIONS
    "fused {\n  p = f32[64,64] parameter(0)\n  g = f32[64] parameter(1)\n  b = f32[64] parameter(2)\n"
    "  z = f32[] constant(0)\n  n = f32[] constant(0.015625)\n  nb = f32[64] broadcast(n), dimensions={}\n"
    "  s = f32[64] reduce(p, z), dimensions={1}, to_apply=add\n  mean = f32[64] multiply(s, nb)\n"
    "  mb = f32[64,64] broadcast(mean), dimensions={0}\n  d = f32[64,64] subtract(p, mb)\n"
    "  sq = f32[64,64] multiply(d, d)\n  v = f32[64] reduce(sq, z), dimensions={1}, to_apply=add\n"
    "  vm = f32[64] multiply(v, nb)\n  eps = f32[] constant(1e-5)\n  eb = f32[64] broadcast(eps), dimensions={}\n"
    "  ve = f32[64] add(vm, eb)\n  r = f32[64] rsqrt(ve)\n  rb = f32[64,64] broadcast(r), dimensions={0}\n"
    "  y = f32[64,64] multiply(d, rb)\n  gb = f32[64,64] broadcast(g), dimensions={1}\n"
    "  yg = f32[64,64] multiply(y, gb)\n  bb = f32[64,64] broadcast(b), dimensions={1}\n"
    "  ROOT o = f32[64,64] add(yg, bb)\n}\n\n"
    "ENTRY e {\n  a = f32[64,64] parameter(0)\n  g = f32[64] parameter(1)\n  b = f32[64] parameter(2)\n"
    "  ROOT f = f32[64,64] fusion(a, g, b), kind=kInput, calls=fused\n}\n";

/* log-softmax: the sum's log subtracted, no stash (the sum's input is
 * not read again) */
static const char kLogSoftmax[] =
    "HloModule m\n\n" REGIONS
    "fused {\n  p = f32[37,50] parameter(0)\n  ninf = f32[] constant(-inf)\n"
    "  m = f32[37] reduce(p, ninf), dimensions={1}, to_apply=mx\n"
    "  mb = f32[37,50] broadcast(m), dimensions={0}\n  d = f32[37,50] subtract(p, mb)\n"
    "  x = f32[37,50] exponential(d)\n  z = f32[] constant(0)\n"
    "  s = f32[37] reduce(x, z), dimensions={1}, to_apply=add\n  l = f32[37] log(s)\n"
    "  lb = f32[37,50] broadcast(l), dimensions={0}\n  ROOT o = f32[37,50] subtract(d, lb)\n}\n\n"
    "ENTRY e {\n  a = f32[37,50] parameter(0)\n  ROOT f = f32[37,50] fusion(a), kind=kInput, calls=fused\n}\n";

/* f32[4,5,40] rows over the last dim (k = 2) and over the last two (k = 1) */
static const char kRank3Last[] =
    "HloModule m\n\n" REGIONS
    "fused {\n  p = f32[4,5,40] parameter(0)\n  ninf = f32[] constant(-inf)\n"
    "  m = f32[4,5] reduce(p, ninf), dimensions={2}, to_apply=mx\n"
    "  mb = f32[4,5,40] broadcast(m), dimensions={0,1}\n  ROOT o = f32[4,5,40] subtract(p, mb)\n}\n\n"
    "ENTRY e {\n  a = f32[4,5,40] parameter(0)\n  ROOT f = f32[4,5,40] fusion(a), kind=kInput, calls=fused\n}\n";
static const char kRank3Two[] =
    "HloModule m\n\n" REGIONS
    "fused {\n  p = f32[70,5,8] parameter(0)\n  z = f32[] constant(0)\n"
    "  s = f32[70] reduce(p, z), dimensions={2,1}, to_apply=add\n"
    "  sb = f32[70,5,8] broadcast(s), dimensions={0}\n  ROOT o = f32[70,5,8] divide(p, sb)\n}\n\n"
    "ENTRY e {\n  a = f32[70,5,8] parameter(0)\n  ROOT f = f32[70,5,8] fusion(a), kind=kInput, calls=fused\n}\n";

/* must not qualify */
static const char kColumnBroadcast[] =
    "HloModule m\n\n" REGIONS
    "fused {\n  p = f32[16,16] parameter(0)\n  z = f32[] constant(0)\n"
    "  s = f32[16] reduce(p, z), dimensions={1}, to_apply=add\n"
    "  sb = f32[16,16] broadcast(s), dimensions={1}\n  ROOT o = f32[16,16] subtract(p, sb)\n}\n\n"
    "ENTRY e {\n  a = f32[16,16] parameter(0)\n  ROOT f = f32[16,16] fusion(a), kind=kInput, calls=fused\n}\n";
static const char kThroughReverse[] =
    "HloModule m\n\n" REGIONS
    "fused {\n  p = f32[16,24] parameter(0)\n  z = f32[] constant(0)\n"
    "  s = f32[16] reduce(p, z), dimensions={1}, to_apply=add\n  s1 = f32[16] reverse(s), dimensions={0}\n"
    "  sb = f32[16,24] broadcast(s1), dimensions={0}\n  ROOT o = f32[16,24] subtract(p, sb)\n}\n\n"
    "ENTRY e {\n  a = f32[16,24] parameter(0)\n  ROOT f = f32[16,24] fusion(a), kind=kInput, calls=fused\n}\n";
static const char kColumnReduce[] =
    "HloModule m\n\n" REGIONS
    "fused {\n  p = f32[16,24] parameter(0)\n  z = f32[] constant(0)\n"
    "  s = f32[24] reduce(p, z), dimensions={0}, to_apply=add\n"
    "  sb = f32[16,24] broadcast(s), dimensions={1}\n  ROOT o = f32[16,24] subtract(p, sb)\n}\n\n"
    "ENTRY e {\n  a = f32[16,24] parameter(0)\n  ROOT f = f32[16,24] fusion(a), kind=kInput, calls=fused\n}\n";
static const char kRowRoot[] =
    "HloModule m\n\n" REGIONS
    "fused {\n  p = f32[16,24] parameter(0)\n  z = f32[] constant(0)\n"
    "  s = f32[16] reduce(p, z), dimensions={1}, to_apply=add\n  ROOT o = f32[16] sqrt(s)\n}\n\n"
    "ENTRY e {\n  a = f32[16,24] parameter(0)\n  ROOT f = f32[16] fusion(a), kind=kInput, calls=fused\n}\n";

/* k for the entry root fusion of text, -1 on a parse error */
static int row_k(const char *text) {
  cxla_module *m = NULL;
  cxla_status s = cxla_module_parse(text, strlen(text), "rows", &m);
  int k = -1;
  if (!s) {
    const Instr *f = m->entry->root;
    const Instr *red[4];
    k = comp_row_reductions(f->called[0], f->shape, red, 4);
  } else {
    fprintf(stderr, "%s\n", cxla_status_message(s));
  }
  cxla_status_free(s);
  cxla_module_destroy(m);
  return k;
}

TEST(which_fusions_are_row_kernels) {
  CHECK(row_k(SOFTMAX("33", "70")) == 1);
  CHECK(row_k(kLayerNorm) == 1);
  CHECK(row_k(kLogSoftmax) == 1);
  CHECK(row_k(kRank3Last) == 2);
  CHECK(row_k(kRank3Two) == 1);
  CHECK(row_k(kColumnBroadcast) == 0);
  CHECK(row_k(kThroughReverse) == 0);
  CHECK(row_k(kColumnReduce) == 0);
  CHECK(row_k(kRowRoot) == 0);
}

static bool near(const char *name, const char *text);

/* The rows a row kernel's calls range over: never past its row dims
 * (f32[2,3,40] reduced over dims 1 and 2: 2 rows, not the 6 a plain
 * kernel of that shape has). */
static int64_t extent_of(const char *text) { return probe_root(text, codegen_kernel_extent); }

TEST(row_kernel_extent) {
  static const char two_of_three[] =
      "HloModule m\n\n" REGIONS
      "fused {\n  p = f32[2,3,40] parameter(0)\n  z = f32[] constant(0)\n"
      "  s = f32[2] reduce(p, z), dimensions={1,2}, to_apply=add\n"
      "  sb = f32[2,3,40] broadcast(s), dimensions={0}\n  ROOT o = f32[2,3,40] subtract(p, sb)\n}\n\n"
      "ENTRY e {\n  a = f32[2,3,40] parameter(0)\n  ROOT f = f32[2,3,40] fusion(a), kind=kInput, calls=fused\n}\n";
  CHECK(row_k(two_of_three) == 1);
  CHECK(extent_of(two_of_three) == 2);
  CHECK(near("two_of_three", two_of_three));
  CHECK(extent_of(kRank3Last) == 20);
  CHECK(extent_of(SOFTMAX("33", "70")) == 33);
}

static bool near(const char *name, const char *text) { return cpu_vs_interp(name, text, false); }

TEST(row_kernels_match_the_interpreter) {
  CHECK(near("softmax", SOFTMAX("33", "70")));
  CHECK(near("softmax_one_row", SOFTMAX("1", "300")));
  CHECK(near("softmax_short_rows", SOFTMAX("100", "3")));
  CHECK(near("layernorm", kLayerNorm));
  CHECK(near("log_softmax", kLogSoftmax));
  CHECK(near("rank3_last", kRank3Last));
  CHECK(near("rank3_two", kRank3Two));
  /* per-element kernels, as before */
  CHECK(near("column_broadcast", kColumnBroadcast));
  CHECK(near("through_reverse", kThroughReverse));
  CHECK(near("column_reduce", kColumnReduce));
  CHECK(near("row_root", kRowRoot));
}

/* ---- row kernels over their operand's buffer (cg.c: row_inplace) ----
 * The fusion's operand 0 is a temporary (a select's output) whose last use
 * is the fusion: the row kernel writes its output there. Counted, and
 * checked against the interpreter. */
#define ROW_FUSED(T, ROOT_LINES)                                                                      \
  "HloModule m\n\n" REGIONS                                                                           \
  "fused {\n  p = " T " parameter(0)\n  ninf = f32[] constant(-inf)\n"                                \
  "  m = f32[33] reduce(p, ninf), dimensions={1}, to_apply=mx\n"                                      \
  "  mb = " T " broadcast(m), dimensions={0}\n  s = " T " subtract(p, mb)\n"                         \
  "  x = " T " exponential(s)\n  z = f32[] constant(0)\n"                                            \
  "  sum = f32[33] reduce(x, z), dimensions={1}, to_apply=add\n"                                      \
  "  sb = " T " broadcast(sum), dimensions={0}\n" ROOT_LINES "}\n\n"
#define F33 "f32[33,70]"
/* t: the argument with its NaNs zeroed (a NaN would make its whole row
 * NaN, hiding any element computed wrong), a temporary of the entry */
#define TEMP(T, PT)                                                                                   \
  "  a = " T " parameter(0)\n  eq = " PT " compare(a, a), direction=EQ\n"                             \
  "  zero = f32[] constant(0)\n  zb = " T " broadcast(zero), dimensions={}\n"                        \
  "  t = " T " select(eq, a, zb)\n"
#define T33 TEMP(F33, "pred[33,70]")
/* the operand's last use is the fusion / it is read again after it */
#define ENTRY_TEMP "ENTRY e {\n" T33 "  ROOT f = " F33 " fusion(t), kind=kInput, calls=fused\n}\n"
#define ENTRY_KEPT                                                                                    \
  "ENTRY e {\n" T33 "  f = " F33 " fusion(t), kind=kInput, calls=fused\n"                            \
  "  ROOT r = " F33 " add(f, t)\n}\n"

static int64_t inplace_count(const char *name, const char *text) {
  int64_t n = 0;
  return cpu_vs_interp_inplace(name, text, false, &n) ? n : -1;
}

TEST(row_kernels_in_place) {
  /* softmax: exp(p - max) stashed in the output row, the row scaled */
  static const char softmax[] = ROW_FUSED(F33, "  ROOT o = " F33 " divide(x, sb)\n") ENTRY_TEMP;
  CHECK(inplace_count("softmax_in_place", softmax) == 1);
  /* p - max read again by the row's elements (no stash) */
  static const char log_softmax[] =
      ROW_FUSED(F33, "  l = f32[33] log(sum)\n  lb = " F33 " broadcast(l), dimensions={0}\n"
                     "  ROOT o = " F33 " subtract(s, lb)\n") ENTRY_TEMP;
  CHECK(inplace_count("log_softmax_in_place", log_softmax) == 1);
  /* layer norm: p read by both reduces and by the row's elements */
  static const char layernorm[] =
      "HloModule m\n\n" REGIONS
      "fused {\n  p = f32[64,64] parameter(0)\n  z = f32[] constant(0)\n"
      "  n = f32[] constant(0.015625)\n  nb = f32[64] broadcast(n), dimensions={}\n"
      "  s = f32[64] reduce(p, z), dimensions={1}, to_apply=add\n  mean = f32[64] multiply(s, nb)\n"
      "  mb = f32[64,64] broadcast(mean), dimensions={0}\n  d = f32[64,64] subtract(p, mb)\n"
      "  sq = f32[64,64] multiply(d, d)\n  v = f32[64] reduce(sq, z), dimensions={1}, to_apply=add\n"
      "  vm = f32[64] multiply(v, nb)\n  r = f32[64] rsqrt(vm)\n"
      "  rb = f32[64,64] broadcast(r), dimensions={0}\n  ROOT o = f32[64,64] multiply(d, rb)\n}\n\n"
      "ENTRY e {\n" TEMP("f32[64,64]", "pred[64,64]")
      "  ROOT f = f32[64,64] fusion(t), kind=kInput, calls=fused\n}\n";
  CHECK(inplace_count("layernorm_in_place", layernorm) == 1);

  /* the operand's last use, but a tuple read later holds it too: the
   * kernel runs over a copy of it */
  static const char held[] =
      ROW_FUSED(F33, "  ROOT o = " F33 " divide(x, sb)\n")
      "ENTRY e {\n" T33 "  u = " F33 " negate(t)\n"
      "  tp = (" F33 ", " F33 ") tuple(t, u)\n  g = " F33 " get-tuple-element(tp), index=0\n"
      "  f = " F33 " fusion(g), kind=kInput, calls=fused\n"
      "  g1 = " F33 " get-tuple-element(tp), index=1\n  ROOT r = " F33 " add(f, g1)\n}\n";
  CHECK(inplace_count("softmax_over_a_copy", held) == 0);
  /* must not: the operand read after the fusion */
  static const char kept[] = ROW_FUSED(F33, "  ROOT o = " F33 " divide(x, sb)\n") ENTRY_KEPT;
  CHECK(inplace_count("softmax_operand_kept", kept) == 0);
  /* must not: a borrowed argument */
  static const char borrowed[] =
      ROW_FUSED(F33, "  ROOT o = " F33 " divide(x, sb)\n")
      "ENTRY e {\n  a = " F33 " parameter(0)\n  ROOT f = " F33 " fusion(a), kind=kInput, calls=fused\n}\n";
  CHECK(inplace_count("softmax_borrowed", borrowed) == 0);
  /* must not: with the stash, the row's elements read p itself again
   * (the stash has overwritten it by then) */
  static const char stash_and_p[] =
      ROW_FUSED(F33, "  q = " F33 " divide(x, sb)\n  ROOT o = " F33 " add(q, p)\n") ENTRY_TEMP;
  CHECK(inplace_count("stash_then_p", stash_and_p) == 0);
  /* must not: p read at another index (reversed along the row) */
  static const char reversed[] =
      ROW_FUSED(F33, "  rv = " F33 " reverse(p), dimensions={1}\n  ROOT o = " F33 " subtract(rv, mb)\n")
      ENTRY_TEMP;
  CHECK(inplace_count("reversed_p", reversed) == 0);
  /* must not: the output of another type than the operand */
  static const char converted[] =
      ROW_FUSED(F33, "  q = " F33 " divide(x, sb)\n  ROOT o = f16[33,70] convert(q)\n")
      "ENTRY e {\n" T33 "  ROOT f = f16[33,70] fusion(t), kind=kInput, calls=fused\n}\n";
  CHECK(inplace_count("converted_output", converted) == 0);
}

/* ---- the rows ahead (cg.c: Em.rowpf) ----
 * Row kernels whose rows are CG_PF_CHUNK (128) elements or more run their
 * later passes in chunks that prefetch the row ahead: rows of whole
 * chunks, of a chunk and a part, shorter than a chunk (not chunked), rows
 * over two dims (the innermost dim chunked), short rows (prefetching
 * several rows ahead), over their operand's buffer and over another; the
 * results the interpreter's (to 1e-5, NaNs zeroed as above), and the same
 * bits on 1 thread and on 2 (slices of one row: the last rows prefetch
 * no row past the end). */
#define SOFTMAX_ROWS(T, RT, PT, D, ROOT_ENTRY)                                                         \
  "HloModule m\n\n" REGIONS                                                                           \
  "fused {\n  p = " T " parameter(0)\n  ninf = f32[] constant(-inf)\n"                                \
  "  m = " RT " reduce(p, ninf), dimensions={" D "}, to_apply=mx\n"                                   \
  "  mb = " T " broadcast(m), dimensions={0}\n  s = " T " subtract(p, mb)\n"                         \
  "  x = " T " exponential(s)\n  z = f32[] constant(0)\n"                                            \
  "  sum = " RT " reduce(x, z), dimensions={" D "}, to_apply=add\n"                                   \
  "  sb = " T " broadcast(sum), dimensions={0}\n  ROOT o = " T " divide(x, sb)\n}\n\n"                \
  "ENTRY e {\n" TEMP(T, PT) "  f = " T " fusion(t), kind=kInput, calls=fused\n" ROOT_ENTRY "}\n"
/* the fusion's last use of t is before an add that reads t again: not
 * in place */
#define KEPT(T) "  ROOT r = " T " add(f, t)\n"
#define SM2(R, N, ROOT_ENTRY)                                                                         \
  SOFTMAX_ROWS("f32[" R "," N "]", "f32[" R "]", "pred[" R "," N "]", "1", ROOT_ENTRY)

/* text's cpu result on the calling thread (NULL on failure) */
static Literal *cpu_result(const char *name, const char *text) {
  cxla_module *m = NULL;
  Literal **args = NULL, *got = NULL;
  CpuExecutable *x = NULL;
  cxla_status s = cxla_module_parse(text, strlen(text), name, &m);
  if (!s) s = cpu_vs_interp_args(m, &args);
  if (!s) s = cpu_compile(m, NULL, &x);
  CpuExecOptions o = {0};
  if (!s) s = cpu_execute_opts(x, args, m->entry->nparams, &o, &got);
  if (s) fprintf(stderr, "%s: %s\n", name, cxla_status_message(s));
  cxla_status_free(s);
  cpu_vs_interp_free_args(m, args);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);
  return got;
}

/* text's result on one thread and on 2 in slices of one row: the same */
static bool threads_agree(const char *name, const char *text) {
  Literal *got = cpu_result(name, text);
  bool ok = got && cpu_vs_interp_split(name, text, true, got);
  literal_free(got);
  return ok;
}

/* near and threads_agree */
static bool rows_ok(const char *name, const char *text) {
  bool a = near(name, text), b = threads_agree(name, text);
  return a && b;
}

TEST(row_kernels_prefetch_rows_ahead) {
  /* the root: the fusion, over its operand's buffer */
  static const char whole[] = SM2("6", "1024", "  ROOT r = f32[6,1024] copy(f)\n");
  CHECK(rows_ok("chunks_in_place", whole));
  CHECK(inplace_count("chunks_in_place", whole) == 1);
  static const char whole_kept[] = SM2("6", "1024", KEPT("f32[6,1024]"));
  CHECK(rows_ok("chunks_kept", whole_kept));
  static const char part[] = SM2("7", "1000", KEPT("f32[7,1000]"));
  CHECK(rows_ok("chunk_and_part", part));
  static const char one_more[] = SM2("9", "129", KEPT("f32[9,129]"));
  CHECK(rows_ok("chunk_and_one", one_more));
  static const char under[] = SM2("9", "127", KEPT("f32[9,127]"));
  CHECK(rows_ok("under_a_chunk", under));
  static const char tiny[] = SM2("40", "5", KEPT("f32[40,5]"));
  CHECK(rows_ok("under_a_vector", tiny));
  static const char many_short[] = SM2("300", "128", KEPT("f32[300,128]"));
  CHECK(rows_ok("short_rows_far_ahead", many_short));
  static const char long_rows[] = SM2("2", "4096", KEPT("f32[2,4096]"));
  CHECK(rows_ok("two_long_rows", long_rows));
  /* rows over two dims, the inner 200 long */
  static const char two_dims[] =
      SOFTMAX_ROWS("f32[5,3,200]", "f32[5]", "pred[5,3,200]", "1,2", KEPT("f32[5,3,200]"));
  CHECK(rows_ok("rows_of_two_dims", two_dims));
  /* layer norm, rows of 384 (three passes over each) */
  static const char layernorm[] =
      "HloModule m\n\n" REGIONS
      "fused {\n  p = f32[50,384] parameter(0)\n  g = f32[384] parameter(1)\n  b = f32[384] parameter(2)\n"
      "  z = f32[] constant(0)\n  n = f32[] constant(0.0026041667)\n  nb = f32[50] broadcast(n), dimensions={}\n"
      "  s = f32[50] reduce(p, z), dimensions={1}, to_apply=add\n  mean = f32[50] multiply(s, nb)\n"
      "  mb = f32[50,384] broadcast(mean), dimensions={0}\n  d = f32[50,384] subtract(p, mb)\n"
      "  sq = f32[50,384] multiply(d, d)\n  v = f32[50] reduce(sq, z), dimensions={1}, to_apply=add\n"
      "  vm = f32[50] multiply(v, nb)\n  eps = f32[] constant(1e-5)\n  eb = f32[50] broadcast(eps), dimensions={}\n"
      "  ve = f32[50] add(vm, eb)\n  r = f32[50] rsqrt(ve)\n  rb = f32[50,384] broadcast(r), dimensions={0}\n"
      "  y = f32[50,384] multiply(d, rb)\n  gb = f32[50,384] broadcast(g), dimensions={1}\n"
      "  yg = f32[50,384] multiply(y, gb)\n  bb = f32[50,384] broadcast(b), dimensions={1}\n"
      "  ROOT o = f32[50,384] add(yg, bb)\n}\n\n"
      "ENTRY e {\n" TEMP("f32[50,384]", "pred[50,384]") "  g = f32[384] parameter(1)\n  b = f32[384] parameter(2)\n"
      "  f = f32[50,384] fusion(t, g, b), kind=kInput, calls=fused\n  ROOT r = f32[50,384] add(f, t)\n}\n";
  CHECK(rows_ok("layernorm_rows_ahead", layernorm));
}


/* ---- causal bands (cg.c: "causal bands in row kernels") ----
 * A softmax whose input is masked by a select on an iota compare (j <= i,
 * j < i, i >= j) stops its later passes at the chunks holding a row's
 * band and stores the one value past it. Checked: against the
 * interpreter (to 1e-5, NaN where NaN: a row masked whole by -inf is
 * NaN, by -1e9 uniform), the same bits on 1 thread and on 2 (slices of a
 * row), and the same bits as the same softmax with the mask's select
 * written the other way round (its complement compare, the masked value
 * on the true side: no band found, every chunk run); rows of whole
 * chunks, of chunks and a part, of a chunk and one, under a chunk (not
 * chunked), fewer rows than columns (most chunks skipped) and more; the
 * fused input with NaNs and -0s (the entry's temp `t` or its parameter). */
#define CAUSAL(R, N, CMP, A, B, SEL, FILL, IN)                                                        \
  "HloModule m\n\n" REGIONS                                                                           \
  "fused {\n  p = f32[" R "," N "] parameter(0)\n  ninf = f32[] constant(-inf)\n"                    \
  "  ir = s32[" R "," N "] iota(), iota_dimension=0\n  ic = s32[" R "," N "] iota(), iota_dimension=1\n" \
  "  k = pred[" R "," N "] compare(" A ", " B "), direction=" CMP "\n"                               \
  "  c = f32[] constant(" FILL ")\n  cb = f32[" R "," N "] broadcast(c), dimensions={}\n"            \
  "  ms = f32[" R "," N "] select(k, " SEL ")\n"                                                      \
  "  m = f32[" R "] reduce(ms, ninf), dimensions={1}, to_apply=mx\n"                                  \
  "  mb = f32[" R "," N "] broadcast(m), dimensions={0}\n  s = f32[" R "," N "] subtract(ms, mb)\n"  \
  "  x = f32[" R "," N "] exponential(s)\n  z = f32[] constant(0)\n"                                 \
  "  sum = f32[" R "] reduce(x, z), dimensions={1}, to_apply=add\n"                                   \
  "  sb = f32[" R "," N "] broadcast(sum), dimensions={0}\n  ROOT o = f32[" R "," N "] divide(x, sb)\n}\n\n" \
  "ENTRY e {\n" TEMP("f32[" R "," N "]", "pred[" R "," N "]")                                        \
  "  ROOT f = f32[" R "," N "] fusion(" IN "), kind=kInput, calls=fused\n}\n"

static bool same_bits(const char *name, const char *a, const char *b) {
  Literal *x = cpu_result(name, a), *y = cpu_result(name, b);
  bool ok = x && y && x->nelems == y->nelems && memcmp(x->data, y->data, (size_t)x->nelems * 4) == 0;
  if (!ok) fprintf(stderr, "%s: band and no band differ\n", name);
  literal_free(x);
  literal_free(y);
  return ok;
}

TEST(row_kernels_causal_band) {
  static const struct {
    const char *name, *band, *none;
  } cases[] = {
#define PAIR(NAME, R, N, FILL, IN)                                                                   \
  {NAME "_ge", CAUSAL(R, N, "GE", "ir", "ic", "p, cb", FILL, IN), CAUSAL(R, N, "LT", "ir", "ic", "cb, p", FILL, IN)}, \
  {NAME "_gt", CAUSAL(R, N, "GT", "ir", "ic", "p, cb", FILL, IN), CAUSAL(R, N, "LE", "ir", "ic", "cb, p", FILL, IN)}, \
  {NAME "_le", CAUSAL(R, N, "LE", "ic", "ir", "p, cb", FILL, IN), CAUSAL(R, N, "GT", "ic", "ir", "cb, p", FILL, IN)}
      PAIR("whole_chunks", "260", "256", "-1e9", "t"),
      PAIR("chunks_and_part", "300", "300", "-inf", "t"),
      PAIR("chunk_and_one", "140", "129", "-1e9", "t"),
      PAIR("under_a_chunk", "40", "127", "-inf", "t"),
      PAIR("few_rows", "5", "1000", "-1e9", "t"),
      PAIR("nan_inputs", "150", "400", "-1e9", "a"),
      PAIR("nan_inputs_ninf", "150", "400", "-inf", "a"),
#undef PAIR
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    CHECK(rows_ok(cases[i].name, cases[i].band));
    CHECK(same_bits(cases[i].name, cases[i].band, cases[i].none));
  }
}

/* ---- division by a row's value (scalar.c fast_row_div_range) ----
 * The fast path (x * r, r = 1 / d, one correction) must give x / d bit
 * for bit wherever it is taken; elsewhere the element is computed again
 * with a true division. Checked two ways: the sequence itself in C
 * (fmaf; the same conditions) against x / d, over every mantissa of x in
 * the binades at the edges of its range, for divisors with all-ones and
 * all-zeros mantissas at the edges of theirs, and over random bit
 * patterns; and the kernels, against the interpreter bit for bit, on
 * divisors and numerators at and past the edges (0, -0, inf, NaN,
 * subnormals, the largest and smallest normals, all-ones mantissas),
 * rows of numerators all in range (no second pass) and rows of random
 * bit patterns (many elements computed twice). */
static float f_of(uint32_t b) {
  float f;
  memcpy(&f, &b, 4);
  return f;
}
static uint32_t bits_of(float f) {
  uint32_t b;
  memcpy(&b, &f, 4);
  return b;
}

/* the fast path's value of x / d, or false where its chunk is computed
 * again: d in range, and x in range or a zero over a positive d */
static bool fast_div_model(float x, float d, float *out) {
  uint32_t ax = bits_of(x) & 0x7fffffffu, ad = bits_of(d) & 0x7fffffffu;
  bool d_ok = ad - ((127u - 63) << 23) <= ((127u + 64) << 23) - 1 - ((127u - 63) << 23);
  bool x_mid = ax - ((127u - 62) << 23) <= ((127u + 63) << 23) - 1 - ((127u - 62) << 23);
  if (!d_ok || !(x_mid || (ax == 0 && !signbit(d)))) return false;
  volatile float one = 1.0f;
  float r = one / d, q = x * r, e1 = fmaf(q, d, -x), q1 = fmaf(-e1, r, q);
  *out = q1;
  return true;
}

static bool model_agrees(float x, float d) {
  float got;
  if (!fast_div_model(x, d, &got)) return true;
  volatile float vx = x, vd = d;
  float want = vx / vd;
  if (bits_of(got) == bits_of(want) || (isnan(got) && isnan(want) && bits_of(got) == bits_of(want))) return true;
  fprintf(stderr, "fast division: %a / %a: want %a got %a\n", (double)x, (double)d, (double)want, (double)got);
  return false;
}

TEST(fast_row_division_is_exact) {
  /* divisors: all-ones and all-zeros mantissas, both signs, at the ends
   * of the fast path's range and inside */
  const int dexp[] = {-63, -62, -1, 0, 1, 23, 62, 63};
  int bad = 0;
  for (size_t i = 0; i < sizeof dexp / sizeof dexp[0] && bad < 5; i++)
    for (uint32_t mant = 0; mant <= 0x7fffffu && bad < 5; mant += 0x7fffffu) {
      float d = f_of(((uint32_t)(127 + dexp[i]) << 23) | mant);
      /* every mantissa of x in the lowest and the highest binade of its range */
      for (int xe = -62; xe <= 62 && bad < 5; xe += 124)
        for (uint32_t m = 0; m <= 0x7fffffu && bad < 5; m++) {
          float x = f_of(((uint32_t)(127 + xe) << 23) | m);
          bad += !model_agrees(i % 2 ? -x : x, mant ? d : -d);
        }
    }
  /* random bit patterns */
  uint64_t st = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < 4000000 && bad < 5; i++) {
    st ^= st << 13, st ^= st >> 7, st ^= st << 17;
    float x = f_of((uint32_t)st), d = f_of((uint32_t)(st >> 32));
    /* half the divisors in range, so that the fast path is taken */
    if (i & 1) d = f_of(((uint32_t)(st >> 32) & 0x807fffffu) | (uint32_t)(127 - 63 + (int)((st >> 40) % 127)) << 23);
    bad += !model_agrees(x, d);
  }
  /* special numerators */
  const float sx[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, -NAN, FLT_MIN, FLT_MAX, 0x1p-62f, 0x1.fffffep62f};
  for (size_t i = 0; i < sizeof sx / sizeof sx[0]; i++)
    for (int k = 0; k < 3; k++) bad += !model_agrees(sx[i], k == 0 ? 3.0f : k == 1 ? -0x1.fffffep-1f : 0x1p-63f);
  CHECK(bad == 0);
}

#define DIV_ROWS 64
#define DIV_N 1024
/* x / (row max of q): q's rows hold their divisor in column 0 and -inf
 * elsewhere */
static const char kRowDivide[] =
    "HloModule m\n\n" REGIONS
    "fused {\n  p = f32[64,1024] parameter(0)\n  q = f32[64,1024] parameter(1)\n  ninf = f32[] constant(-inf)\n"
    "  d = f32[64] reduce(q, ninf), dimensions={1}, to_apply=mx\n"
    "  db = f32[64,1024] broadcast(d), dimensions={0}\n  ROOT o = f32[64,1024] divide(p, db)\n}\n\n"
    "ENTRY e {\n  a = f32[64,1024] parameter(0)\n  b = f32[64,1024] parameter(1)\n"
    "  ROOT f = f32[64,1024] fusion(a, b), kind=kInput, calls=fused\n}\n";

/* the same over its operand's buffer: the fusion's operand a temporary
 * (-a) whose last use it is, so the output is read (the numerators the
 * true divisions would need) while the chunks are written */
static const char kRowDivideInPlace[] =
    "HloModule m\n\n" REGIONS
    "fused {\n  p = f32[64,1024] parameter(0)\n  q = f32[64,1024] parameter(1)\n  ninf = f32[] constant(-inf)\n"
    "  d = f32[64] reduce(q, ninf), dimensions={1}, to_apply=mx\n"
    "  db = f32[64,1024] broadcast(d), dimensions={0}\n  ROOT o = f32[64,1024] divide(p, db)\n}\n\n"
    "ENTRY e {\n  a = f32[64,1024] parameter(0)\n  b = f32[64,1024] parameter(1)\n"
    "  t = f32[64,1024] negate(a)\n  ROOT f = f32[64,1024] fusion(t, b), kind=kInput, calls=fused\n}\n";

static const float kEdgeDivisors[] = {
    1.0f, -3.0f, 0x1.fffffep0f, -0x1.fffffep-1f, 0x1p-63f, 0x1.fffffep-64f, 0x1.fffffep63f, 0x1p64f,
    0x1.fffffep62f, 0x1p-62f, FLT_MIN, -FLT_MIN, FLT_MAX, 0x1p-140f, 0.0f, -0.0f, INFINITY, -INFINITY, NAN,
    4096.0f, 1e-30f, 1e30f, 0x1.000002p0f, 0x1.7ffffep5f};
#define NEDGE (sizeof kEdgeDivisors / sizeof kEdgeDivisors[0])

static double div_value(void *ctx, int param, int64_t e, double u) {
  (void)ctx;
  int64_t row = e / DIV_N, col = e % DIV_N;
  uint32_t h = (uint32_t)(u * 4294967296.0);
  if (param == 1) {
    if (col) return -INFINITY;
    if (row < (int64_t)NEDGE) return kEdgeDivisors[row];
    /* divisors of random mantissas, all-ones mantissas every 4th row */
    uint32_t m = row % 4 ? (h & 0x7fffffu) : 0x7fffffu;
    return f_of(m | (uint32_t)(127 - 70 + (int)(h >> 24) % 140) << 23 | (row % 3 ? 0 : 0x80000000u));
  }
  if (row % 2 == 0) /* all in range: one pass */
    return f_of((h & 0x807fffffu) | (uint32_t)(127 - 62 + (int)((h >> 23) & 0xff) % 125) << 23);
  /* in range but signed zeros (no second pass: each zero's quotient its
   * own sign) */
  if (row % 4 == 1 && (col == 3 || col == 5 || col == 700)) return col == 3 ? 0.0 : -0.0;
  if (row % 4 == 1) return f_of((h & 0x807fffffu) | (uint32_t)(127 - 62 + (int)((h >> 23) & 0xff) % 125) << 23);
  /* numerators at the edges, then random bit patterns */
  static const float sx[] = {0.0f,      -0.0f,       INFINITY,    -INFINITY,     NAN,
                             FLT_MIN,   -FLT_MAX,    0x1p-62f,    0x1.fffffep62f, 0x1.fffffcp-63f,
                             0x1p63f,   0x1p-149f,   0x1.fffffep-1f, 3.0f,      FLT_MAX};
  /* (not 0x1.fffffep-63 / 2^64: its quotient rounds up to the smallest
   * normal, which the interpreter returns and x86's flush-to-zero, seeing
   * a tiny result before rounding, flushes) */
  if (col < (int64_t)(sizeof sx / sizeof sx[0])) return sx[col];
  return f_of(h);
}

static bool div_exact(const char *name, const char *text) {
  cxla_module *m = NULL;
  Literal **args = NULL, *want = NULL, *got = NULL;
  CpuExecutable *x = NULL;
  cxla_status s = cxla_module_parse(text, strlen(text), name, &m);
  if (!s) s = cpu_vs_interp_args_fn(m, 12345, div_value, NULL, &args);
  if (!s) s = cxla_interp_run(m, args, m->entry->nparams, &want);
  if (!s) s = cpu_compile(m, NULL, &x);
  CpuExecOptions o = {0};
  if (!s) s = cpu_execute_opts(x, args, m->entry->nparams, &o, &got);
  bool ok = !s && want->nelems == got->nelems && want->type == T_F32 && got->type == T_F32;
  int64_t nbad = 0;
  for (int64_t i = 0; ok && i < want->nelems; i++) {
    uint32_t w, g;
    memcpy(&w, (const char *)want->data + 4 * i, 4);
    memcpy(&g, (const char *)got->data + 4 * i, 4);
    if (w != g && nbad++ < 5)
      fprintf(stderr, "%s: element %lld: want %a (%08x) got %a (%08x)\n", name, (long long)i, (double)f_of(w), w,
              (double)f_of(g), g);
  }
  if (s) fprintf(stderr, "%s: %s\n", name, cxla_status_message(s));
  cxla_status_free(s);
  cpu_vs_interp_free_args(m, args);
  literal_free(want);
  literal_free(got);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);
  return ok && nbad == 0;
}

TEST(row_division_matches_true_division) {
  CHECK(div_exact("row_divide", kRowDivide));
  CHECK(threads_agree("row_divide_threads", kRowDivide));
  CHECK(inplace_count("row_divide_in_place", kRowDivideInPlace) == 1);
  CHECK(div_exact("row_divide_in_place", kRowDivideInPlace));
  /* softmax divides by its row sum over the stash (in place and not) */
  static const char odd[] = SM2("5", "1000", KEPT("f32[5,1000]"));
  CHECK(rows_ok("softmax_div_odd_rows", odd));
  static const char in_place[] = SM2("5", "1000", "  ROOT r = f32[5,1000] copy(f)\n");
  CHECK(rows_ok("softmax_div_in_place", in_place));
}

int main(void) {
  RUN(which_fusions_are_row_kernels);
  RUN(row_kernels_in_place);
  RUN(row_kernels_match_the_interpreter);
  RUN(row_kernel_extent);
  RUN(row_kernels_prefetch_rows_ahead);
  RUN(row_kernels_causal_band);
  RUN(fast_row_division_is_exact);
  RUN(row_division_matches_true_division);
  return test_summary(__FILE__);
}
