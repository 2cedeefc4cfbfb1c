/* The cpu backend writes a kernel's output straight into the runtime's
 * result array when that output is a leaf of the entry's result (through
 * tuples, get-tuple-element, views): no buffer of its own, no copy
 * afterwards (src/cpu/compile.c plan_leaves, exec.c run_kernel). Checked
 * through the public API with an allocator that counts its calls: an
 * execution allocates its result arrays and nothing for such kernels;
 * values are checked against hand-computed ones for every root shape the
 * planner follows (a scatter's operand written into the result it then
 * updates in place, too), and for roots it must leave to the copy (parameters,
 * constants, one kernel output in two leaves, a value also read by a later
 * kernel), on one thread and split over two. GEMM and convolution
 * results (exec.c step_output), window routines (rt_window.c: scans,
 * pooling) and sorts (sort.c) likewise. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"
#include "runtime_test.h"

typedef struct Counting {
  long calls, live;
} Counting;

static void *count_alloc(void *self, size_t size, size_t alignment) {
  Counting *c = self;
  c->calls++;
  void *p = aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
  if (p) c->live++;
  return p;
}

static void count_free(void *self, void *p, size_t size) {
  (void)size;
  Counting *c = self;
  c->live--;
  free(p);
}

/* N: the arguments' size; ROWS x N: the largest result checked; DOT_M:
 * the GEMM cases' result is DOT_M x DOT_M, 1 MiB, above the size the
 * execution's own cache keeps (RV_CACHE_MAX_BYTES): its temporary comes
 * from the client's allocator */
enum { N = 4096, ROWS = 64, DOT_M = 512 };

/* the arguments: x[i], y[i] */
static float xv(int64_t i) { return (float)(i % 97) - 48.0f; }
static float yv(int64_t i) { return (float)(i % 13) * 0.5f; }

/* Runs `text` (parameters: f32[N] x, f32[N] y, from xs and ys) on a cpu
 * client of `threads` threads with the counting allocator; checks each
 * result leaf k against want(k, i) and returns the allocator calls the
 * execution made beyond its `nres` results (-1 on failure). */
static long run_case_n(const char *name, const char *text, int threads, int nres,
                       float (*want)(int k, int64_t i), int64_t nelem) {
  static float xs[N], ys[N];
  for (int64_t i = 0; i < N; i++) xs[i] = xv(i), ys[i] = yv(i);
  Counting cnt = {0};
  cxla_allocator alloc = {sizeof alloc, &cnt, count_alloc, count_free};
  cxla_client_options o = CXLA_STRUCT_INIT(cxla_client_options);
  o.backend = "cpu";
  o.allocator = &alloc;
  o.num_threads = threads;
  cxla_client *c = NULL;
  cxla_status s = cxla_client_create(&o, &c);
  if (s) {
    printf("%s: %s\n", name, cxla_status_message(s));
    cxla_status_free(s);
    return -1;
  }
  long extra = -1;
  cxla_executable *e = rt_compile(c, text);
  int64_t dn[1] = {N};
  cxla_buffer *args[2] = {rt_f32(c, xs, 1, dn), rt_f32(c, ys, 1, dn)};
  cxla_buffer *out[8] = {0};
  if (e && args[0] && args[1] && cxla_executable_num_results(e) == nres && nres <= 8) {
    long before = cnt.calls;
    s = cxla_executable_execute(e, args, 2, NULL, out, NULL);
    extra = cnt.calls - before - nres;
    if (s) {
      printf("%s: %s\n", name, cxla_status_message(s));
      cxla_status_free(s);
      extra = -1;
    }
    static float got[DOT_M * DOT_M];
    for (int k = 0; k < nres && extra >= 0; k++) {
      s = cxla_buffer_to_host(out[k], got, (size_t)nelem * sizeof *got, NULL);
      if (s) {
        printf("%s: %s\n", name, cxla_status_message(s));
        cxla_status_free(s);
        extra = -1;
        break;
      }
      for (int64_t i = 0; i < nelem; i++)
        if (got[i] != want(k, i)) {
          printf("%s (%d threads): result %d element %lld: want %g got %g\n", name, threads, k,
                 (long long)i, (double)want(k, i), (double)got[i]);
          extra = -1;
          break;
        }
    }
  } else {
    printf("%s: did not compile to %d results\n", name, nres);
  }
  for (int k = 0; k < 8; k++) cxla_buffer_destroy(out[k]);
  for (int k = 0; k < 2; k++) cxla_buffer_destroy(args[k]);
  cxla_executable_destroy(e);
  cxla_client_destroy(c);
  if (cnt.live != 0) printf("%s: %ld blocks not freed\n", name, cnt.live);
  return cnt.live == 0 ? extra : -1;
}

