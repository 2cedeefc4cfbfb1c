/* dot-canonicalize: dots become [batch..., M, K] x [batch..., K, N]
 * matrix multiplies (XLA's DotDecomposer form) through transposes and
 * reshapes only; dots already in that form are left alone. Every case also
 * runs the module before and after on the same inputs and requires the
 * same results (pt_opt), and one case checks by hand that the order of the
 * sum over several contracting dimensions is kept. */
#include "harness.h"
#include "pass_helpers.h"

#define M(body) "HloModule t\nENTRY e {\n" body "}\n"

static const char *kPass = "dot-canonicalize";

/* Runs the pass directly: the text before and after, and whether it said
 * it changed anything. */
static char *run_pass_once(HloModule *m, bool *changed) {
  PassContext ctx = {PASS_DEFAULT_FOLD_LIMIT, NULL, false, false, false, false};
  *changed = false;
  CHECK_OK(pass_dot_canonicalize(m, &ctx, changed));
  CHECK_OK(verify_module(m));
  return pt_print(m);
}

/* The pass leaves the module alone: changed=false, the same text. */
static void expect_untouched(const char *text) {
  HloModule *m = pt_parse(text);
  if (!m) return;
  char *before = pt_print(m);
  bool changed = true;
  char *after = run_pass_once(m, &changed);
  CHECK(!changed);
  CHECK(before && after && strcmp(before, after) == 0);
  cxla_free_string(before);
  cxla_free_string(after);
  module_destroy(m);
}

/* Prints the module on a failed expectation. */
static void show_if(bool bad, const HloModule *m) {
  if (!bad) return;
  char *t = pt_print(m);
  fprintf(stderr, "%s:\n%s\n", harness_current, t ? t : "?");
  cxla_free_string(t);
}

/* The entry's only dot. */
static const Instr *the_dot(const HloModule *m) {
  const Instr *d = NULL;
  for (int i = 0; i < m->entry->ninstrs; i++)
    if (m->entry->instrs[i]->op == OP_DOT) d = m->entry->instrs[i];
  return d;
}

static bool list_is(const I64List *l, int n, const int64_t *v) {
  if (l->n != n) return false;
  for (int i = 0; i < n; i++)
    if (l->v[i] != v[i]) return false;
  return true;
}

/* ---- dots that change ---- */

/* An einsum "mkpb,kpnqb->bmnq": the batch dimension last on both sides, two
 * contracting dimensions, two free dimensions on the rhs. */
static const char *kEinsum =
    M("  a = f32[3,4,5,2]{3,2,1,0} parameter(0)\n  b = f32[4,5,6,7,2]{4,3,2,1,0} parameter(1)\n"
      "  ROOT d = f32[2,3,6,7]{3,2,1,0} dot(a, b), lhs_batch_dims={3}, lhs_contracting_dims={1,2},"
      " rhs_batch_dims={4}, rhs_contracting_dims={0,1}, metadata={op_name=\"einsum\"}\n");

TEST(einsum_batch_last_two_contracting) {
  HloModule *m = pt_opt(kEinsum, kPass);
  if (!m) return;
  char *t = pt_print(m);
  const Instr *d = the_dot(m);
  int64_t zero[1] = {0}, one[1] = {1}, two[1] = {2};
  bool ok = d && list_is(&d->dot.lhs_batch, 1, zero) && list_is(&d->dot.rhs_batch, 1, zero) &&
            list_is(&d->dot.lhs_contract, 1, two) && list_is(&d->dot.rhs_contract, 1, one);
  ok &= t && strstr(t, "f32[2,3,42]{2,1,0} dot(") != NULL;
  ok &= t && strstr(t, "lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, "
                       "rhs_contracting_dims={1}, metadata={op_name=\"einsum\"}") != NULL;
  /* lhs [3,4,5,2] -> transpose {3,0,1,2} -> [2,3,4,5] -> [2,3,20];
   * rhs [4,5,6,7,2] -> transpose {4,0,1,2,3} -> [2,4,5,6,7] -> [2,20,42]. */
  ok &= t && strstr(t, "f32[2,3,4,5]{3,2,1,0} transpose(%a), dimensions={3,0,1,2}") != NULL;
  ok &= t && strstr(t, "f32[2,4,5,6,7]{4,3,2,1,0} transpose(%b), dimensions={4,0,1,2,3}") != NULL;
  ok &= t && strstr(t, "f32[2,3,20]{2,1,0} reshape(") && strstr(t, "f32[2,20,42]{2,1,0} reshape(");
  ok &= pt_count(m, "transpose") == 2 && pt_count(m, "reshape") == 3 && pt_count(m, "dot") == 1;
  ok &= strcmp(pt_root_op(m), "reshape") == 0 && m->entry->root->shape->rank == 4;
  show_if(!ok, m);
  CHECK(ok);
  cxla_free_string(t);
  module_destroy(m);
}

