/* The CPU backend's tiled loop nests (src/codegen/cg.c: kernels that read
 * an operand transposed walk their two innermost output dims in 32x32
 * tiles) against the interpreter, exactly (data movement and elementwise
 * ops, so bit for bit): sizes that are not multiples of the tile, rank 3
 * with the outer dim kept, a fused transpose with arithmetic, a bitcast
 * between layouts, and a copy that changes layout. */
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"
#include "cpu/cpu.h"
#include "interp/interp.h"
#include "verify/verify.h"

/* Deterministic arguments; every 17th float element a NaN, every 13th -0. */
static cxla_status make_args(const HloModule *m, Literal ***out) {
  const Computation *c = m->entry;
  Literal **a = cxla_calloc((size_t)(c->nparams ? c->nparams : 1), sizeof *a);
  if (!a) return cxla_oom();
  uint64_t x = 88172645463325252ull;
  for (int i = 0; i < c->nparams; i++) {
    cxla_status s = literal_create_for_shape(c->params[i]->shape, &a[i]);
    if (s) {
      for (int k = 0; k < i; k++) literal_free(a[k]);
      cxla_free(a);
      return s;
    }
    for (int64_t e = 0; e < a[i]->nelems; e++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      double v = (double)(x >> 11) / 9007199254740992.0 * 200 - 100;
      if (e % 17 == 16) v = NAN;
      else if (e % 13 == 12) v = -0.0;
      literal_set_f64(a[i], e, v);
    }
  }
  *out = a;
  return NULL;
}

static bool check_same(const char *name, const char *text) {
  cxla_module *m = NULL;
  Literal **args = NULL, *want = NULL, *got = NULL;
  CpuExecutable *x = NULL;
  bool ok = false;
  cxla_status s = cxla_module_parse(text, strlen(text), name, &m);
  if (!s) s = verify_module(m);
  if (!s) s = make_args(m, &args);
  if (!s) s = cxla_interp_run(m, args, m->entry->nparams, &want);
  if (!s) s = cpu_compile(m, NULL, &x);
  if (!s) s = cpu_execute(x, args, m->entry->nparams, &got);
  if (s) {
    fprintf(stderr, "%s: %s\n", name, cxla_status_message(s));
  } else {
    ok = want->type == got->type && want->nelems == got->nelems;
    for (int64_t i = 0; ok && i < want->nelems; i++) {
      double w = literal_get_f64(want, i), g = literal_get_f64(got, i);
      bool same = isnan(w) ? isnan(g) : !isnan(g) && !memcmp(&w, &g, sizeof w);
      if (!same) {
        fprintf(stderr, "%s: element %lld: want %.17g got %.17g\n", name, (long long)i, w, g);
        ok = false;
      }
    }
  }
  cxla_status_free(s);
  if (args)
    for (int i = 0; i < m->entry->nparams; i++) literal_free(args[i]);
  cxla_free(args);
  literal_free(want);
  literal_free(got);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);
  return ok;
}

TEST(transposes) {
  CHECK(check_same("t2d", "HloModule m\n\nENTRY e {\n  x = f32[70,100] parameter(0)\n"
                          "  ROOT t = f32[100,70] transpose(x), dimensions={1,0}\n}\n"));
  CHECK(check_same("t3d", "HloModule m\n\nENTRY e {\n  x = f32[3,65,130] parameter(0)\n"
                          "  ROOT t = f32[3,130,65] transpose(x), dimensions={0,2,1}\n}\n"));
  CHECK(check_same("t3d_outer", "HloModule m\n\nENTRY e {\n  x = f64[66,3,97] parameter(0)\n"
                                "  ROOT t = f64[3,97,66] transpose(x), dimensions={1,2,0}\n}\n"));
}

TEST(fused_and_layouts) {
  CHECK(check_same("fused", "HloModule m\n\n"
                            "fused {\n  p0 = f32[64,96] parameter(0)\n  p1 = f32[96,64] parameter(1)\n"
                            "  t = f32[96,64] transpose(p0), dimensions={1,0}\n"
                            "  ROOT a = f32[96,64] add(t, p1)\n}\n\n"
                            "ENTRY e {\n  x = f32[64,96] parameter(0)\n  y = f32[96,64] parameter(1)\n"
                            "  ROOT f = f32[96,64] fusion(x, y), kind=kLoop, calls=fused\n}\n"));
  CHECK(check_same("bitcast_layout", "HloModule m\n\nENTRY e {\n  x = f32[80,70]{1,0} parameter(0)\n"
                                     "  ROOT b = f32[70,80]{0,1} bitcast(x)\n}\n"));
  CHECK(check_same("copy_layout", "HloModule m\n\nENTRY e {\n  x = s32[80,70]{1,0} parameter(0)\n"
                                  "  ROOT c = s32[80,70]{0,1} copy(x)\n}\n"));
}

int main(void) {
  RUN(transposes);
  RUN(fused_and_layouts);
  return test_summary(__FILE__);
}