static long run_case(const char *name, const char *text, int threads, int nres, float (*want)(int k, int64_t i)) {
  return run_case_n(name, text, threads, nres, want, N);
}


static const char k_array[] =
    "HloModule m\nENTRY e {\n  x = f32[4096] parameter(0)\n  y = f32[4096] parameter(1)\n"
    "  m = f32[4096] multiply(x, y)\n  ROOT r = f32[4096] add(m, x)\n}\n";
static float w_array(int k, int64_t i) { return (void)k, xv(i) * yv(i) + xv(i); }

/* two outputs of one multi-output kernel, or two kernels, in a tuple */
static const char k_tuple[] =
    "HloModule m\nENTRY e {\n  x = f32[4096] parameter(0)\n  y = f32[4096] parameter(1)\n"
    "  a = f32[4096] multiply(x, y)\n  b = f32[4096] subtract(x, y)\n  ROOT t = (f32[4096], f32[4096]) tuple(a, b)\n}\n";
static float w_tuple(int k, int64_t i) { return k == 0 ? xv(i) * yv(i) : xv(i) - yv(i); }

/* a view of a kernel's output */
static const char k_view[] =
    "HloModule m\nENTRY e {\n  x = f32[4096] parameter(0)\n  y = f32[4096] parameter(1)\n"
    "  a = f32[4096] maximum(x, y)\n  ROOT r = f32[64,64] reshape(a)\n}\n";
static float w_view(int k, int64_t i) { return (void)k, xv(i) > yv(i) ? xv(i) : yv(i); }

/* the same kernel output in two leaves: the second is a copy */
static const char k_twice[] =
    "HloModule m\nENTRY e {\n  x = f32[4096] parameter(0)\n  y = f32[4096] parameter(1)\n"
    "  a = f32[4096] add(x, y)\n  ROOT t = (f32[4096], f32[4096]) tuple(a, a)\n}\n";
static float w_twice(int k, int64_t i) { return (void)k, xv(i) + yv(i); }

/* a parameter and a constant among the leaves: copies */
static const char k_param[] =
    "HloModule m\nENTRY e {\n  x = f32[4096] parameter(0)\n  y = f32[4096] parameter(1)\n"
    "  c = f32[] constant(3)\n  b = f32[4096] broadcast(c), dimensions={}\n  a = f32[4096] multiply(y, b)\n"
    "  ROOT t = (f32[4096], f32[4096], f32[4096]) tuple(x, a, y)\n}\n";
static float w_param(int k, int64_t i) { return k == 0 ? xv(i) : k == 1 ? yv(i) * 3 : yv(i); }

/* a result leaf that a later kernel reads after it was written (a sort
 * keeps the two kernels apart) */
static const char k_reread[] =
    "HloModule m\n"
    "lt { a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT c = pred[] compare(a, b), direction=LT }\n"
    "ENTRY e {\n  x = f32[4096] parameter(0)\n  y = f32[4096] parameter(1)\n"
    "  a = f32[4096] add(x, y)\n  s = f32[4096] sort(a), dimensions={0}, to_apply=lt\n"
    "  n = f32[4096] negate(s)\n  ROOT t = (f32[4096], f32[4096]) tuple(a, n)\n}\n";
