/* The cpu backend's kernels split over threads (src/cpu/exec.c).
 *
 * 1. Every program of the corpus (argv[1]), compiled with $CXLA_CPU_GRAIN=1
 *    so that every kernel with two rows or more is split into slices of a
 *    few rows, runs on 1, 2 and 5 threads of one pool: the results are
 *    bit for bit those of the single-thread run, and kernels were split.
 * 2. Kernels range over the outermost dim's rows, or over the leading
 *    dims flattened when it is short.
 * 3. FTZ/DAZ hold on every thread that runs a slice.
 * 4. With the default grain, tiny kernels and kernels with one row are
 *    never split; a large one is; $CXLA_CPU_GRAIN other than a positive
 *    integer is ignored.
 * 5. A scatter whose windows cover its operand's rows splits over the
 *    columns. */
#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "harness.h"
#include "codegen/codegen.h"
#include "cpu/cpu.h"
#include "passes/pass.h"
#include "runtime/backend.h"
#include "runtime/threadpool.h"
#include "testing/case.h"

static const char *corpus;

/* Whether a and b hold the same bytes (tuples element by element). */
static bool same_bytes(const Literal *a, const Literal *b) {
  if (a->type != b->type || a->rank != b->rank || a->ntuple != b->ntuple || a->nelems != b->nelems)
    return false;
  if (a->type == T_TUPLE) {
    for (int i = 0; i < a->ntuple; i++)
      if (!same_bytes(a->tuple[i], b->tuple[i])) return false;
    return true;
  }
  if (!type_is_array(a->type)) return true;
  size_t n = (size_t)a->nelems * (size_t)type_bytes(a->type);
  return n == 0 || memcmp(a->data, b->data, n) == 0;
}

/* Parses and optimizes text (or the file at path), compiles it. */
static cxla_status compile_module(const char *text, const char *path, HloModule **m,
                                  CpuExecutable **x) {
  *m = NULL;
  *x = NULL;
  cxla_status s = text ? cxla_module_parse(text, strlen(text), "test", m)
                       : cxla_module_parse_file(path, m);
  PipelineOptions o = {.verify = true, .module_number = 1};
  if (!s) s = pipeline_run(*m, NULL, 0, &o);
  if (!s) s = cpu_compile(*m, NULL, x);
  return s;
}

static cxla_status run_threads(CpuExecutable *x, RtPool *pool, int threads, Literal **args,
                               int nargs, int64_t *split, Literal **out) {
  CpuExecOptions o = {.pool = pool, .num_threads = threads, .kernels_split = split};
  return cpu_execute_opts(x, args, nargs, &o, out);
}

/* One corpus case at 1, 2 and 5 threads; false when it could not run. */
static bool run_case(const char *dir, RtPool *pool, int64_t split[3]) {
  Case *c = NULL;
  HloModule *m = NULL;
  CpuExecutable *x = NULL;
  Literal *args[64] = {0}, *res[3] = {0};
  cxla_status s = case_load(dir, &c);
  if (!s && c->nargs > 64) s = cxla_status_make(CXLA_UNIMPLEMENTED, "too many arguments");
  if (!s) s = compile_module(NULL, case_hlo_path(c, "module"), &m, &x);
  for (int i = 0; !s && i < c->nargs; i++) s = case_load_tensor(&c->args[i], &args[i]);
  static const int threads[3] = {1, 2, 5};
  for (int k = 0; !s && k < 3; k++)
    s = run_threads(x, pool, threads[k], args, c->nargs, &split[k], &res[k]);
  bool ran = !s;
  if (s) fprintf(stderr, "%s: %s\n", dir, cxla_status_message(s));
  CHECK_OK(s);
  if (ran) {
    bool same2 = same_bytes(res[0], res[1]), same5 = same_bytes(res[0], res[2]);
    CHECK(same2 && same5);
    if (!same2 || !same5) fprintf(stderr, "%s: results differ across thread counts\n", dir);
  }
  for (int k = 0; k < 3; k++) literal_free(res[k]);
  for (int i = 0; c && i < c->nargs; i++) literal_free(args[i]);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);
  case_free(c);
  return ran;
}

