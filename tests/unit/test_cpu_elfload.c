/* The cpu backend's ELF loader (src/cpu/elfload.c), which links a disk
 * cache hit's object file without LLVM.
 *
 * Programs: each module is compiled (keeping its object), serialized as
 * the disk cache stores it, then loaded twice -- by the loader and, with
 * $CXLA_CPU_LINKER=jit, by LLVM's JIT -- and all three executables must
 * compute the same bits; the fresh compile is checked against the
 * interpreter (cpu_vs_interp). The same for corpus cases (argv[1]),
 * optimized as the runtime optimizes them, on their own arguments. The
 * modules make the code call libm
 * (fmodf, pow: PLT32 calls), name instructions (the generic scalar path:
 * GOT-relative references to cxla_in.* and calls to cxla_cg_rt_scalar),
 * sort with a compiled comparator, and read vector constants.
 *
 * Damage: every truncation of an object, every single-byte flip of it and
 * thousands of random multi-byte mutations must give an error status or
 * a loadable image, never a crash (nothing damaged is run). A relocation
 * type the loader does not know is UNIMPLEMENTED, and a cached program
 * holding one is handed to the JIT instead (or fails): never loaded
 * wrong. */
#include <elf.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "cpu/cache.h"
#include "cpu/cpu.h"
#include "cpu/elfload.h"
#include "cpu_vs_interp.h"
#include "passes/pass.h"
#include "testing/case.h"
#include "verify/verify.h"

static const char *corpus; /* argv[1] */

static const char *const programs[][2] = {
    {"libm_calls",
     "HloModule libm_calls\nENTRY main {\n"
     "  x = f32[37] parameter(0)\n  y = f32[37] parameter(1)\n"
     "  r = f32[37] remainder(x, y)\n"
     "  a = f64[37] convert(x)\n  b = f64[37] convert(y)\n"
     "  one = f64[] constant(1)\n  ones = f64[37] broadcast(one), dimensions={}\n"
     "  k = f64[] constant(0.03)\n  ks = f64[37] broadcast(k), dimensions={}\n"
     "  c = f64[37] abs(a)\n  c1 = f64[37] add(c, ones)\n  e = f64[37] multiply(b, ks)\n"
     "  p = f64[37] power(c1, e)\n"
     "  q = f64[37] atan2(a, b)\n  s = f64[37] add(p, q)\n"
     "  t = f32[37] convert(s)\n  ROOT o = f32[37] add(r, t)\n}\n"},
    {"instruction_refs",
     "HloModule instruction_refs\nENTRY main {\n  x = f32[19] parameter(0)\n"
     "  c = c64[19] complex(x, x)\n  m = c64[19] multiply(c, c)\n"
     "  d = c64[19] divide(m, c)\n  ROOT r = f32[19] imag(d)\n}\n"},
    {"sort_comparator",
     "HloModule sort_comparator\n"
     "cmp {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
     "  i = s32[] parameter(2)\n  j = s32[] parameter(3)\n"
     "  aa = f32[] abs(a)\n  bb = f32[] abs(b)\n"
     "  ROOT lt = pred[] compare(aa, bb), direction=LT\n}\n"
     "ENTRY main {\n  x = f32[5,41] parameter(0)\n  k = s32[5,41] iota(), iota_dimension=1\n"
     "  s = (f32[5,41], s32[5,41]) sort(x, k), dimensions={1}, to_apply=cmp\n"
     "  ROOT r = s32[5,41] get-tuple-element(s), index=1\n}\n"},
    {"constants_reduce",
     "HloModule constants_reduce\n"
     "add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}\n"
     "ENTRY main {\n  x = f32[64,33] parameter(0)\n  t = f32[64,33] tanh(x)\n"
     "  e = f32[64,33] exponential(t)\n  z = f32[] constant(0)\n"
     "  ROOT r = f32[64] reduce(e, z), dimensions={1}, to_apply=add\n}\n"},
    /* identical kernels, one of each group an alias of the first
     * (compile.c, share.c): the tanhs x and y, the multiplies p and q, the
     * fusions g1 and g2 (of two computations the same but for names).
     * Not shared: a tanh of another shape (t), a multiply of one operand by itself (s), a fusion whose
     * constant differs (g3). */
    {"shared_kernels",
     "HloModule shared_kernels\n"
     "f1 {\n  p = f32[33,17] parameter(0)\n  c = f32[] constant(2)\n"
     "  b = f32[33,17] broadcast(c), dimensions={}\n  ROOT m = f32[33,17] multiply(p, b)\n}\n"
     "f2 {\n  x = f32[33,17] parameter(0)\n  k = f32[] constant(2)\n"
     "  y = f32[33,17] broadcast(k), dimensions={}\n  ROOT z = f32[33,17] multiply(x, y)\n}\n"
     "f3 {\n  p = f32[33,17] parameter(0)\n  c = f32[] constant(3)\n"
     "  b = f32[33,17] broadcast(c), dimensions={}\n  ROOT m = f32[33,17] multiply(p, b)\n}\n"
     "ENTRY main {\n"
     "  a = f32[33,17] parameter(0)\n  b = f32[33,17] parameter(1)\n"
     "  c = f32[33,17] parameter(2)\n  d = f32[33,17] parameter(3)\n  e = f32[33,18] parameter(4)\n"
     "  x = f32[33,17] tanh(a)\n  y = f32[33,17] tanh(b)\n"
     "  p = f32[33,17] multiply(x, c)\n  q = f32[33,17] multiply(y, d)\n"
     "  t = f32[33,18] tanh(e)\n  r = f32[33,17] add(p, q)\n"
     "  s = f32[33,17] multiply(a, a)\n"
     "  g1 = f32[33,17] fusion(a), kind=kLoop, calls=f1\n  g2 = f32[33,17] fusion(b), kind=kLoop, calls=f2\n"
     "  g3 = f32[33,17] fusion(c), kind=kLoop, calls=f3\n"
     "  ROOT o = (f32[33,17], f32[33,18], f32[33,17], f32[33,17], f32[33,17], f32[33,17]) "
     "tuple(r, t, s, g1, g2, g3)\n}\n"},
};
enum { NPROGRAMS = sizeof programs / sizeof programs[0] };