static float w_reread(int k, int64_t i) {
  if (k == 0) return xv(i) + yv(i);
  /* the sorted sums, negated: count the sums below each value */
  static float sorted[N];
  static bool made;
  if (!made) {
    int hist[2000] = {0}; /* sums are multiples of 0.5 in [-48, 54] */
    for (int64_t j = 0; j < N; j++) hist[(int)((xv(j) + yv(j) + 48) * 2)]++;
    int64_t p = 0;
    for (int v = 0; v < 2000; v++)
      for (int r = 0; r < hist[v]; r++) sorted[p++] = (float)v / 2 - 48;
    made = true;
  }
  return -sorted[i];
}

/* a scatter-add into a kernel's output, updated in place: that kernel
 * writes into the result, the scatter updates it there */
#define SCATTER_ADD_CMP "add { a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT c = f32[] add(a, b) }\n"
#define SCATTER_ADD_ARGS                                                                                   \
  "  i = s32[3,1] constant({{5}, {4095}, {5}})\n  u = f32[3] constant({1, 2, 4})\n"
#define SCATTER_ADD(OPERAND)                                                                               \
  "f32[4096] scatter(" OPERAND ", i, u), update_window_dims={}, inserted_window_dims={0}, "               \
  "scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add\n"
static float w_scatter(int k, int64_t i) {
  (void)k;
  return xv(i) * yv(i) + (i == 5 ? 5.0f : i == 4095 ? 2.0f : 0.0f);
}

/* a scatter-add into a broadcast of 1 MiB (above the executable's cache of
 * small buffers, so from the counting allocator unless it is the result):
 * the broadcast writes into the result, which the scatter then updates in
 * place, adding y twice to row 3 */
static const char k_scatter_big[] =
    "HloModule m\n" SCATTER_ADD_CMP "ENTRY e {\n  x = f32[4096] parameter(0)\n  y = f32[4096] parameter(1)\n"
    "  m = f32[64,4096] broadcast(x), dimensions={1}\n  i = s32[2,1] constant({{3}, {3}})\n"
    "  u = f32[2,4096] broadcast(y), dimensions={1}\n"
    "  ROOT r = f32[64,4096] scatter(m, i, u), update_window_dims={1}, inserted_window_dims={0}, "
    "scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add\n}\n";
static float w_scatter_big(int k, int64_t i) {
  (void)k;
  return xv(i % N) + (i / N == 3 ? 2 * yv(i % N) : 0.0f);
}

/* the operand also a result leaf, and read by a later kernel: the scatter
 * does not update it in place (its own result array; no buffer beyond) */
static const char k_scatter_kept[] =
    "HloModule m\n" SCATTER_ADD_CMP "ENTRY e {\n  x = f32[4096] parameter(0)\n  y = f32[4096] parameter(1)\n"
    "  m = f32[4096] multiply(x, y)\n" SCATTER_ADD_ARGS "  s = " SCATTER_ADD("m")
    "  ROOT t = (f32[4096], f32[4096]) tuple(s, m)\n}\n";
static float w_scatter_kept(int k, int64_t i) { return k == 1 ? xv(i) * yv(i) : w_scatter(0, i); }

/* the operand read again after the scatter (a sort keeps the negate a
 * kernel of its own): the operand stays a buffer of its own */
static const char k_scatter_reread[] =
    "HloModule m\n" SCATTER_ADD_CMP
    "lt { a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT c = pred[] compare(a, b), direction=LT }\n"
    "ENTRY e {\n  x = f32[4096] parameter(0)\n  y = f32[4096] parameter(1)\n"
    "  m = f32[4096] multiply(x, y)\n" SCATTER_ADD_ARGS "  s = " SCATTER_ADD("m")
    "  n = f32[4096] negate(m)\n  ns = f32[4096] sort(n), dimensions={0}, to_apply=lt\n"
    "  ROOT t = (f32[4096], f32[4096]) tuple(s, ns)\n}\n";