TEST(idempotent) {
  HloModule *m = pt_parse(kEinsum);
  if (!m) return;
  bool changed = false;
  char *once = run_pass_once(m, &changed);
  CHECK(changed);
  char *twice = run_pass_once(m, &changed);
  CHECK(!changed);
  CHECK(once && twice && strcmp(once, twice) == 0);
  cxla_free_string(once);
  cxla_free_string(twice);
  module_destroy(m);
}

/* Contracting dimensions in different relative order on the two sides:
 * lhs_contracting_dims={0,1} against rhs_contracting_dims={1,0}. The sum
 * runs in list order, lhs dim 0 outermost: terms a[i][j]*b[j][i] for
 * (i,j) = (0,0), (0,1), (1,0), (1,1), with a all ones that is b[0][0] +
 * b[1][0] + b[0][1] + b[1][1] = 1e17 + 1 + -1e17 + 1. In double, 1e17 + 1
 * rounds back to 1e17 (its ulp is 16), so the result is exactly 1; walking
 * b in its own row-major order would give 1e17 + -1e17 + 1 + 1 = 2. The
 * rhs is transposed so that both sides walk k in the list's order. */
TEST(contracting_order_kept) {
  const char *text =
      M("  a = f64[2,2] constant({{1, 1}, {1, 1}})\n"
        "  b = f64[2,2] constant({{1e17, -1e17}, {1, 1}})\n"
        "  ROOT d = f64[] dot(a, b), lhs_contracting_dims={0,1}, rhs_contracting_dims={1,0}\n");
  HloModule *m = pt_opt(text, kPass);
  if (!m) return;
  bool ok = pt_count(m, "transpose") == 1 && pt_count(m, "reshape") == 2;
  const Instr *d = the_dot(m);
  ok &= d && d->operands[0]->shape->rank == 1 && d->operands[0]->shape->dims[0] == 4;
  show_if(!ok, m);
  CHECK(ok);
  Literal *before = NULL, *after = NULL;
  HloModule *orig = pt_parse(text);
  if (orig) CHECK_OK(cxla_interp_run(orig, NULL, 0, &before));
  CHECK_OK(cxla_interp_run(m, NULL, 0, &after));
  CHECK(before && literal_get_f64(before, 0) == 1.0);
  CHECK(after && literal_get_f64(after, 0) == 1.0);
  literal_free(before);
  literal_free(after);
  module_destroy(orig);
  module_destroy(m);
}

/* [4,3,5] contracting {0,2} with [4,5]: a matrix-vector product
 * [3,20] x [20] after moving the free dimension first. */
TEST(matrix_vector) {
  HloModule *m = pt_opt(M("  a = f32[4,3,5] parameter(0)\n  b = f32[4,5] parameter(1)\n"
                          "  ROOT d = f32[3] dot(a, b), lhs_contracting_dims={0,2},"
                          " rhs_contracting_dims={0,1}\n"),
                        kPass);
  if (!m) return;
  char *t = pt_print(m);
  bool ok = t && strstr(t, "f32[3,4,5] transpose(%a), dimensions={1,0,2}") &&
            strstr(t, "f32[3,20] reshape(") && strstr(t, "f32[20] reshape(%b)") &&
            strstr(t, "f32[3] dot(") && strstr(t, "lhs_contracting_dims={1}, rhs_contracting_dims={0}");
  ok &= pt_count(m, "transpose") == 1 && strcmp(pt_root_op(m), "dot") == 0;
  show_if(!ok, m);
  CHECK(ok);
  cxla_free_string(t);
  module_destroy(m);
}

