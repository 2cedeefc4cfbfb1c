/* The cpu backend's programs in the disk compile cache, across processes
 * (runtime/disk_cache.h, cpu/cache.c), through the public runtime API.
 *
 * Every compile runs in a child process of its own (fork), so nothing is
 * shared but the cache directory: a second compile of the same module in a
 * new process is a hit that does no LLVM work (compile stats: cache_hit,
 * codegen and LLVM time 0) and computes exactly what a fresh compile
 * (CXLA_CACHE=0) computes. A changed shape or option misses; a corrupted,
 * truncated or foreign entry is recompiled (never loaded) and replaced;
 * two processes compiling at once both succeed and leave one entry;
 * CXLA_CACHE=0 writes nothing; CXLA_CACHE_DIR is where entries go; the
 * size bound evicts the least recently used entries. The same over a set
 * of corpus cases (argv[1]). Every directory is a fresh temporary one,
 * never the user's cache. */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "base/base.h"
#include "cpu/cache.h"
#include "cxla/runtime.h"
#include "runtime/disk_cache.h"
#include "testing/case.h"

static char root[128];   /* this run's temporary directory */
static const char *corpus; /* argv[1] */
static int ndirs;

/* A fresh cache directory under root (not created: the cache makes it). */
static void fresh_dir(char *out, size_t n) {
  snprintf(out, n, "%.100s/c%d/cache", root, ndirs++);
}

enum { MISS = 0, HIT = 1, EITHER = 2 };

/* One compile and run in a child process. */
typedef struct Job {
  const char *text;       /* HLO module */
  int nargs;
  Literal *const *args;   /* NULL: one f32[n] argument, x[i] = i/7 - 3 */
  int64_t n;
  const char *cache_dir;  /* CXLA_CACHE_DIR; NULL: leave as is */
  bool cache_off;         /* CXLA_CACHE=0 */
  const char *max_mb;     /* CXLA_CACHE_MAX_MB, or NULL */
  const char *opt_level;  /* CXLA_CPU_OPT (LLVM's level), or NULL */
  bool no_optimize;
  int expect;             /* MISS, HIT, EITHER */
  const char *out;        /* the results' bytes, concatenated, go here */
} Job;

/* Runs e on the job's arguments and writes the results' bytes to j->out. */
static cxla_status run_and_write(const Job *j, cxla_client *c, cxla_executable *e) {
  int nargs = j->args ? j->nargs : 1;
  cxla_buffer **in = calloc((size_t)nargs + 1, sizeof *in);
  float *x = NULL;
  cxla_status s = NULL;
  for (int i = 0; i < nargs && !s; i++) {
    cxla_host_buffer h = CXLA_STRUCT_INIT(cxla_host_buffer);
    if (j->args) {
      const Literal *l = j->args[i];
      h.type = (cxla_type)l->type;
      h.rank = l->rank;
      h.dims = l->dims;
      h.data = l->data;
      h.size = (size_t)l->nelems * (size_t)type_bytes(l->type);
    } else {
      x = malloc((size_t)j->n * sizeof *x + 1);
      for (int64_t k = 0; k < j->n; k++) x[k] = (float)k / 7 - 3;
      h.type = CXLA_F32;
      h.rank = 1;
      h.dims = &j->n;
      h.data = x;
      h.size = (size_t)j->n * sizeof *x;
    }
    s = cxla_buffer_from_host(c, NULL, &h, &in[i], NULL);
  }
  int nres = cxla_executable_num_results(e);
  cxla_buffer **res = calloc((size_t)nres + 1, sizeof *res);
  if (!s) s = cxla_executable_execute(e, in, nargs, NULL, res, NULL);
  FILE *f = s ? NULL : fopen(j->out, "wb");
  for (int i = 0; i < nres && f && !s; i++) {
    size_t bytes = cxla_buffer_size(res[i]);
    void *buf = malloc(bytes + 1);
    s = cxla_buffer_to_host(res[i], buf, bytes, NULL);
    if (!s && fwrite(buf, 1, bytes, f) != bytes) s = ERR(IO, "short write");
    free(buf);
  }
  if (f) fclose(f);
  for (int i = 0; i < nres; i++) cxla_buffer_destroy(res[i]);
  for (int i = 0; i < nargs; i++) cxla_buffer_destroy(in[i]);
  free(res);
  free(in);
  free(x);
  return s;
}