static float w_scatter_reread(int k, int64_t i) {
  if (k == 0) return w_scatter(0, i);
  /* -(x y) sorted: count the products above each value */
  static float sorted[N];
  static bool made;
  if (!made) {
    int hist[8000] = {0}; /* products are multiples of 0.5 in [-288, 288] */
    for (int64_t j = 0; j < N; j++) hist[(int)((xv(j) * yv(j) + 300) * 2)]++;
    int64_t p = 0;
    for (int v = 7999; v >= 0; v--)
      for (int r = 0; r < hist[v]; r++) sorted[p++] = -((float)v / 2 - 300);
    made = true;
  }
  return sorted[i];
}
/* GEMMs (ST_BLAS_DOT): x as a 512x8 matrix times y as an 8x512 one; the
 * products are sums of 8 multiples of 0.5 below 2^24, exact in any order */
static float xy_dot(int64_t i) {
  float acc = 0;
  for (int64_t k = 0; k < 8; k++) acc += xv(i / DOT_M * 8 + k) * yv(k * DOT_M + i % DOT_M);
  return acc;
}
#define DOT_HEAD                                                                        \
  "ENTRY e {\n  x = f32[4096] parameter(0)\n  y = f32[4096] parameter(1)\n"             \
  "  xm = f32[512,8] reshape(x)\n  ym = f32[8,512] reshape(y)\n"                         \
  "  d = f32[512,512] dot(xm, ym), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
static const char k_dot[] = "HloModule m\n" DOT_HEAD "  ROOT r = f32[262144] reshape(d)\n}\n";
static float w_dot(int k, int64_t i) { return (void)k, xy_dot(i); }
/* a GEMM and a kernel reading the GEMM's result after it was written */
static const char k_dot_tuple[] =
    "HloModule m\n" DOT_HEAD "  n = f32[512,512] negate(d)\n  ROOT t = (f32[512,512], f32[512,512]) tuple(d, n)\n}\n";
static float w_dot_tuple(int k, int64_t i) { return k == 0 ? xy_dot(i) : -xy_dot(i); }
/* not a leaf: the GEMM's result is a temporary (of its own, or of the
 * fusion that computes it first) that the kernel reads */
static const char k_dot_inner[] = "HloModule m\n" DOT_HEAD "  ROOT r = f32[512,512] add(d, d)\n}\n";
static float w_dot_inner(int k, int64_t i) { return (void)k, 2 * xy_dot(i); }
/* Convolutions (ST_CONV): x as a 64x64 image of one feature, a 3x3
 * window of 64 output features from y (SAME padding); sums of 9 multiples
 * of 0.5 below 2^24, exact in any order */
static float xy_conv(int64_t i) {
  int64_t o = i % 64, w = i / 64 % 64, h = i / 4096;
  float acc = 0;
  for (int64_t kh = 0; kh < 3; kh++)
    for (int64_t kw = 0; kw < 3; kw++) {
      int64_t ih = h + kh - 1, iw = w + kw - 1;
      if (ih >= 0 && ih < 64 && iw >= 0 && iw < 64) acc += xv(ih * 64 + iw) * yv((kh * 3 + kw) * 64 + o);
    }
  return acc;
}
#define CONV_HEAD                                                                                     \
  "ENTRY e {\n  x = f32[4096] parameter(0)\n  y = f32[4096] parameter(1)\n"                           \
  "  xm = f32[1,64,64,1] reshape(x)\n  ys = f32[576] slice(y), slice={[0:576]}\n"                     \
  "  k = f32[3,3,1,64] reshape(ys)\n"                                                                 \
  "  c = f32[1,64,64,64] convolution(xm, k), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f\n"
static const char k_conv[] = "HloModule m\n" CONV_HEAD "  ROOT r = f32[262144] reshape(c)\n}\n";
static float w_conv(int k, int64_t i) { return (void)k, xy_conv(i); }
static const char k_conv_tuple[] =
    "HloModule m\n" CONV_HEAD "  n = f32[1,64,64,64] negate(c)\n"
    "  ROOT t = (f32[1,64,64,64], f32[1,64,64,64]) tuple(c, n)\n}\n";
static float w_conv_tuple(int k, int64_t i) { return k == 0 ? xy_conv(i) : -xy_conv(i); }

/* window routines: a scan (cumulative sum of x, integers below 2^24:
 * exact in any order) and a 2x2 max pool of x as 64x64 */