/* Two matrices contracted over both dimensions: a vector-vector product of
 * length 12, no transpose. */
TEST(vector_vector) {
  HloModule *m = pt_opt(M("  a = s32[3,4] parameter(0)\n  b = s32[3,4] parameter(1)\n"
                          "  ROOT d = s32[] dot(a, b), lhs_contracting_dims={0,1},"
                          " rhs_contracting_dims={0,1}\n"),
                        kPass);
  if (!m) return;
  char *t = pt_print(m);
  bool ok = t && strstr(t, "s32[12] reshape(%a)") && strstr(t, "s32[12] reshape(%b)") &&
            strstr(t, "s32[] dot(") && pt_count(m, "transpose") == 0;
  show_if(!ok, m);
  CHECK(ok);
  cxla_free_string(t);
  module_destroy(m);
}

/* No contracting dimension: an outer product gets one of size 1. */
TEST(outer_product) {
  HloModule *m = pt_opt(M("  a = f32[3] parameter(0)\n  b = f32[4] parameter(1)\n"
                          "  ROOT d = f32[3,4] dot(a, b), lhs_contracting_dims={},"
                          " rhs_contracting_dims={}\n"),
                        kPass);
  if (!m) return;
  char *t = pt_print(m);
  bool ok = t && strstr(t, "f32[3,1] reshape(%a)") && strstr(t, "f32[1,4] reshape(%b)") &&
            strstr(t, "lhs_contracting_dims={1}, rhs_contracting_dims={0}");
  show_if(!ok, m);
  CHECK(ok);
  cxla_free_string(t);
  module_destroy(m);
}

/* Batch dimensions paired in a different order on the two sides: only the
 * rhs moves; the lhs is canonical already and no reshape is needed. */
TEST(batch_order_differs) {
  HloModule *m = pt_opt(M("  a = f32[2,3,4,5] parameter(0)\n  b = f32[3,2,5,6] parameter(1)\n"
                          "  ROOT d = f32[2,3,4,6] dot(a, b), lhs_batch_dims={0,1},"
                          " lhs_contracting_dims={3}, rhs_batch_dims={1,0}, rhs_contracting_dims={2}\n"),
                        kPass);
  if (!m) return;
  char *t = pt_print(m);
  bool ok = t && strstr(t, "f32[2,3,5,6] transpose(%b), dimensions={1,0,2,3}") &&
            strstr(t, "dot(%a, %transpose") &&
            strstr(t, "lhs_batch_dims={0,1}, lhs_contracting_dims={3}, rhs_batch_dims={0,1}, "
                      "rhs_contracting_dims={2}");
  ok &= pt_count(m, "transpose") == 1 && pt_count(m, "reshape") == 0;
  show_if(!ok, m);
  CHECK(ok);
  cxla_free_string(t);
  module_destroy(m);
}

/* Mixed types (bf16 operands, f32 result; s8 -> s32) keep the operand
 * types through the transposes, and free dims of size 1 are dropped. */