/* The optimized-for-nothing module of text, verified (cpu_compile takes
 * any verified module). */
static cxla_status parse(const char *name, const char *text, cxla_module **out) {
  TRY(cxla_module_parse(text, strlen(text), name, out));
  return verify_module(*out);
}

/* x's program as the disk cache stores it, compiled by `threads`
 * threads (as that many parts, where the module has enough kernels). */
static cxla_status compile_keep_parts(const cxla_module *m, int threads, CpuExecutable **x, void **blob,
                                      size_t *len) {
  CpuCompileOptions o = {.struct_size = sizeof o, .keep_object = true, .compile_threads = threads};
  TRY(cpu_compile(m, &o, x));
  return cpu_program_serialize(*x, blob, len);
}

static cxla_status compile_keep(const cxla_module *m, CpuExecutable **x, void **blob, size_t *len) {
  return compile_keep_parts(m, 1, x, blob, len);
}

static uint64_t get_u64(const unsigned char *p) {
  uint64_t n = 0;
  for (int i = 0; i < 8; i++) n |= (uint64_t)p[i] << (8 * i);
  return n;
}

/* The object pack inside a serialized program (cache.c's format: a
 * 48-byte header whose third u64 is the pack's length, at the end). */
static unsigned char *pack_of(void *blob, size_t len, size_t *pack_len) {
  unsigned char *p = blob;
  uint64_t n = get_u64(p + 16);
  *pack_len = (size_t)n;
  return n <= len ? p + len - n : NULL;
}

/* The k-th object file of the pack inside a serialized program, read by
 * hand (u64 count, count u64 lengths, the objects), or NULL. */
