/* Fused multiply-adds (src/ir/contract.h): which add or subtract of a
 * fused computation takes its multiply in (the plan), and the values
 * both backends then give. The expected values are XLA:CPU's: jax 0.10.2's
 * jit of ceil(x * 0.333333343 - 1.5) at x = {4.5, 7.5, 10.5} gives
 * {1, 2, 2} (one rounding: 4.5 * 0.333333343 - 1.5 = 4.47e-8), where HLO's
 * two roundings give {0, 1, 2} (4.5 * 0.333333343 rounds to 1.5). */
#include "harness.h"
#include "runtime_test.h"

#include "interp/interp.h"
#include "ir/contract.h"
#include "ir/ir.h"
#include "passes/pass.h"

static const int64_t D3[1] = {3};
static const float X3[3] = {4.5f, 7.5f, 10.5f};

/* Runs text (one f32[3] parameter, one f32[3] result) on backend b,
 * optimized or not, and compares with want. */
static void run3(const char *b, const char *text, bool no_opt, const float *want) {
  cxla_client *c = rt_client(b);
  cxla_module *m = NULL;
  cxla_executable *e = NULL;
  cxla_compile_options o = CXLA_STRUCT_INIT(cxla_compile_options);
  o.no_optimize = no_opt;
  CHECK_OK(cxla_module_parse(text, strlen(text), "t", &m));
  if (m) CHECK_OK(cxla_client_compile(c, m, &o, &e));
  cxla_buffer *x = e ? rt_f32(c, X3, 1, D3) : NULL, *r = NULL;
  if (x) CHECK_OK(cxla_executable_execute(e, &x, 1, NULL, &r, NULL));
  const float *got = r ? cxla_buffer_data(r) : NULL;
  CHECK(got != NULL);
  for (int i = 0; got && i < 3; i++)
    if (memcmp(&got[i], &want[i], sizeof(float)) != 0) {
      fprintf(stderr, "  %s%s [%d]: got %g want %g\n", b, no_opt ? " --no-opt" : "", i, got[i], want[i]);
      CHECK(false);
    }
  cxla_buffer_destroy(r);
  cxla_buffer_destroy(x);
  cxla_executable_destroy(e);
  cxla_module_destroy(m);
  cxla_client_destroy(c);
}

#define MUL_ADD_CEIL(BODY)                                                      \
  "HloModule t\n"                                                                       \
  "f {\n  x = f32[3] parameter(0)\n  k = f32[] constant(0.333333343)\n"                 \
  "  kb = f32[3] broadcast(k), dimensions={}\n  h = f32[] constant(-1.5)\n"             \
  "  hb = f32[3] broadcast(h), dimensions={}\n  m = f32[3] multiply(x, kb)\n" BODY "}\n" \
  "ENTRY e {\n  x = f32[3] parameter(0)\n  ROOT r = f32[3] fusion(x), kind=kLoop, calls=f\n}\n"

/* The same ops unfused: the optimizer's fusion pass puts them in one
 * fused computation. */
static const char kUnfused[] =
    "HloModule t\n"
    "ENTRY e {\n  x = f32[3] parameter(0)\n  k = f32[] constant(0.333333343)\n"
    "  kb = f32[3] broadcast(k), dimensions={}\n  h = f32[] constant(-1.5)\n"
    "  hb = f32[3] broadcast(h), dimensions={}\n  m = f32[3] multiply(x, kb)\n"
    "  a = f32[3] add(m, hb)\n  ROOT c = f32[3] ceil(a)\n}\n";

TEST(resize_coordinate_takes_one_rounding) {
  const float fused[3] = {1, 2, 2}, hlo[3] = {0, 1, 2};
  /* optimized: fused, one rounding, as XLA:CPU */
  run3("interp", kUnfused, false, fused);
  run3("cpu", kUnfused, false, fused);
  /* as written (no fusion), each op rounds, as HLO says */
  run3("interp", kUnfused, true, hlo);
  run3("cpu", kUnfused, true, hlo);
  /* a fused computation as read (XLA's optimized HLO) contracts too */
  const char *t = MUL_ADD_CEIL("  a = f32[3] add(m, hb)\n  ROOT c = f32[3] ceil(a)\n");
  run3("interp", t, true, fused);
  run3("cpu", t, true, fused);
}