TEST(mixed_types_and_unit_dims) {
  HloModule *m = pt_opt(M("  a = bf16[1,4,3] parameter(0)\n  b = bf16[3,4,2] parameter(1)\n"
                          "  ROOT d = f32[1,2] dot(a, b), lhs_contracting_dims={2,1},"
                          " rhs_contracting_dims={0,1}\n"),
                        kPass);
  if (m) {
    char *t = pt_print(m);
    bool ok = t && strstr(t, "bf16[1,3,4] transpose(%a), dimensions={0,2,1}") &&
              strstr(t, "bf16[12] reshape(") && strstr(t, "bf16[12,2] reshape(%b)") &&
              strstr(t, "f32[2] dot(") && strcmp(pt_root_op(m), "reshape") == 0;
    show_if(!ok, m);
    CHECK(ok);
    cxla_free_string(t);
    module_destroy(m);
  }
  m = pt_opt(M("  a = s8[2,3,4] parameter(0)\n  b = s8[4,2,3] parameter(1)\n"
               "  ROOT d = s32[2] dot(a, b), lhs_batch_dims={0}, lhs_contracting_dims={1,2},"
               " rhs_batch_dims={1}, rhs_contracting_dims={2,0}\n"),
             kPass);
  if (m) {
    CHECK(pt_count(m, "dot") == 1 && the_dot(m)->operands[0]->shape->type == T_S8);
    module_destroy(m);
  }
}

/* Dots in called computations are rewritten too; an operand moved the same
 * way twice (here dot(a, a), both sides [2,12]) is moved once. */
TEST(in_called_computation) {
  HloModule *m = pt_opt("HloModule t\n"
                        "f {\n  a = f32[2,3,4] parameter(0)\n"
                        "  ROOT d = f32[2] dot(a, a), lhs_contracting_dims={1,2},"
                        " rhs_contracting_dims={1,2}, lhs_batch_dims={0}, rhs_batch_dims={0}\n}\n"
                        "ENTRY e {\n  x = f32[2,3,4] parameter(0)\n"
                        "  ROOT c = f32[2] call(x), to_apply=f\n}\n",
                        kPass);
  if (!m) return;
  const Computation *f = module_find_computation(m, "f");
  CHECK(pt_count(m, "reshape") == 1 && f && f->root->op == OP_DOT &&
        f->root->operands[0] == f->root->operands[1] && f->root->operands[0]->op == OP_RESHAPE);
  module_destroy(m);
}

/* The default pipeline canonicalizes too, and keeps the values. */
TEST(in_default_pipeline) {
  HloModule *m = pt_opt(kEinsum, NULL);
  if (!m) return;
  char *t = pt_print(m);
  CHECK(t && strstr(t, "lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}"));
  cxla_free_string(t);
  module_destroy(m);
}

/* ---- operand order for a transposed result ---- */

/* Attention's output product: dot(v [S,B,D], p [B,S,S]) gives [B,D,S],
 * which a transpose turns into [S,B,D], moving its minor dim. The operands
 * swap: dot(p, v') gives [B,S,D] and the transpose ({1,0,2}) keeps D
 * minor; v is made [B,S,D] (contract, free: the GEMM's untransposed B). */
TEST(swap_for_transposed_result) {
  HloModule *m = pt_opt(M("  v = f32[6,2,3] parameter(0)\n  p = f32[2,5,6] parameter(1)\n"
                          "  d = f32[2,3,5] dot(v, p), lhs_batch_dims={1}, lhs_contracting_dims={0},"
                          " rhs_batch_dims={0}, rhs_contracting_dims={2}\n"
                          "  ROOT t = f32[5,2,3] transpose(d), dimensions={2,0,1}\n"),
                        kPass);
  if (!m) return;
  char *t = pt_print(m);
  const Instr *d = the_dot(m);
  bool ok = d && d->operands[0]->op == OP_PARAMETER && d->operands[0]->param_number == 1 &&
            d->shape->rank == 3 && d->shape->dims[1] == 5 && d->shape->dims[2] == 3;
  ok &= t && strstr(t, "f32[2,6,3] transpose(%v), dimensions={1,0,2}") &&
        strstr(t, "f32[5,2,3] transpose(%dot");
  const Instr *root = m->entry->root;
  ok &= root->op == OP_TRANSPOSE && root->dimensions.n == 3 && root->dimensions.v[0] == 1 &&
        root->dimensions.v[1] == 0 && root->dimensions.v[2] == 2;
  ok &= pt_count(m, "transpose") == 2 && pt_count(m, "dot") == 1;
  show_if(!ok, m);
  CHECK(ok);
  cxla_free_string(t);
  module_destroy(m);
}