static unsigned char *object_of_part(void *blob, size_t len, int k, size_t *obj_len) {
  size_t plen = 0;
  unsigned char *p = pack_of(blob, len, &plen);
  if (!p || plen < 8) return NULL;
  uint64_t n = get_u64(p), at = 8 + 8 * n;
  if ((uint64_t)k >= n || plen < at) return NULL;
  for (int i = 0; i < k; i++) at += get_u64(p + 8 + 8 * (size_t)i);
  *obj_len = (size_t)get_u64(p + 8 + 8 * (size_t)k);
  return at + *obj_len <= plen ? p + at : NULL;
}

static unsigned char *object_of(void *blob, size_t len, size_t *obj_len) {
  return object_of_part(blob, len, 0, obj_len);
}

static cxla_status load(const cxla_module *m, const void *blob, size_t len, bool jit,
                        CpuExecutable **out) {
  if (jit) setenv("CXLA_CPU_LINKER", "jit", 1);
  cxla_status s = cpu_program_deserialize(m, blob, len, out);
  if (jit) unsetenv("CXLA_CPU_LINKER");
  return s;
}

/* Compiled by `threads` threads: m's program, loaded with the loader and
 * with the JIT; all three run on args must agree bit for bit, with *want
 * when given (else its results are returned there). Returns the number of
 * parts (object files) the program was compiled as, 0 on failure. */
static int check_loaded_parts(const char *name, const cxla_module *m, Literal *const *args, int threads,
                              Literal **want) {
  CpuExecutable *fresh = NULL, *loaded = NULL, *jitted = NULL;
  Literal *a = NULL, *b = NULL, *c = NULL;
  void *blob = NULL;
  size_t len = 0;
  int nparts = 0;
  cxla_status s = compile_keep_parts(m, threads, &fresh, &blob, &len);
  if (!s) s = load(m, blob, len, false, &loaded);
  if (!s) s = load(m, blob, len, true, &jitted);
  if (!s) s = cpu_execute(fresh, args, m->entry->nparams, &a);
  if (!s) s = cpu_execute(loaded, args, m->entry->nparams, &b);
  if (!s) s = cpu_execute(jitted, args, m->entry->nparams, &c);
  CHECK_OK(s);
  if (!s) {
    const CpuCompileStats *fs = cpu_executable_stats(fresh), *ls = cpu_executable_stats(loaded),
                          *js = cpu_executable_stats(jitted);
    CHECK(ls->loaded && !ls->jit_linked); /* the loader took it */
    CHECK(js->loaded && js->jit_linked);
    CHECK(fs->nparts >= 1 && fs->nparts <= threads && ls->nparts == fs->nparts && js->nparts == fs->nparts);
    nparts = fs->nparts;
    bool same = literal_equal(a, b) && literal_equal(a, c) && (!*want || literal_equal(a, *want));
    CHECK(same);
    if (!same) fprintf(stderr, "  %s, %d parts: loaded results differ\n", name, fs->nparts);
    if (!*want) *want = a, a = NULL;
  }
  literal_free(a);
  literal_free(b);
  literal_free(c);
  cxla_free(blob);
  cpu_executable_destroy(fresh);
  cpu_executable_destroy(loaded);
  cpu_executable_destroy(jitted);
  return nparts;
}

/* m compiled whole, and by 2 and 3 threads (as parts, jit_parts.c, where
 * m has kernels enough): every way the same bits. Returns the most parts
 * any compile made. */
static int check_loaded(const char *name, const cxla_module *m, Literal *const *args) {
  Literal *want = NULL;
  int most = check_loaded_parts(name, m, args, 1, &want);
  CHECK(most == 1 || most == 0);
  for (int threads = 2; threads <= 3 && want; threads++) {
    int n = check_loaded_parts(name, m, args, threads, &want);
    if (n > most) most = n;
  }
  literal_free(want);
  return most;
}