/* The child's work: 0 when everything went as expected, else a code. */
static int child(const Job *j) {
  if (j->cache_dir) setenv("CXLA_CACHE_DIR", j->cache_dir, 1);
  if (j->cache_off) setenv("CXLA_CACHE", "0", 1);
  else unsetenv("CXLA_CACHE");
  if (j->max_mb) setenv("CXLA_CACHE_MAX_MB", j->max_mb, 1);
  else unsetenv("CXLA_CACHE_MAX_MB");
  if (j->opt_level) setenv("CXLA_CPU_OPT", j->opt_level, 1);
  else unsetenv("CXLA_CPU_OPT");
  cxla_client_options co = CXLA_STRUCT_INIT(cxla_client_options);
  co.backend = "cpu";
  co.num_threads = 1;
  cxla_client *c = NULL;
  cxla_module *m = NULL;
  cxla_executable *e = NULL;
  cxla_compile_options o = CXLA_STRUCT_INIT(cxla_compile_options);
  o.no_optimize = j->no_optimize;
  cxla_status s = cxla_client_create(&co, &c);
  if (!s) s = cxla_module_parse(j->text, strlen(j->text), "t", &m);
  if (!s) s = cxla_client_compile(c, m, &o, &e);
  cxla_compile_stats st = CXLA_STRUCT_INIT(cxla_compile_stats);
  if (!s) s = cxla_executable_compile_stats(e, &st);
  int rc = s ? 10 : 0;
  if (!rc && j->expect != EITHER && st.cache_hit != j->expect) {
    fprintf(stderr, "child: cache_hit %d, expected %d\n", st.cache_hit, j->expect);
    rc = 12;
  }
  /* a hit did no LLVM work; a miss did */
  if (!rc && st.cache_hit && (st.codegen_seconds != 0 || st.llvm_seconds != 0)) rc = 13;
  if (!rc && !st.cache_hit && !(st.llvm_seconds > 0 && st.codegen_seconds > 0)) rc = 14;
  if (!rc && (s = run_and_write(j, c, e))) rc = 15;
  if (s) fprintf(stderr, "child: %s\n", cxla_status_message(s));
  cxla_status_free(s);
  cxla_executable_destroy(e);
  cxla_module_destroy(m);
  cxla_client_destroy(c);
  return rc;
}

static pid_t start(const Job *j) {
  fflush(NULL);
  pid_t p = fork();
  if (p == 0) exit(child(j)); /* exit: a sanitizer build checks the child for leaks */
  return p;
}

static bool finish(pid_t p) {
  int st = 0;
  if (p <= 0 || waitpid(p, &st, 0) != p) return false;
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    fprintf(stderr, "  child %d: %s %d\n", (int)p, WIFEXITED(st) ? "exit" : "signal",
            WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
    return false;
  }
  return true;
}

static bool run_job(const Job *j) { return finish(start(j)); }

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)(n > 0 ? n : 0) + 1);
  *len = b ? fread(b, 1, (size_t)n, f) : 0;
  fclose(f);
  return b;
}

static bool same_file(const char *a, const char *b) {
  size_t la = 0, lb = 0;
  char *x = slurp(a, &la), *y = slurp(b, &lb);
  bool same = x && y && la == lb && la > 0 && memcmp(x, y, la) == 0;
  free(x);
  free(y);
  return same;
}

/* The entries (*.cxc) in dir; the first one's path into first (if any). */
static int entries(const char *dir, char *first, size_t n) {
  DIR *d = opendir(dir);
  int k = 0;
  struct dirent *de;
  while (d && (de = readdir(d))) {
    size_t l = strlen(de->d_name);
    if (l > 4 && strcmp(de->d_name + l - 4, ".cxc") == 0) {
      if (k++ == 0 && first) snprintf(first, n, "%s/%s", dir, de->d_name);
    } else if (strstr(de->d_name, ".tmp")) {
      k += 1000; /* a temporary left behind */
    }
  }
  if (d) closedir(d);
  return k;
}

/* exp, tanh, a sort with a compiled comparator, a reduction: kernels,
 * a comparator and a runtime step. */
static char *module_text(int n) {
  return cxla_format(
      "HloModule cached\n"
      "lt { a = f32[] parameter(0)\n b = f32[] parameter(1)\n"
      "  ROOT c = pred[] compare(a, b), direction=GT }\n"
      "add { a = f32[] parameter(0)\n b = f32[] parameter(1)\n ROOT s = f32[] add(a, b) }\n"
      "ENTRY main {\n  x = f32[%d] parameter(0)\n  e = f32[%d] exponential(x)\n"
      "  t = f32[%d] tanh(x)\n  m = f32[%d] multiply(e, t)\n"
      "  s = f32[%d] sort(m), dimensions={0}, to_apply=lt\n"
      "  z = f32[] constant(0)\n  r = f32[] reduce(m, z), dimensions={0}, to_apply=add\n"
      "  ROOT out = (f32[%d], f32[]) tuple(s, r)\n}\n",
      n, n, n, n, n, n);
}