#define SCAN_CMP "add { a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT c = f32[] add(a, b) }\n"
#define SCAN_HEAD                                                                                      \
  "HloModule m\n" SCAN_CMP "ENTRY e {\n  x = f32[4096] parameter(0)\n  y = f32[4096] parameter(1)\n"   \
  "  z = f32[] constant(0)\n"                                                                           \
  "  c = f32[4096] reduce-window(x, z), window={size=4096 pad=4095_0}, to_apply=add\n"
static const char k_scan[] = SCAN_HEAD "  ROOT r = f32[64,64] reshape(c)\n}\n";
static float cumsum_x(int64_t i) {
  float acc = 0;
  for (int64_t j = 0; j <= i; j++) acc += xv(j);
  return acc;
}
static float w_scan(int k, int64_t i) { return (void)k, cumsum_x(i); }
/* the scan a leaf that a later kernel reads */
static const char k_scan_tuple[] =
    SCAN_HEAD "  n = f32[4096] negate(c)\n  ROOT t = (f32[4096], f32[4096]) tuple(c, n)\n}\n";
static float w_scan_tuple(int k, int64_t i) { return k == 0 ? cumsum_x(i) : -cumsum_x(i); }
#define MAX_CMP "mx { a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT c = f32[] maximum(a, b) }\n"
static const char k_pool[] =
    "HloModule m\n" MAX_CMP "ENTRY e {\n  x = f32[4096] parameter(0)\n  y = f32[4096] parameter(1)\n"
    "  xi = f32[1,64,64,1] reshape(x)\n  z = f32[] constant(-inf)\n"
    "  ROOT r = f32[1,32,32,1] reduce-window(xi, z), window={size=1x2x2x1 stride=1x2x2x1}, to_apply=mx\n}\n";
static float w_pool(int k, int64_t i) {
  (void)k;
  int64_t oy = i / 32, ox = i % 32;
  float m = -INFINITY;
  for (int64_t dy = 0; dy < 2; dy++)
    for (int64_t dx = 0; dx < 2; dx++) {
      float v = xv((2 * oy + dy) * 64 + 2 * ox + dx);
      if (v > m) m = v;
    }
  return m;
}

/* sorts (cpu/sort.c) write into the result leaves they are: one operand,
 * x (values -48..48, each ~42 times), and two (x the key, y carried),
 * the sort's tuple the root or taken apart into one */
#define LT_CMP "lt { a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT c = pred[] compare(a, b), direction=LT }\n"
#define LT2_CMP                                                                                          \
  "lt2 { a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  c = f32[] parameter(2)\n"                  \
  "  d = f32[] parameter(3)\n  ROOT l = pred[] compare(a, b), direction=LT }\n"
static const char k_sort[] =
    "HloModule m\n" LT_CMP "ENTRY e {\n  x = f32[4096] parameter(0)\n  y = f32[4096] parameter(1)\n"
    "  ROOT s = f32[4096] sort(x), dimensions={0}, to_apply=lt\n}\n";
static const char k_sort_tuple[] =
    "HloModule m\n" LT2_CMP "ENTRY e {\n  x = f32[4096] parameter(0)\n  y = f32[4096] parameter(1)\n"
    "  ROOT s = (f32[4096], f32[4096]) sort(x, y), dimensions={0}, is_stable=true, to_apply=lt2\n}\n";
static const char k_sort_gtes[] =
    "HloModule m\n" LT2_CMP "ENTRY e {\n  x = f32[4096] parameter(0)\n  y = f32[4096] parameter(1)\n"
    "  s = (f32[4096], f32[4096]) sort(x, y), dimensions={0}, is_stable=true, to_apply=lt2\n"
    "  a = f32[4096] get-tuple-element(s), index=0\n  b = f32[4096] get-tuple-element(s), index=1\n"
    "  ROOT t = (f32[4096], f32[4096]) tuple(b, a)\n}\n";
/* element i of x stably sorted by value: x's values are i % 97 - 48, so
 * the indices with i % 97 == 0 in order, then those with 1... */