TEST(loaded_programs_compute_what_the_jit_does) {
  for (int i = 0; i < NPROGRAMS; i++) {
    const char *name = programs[i][0], *text = programs[i][1];
    CHECK(cpu_vs_interp(name, text, false));
    cxla_module *m = NULL;
    Literal **args = NULL;
    cxla_status s = parse(name, text, &m);
    if (!s) s = cpu_vs_interp_args(m, &args);
    CHECK_OK(s);
    int parts = s ? 0 : check_loaded(name, m, args);
    /* split across three threads: the program of many kernels, some of
     * them aliases (share.c) */
    if (!strcmp(name, "shared_kernels")) {
      CHECK(parts == 3);
      if (parts != 3) fprintf(stderr, "  %s: %d parts, 3 expected\n", name, parts);
    }
    if (m) cpu_vs_interp_free_args(m, args);
    cxla_module_destroy(m);
  }
}

/* Identical kernels are compiled once: the second of each pair an alias
 * (the loaded programs above run them through the aliases' names, against
 * the interpreter); kernels that differ are not. */
/* The compile statistics of module text (no pipeline) in *st (zeros if
 * it does not compile: false). */
static bool compile_stats(const char *name, const char *text, CpuCompileStats *st) {
  memset(st, 0, sizeof *st);
  cxla_module *m = NULL;
  CpuExecutable *x = NULL;
  cxla_status s = parse(name, text, &m);
  if (!s) s = cpu_compile(m, NULL, &x);
  bool ok = !s;
  if (s) fprintf(stderr, "%s: %s\n", name, cxla_status_message(s));
  else *st = *cpu_executable_stats(x);
  cxla_status_free(s);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);
  return ok;
}

TEST(identical_kernels_shared) {
  CpuCompileStats st;
  CHECK(compile_stats("shared_kernels", programs[NPROGRAMS - 1][1], &st));
  CHECK(st.nshared == 3);
  if (st.nshared != 3) fprintf(stderr, "  %d of %d kernels shared, 3 expected\n", st.nshared, st.nkernels);
}

/* Past $CXLA_CPU_LIGHT_MIN distinct kernels, the small ones (x, y, z:
 * 561 elements each) are compiled unoptimized (optnone) and the large one
 * (w) is not; the results are still the interpreter's. Under the bound,
 * or with 0 (never), none is. */
TEST(small_kernels_light_past_a_bound) {
  const char *text =
      "HloModule light\nENTRY main {\n  a = f32[33,17] parameter(0)\n  b = f32[512,64] parameter(1)\n"
      "  x = f32[33,17] tanh(a)\n  y = f32[33,17] exponential(a)\n  z = f32[33,17] add(x, y)\n"
      "  w = f32[512,64] tanh(b)\n  ROOT o = (f32[33,17], f32[512,64]) tuple(z, w)\n}\n";
  const char *mins[] = {"2", "5", "0"};
  const int want[] = {3, 0, 0};
  for (int i = 0; i < 3; i++) {
    setenv("CXLA_CPU_LIGHT_MIN", mins[i], 1);
    CHECK(cpu_vs_interp("light", text, false));
    CpuCompileStats st;
    CHECK(compile_stats("light", text, &st));
    CHECK(st.nkernels == 4 && st.nlight == want[i]);
    if (st.nlight != want[i])
      fprintf(stderr, "  bound %s: %d of %d kernels light, %d expected\n", mins[i], st.nlight, st.nkernels, want[i]);
  }
  unsetenv("CXLA_CPU_LIGHT_MIN");
}

/* A module of small kernels only (scalars: optimized for size) runs
 * LLVM's O1 pipeline, one with a large kernel (tanh of 32768 elements)
 * O2, unless $CXLA_CPU_OPT chooses; the results are the interpreter's. */