static char *out_path(const char *name) { return cxla_format("%s/%s.bin", root, name); }

TEST(hit_in_a_new_process) {
  char dir[128];
  fresh_dir(dir, sizeof dir);
  char *text = module_text(100);
  char *fresh = out_path("fresh"), *first = out_path("first"), *second = out_path("second");
  Job j = {.text = text, .n = 100, .cache_dir = dir, .cache_off = true, .expect = MISS,
           .out = fresh};
  CHECK(run_job(&j));
  CHECK(entries(dir, NULL, 0) == 0); /* off: nothing written */
  j.cache_off = false;
  j.out = first;
  CHECK(run_job(&j)); /* miss: compiles and stores */
  CHECK(entries(dir, NULL, 0) == 1);
  j.expect = HIT;
  j.out = second;
  CHECK(run_job(&j)); /* hit: loads, no LLVM work */
  CHECK(same_file(fresh, first) && same_file(fresh, second));
  CHECK(entries(dir, NULL, 0) == 1);
  /* CXLA_CACHE=0 also means not reading */
  j.cache_off = true;
  j.expect = MISS;
  CHECK(run_job(&j));
  cxla_free(text);
  cxla_free(fresh);
  cxla_free(first);
  cxla_free(second);
}

TEST(miss_on_a_changed_shape_or_option) {
  char dir[128];
  fresh_dir(dir, sizeof dir);
  char *t5 = module_text(5), *t6 = module_text(6), *out = out_path("change");
  Job j = {.text = t5, .n = 5, .cache_dir = dir, .expect = MISS, .out = out};
  CHECK(run_job(&j));
  j.text = t6;
  j.n = 6;
  CHECK(run_job(&j)); /* another shape */
  j.no_optimize = true;
  CHECK(run_job(&j)); /* another option */
  j.opt_level = "1";
  CHECK(run_job(&j)); /* another LLVM optimization level */
  CHECK(entries(dir, NULL, 0) == 4);
  j.expect = HIT;
  CHECK(run_job(&j));
  j.opt_level = NULL;
  CHECK(run_job(&j));
  j.no_optimize = false;
  j.text = t5;
  j.n = 5;
  CHECK(run_job(&j));
  cxla_free(t5);
  cxla_free(t6);
  cxla_free(out);
}

/* Rewrites the entry: flips byte `at` (from the end when negative),
 * truncates it to `at` bytes, or replaces its payload (a valid entry of
 * the store, not a program). */
typedef enum { FLIP, TRUNCATE, FOREIGN, FOREIGN_OBJECT } Damage;

static void damage(const char *dir, const char *path, Damage how, long at) {
  if (how == TRUNCATE) {
    CHECK(truncate(path, at) == 0);
    return;
  }
  if (how == FLIP) {
    int fd = open(path, O_RDWR);
    struct stat st;
    CHECK(fd >= 0 && fstat(fd, &st) == 0);
    off_t off = at >= 0 ? at : st.st_size + at;
    unsigned char c = 0;
    CHECK(pread(fd, &c, 1, off) == 1);
    c ^= 0x10;
    CHECK(pwrite(fd, &c, 1, off) == 1);
    close(fd);
    return;
  }
  /* the key: the file name without ".cxc" */
  const char *base = strrchr(path, '/') + 1;
  char key[80];
  snprintf(key, sizeof key, "%.*s", (int)(strlen(base) - 4), base);
  if (how == FOREIGN) {
    CHECK_OK(rt_disk_cache_put(dir, key, "not a program", 13, 1 << 20));
    return;
  }
  /* a well-formed program whose object file is not one */
  size_t len = 0;
  void *data = NULL;
  CHECK_OK(rt_disk_cache_get(dir, key, &data, &len));
  if (!data || len < 40) return;
  unsigned char *p = data;
  uint64_t obj = 0;
  for (int i = 0; i < 8; i++) obj |= (uint64_t)p[16 + i] << (8 * i);
  if (obj <= len) memset(p + len - obj, 0x5a, (size_t)obj);
  CHECK_OK(rt_disk_cache_put(dir, key, data, len, 1 << 20));
  cxla_free(data);
}