TEST(exact_mode_keeps_two_roundings) {
  /* the exact pipeline (bit for bit with the module as written) fuses
   * without contracting; the default one contracts */
  for (int exact = 0; exact < 2; exact++) {
    HloModule *m = NULL;
    CHECK_OK(cxla_module_parse(kUnfused, strlen(kUnfused), "t", &m));
    PipelineOptions o = {true, NULL, 1};
    if (m) CHECK_OK(exact ? pipeline_run_exact(m, NULL, 0, &o) : pipeline_run(m, NULL, 0, &o));
    int fused = 0, contracting = 0;
    for (int i = 0; m && i < m->ncomps; i++) {
      fused += m->comps[i]->is_fusion;
      contracting += m->comps[i]->contract;
    }
    CHECK(fused == 1);
    CHECK(contracting == (exact ? 0 : 1));
    const float want[3] = {exact ? 0.0f : 1.0f, exact ? 1.0f : 2.0f, 2};
    Literal *x = NULL, *r = NULL;
    const int64_t d3 = 3;
    CHECK_OK(literal_create(T_F32, 1, &d3, &x));
    if (x) memcpy(x->data, X3, sizeof X3);
    if (m && x) CHECK_OK(cxla_interp_run(m, &x, 1, &r));
    for (int i = 0; r && i < 3; i++) CHECK(((const float *)r->data)[i] == want[i]);
    literal_free(x);
    literal_free(r);
    module_destroy(m);
  }
}

TEST(subtract_forms) {
  /* m - 1.5 = fma(x, k, -1.5): the values above; 1.5 - m = fma(-x, k,
   * 1.5): -4.47e-8 at 4.5, whose floor is -1 (two roundings: 0) */
  const char *t1 = MUL_ADD_CEIL("  o = f32[] constant(1.5)\n  ob = f32[3] broadcast(o), dimensions={}\n"
                                  "  a = f32[3] subtract(m, ob)\n  ROOT c = f32[3] ceil(a)\n");
  const float w1[3] = {1, 2, 2};
  run3("interp", t1, false, w1);
  run3("cpu", t1, false, w1);
  const char *t2 = MUL_ADD_CEIL("  o = f32[] constant(1.5)\n  ob = f32[3] broadcast(o), dimensions={}\n"
                                  "  a = f32[3] subtract(ob, m)\n  ROOT c = f32[3] floor(a)\n");
  /* 7.5: 1.5 - 2.5000000745 = -1.0000000745 -> -1.0000001 -> floor -2;
   * 10.5: 1.5 - 3.5000001043 = -2.0000001043 -> -2 -> floor -2 */
  const float w2[3] = {-1, -2, -2};
  run3("interp", t2, false, w2);
  run3("cpu", t2, false, w2);
}

TEST(a_multiply_read_twice_rounds) {
  /* jax's ceil(m - 1.5) + (m - 1) (one fusion, m read twice) gives
   * {0.5, 2.5, 4.5}: neither subtract takes m in */
  const char *t = MUL_ADD_CEIL("  a = f32[3] add(m, hb)\n  c = f32[3] ceil(a)\n  one = f32[] constant(-1)\n"
                                 "  ob = f32[3] broadcast(one), dimensions={}\n  d = f32[3] add(m, ob)\n"
                                 "  ROOT s = f32[3] add(c, d)\n");
  const float w[3] = {0.5f, 2.5f, 4.5f};
  run3("interp", t, false, w);
  run3("cpu", t, false, w);
}

TEST(plan_follows_the_rule) {
  const char *t =
      "HloModule t\n"
      "f {\n  x = f32[4] parameter(0)\n  y = f32[4] parameter(1)\n  h = f16[4] parameter(2)\n"
      "  i = s32[4] parameter(3)\n"
      "  m1 = f32[4] multiply(x, y)\n  a1 = f32[4] add(m1, y)\n"      /* operand 0 */
      "  m2 = f32[4] multiply(x, x)\n  a2 = f32[4] add(a1, m2)\n"     /* operand 1 */
      "  m3 = f32[4] multiply(y, y)\n  s3 = f32[4] subtract(a2, m3)\n" /* operand 1 */
      "  m4 = f32[4] multiply(x, a2)\n  m5 = f32[4] multiply(y, a2)\n"
      "  a4 = f32[4] add(m4, m5)\n"                                   /* both: operand 0 */
      "  m6 = f32[4] multiply(s3, y)\n  a6 = f32[4] add(m6, x)\n  b6 = f32[4] add(m6, y)\n" /* read twice */
      "  m7 = f32[4] multiply(a4, a4)\n  a7 = f32[4] add(m7, m7)\n"   /* one user, two reads */
      "  hm = f16[4] multiply(h, h)\n  ha = f16[4] add(hm, h)\n"      /* f16: no */
      "  im = s32[4] multiply(i, i)\n  ia = s32[4] add(im, i)\n"      /* ints: no */
      "  ROOT t = (f32[4], f32[4], f32[4], f16[4], s32[4]) tuple(a6, b6, a7, ha, ia)\n}\n"
      "ENTRY e {\n  x = f32[4] parameter(0)\n  y = f32[4] parameter(1)\n  h = f16[4] parameter(2)\n"
      "  i = s32[4] parameter(3)\n"
      "  ROOT r = (f32[4], f32[4], f32[4], f16[4], s32[4]) fusion(x, y, h, i), kind=kLoop, calls=f\n}\n";
  cxla_module *m = NULL;
  CHECK_OK(cxla_module_parse(t, strlen(t), "t", &m));
  Computation *f = m ? module_find_computation(m, "f") : NULL;
  CHECK(f != NULL && f->is_fusion);
  signed char *plan = NULL;
  if (f) CHECK_OK(comp_fma_plan(f, &plan));
  static const struct {
    const char *name;
    int k;
  } want[] = {{"a1", 0}, {"a2", 1}, {"s3", 1}, {"a4", 0}, {"a6", -1}, {"b6", -1}, {"a7", -1},
              {"ha", -1}, {"ia", -1}, {"m1", -1}};
  for (size_t i = 0; plan && i < sizeof want / sizeof want[0]; i++) {
    Instr *in = comp_find_instr(f, want[i].name);
    CHECK(in != NULL);
    if (in && plan[in->id] != want[i].k) {
      fprintf(stderr, "  %s: plan %d, want %d\n", want[i].name, plan[in->id], want[i].k);
      CHECK(false);
    }
  }
  cxla_free(plan);
  /* outside a fused computation: nothing */
  Computation *entry = m ? m->entry : NULL;
  plan = NULL;
  if (entry) CHECK_OK(comp_fma_plan(entry, &plan));
  for (int i = 0; plan && entry && i < entry->ninstrs; i++) CHECK(plan[i] == -1);
  cxla_free(plan);
  cxla_module_destroy(m);
}