static int64_t sorted_at(int64_t i) {
  static int64_t at[N];
  static bool made;
  if (!made) {
    int64_t p = 0;
    for (int64_t v = 0; v < 97; v++)
      for (int64_t j = v; j < N; j += 97) at[p++] = j;
    made = true;
  }
  return at[i];
}
static float w_sort(int k, int64_t i) { return (void)k, xv(sorted_at(i)); }
static float w_sort_tuple(int k, int64_t i) { return k == 0 ? xv(sorted_at(i)) : yv(sorted_at(i)); }
static float w_sort_gtes(int k, int64_t i) { return w_sort_tuple(1 - k, i); }

TEST(kernel_outputs_are_the_results) {
  for (int threads = 1; threads <= 2; threads++) {
    CHECK(run_case("array", k_array, threads, 1, w_array) == 0);
    CHECK(run_case("tuple", k_tuple, threads, 2, w_tuple) == 0);
    CHECK(run_case("view", k_view, threads, 1, w_view) == 0);
    CHECK(run_case_n("scatter", k_scatter_big, threads, 1, w_scatter_big, ROWS * N) == 0);
    CHECK(run_case_n("dot", k_dot, threads, 1, w_dot, DOT_M * DOT_M) == 0);
    CHECK(run_case_n("dot tuple", k_dot_tuple, threads, 2, w_dot_tuple, DOT_M * DOT_M) == 0);
    CHECK(run_case_n("conv", k_conv, threads, 1, w_conv, DOT_M * DOT_M) == 0);
    CHECK(run_case_n("conv tuple", k_conv_tuple, threads, 2, w_conv_tuple, DOT_M * DOT_M) == 0);
    CHECK(run_case("scan", k_scan, threads, 1, w_scan) == 0);
    CHECK(run_case("scan tuple", k_scan_tuple, threads, 2, w_scan_tuple) == 0);
    CHECK(run_case_n("pool", k_pool, threads, 1, w_pool, 32 * 32) == 0);
    CHECK(run_case("sort", k_sort, threads, 1, w_sort) == 0);
    CHECK(run_case("sort tuple", k_sort_tuple, threads, 2, w_sort_tuple) == 0);
    CHECK(run_case("sort gtes", k_sort_gtes, threads, 2, w_sort_gtes) == 0);
  }
}

TEST(other_leaves_are_copied) {
  for (int threads = 1; threads <= 2; threads++) {
    CHECK(run_case("twice", k_twice, threads, 2, w_twice) == 0);
    CHECK(run_case("param", k_param, threads, 3, w_param) == 0);
    /* both kernels write in place: the one allocation beyond the results
     * is the sort's output, a temporary from the client's allocator */
    CHECK(run_case("reread", k_reread, threads, 2, w_reread) == 1);
    CHECK(run_case("scatter_kept", k_scatter_kept, threads, 2, w_scatter_kept) == 0);
    /* the negation of the scatter's operand (fused with it) to sort, which
     * writes into its result leaf: nothing beyond the results (the
     * negation's buffer is small enough for the execution's cache) */
    CHECK(run_case("scatter_reread", k_scatter_reread, threads, 2, w_scatter_reread) == 0);
    CHECK(run_case_n("dot inner", k_dot_inner, threads, 1, w_dot_inner, DOT_M * DOT_M) == 1);
  }
}

/* Broadcasts of one scalar into outputs of 16 MiB and more are filled by
 * the executor (exec.c fill_broadcast: streaming stores over the threads)
 * instead of their kernel. Runs text (argument: the f32 scalar p, when
 * nargs) on `threads` threads and checks that each of the result's nelem
 * elements of es bytes holds the bytes at elem, except rows [r0, r1) of
 * row_elems elements each, which hold those at elem2. */
