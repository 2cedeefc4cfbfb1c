/* cxla computes in the default floating-point mode whatever the caller's
 * (src/base/fpenv.h). A host thread that runs with flush-to-zero and
 * denormals-are-zero set (jaxlib does around PJRT calls) had every
 * subnormal constant of a module read as zero: broadcast(constant(1e-40))
 * gave zeros under JAX. Here the calling thread sets FTZ and DAZ, then
 * parses, optimizes, compiles and runs modules whose results are subnormal
 * constants (passed through without arithmetic, so XLA:CPU keeps them):
 * on every backend, through the public API, the bits must come back, the
 * module must print them, and the caller's mode must be its own again
 * after each call. */
#include <stdint.h>
#include <string.h>

#include "harness.h"
#include "runtime_test.h"

#if defined(__x86_64__)
#include <xmmintrin.h>

enum { FTZ_DAZ = 0x8040 };

static const char *kModule =
    "HloModule sub\n"
    "ENTRY main {\n"
    "  x = f32[4] parameter(0)\n"
    "  c = f32[] constant(1e-40)\n"
    "  b = f32[4] broadcast(c), dimensions={}\n"
    "  k = f32[4] constant({1e-45, -2e-39, 1.1e-38, 3})\n"
    "  p = pred[4] compare(x, x), direction=EQ\n"
    "  s = f32[4] select(p, b, x)\n"
    "  ROOT t = (f32[4], f32[4]) tuple(s, k)\n"
    "}\n";

static void run_backend(const char *backend) {
  unsigned mode = _mm_getcsr() | FTZ_DAZ;
  _mm_setcsr(mode);
  cxla_client *c = rt_client(backend);
  CHECK(c != NULL);
  CHECK((_mm_getcsr() & ~0x3Fu) == (mode & ~0x3Fu));
  if (!c) return;
  cxla_module *m = NULL;
  CHECK_OK(cxla_module_parse(kModule, strlen(kModule), "sub", &m));
  CHECK((_mm_getcsr() & ~0x3Fu) == (mode & ~0x3Fu));
  char *text = NULL;
  if (m) CHECK_OK(cxla_module_print(m, &text));
  CHECK(text && strstr(text, "constant(1e-40)") && strstr(text, "1e-45") && strstr(text, "-2e-39"));
  cxla_free_string(text);
  cxla_executable *e = NULL;
  if (m) CHECK_OK(cxla_client_compile(c, m, NULL, &e));
  CHECK((_mm_getcsr() & ~0x3Fu) == (mode & ~0x3Fu));
  cxla_module_destroy(m);
  if (e) {
    float xs[4] = {1, 2, 3, 4};
    int64_t dims[1] = {4};
    cxla_buffer *arg = rt_f32(c, xs, 1, dims), *out[2] = {NULL, NULL};
    CHECK_OK(cxla_executable_execute(e, &arg, 1, NULL, out, NULL));
    CHECK((_mm_getcsr() & ~0x3Fu) == (mode & ~0x3Fu));
    uint32_t got[2][4] = {{0}}, want[2][4] = {{0}};
    const float wf[2][4] = {{1e-40f, 1e-40f, 1e-40f, 1e-40f}, {1e-45f, -2e-39f, 1.1e-38f, 3}};
    _mm_setcsr(mode & ~(unsigned)FTZ_DAZ); /* the wanted bits, from the compiler's constants */
    memcpy(want, wf, sizeof want);
    _mm_setcsr(mode);
    for (int k = 0; k < 2; k++)
      if (out[k]) CHECK_OK(cxla_buffer_to_host(out[k], got[k], sizeof got[k], NULL));
    for (int k = 0; k < 2; k++)
      for (int i = 0; i < 4; i++) {
        if (got[k][i] != want[k][i])
          fprintf(stderr, "  %s: result %d[%d]: 0x%08x, want 0x%08x\n", backend, k, i, got[k][i], want[k][i]);
        CHECK(got[k][i] == want[k][i]);
      }
    cxla_buffer_destroy(arg);
    cxla_buffer_destroy(out[0]);
    cxla_buffer_destroy(out[1]);
    cxla_executable_destroy(e);
  }
  cxla_client_destroy(c);
  _mm_setcsr(mode & ~(unsigned)FTZ_DAZ);
}

TEST(subnormal_constants_under_callers_ftz_cpu) { run_backend("cpu"); }
TEST(subnormal_constants_under_callers_ftz_interp) { run_backend("interp"); }

int main(void) {
  RUN(subnormal_constants_under_callers_ftz_cpu);
  RUN(subnormal_constants_under_callers_ftz_interp);
  return test_summary(__FILE__);
}

#else
TEST(not_x86) { SKIP("the FTZ/DAZ modes are x86's MXCSR"); }
int main(void) {
  RUN(not_x86);
  return test_summary(__FILE__);
}
#endif