/* Several batch and free dims: dot [B1,B2,M1,M2] x [B1,B2,N] read by a
 * transpose ending in M2 swaps; the values stay (pt_opt). */
TEST(swap_several_free_dims) {
  HloModule *m = pt_opt(M("  a = f32[2,3,4,5,7] parameter(0)\n  b = f32[2,3,7,6] parameter(1)\n"
                          "  d = f32[2,3,4,5,6] dot(a, b), lhs_batch_dims={0,1}, lhs_contracting_dims={4},"
                          " rhs_batch_dims={0,1}, rhs_contracting_dims={2}\n"
                          "  ROOT t = f32[6,3,4,2,5] transpose(d), dimensions={4,1,2,0,3}\n"),
                        kPass);
  if (!m) return;
  const Instr *d = the_dot(m);
  const Instr *root = m->entry->root;
  /* the new dot [2,3,6,4,5] (then reshaped from [2,3,6,20]); the
   * transpose keeps its minor dim: 4 */
  bool ok = d && d->operands[0]->op != OP_PARAMETER && root->op == OP_TRANSPOSE &&
            root->dimensions.n == 5 && root->dimensions.v[4] == 4 && root->dimensions.v[0] == 2;
  show_if(!ok, m);
  CHECK(ok);
  module_destroy(m);
}

/* No swap: the transpose's minor dim is the rhs free dim already, the dot
 * has a second user, or the operands have different precisions. */
TEST(no_swap) {
  const char *texts[] = {
      M("  a = f32[2,3,4] parameter(0)\n  b = f32[2,4,5] parameter(1)\n"
        "  d = f32[2,3,5] dot(a, b), lhs_batch_dims={0}, lhs_contracting_dims={2},"
        " rhs_batch_dims={0}, rhs_contracting_dims={1}\n"
        "  ROOT t = f32[3,2,5] transpose(d), dimensions={1,0,2}\n"),
      M("  a = f32[2,3,4] parameter(0)\n  b = f32[2,4,5] parameter(1)\n"
        "  d = f32[2,3,5] dot(a, b), lhs_batch_dims={0}, lhs_contracting_dims={2},"
        " rhs_batch_dims={0}, rhs_contracting_dims={1}\n"
        "  t = f32[2,5,3] transpose(d), dimensions={0,2,1}\n"
        "  ROOT r = (f32[2,5,3], f32[2,3,5]) tuple(t, d)\n"),
      M("  a = f32[2,3,4] parameter(0)\n  b = f32[2,4,5] parameter(1)\n"
        "  d = f32[2,3,5] dot(a, b), lhs_batch_dims={0}, lhs_contracting_dims={2},"
        " rhs_batch_dims={0}, rhs_contracting_dims={1}, precision_config={HIGHEST,DEFAULT}\n"
        "  ROOT t = f32[2,5,3] transpose(d), dimensions={0,2,1}\n"),
  };
  for (int i = 0; i < 3; i++) expect_untouched(texts[i]);
}

/* ---- random dots ---- */

static int rnd_below(uint64_t *st, int n) { return (int)(pt_rand(st) % (uint64_t)n); }

static void shuffle64(uint64_t *st, int64_t *v, int n) {
  for (int i = n - 1; i > 0; i--) {
    int j = rnd_below(st, i + 1);
    int64_t t = v[i];
    v[i] = v[j];
    v[j] = t;
  }
}

static void put_dims(StrBuf *b, const char *type, int n, const int64_t *d) {
  sb_printf(b, "%s[", type);
  for (int i = 0; i < n; i++) sb_printf(b, "%s%lld", i ? "," : "", (long long)d[i]);
  sb_putc(b, ']');
}

static void put_ilist(StrBuf *b, const char *name, int n, const int64_t *v) {
  sb_printf(b, ", %s={", name);
  for (int i = 0; i < n; i++) sb_printf(b, "%s%lld", i ? "," : "", (long long)v[i]);
  sb_putc(b, '}');
}

/* A random dot: lhs of rank 0..4 whose dims are batch, contracting or free
 * at random; an rhs holding the same batch and contracting dims and 0..2
 * free ones, in a random order; batch and contracting lists in random
 * order. */