TEST(small_modules_at_o1) {
  const char *tiny = "HloModule tiny\nENTRY main {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
                     "  c = f32[] parameter(2)\n  m = f32[] multiply(a, b)\n  s = f32[] add(m, c)\n"
                     "  ROOT r = f32[] sine(s)\n}\n";
  const char *big = "HloModule big\nENTRY main {\n  a = f32[] parameter(0)\n  b = f32[512,64] parameter(1)\n"
                    "  x = f32[] exponential(a)\n  w = f32[512,64] tanh(b)\n"
                    "  ROOT o = (f32[], f32[512,64]) tuple(x, w)\n}\n";
  const char *env[] = {NULL, "2", "3"};
  const int want_tiny[] = {1, 2, 3}, want_big[] = {2, 2, 3};
  for (int i = 0; i < 3; i++) {
    if (env[i]) setenv("CXLA_CPU_OPT", env[i], 1);
    CpuCompileStats st, sb;
    CHECK(cpu_vs_interp("tiny", tiny, false) && cpu_vs_interp("big", big, false));
    CHECK(compile_stats("tiny", tiny, &st) && compile_stats("big", big, &sb));
    CHECK(st.opt_level == want_tiny[i] && sb.opt_level == want_big[i]);
    if (st.opt_level != want_tiny[i] || sb.opt_level != want_big[i])
      fprintf(stderr, "  CXLA_CPU_OPT=%s: O%d and O%d, O%d and O%d expected\n", env[i] ? env[i] : "(unset)",
              st.opt_level, sb.opt_level, want_tiny[i], want_big[i]);
    unsetenv("CXLA_CPU_OPT");
  }
}

/* Corpus cases, optimized by the default pipeline, on their arguments. */
TEST(corpus_cases_loaded) {
  if (!corpus) {
    SKIP("no corpus given (argv[1])");
    return;
  }
  const char *names[] = {"control_while_loop", "conv2d_nhwc", "dot_batch", "gather_embedding",
                         "sort_by_key", "nn_softmax", "model_mlp_train_step", "scatter_add",
                         "reduce_int_types", "random_normal_uniform", "elementwise_c64_ops",
                         "elementwise_c128_ops", "fft_fft_ifft", "elementwise_f32_special"};
  int nsplit = 0; /* cases compiled as more than one part */
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    char *dir = cxla_format("%s/%s", corpus, names[i]);
    Case *c = NULL;
    cxla_status s = case_load(dir, &c);
    cxla_free(dir);
    Literal **args = s ? NULL : calloc((size_t)c->nargs + 1, sizeof *args);
    for (int k = 0; !s && k < c->nargs; k++) s = case_load_tensor(&c->args[k], &args[k]);
    size_t tlen = 0;
    char *text = NULL;
    cxla_module *m = NULL;
    if (!s) s = cxla_read_file(case_hlo_path(c, "module"), 1 << 26, &text, &tlen);
    if (!s) s = parse(names[i], text, &m);
    PipelineOptions po = {.module_number = 1};
    if (!s) s = pipeline_run(m, NULL, 0, &po);
    CHECK_OK(s);
    if (!s) nsplit += check_loaded(names[i], m, args) > 1;
    cxla_free(text);
    for (int k = 0; c && args && k < c->nargs; k++) literal_free(args[k]);
    free(args);
    cxla_module_destroy(m);
    case_free(c);
  }
  /* the training step and the while loop have kernels enough to split */
  CHECK(nsplit >= 2);
  if (nsplit < 2) fprintf(stderr, "  %d corpus cases split into parts, 2 or more expected\n", nsplit);
}

/* A resolver for loads that are never run. */
static char dummy_target[16];
static void *resolve_any(void *arg, const char *name) {
  (void)arg, (void)name;
  return dummy_target;
}

/* Loads a (damaged) object; OK or not, it must come back. */
static bool loads(const unsigned char *obj, size_t len) {
  ElfImage *img = NULL;
  cxla_status s = elf_load(obj, len, resolve_any, NULL, &img);
  bool ok = !s;
  CHECK(ok == (img != NULL));
  cxla_status_free(s);
  elf_unload(img);
  return ok;
}