TEST(corpus_bit_identical_across_thread_counts) {
  if (!corpus) {
    SKIP("no corpus directory given (argv[1])");
    return;
  }
  DIR *d = opendir(corpus);
  if (!d) {
    SKIP("%s not found", corpus);
    return;
  }
  RtPool *pool = NULL;
  CHECK_OK(rt_pool_create(5, &pool));
  int ncases = 0;
  int64_t split[3] = {0, 0, 0};
  struct dirent *e;
  while (pool && (e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char dir[512], json[600];
    snprintf(dir, sizeof dir, "%s/%s", corpus, e->d_name);
    snprintf(json, sizeof json, "%s/case.json", dir);
    struct stat sb;
    if (stat(json, &sb) != 0) continue;
    ncases += run_case(dir, pool, split);
  }
  closedir(d);
  rt_pool_destroy(pool);
  printf("test_cpu_threads: %d corpus cases at 1, 2 and 5 threads; kernel calls split: %lld, "
         "%lld, %lld\n", ncases, (long long)split[0], (long long)split[1], (long long)split[2]);
  if (ncases == 0) {
    SKIP("no cases under %s", corpus);
    return;
  }
  CHECK(split[0] == 0);                 /* one thread: nothing to split */
  CHECK(split[1] > 100 && split[2] == split[1]);
}

static const char tiny[] =
    "HloModule tiny\n"
    "ENTRY main {\n"
    "  x = f32[4,4] parameter(0)\n"
    "  ROOT r = f32[4,4] add(x, x)\n"
    "}\n";

static const char big[] =
    "HloModule big\n"
    "ENTRY main {\n"
    "  x = f32[512,512] parameter(0)\n"
    "  ROOT r = f32[512,512] add(x, x)\n"
    "}\n";

static const char flat[] =
    "HloModule flat\n"
    "ENTRY main {\n"
    "  x = f32[2,512,256] parameter(0)\n"
    "  ROOT r = f32[2,512,256] add(x, x)\n"
    "}\n";

static const char to_scalar[] =
    "HloModule to_scalar\n"
    "add {\n"
    "  a = f32[] parameter(0)\n"
    "  b = f32[] parameter(1)\n"
    "  ROOT s = f32[] add(a, b)\n"
    "}\n"
    "ENTRY main {\n"
    "  x = f32[512,512] parameter(0)\n"
    "  z = f32[] constant(0)\n"
    "  ROOT r = f32[] reduce(x, z), dimensions={0,1}, to_apply=add\n"
    "}\n";

/* Runs text on x = 1 (dims from its parameter) at 4 threads; the kernel
 * calls that were split. */
static int64_t splits_of(const char *text, RtPool *pool) {
  HloModule *m = NULL;
  CpuExecutable *x = NULL;
  Literal *arg = NULL, *out = NULL;
  int64_t split = 0;
  cxla_status s = compile_module(text, NULL, &m, &x);
  if (!s) {
    const Shape *p = m->entry->params[0]->shape;
    s = literal_create(p->type, p->rank, p->dims, &arg);
  }
  if (!s) {
    for (int64_t i = 0; i < arg->nelems; i++) ((float *)arg->data)[i] = 1.0f;
    s = run_threads(x, pool, 4, &arg, 1, &split, &out);
  }
  CHECK_OK(s);
  if (out && out->type == T_F32) {
    float want = out->rank == 0 ? 512.0f * 512.0f : 2.0f;
    bool good = true;
    for (int64_t i = 0; i < out->nelems; i++) good &= ((float *)out->data)[i] == want;
    CHECK(good);
  }
  literal_free(out);
  literal_free(arg);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);
  return split;
}