static bool fill_case(const char *name, const char *text, int threads, int nargs, float p, const void *elem,
                      const void *elem2, size_t es, size_t nelem, size_t r0, size_t r1, size_t row_elems) {
  cxla_client_options o = CXLA_STRUCT_INIT(cxla_client_options);
  o.backend = "cpu";
  o.num_threads = threads;
  cxla_client *c = NULL;
  cxla_status s = cxla_client_create(&o, &c);
  bool ok = !s;
  cxla_executable *e = ok ? rt_compile(c, text) : NULL;
  cxla_buffer *arg = nargs ? rt_f32(c, &p, 0, NULL) : NULL, *out = NULL;
  unsigned char *got = malloc(nelem * es);
  ok = ok && e && got && (!nargs || arg);
  if (ok) s = cxla_executable_execute(e, &arg, nargs, NULL, &out, NULL);
  if (ok && !s) s = cxla_buffer_to_host(out, got, nelem * es, NULL);
  if (s) {
    printf("%s: %s\n", name, cxla_status_message(s));
    cxla_status_free(s);
    ok = false;
  }
  for (size_t i = 0; ok && i < nelem; i++) {
    bool in_rows = i / row_elems >= r0 && i / row_elems < r1;
    if (memcmp(got + i * es, in_rows ? elem2 : elem, es) != 0) {
      printf("%s (%d threads): element %zu differs\n", name, threads, i);
      ok = false;
    }
  }
  free(got);
  cxla_buffer_destroy(out);
  cxla_buffer_destroy(arg);
  cxla_executable_destroy(e);
  cxla_client_destroy(c);
  return ok;
}

TEST(big_broadcasts_are_filled) {
  /* f32 from a parameter, 16.8 MB, 12 bytes past a multiple of 16 */
  static const char k_f32[] =
      "HloModule m\nENTRY e {\n  p = f32[] parameter(0)\n"
      "  ROOT b = f32[4099,1025] broadcast(p), dimensions={}\n}\n";
  /* s8, odd length; f64; a constant, as JAX's zeros are; pred (1-bit
   * values: left to its kernel) */
  static const char k_s8[] =
      "HloModule m\nENTRY e {\n  c = s8[] constant(-3)\n  ROOT b = s8[16777233] broadcast(c), dimensions={}\n}\n";
  static const char k_f64[] =
      "HloModule m\nENTRY e {\n  c = f64[] constant(-0)\n  ROOT b = f64[2097153] broadcast(c), dimensions={}\n}\n";
  static const char k_pred[] =
      "HloModule m\nENTRY e {\n  c = pred[] constant(true)\n  ROOT b = pred[16777217] broadcast(c), dimensions={}\n}\n";
  /* zeros, then a scatter-add updating row 3 (twice) of the filled buffer
   * in place */
  static const char k_scatter[] =
      "HloModule m\n" SCATTER_ADD_CMP "ENTRY e {\n  z = f32[] constant(0)\n"
      "  m = f32[8200,512] broadcast(z), dimensions={}\n  i = s32[2,1] constant({{3}, {3}})\n"
      "  h = f32[] constant(2.5)\n  u = f32[2,512] broadcast(h), dimensions={}\n"
      "  ROOT r = f32[8200,512] scatter(m, i, u), update_window_dims={1}, inserted_window_dims={0}, "
      "scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add\n}\n";
  float f = -1.5f, zero = 0, five = 5;
  int8_t s8 = -3;
  double nz = -0.0;
  uint8_t t = 1;
  for (int threads = 1; threads <= 2; threads++) {
    CHECK(fill_case("f32", k_f32, threads, 1, f, &f, &f, 4, (size_t)4099 * 1025, 0, 0, 1));
    CHECK(fill_case("s8", k_s8, threads, 0, 0, &s8, &s8, 1, 16777233, 0, 0, 1));
    CHECK(fill_case("f64", k_f64, threads, 0, 0, &nz, &nz, 8, 2097153, 0, 0, 1));
    CHECK(fill_case("pred", k_pred, threads, 0, 0, &t, &t, 1, 16777217, 0, 0, 1));
    CHECK(fill_case("scatter", k_scatter, threads, 0, 0, &zero, &five, 4, (size_t)8200 * 512, 3, 4, 512));
  }
}

int main(void) {
  RUN(kernel_outputs_are_the_results);
  RUN(other_leaves_are_copied);
  RUN(big_broadcasts_are_filled);
  return test_summary(__FILE__);
}