/* bench/compile's "slices" program (row i of x: exp(s) * s, summed over
 * the rows): its fusion is too wide for one kernel and runs as a program
 * of its own instructions, where each add's multiply is a step's buffer.
 * The add must read that buffer (rounded there) rather than take the
 * multiply in from operands this kernel has no buffer for: since the FMAs
 * (s34) the cpu backend refused it ("cannot compile parameter"). Each row
 * is one exact product and sum apart from the interpreter's. */
TEST(program_fusion_reads_its_products) {
  enum { ROWS = 75, W = 16 };
  StrBuf b;
  sb_init(&b);
  sb_printf(&b, "HloModule slices\nENTRY main {\n  x = f32[%d,%d] parameter(0)\n", ROWS, W);
  for (int i = 0; i < ROWS; i++)
    sb_printf(&b,
              "  s.%d = f32[1,%d] slice(x), slice={[%d:%d], [0:%d]}\n  e.%d = f32[1,%d] exponential(s.%d)\n"
              "  m.%d = f32[1,%d] multiply(e.%d, s.%d)\n",
              i, W, i, i + 1, W, i, W, i, i, W, i, i);
  for (int i = 1; i < ROWS; i++)
    sb_printf(&b, "  %sa.%d = f32[1,%d] add(%s%d, m.%d)\n", i == ROWS - 1 ? "ROOT " : "", i, W, i == 1 ? "m." : "a.",
              i - 1, i);
  sb_puts(&b, "}\n");
  static float x[ROWS * W];
  for (int i = 0; i < ROWS * W; i++) x[i] = (float)((i * 37) % 101) / 50.0f - 1.0f;
  int64_t d[2] = {ROWS, W};
  float got[2][W];
  const char *backends[2] = {"interp", "cpu"};
  for (int k = 0; k < 2; k++) {
    cxla_client *c = rt_client(backends[k]);
    cxla_module *m = NULL;
    cxla_executable *e = NULL;
    CHECK_OK(cxla_module_parse(b.data, strlen(b.data), "slices", &m));
    if (m) CHECK_OK(cxla_client_compile(c, m, NULL, &e));
    cxla_buffer *in = e ? rt_f32(c, x, 2, d) : NULL, *r = NULL;
    if (in) CHECK_OK(cxla_executable_execute(e, &in, 1, NULL, &r, NULL));
    const float *v = r ? cxla_buffer_data(r) : NULL;
    CHECK(v != NULL);
    for (int j = 0; j < W; j++) got[k][j] = v ? v[j] : NAN;
    cxla_buffer_destroy(r);
    cxla_buffer_destroy(in);
    cxla_executable_destroy(e);
    cxla_module_destroy(m);
    cxla_client_destroy(c);
  }
  for (int j = 0; j < W; j++) CHECK(fabsf(got[0][j] - got[1][j]) <= 1e-5f * fabsf(got[0][j]) + 1e-6f);
  sb_free(&b);
}

int main(void) {
  RUN(resize_coordinate_takes_one_rounding);
  RUN(exact_mode_keeps_two_roundings);
  RUN(subtract_forms);
  RUN(a_multiply_read_twice_rounds);
  RUN(plan_follows_the_rule);
  RUN(program_fusion_reads_its_products);
  return test_summary("test_contract");
}