TEST(default_grain) {
  char *old = getenv("CXLA_CPU_GRAIN");
  char saved[64] = "";
  if (old) snprintf(saved, sizeof saved, "%s", old);
  unsetenv("CXLA_CPU_GRAIN");
  RtPool *pool = NULL;
  CHECK_OK(rt_pool_create(4, &pool));
  CHECK(splits_of(tiny, pool) == 0);      /* 16 elements: not worth a thread */
  CHECK(splits_of(to_scalar, pool) == 0); /* one row */
  CHECK(splits_of(big, pool) == 1);       /* 256K elements */
  CHECK(splits_of(flat, pool) == 1);      /* two outer rows: 1024 flattened ones */
  /* values that are not a positive integer: the default */
  setenv("CXLA_CPU_GRAIN", "-3", 1);
  CHECK(splits_of(tiny, pool) == 0);
  setenv("CXLA_CPU_GRAIN", "1x", 1);
  CHECK(splits_of(tiny, pool) == 0);
  setenv("CXLA_CPU_GRAIN", "1", 1);
  CHECK(splits_of(tiny, pool) == 1);
  rt_pool_destroy(pool);
  if (saved[0]) setenv("CXLA_CPU_GRAIN", saved, 1);
  else unsetenv("CXLA_CPU_GRAIN");
}

/* Subnormal results are flushed to zero (and subnormal inputs read as
 * zero) on every thread that runs a slice, as on the caller: x * y with
 * x = 1e-30 and y = 1e-10 is 0 in every row, and so is z * 1 for a
 * subnormal z. Runs with $CXLA_CPU_GRAIN=1 (every row a slice). */
TEST(ftz_daz_on_every_thread) {
  static const char text[] =
      "HloModule ftz\n"
      "ENTRY main {\n"
      "  x = f32[64,16] parameter(0)\n"
      "  y = f32[64,16] parameter(1)\n"
      "  ROOT r = f32[64,16] multiply(x, y)\n"
      "}\n";
  HloModule *m = NULL;
  CpuExecutable *x = NULL;
  Literal *args[2] = {NULL, NULL}, *out = NULL;
  RtPool *pool = NULL;
  int64_t dims[2] = {64, 16}, split = 0;
  cxla_status s = compile_module(text, NULL, &m, &x);
  if (!s) s = rt_pool_create(5, &pool);
  for (int k = 0; k < 2 && !s; k++) s = literal_create(T_F32, 2, dims, &args[k]);
  if (!s) {
    float *a = args[0]->data, *b = args[1]->data;
    for (int i = 0; i < 64 * 16; i++) {
      bool flush_out = i % 2 == 0; /* product subnormal, or operand subnormal */
      a[i] = flush_out ? 1e-30f : 1e-40f;
      b[i] = flush_out ? 1e-10f : 1.0f;
    }
    s = run_threads(x, pool, 5, args, 2, &split, &out);
  }
  CHECK_OK(s);
  CHECK(split == 1);
  if (out) {
    int nonzero = 0;
    for (int i = 0; i < 64 * 16; i++) nonzero += ((float *)out->data)[i] != 0.0f;
    CHECK(nonzero == 0);
  }
  literal_free(out);
  for (int k = 0; k < 2; k++) literal_free(args[k]);
  rt_pool_destroy(pool);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);
}

/* The rows a kernel ranges over: the outermost dim, or the leading dims
 * flattened up to 64 rows when it is short, never the innermost. */
TEST(kernel_rows) {
  static const struct {
    const char *shape;
    int64_t rows;
  } cases[] = {
      {"f32[]", 1},          {"f32[100]", 100},         {"f32[3,5]", 3},
      {"f32[4096,16]", 4096}, {"f32[2,4096,16]", 8192}, {"f32[8,56,56,64]", 448},
      {"f32[1,1,1,7]", 1},    {"f32[2,3,4,5]", 24},      {"f32[64,2,2]", 64},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char text[256];
    snprintf(text, sizeof text, "HloModule m\nENTRY e {\n  x = %s parameter(0)\n  ROOT r = %s negate(x)\n}\n",
             cases[i].shape, cases[i].shape);
    cxla_module *m = NULL;
    CHECK_OK(cxla_module_parse(text, strlen(text), "rows", &m));
    if (!m) continue;
    int64_t rows = codegen_kernel_extent(m->entry->root);
    CHECK(rows == cases[i].rows);
    if (rows != cases[i].rows)
      fprintf(stderr, "%s: %lld rows, expected %lld\n", cases[i].shape, (long long)rows,
              (long long)cases[i].rows);
    cxla_module_destroy(m);
  }
}