static uint64_t xorshift(uint64_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

TEST(damaged_objects_never_crash) {
  for (int i = 0; i < NPROGRAMS; i++) {
    cxla_module *m = NULL;
    CpuExecutable *x = NULL;
    void *blob = NULL;
    size_t len = 0, olen = 0;
    cxla_status s = parse(programs[i][0], programs[i][1], &m);
    if (!s) s = compile_keep(m, &x, &blob, &len);
    CHECK_OK(s);
    unsigned char *obj = s ? NULL : object_of(blob, len, &olen);
    CHECK(obj != NULL);
    if (!obj) goto next;
    CHECK(loads(obj, olen));
    unsigned char *copy = malloc(olen);
    /* every truncation: the section headers come last, so none loads */
    int truncated_loaded = 0;
    for (size_t n = 0; n < olen; n++) {
      memcpy(copy, obj, n);
      truncated_loaded += loads(copy, n);
    }
    CHECK(truncated_loaded == 0);
    /* every byte flipped */
    for (size_t k = 0; k < olen; k++) {
      memcpy(copy, obj, olen);
      copy[k] ^= 0xff;
      loads(copy, olen);
    }
    /* random mutations of 1 to 8 bytes, half of them in the headers */
    uint64_t seed = 0x9e3779b97f4a7c15ull + (uint64_t)i;
    Elf64_Ehdr eh;
    memcpy(&eh, obj, sizeof eh);
    for (int t = 0; t < 3000; t++) {
      memcpy(copy, obj, olen);
      int nbytes = 1 + (int)(xorshift(&seed) % 8);
      for (int b = 0; b < nbytes; b++) {
        uint64_t r = xorshift(&seed);
        size_t at = (t & 1) && eh.e_shoff < olen ? (size_t)eh.e_shoff + (size_t)(r % (olen - eh.e_shoff))
                                                  : (size_t)(r % olen);
        copy[at] = (unsigned char)(r >> 32);
      }
      loads(copy, olen);
    }
    /* a damaged program through the cache's own path: an error or an
     * executable, never a crash (not run) */
    unsigned char *b2 = malloc(len);
    for (size_t k = 0; k < len; k += 7) {
      memcpy(b2, blob, len);
      b2[k] ^= 0x5a;
      CpuExecutable *y = NULL;
      cxla_status_free(cpu_program_deserialize(m, b2, len, &y));
      cpu_executable_destroy(y);
      CpuExecutable *z = NULL;
      cxla_status_free(cpu_program_deserialize(m, blob, k, &z)); /* truncated */
      CHECK(z == NULL);
      cpu_executable_destroy(z);
    }
    free(b2);
    free(copy);
  next:
    cxla_free(blob);
    cpu_executable_destroy(x);
    cxla_module_destroy(m);
  }
}

/* A program compiled as parts: every byte of its pack's header (count and
 * lengths) changed, and the pack cut short or grown, is refused as
 * DATA_LOSS (the lengths no longer add up, or the count is out of range),
 * never loaded or crashed on; the intact blob loads, with the loader, as
 * that many images. */
TEST(damaged_object_packs_refused) {
  cxla_module *m = NULL;
  CpuExecutable *x = NULL;
  void *blob = NULL;
  size_t len = 0, plen = 0;
  CHECK_OK(parse(programs[NPROGRAMS - 1][0], programs[NPROGRAMS - 1][1], &m));
  CHECK_OK(compile_keep_parts(m, 3, &x, &blob, &len));
  unsigned char *pack = blob ? pack_of(blob, len, &plen) : NULL;
  CHECK(pack != NULL && plen > 8 && get_u64(pack) == 3);
  if (pack && plen > 8 && get_u64(pack) == 3) {
    CpuExecutable *y = NULL;
    CHECK_OK(cpu_program_deserialize(m, blob, len, &y));
    CHECK(y && cpu_executable_stats(y)->nparts == 3 && !cpu_executable_stats(y)->jit_linked);
    cpu_executable_destroy(y);
    size_t head = 8 + 8 * 3, at = (size_t)(pack - (unsigned char *)blob);
    unsigned char *b2 = malloc(len + 8);
    int refused = 0, tries = 0;
    for (size_t k = 0; k < head; k++)
      for (int v = 0; v < 3; v++) {
        memcpy(b2, blob, len);
        const unsigned char vals[3] = {0x00, 0xff, (unsigned char)(b2[at + k] + 1)};
        if (vals[v] == b2[at + k]) continue;
        b2[at + k] = vals[v];
        CpuExecutable *z = NULL;
        cxla_status e = cpu_program_deserialize(m, b2, len, &z);
        tries++;
        refused += cxla_status_code_of(e) == CXLA_DATA_LOSS && !z;
        cxla_status_free(e);
        cpu_executable_destroy(z);
      }
    CHECK(tries > 0 && refused == tries);
    if (refused != tries) fprintf(stderr, "  %d of %d damaged pack headers refused\n", refused, tries);
    /* one byte more in the pack (and in the header's lengths): refused */
    memcpy(b2, blob, len);
    b2[len] = 0;
    for (int i = 0; i < 8; i++) b2[16 + i] = (unsigned char)((plen + 1) >> (8 * i));
    CpuExecutable *z = NULL;
    cxla_status e = cpu_program_deserialize(m, b2, len + 1, &z);
    CHECK(cxla_status_code_of(e) == CXLA_DATA_LOSS && !z);
    cxla_status_free(e);
    cpu_executable_destroy(z);
    free(b2);
  }
  cxla_free(blob);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);
}