static char *random_dot_text(uint64_t *st, const char **type) {
  static const char *const kTypes[] = {"f32", "f64", "s32"};
  *type = kTypes[rnd_below(st, 3)];
  int lr = rnd_below(st, 5), role[4];
  int64_t ld[4], lb[4], lc[4], rb[4], rc[4], rd[6], where[6], res[8];
  int nb = 0, nc = 0, rr = 0, nres = 0;
  for (int i = 0; i < lr; i++) {
    ld[i] = rnd_below(st, 8) == 0 ? 1 : 1 + rnd_below(st, 3);
    role[i] = rnd_below(st, 3);
    if (role[i] == 0) lb[nb++] = i;
    if (role[i] == 1) lc[nc++] = i;
  }
  shuffle64(st, lb, nb);
  shuffle64(st, lc, nc);
  /* rhs dims: batch and contracting ones (tagged by list position), then
   * free ones (tag -1), shuffled. */
  int nrf = rnd_below(st, 3);
  for (int i = 0; i < nb; i++) where[rr++] = i;
  for (int i = 0; i < nc; i++) where[rr++] = 100 + i;
  for (int i = 0; i < nrf; i++) where[rr++] = -1 - i;
  shuffle64(st, where, rr);
  for (int j = 0; j < rr; j++) {
    int64_t w = where[j];
    if (w >= 100) {
      rc[w - 100] = j;
      rd[j] = ld[lc[w - 100]];
    } else if (w >= 0) {
      rb[w] = j;
      rd[j] = ld[lb[w]];
    } else {
      rd[j] = 1 + rnd_below(st, 3);
    }
  }
  for (int i = 0; i < nb; i++) res[nres++] = ld[lb[i]];
  for (int i = 0; i < lr; i++)
    if (role[i] == 2) res[nres++] = ld[i];
  for (int j = 0; j < rr; j++)
    if (where[j] < 0) res[nres++] = rd[j];
  StrBuf b;
  sb_init(&b);
  sb_puts(&b, "HloModule r\nENTRY e {\n  a = ");
  put_dims(&b, *type, lr, ld);
  sb_puts(&b, " parameter(0)\n  b = ");
  put_dims(&b, *type, rr, rd);
  sb_puts(&b, " parameter(1)\n  ROOT d = ");
  put_dims(&b, *type, nres, res);
  sb_puts(&b, " dot(a, b)");
  put_ilist(&b, "lhs_batch_dims", nb, lb);
  put_ilist(&b, "lhs_contracting_dims", nc, lc);
  put_ilist(&b, "rhs_batch_dims", nb, rb);
  put_ilist(&b, "rhs_contracting_dims", nc, rc);
  sb_puts(&b, "\n}\n");
  return b.data;
}

/* Values whose sums depend on their order: huge powers of two that cancel
 * exactly, and small numbers they swallow or not. */
static void fill_order_sensitive(Literal *l, uint64_t *st) {
  static const double kv[] = {1152921504606846976.0, -1152921504606846976.0, 1, 3, 0.5,
                              -1, 1099511627776.0, 0};
  for (int64_t i = 0; i < l->nelems; i++) {
    if (type_is_float(l->type)) literal_set_f64(l, i, kv[rnd_below(st, 8)]);
    else literal_set_i64(l, i, (int64_t)(pt_rand(st) % 2000001) - 1000000);
  }
}

/* Random dots before and after the pass, bit for bit, on inputs where the
 * order of each sum matters; the result is canonical (a second run changes
 * nothing). */