/* scatter-add into x = f32[64,48] of u at the indices i (IDX, UPD: their
 * shapes; SD: scatter_dims_to_operand_dims) */
#define SCATTER_ADD(IDX, UPD, SD)                                                              \
  "HloModule sc\nadd {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"                \
  "  ROOT s = f32[] add(a, b)\n}\nENTRY main {\n  x = f32[64,48] parameter(0)\n"              \
  "  i = s32[" IDX "] parameter(1)\n  u = f32[" UPD "] parameter(2)\n"                       \
  "  ROOT s = f32[64,48] scatter(x, i, u), update_window_dims={1}, inserted_window_dims={0}, " \
  "scatter_dims_to_operand_dims={" SD "}, index_vector_dim=1, to_apply=add\n}\n"
/* A scatter whose windows cover its operand's last dim whole (an
 * embedding gradient: rows added at indices, some indices repeated)
 * splits over that dim's columns: each call copies its columns of the
 * operand and combines its columns of every update, in update order.
 * On 1 and 4 threads (split) the results are the same bits and the exact
 * sums (small integers); a window narrower than the row is not split. */
static const char scatter_rows[] = SCATTER_ADD("40,1", "40,48", "0");

TEST(scatter_split_over_columns) {
  HloModule *m = NULL;
  CpuExecutable *x = NULL;
  Literal *args[3] = {0}, *one = NULL, *four = NULL;
  RtPool *pool = NULL;
  cxla_status s = compile_module(scatter_rows, NULL, &m, &x);
  CHECK(!s && codegen_kernel_extent(m->entry->root) == 48);
  for (int a = 0; a < 3 && !s; a++) {
    const Shape *p = m->entry->params[a]->shape;
    s = literal_create(p->type, p->rank, p->dims, &args[a]);
  }
  if (!s) {
    float *xv = args[0]->data, *uv = args[2]->data;
    int32_t *iv = args[1]->data;
    for (int r = 0; r < 64; r++)
      for (int c = 0; c < 48; c++) xv[r * 48 + c] = (float)r + 0.5f * (float)c;
    for (int k = 0; k < 40; k++) {
      iv[k] = k % 13; /* rows 0..12, each three or four times */
      for (int c = 0; c < 48; c++) uv[k * 48 + c] = (float)(3 * k + c);
    }
    s = rt_pool_create(4, &pool);
  }
  int64_t split = 0;
  if (!s) s = run_threads(x, pool, 1, args, 3, NULL, &one);
  if (!s) s = run_threads(x, pool, 4, args, 3, &split, &four);
  CHECK_OK(s);
  if (one && four) {
    CHECK(split > 0 && same_bytes(one, four));
    bool good = true;
    for (int r = 0; r < 64; r++)
      for (int c = 0; c < 48; c++) {
        float want = (float)r + 0.5f * (float)c;
        for (int k = 0; k < 40; k++)
          if (k % 13 == r) want += (float)(3 * k + c);
        good &= ((const float *)four->data)[r * 48 + c] == want;
      }
    CHECK(good);
  }
  literal_free(one);
  literal_free(four);
  for (int a = 0; a < 3; a++) literal_free(args[a]);
  rt_pool_destroy(pool);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);
  /* windows of 20 of the 48 columns: one call */
  static const char narrow[] = SCATTER_ADD("40,2", "40,20", "0,1");
  cxla_module *n = NULL;
  CHECK_OK(cxla_module_parse(narrow, strlen(narrow), "narrow", &n));
  if (n) CHECK(codegen_kernel_extent(n->entry->root) == 1);
  cxla_module_destroy(n);
}

int main(int argc, char **argv) {
  corpus = argc > 1 ? argv[1] : NULL;
  RUN(kernel_rows);
  RUN(default_grain);
  setenv("CXLA_CPU_GRAIN", "1", 1); /* split every kernel as finely as it goes */
  RUN(ftz_daz_on_every_thread);
  RUN(scatter_split_over_columns);
  RUN(corpus_bit_identical_across_thread_counts);
  return test_summary("test_cpu_threads");
}