TEST(damaged_entries_are_recompiled) {
  struct {
    Damage how;
    long at;
  } cases[] = {{FLIP, -100}, {FLIP, 40}, {FLIP, 3}, {TRUNCATE, 500}, {TRUNCATE, 20},
               {TRUNCATE, 0}, {FOREIGN, 0}, {FOREIGN_OBJECT, 0}};
  char *text = module_text(33), *ref = out_path("dmg_ref"), *out = out_path("dmg");
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char dir[128], entry[256];
    fresh_dir(dir, sizeof dir);
    Job j = {.text = text, .n = 33, .cache_dir = dir, .expect = MISS, .out = ref};
    CHECK(run_job(&j));
    CHECK(entries(dir, entry, sizeof entry) == 1);
    damage(dir, entry, cases[i].how, cases[i].at);
    j.out = out;
    CHECK(run_job(&j)); /* never loaded: compiled again, and right */
    CHECK(same_file(ref, out));
    CHECK(entries(dir, NULL, 0) == 1);
    j.expect = HIT; /* ... and stored again */
    CHECK(run_job(&j));
    CHECK(same_file(ref, out));
  }
  cxla_free(text);
  cxla_free(ref);
  cxla_free(out);
}

TEST(two_processes_at_once) {
  char dir[128];
  fresh_dir(dir, sizeof dir);
  char *text = module_text(77), *a = out_path("twoa"), *b = out_path("twob"),
       *c = out_path("twoc");
  Job ja = {.text = text, .n = 77, .cache_dir = dir, .expect = EITHER, .out = a};
  Job jb = ja;
  jb.out = b;
  pid_t pa = start(&ja), pb = start(&jb);
  CHECK(finish(pa));
  CHECK(finish(pb));
  CHECK(entries(dir, NULL, 0) == 1); /* one entry, no temporaries */
  Job jc = ja;
  jc.expect = HIT;
  jc.out = c;
  CHECK(run_job(&jc));
  CHECK(same_file(a, b) && same_file(a, c));
  cxla_free(text);
  cxla_free(a);
  cxla_free(b);
  cxla_free(c);
}

/* Code of the generic scalar path (here a complex multiply), which names
 * the instruction it evaluates, is stored with the instruction named by
 * position and runs in another process. */
TEST(instruction_references_are_relocated) {
  char dir[128];
  fresh_dir(dir, sizeof dir);
  const char *text =
      "HloModule complex\nENTRY main {\n  x = f32[4] parameter(0)\n"
      "  c = c64[4] complex(x, x)\n  m = c64[4] multiply(c, c)\n"
      "  ROOT r = f32[4] imag(m)\n}\n";
  char *out = out_path("complex"), *out2 = out_path("complex2");
  Job j = {.text = text, .n = 4, .cache_dir = dir, .expect = MISS, .out = out};
  CHECK(run_job(&j));
  CHECK(entries(dir, NULL, 0) == 1);
  j.expect = HIT;
  j.out = out2;
  CHECK(run_job(&j));
  CHECK(same_file(out, out2));
  size_t len = 0;
  char *r = slurp(out2, &len);
  float want[4]; /* imag((x + ix)^2) = 2x^2 */
  for (int k = 0; k < 4; k++) want[k] = 2 * ((float)k / 7 - 3) * ((float)k / 7 - 3);
  CHECK(r && len == sizeof want);
  for (int k = 0; r && len == sizeof want && k < 4; k++)
    CHECK(fabsf(((float *)(void *)r)[k] - want[k]) <= 1e-5f * fabsf(want[k]));
  free(r);
  cxla_free(out);
  cxla_free(out2);
}

static void set_mtime(const char *path, time_t when) {
  struct timespec t[2] = {{when, 0}, {when, 0}};
  CHECK(utimensat(AT_FDCWD, path, t, 0) == 0);
}

TEST(size_bound_evicts_least_recently_used) {
  char dir[128], old_entry[256], entry[256];
  fresh_dir(dir, sizeof dir);
  /* an old entry of 1 MiB fills the 1 MiB bound */
  static char big[1 << 20];
  CHECK_OK(rt_disk_cache_put(dir, "old", big, sizeof big - 32, 1 << 30));
  snprintf(old_entry, sizeof old_entry, "%s/old.cxc", dir);
  set_mtime(old_entry, 1000000);
  char *text = module_text(9), *out = out_path("lru");
  Job j = {.text = text, .n = 9, .cache_dir = dir, .max_mb = "1", .expect = MISS, .out = out};
  CHECK(run_job(&j));
  struct stat st;
  CHECK(stat(old_entry, &st) != 0); /* evicted */
  CHECK(entries(dir, entry, sizeof entry) == 1 && strstr(entry, "old.cxc") == NULL);
  j.expect = HIT;
  CHECK(run_job(&j));
  /* without the bound (1 GiB) both stay */
  CHECK_OK(rt_disk_cache_put(dir, "old", big, sizeof big - 32, 1 << 30));
  set_mtime(old_entry, 1000000);
  j.max_mb = NULL;
  j.text = module_text(10);
  j.n = 10;
  j.expect = MISS;
  CHECK(run_job(&j));
  CHECK(entries(dir, NULL, 0) == 3);
  cxla_free((char *)j.text);
  cxla_free(text);
  cxla_free(out);
}