/* The first relocation of the object's first RELA section (its offset in
 * obj), or 0 when there is none. */
static size_t first_rela(const unsigned char *obj, size_t len) {
  Elf64_Ehdr eh;
  memcpy(&eh, obj, sizeof eh);
  for (int i = 0; i < eh.e_shnum; i++) {
    Elf64_Shdr sh;
    if (eh.e_shoff + (size_t)(i + 1) * sizeof sh > len) return 0;
    memcpy(&sh, obj + eh.e_shoff + (size_t)i * sizeof sh, sizeof sh);
    if (sh.sh_type == SHT_RELA && sh.sh_size >= sizeof(Elf64_Rela)) return (size_t)sh.sh_offset;
  }
  return 0;
}

TEST(unknown_relocations_are_not_loaded) {
  cxla_module *m = NULL;
  CpuExecutable *x = NULL;
  void *blob = NULL;
  size_t len = 0, olen = 0;
  CHECK_OK(parse(programs[1][0], programs[1][1], &m));
  CHECK_OK(compile_keep(m, &x, &blob, &len));
  unsigned char *obj = blob ? object_of(blob, len, &olen) : NULL;
  size_t at = obj ? first_rela(obj, olen) : 0;
  CHECK(at != 0);
  if (at) {
    Elf64_Rela r;
    memcpy(&r, obj + at, sizeof r);
    r.r_info = ELF64_R_INFO(ELF64_R_SYM(r.r_info), R_X86_64_GOTTPOFF); /* a TLS model */
    memcpy(obj + at, &r, sizeof r);
    ElfImage *img = NULL;
    cxla_status s = elf_load(obj, olen, resolve_any, NULL, &img);
    CHECK(cxla_status_code_of(s) == CXLA_UNIMPLEMENTED && img == NULL);
    cxla_status_free(s);
    /* the cache's path hands it to the JIT, which refuses it or links it
     * as it understands it: never the loader */
    CpuExecutable *y = NULL;
    s = cpu_program_deserialize(m, blob, len, &y);
    CHECK(s || cpu_executable_stats(y)->jit_linked);
    cxla_status_free(s);
    cpu_executable_destroy(y);
  }
  cxla_free(blob);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);
}

int main(int argc, char **argv) {
  corpus = argc > 1 ? argv[1] : NULL;
  RUN(loaded_programs_compute_what_the_jit_does);
  RUN(identical_kernels_shared);
  RUN(small_kernels_light_past_a_bound);
  RUN(small_modules_at_o1);
  RUN(corpus_cases_loaded);
  RUN(damaged_objects_never_crash);
  RUN(unknown_relocations_are_not_loaded);
  RUN(damaged_object_packs_refused);
  return test_summary(__FILE__);
}