TEST(random_dots_same_bits) {
  uint64_t st = 0x243f6a8885a308d3ull;
  int rewritten = 0;
  for (int it = 0; it < 400; it++) {
    const char *type;
    char *text = random_dot_text(&st, &type);
    HloModule *m = text ? pt_parse(text) : NULL;
    HloModule *orig = text ? pt_parse(text) : NULL;
    if (!m || !orig) {
      fprintf(stderr, "%s\n", text ? text : "(oom)");
      module_destroy(m);
      module_destroy(orig);
      cxla_free(text);
      continue;
    }
    bool changed = false, again = true;
    char *t1 = run_pass_once(m, &changed);
    char *t2 = run_pass_once(m, &again);
    CHECK(!again && t1 && t2 && strcmp(t1, t2) == 0);
    rewritten += changed;
    Literal *args[2] = {NULL, NULL}, *x = NULL, *y = NULL;
    for (int i = 0; i < 2; i++) {
      CHECK_OK(literal_create_for_shape(orig->entry->params[i]->shape, &args[i]));
      if (args[i]) fill_order_sensitive(args[i], &st);
    }
    if (args[0] && args[1]) {
      CHECK_OK(cxla_interp_run(orig, args, 2, &x));
      CHECK_OK(cxla_interp_run(m, args, 2, &y));
      bool same = x && y && pt_literal_same(x, y);
      if (!same) fprintf(stderr, "values differ:\n%s\nafter:\n%s\n", text, t1 ? t1 : "");
      CHECK(same);
    }
    literal_free(x);
    literal_free(y);
    literal_free(args[0]);
    literal_free(args[1]);
    cxla_free_string(t1);
    cxla_free_string(t2);
    module_destroy(m);
    module_destroy(orig);
    cxla_free(text);
  }
  CHECK(rewritten > 200); /* most random dots are not canonical */
}

/* ---- dots that stay ---- */

TEST(canonical_dots_untouched) {
  /* matmul, matmul with the rhs contracting its last dim, [K,M]x[K,N] */
  expect_untouched(M("  a = f32[3,4] parameter(0)\n  b = f32[4,5] parameter(1)\n"
                     "  ROOT d = f32[3,5] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"));
  expect_untouched(M("  a = f32[3,4] parameter(0)\n  b = f32[5,4] parameter(1)\n"
                     "  ROOT d = f32[3,5] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={1}\n"));
  expect_untouched(M("  a = f32[4,3] parameter(0)\n  b = f32[4,5] parameter(1)\n"
                     "  ROOT d = f32[3,5] dot(a, b), lhs_contracting_dims={0}, rhs_contracting_dims={0}\n"));
  /* batched, two batch dims */
  expect_untouched(M("  a = f32[2,2,3,4] parameter(0)\n  b = f32[2,2,5,4] parameter(1)\n"
                     "  ROOT d = f32[2,2,3,5] dot(a, b), lhs_batch_dims={0,1}, lhs_contracting_dims={3},"
                     " rhs_batch_dims={0,1}, rhs_contracting_dims={3}\n"));
  /* matrix-vector, vector-matrix, vector-vector */
  expect_untouched(M("  a = f32[3,4] parameter(0)\n  b = f32[4] parameter(1)\n"
                     "  ROOT d = f32[3] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"));
  expect_untouched(M("  a = f32[4] parameter(0)\n  b = f32[4,5] parameter(1)\n"
                     "  ROOT d = f32[5] dot(a, b), lhs_contracting_dims={0}, rhs_contracting_dims={0}\n"));
  expect_untouched(M("  a = f64[4] parameter(0)\n  b = f64[4] parameter(1)\n"
                     "  ROOT d = f64[] dot(a, b), lhs_contracting_dims={0}, rhs_contracting_dims={0}\n"));
  /* no dot at all */
  expect_untouched(M("  a = f32[4] parameter(0)\n  ROOT n = f32[4] negate(a)\n"));
}

int main(void) {
  RUN(einsum_batch_last_two_contracting);
  RUN(idempotent);
  RUN(contracting_order_kept);
  RUN(matrix_vector);
  RUN(vector_vector);
  RUN(outer_product);
  RUN(batch_order_differs);
  RUN(mixed_types_and_unit_dims);
  RUN(in_called_computation);
  RUN(in_default_pipeline);
  RUN(canonical_dots_untouched);
  RUN(swap_for_transposed_result);
  RUN(swap_several_free_dims);
  RUN(no_swap);
  RUN(random_dots_same_bits);
  return test_summary(__FILE__);
}