/* What the code depends on besides the module: the CPU, LLVM's and cxla's
 * versions, the optimization level, and this binary's build id (so a
 * rebuilt cxla never loads another build's code). */
TEST(target_id_names_the_build) {
  char *a = NULL, *b = NULL;
  CHECK_OK(cpu_target_id_make(2, &a));
  CHECK_OK(cpu_target_id_make(1, &b));
  CHECK(a && b && strcmp(a, b) != 0);
  if (!a || !b) return;
  char version[64];
  snprintf(version, sizeof version, ";cxla %s;", CXLA_VERSION);
  CHECK(strstr(a, version) && strstr(a, ";llvm ") && strstr(a, ";O2;"));
  const char *id = strstr(a, ";build ");
  CHECK(id != NULL);
  /* a GNU build id: 20 bytes of SHA-1 as hex (gcc and clang link with one) */
  if (id) CHECK(strlen(id + 7) >= 16 && strspn(id + 7, "0123456789abcdef") == strlen(id + 7));
  cxla_free(a);
  cxla_free(b);
}

/* Corpus cases: a loaded program computes what a fresh compile does. */
TEST(corpus_cases_identical) {
  if (!corpus) {
    SKIP("no corpus given (argv[1])");
    return;
  }
  const char *names[] = {"control_while_loop", "conv2d_nhwc",   "dot_batch",
                         "gather_embedding",   "sort_by_key",   "nn_softmax",
                         "model_mlp_train_step", "scatter_add", "reduce_int_types",
                         "random_normal_uniform", "elementwise_c64_ops",
                         "elementwise_c128_ops", "fft_fft_ifft"};
  int checked = 0;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    char *cdir = cxla_format("%s/%s", corpus, names[i]);
    Case *c = NULL;
    cxla_status s = case_load(cdir, &c);
    cxla_free(cdir);
    if (s) {
      fprintf(stderr, "  %s: %s\n", names[i], cxla_status_message(s));
      cxla_status_free(s);
      continue;
    }
    Literal **args = calloc((size_t)c->nargs + 1, sizeof *args);
    for (int k = 0; k < c->nargs && !s; k++) s = case_load_tensor(&c->args[k], &args[k]);
    size_t tlen = 0;
    char *text = s ? NULL : slurp(case_hlo_path(c, "module"), &tlen);
    if (text) text[tlen] = 0;
    char dir[128];
    fresh_dir(dir, sizeof dir);
    char *fresh = out_path("case_fresh"), *loaded = out_path("case_loaded");
    Job j = {.text = text, .nargs = c->nargs, .args = args, .cache_dir = dir, .cache_off = true,
             .expect = MISS, .out = fresh};
    if (text) {
      CHECK(run_job(&j));
      j.cache_off = false;
      CHECK(run_job(&j)); /* stores */
      j.expect = HIT;
      j.out = loaded;
      CHECK(run_job(&j));
      bool same = same_file(fresh, loaded);
      CHECK(same);
      if (!same) fprintf(stderr, "  %s: loaded results differ\n", names[i]);
      checked++;
    } else {
      CHECK_OK(s);
    }
    free(text);
    for (int k = 0; k < c->nargs; k++) literal_free(args[k]);
    free(args);
    cxla_free(fresh);
    cxla_free(loaded);
    case_free(c);
  }
  CHECK(checked == (int)(sizeof names / sizeof names[0]));
}

int main(int argc, char **argv) {
  snprintf(root, sizeof root, "/tmp/cxla_cpu_cache_XXXXXX");
  if (!mkdtemp(root)) {
    perror("mkdtemp");
    return 1;
  }
  corpus = argc > 1 ? argv[1] : NULL;
  RUN(hit_in_a_new_process);
  RUN(miss_on_a_changed_shape_or_option);
  RUN(damaged_entries_are_recompiled);
  RUN(two_processes_at_once);
  RUN(instruction_references_are_relocated);
  RUN(size_bound_evicts_least_recently_used);
  RUN(target_id_names_the_build);
  RUN(corpus_cases_identical);
  char cmd[160];
  snprintf(cmd, sizeof cmd, "rm -rf %.100s", root);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", root);
  return test_summary("test_cpu_cache");
}
