/* reshape-mover: reshapes and transposes sink below elementwise ops (XLA's
 * ReshapeMover). HLO in, HLO out, the cases where it must not fire, and
 * the same values before and after (data movement only: exact). */
#include "harness.h"
#include "pass_helpers.h"

#define M(body) "HloModule t\nENTRY e {\n" body "}\n"
static const char *const kPasses =
    "reshape-mover,algsimp,dce,reshape-mover,algsimp,constant-folding,dce";

/* After the pass the root's opcode is `root` and there are `n` ops `op`. */
static void expect(const char *text, const char *root, const char *op, int n) {
  HloModule *m = pt_opt(text, kPasses);
  if (!m) return;
  if (strcmp(pt_root_op(m), root) != 0 || pt_count(m, op) != n) {
    char *t = pt_print(m);
    fprintf(stderr, "%s: root %s (want %s), %d x %s (want %d):\n%s\n", harness_current,
            pt_root_op(m), root, pt_count(m, op), op, n, t);
    cxla_free_string(t);
    CHECK(!"unexpected result");
  }
  module_destroy(m);
}

TEST(reshapes_sink_below_elementwise_ops) {
  /* add(reshape(a), reshape(b)) * broadcast(2) -> reshape(...) once */
  expect(M("  a = f32[4,6] parameter(0)\n  b = f32[4,6] parameter(1)\n"
           "  ra = f32[24] reshape(a)\n  rb = f32[24] reshape(b)\n  c = f32[] constant(2)\n"
           "  bc = f32[24] broadcast(c), dimensions={}\n  s = f32[24] add(ra, rb)\n"
           "  ROOT t = f32[24] multiply(s, bc)\n"),
         "reshape", "reshape", 1);
  /* transposes too, with a constant operand */
  expect(M("  a = f32[2,3] parameter(0)\n  b = f32[2,3] parameter(1)\n"
           "  ta = f32[3,2] transpose(a), dimensions={1,0}\n"
           "  tb = f32[3,2] transpose(b), dimensions={1,0}\n"
           "  k = f32[3,2] constant({{1, 2}, {3, 4}, {5, 6}})\n"
           "  s = f32[3,2] subtract(ta, tb)\n  ROOT t = f32[3,2] add(s, k)\n"),
         "transpose", "transpose", 1);
}

TEST(reshape_mover_must_not_fire) {
  /* the reshape has another user that is not a candidate (a reverse) */
  expect(M("  a = f32[4,6] parameter(0)\n  b = f32[4,6] parameter(1)\n"
           "  ra = f32[24] reshape(a)\n  rb = f32[24] reshape(b)\n  s = f32[24] add(ra, rb)\n"
           "  d = f32[24] reverse(ra), dimensions={0}\n"
           "  ROOT t = (f32[24], f32[24]) tuple(s, d)\n"),
         "tuple", "add", 1);
  HloModule *m = pt_opt(M("  a = f32[4,6] parameter(0)\n  b = f32[4,6] parameter(1)\n"
                          "  ra = f32[24] reshape(a)\n  rb = f32[24] reshape(b)\n  s = f32[24] add(ra, rb)\n"
                          "  d = f32[24] reverse(ra), dimensions={0}\n"
                          "  ROOT t = (f32[24], f32[24]) tuple(s, d)\n"),
                        "reshape-mover");
  if (m) {
    const Instr *add = m->entry->root->operands[0];
    CHECK(add->op == OP_ADD && add->shape->rank == 1);
    module_destroy(m);
  }
  /* clamp with scalar bounds */
  expect(M("  a = f32[4,6] parameter(0)\n  ra = f32[24] reshape(a)\n  lo = f32[] constant(0)\n"
           "  hi = f32[] constant(1)\n  ROOT c = f32[24] clamp(lo, ra, hi)\n"),
         "clamp", "reshape", 1);
  /* reshapes of different source shapes */
  expect(M("  a = f32[4,6] parameter(0)\n  b = f32[3,8] parameter(1)\n"
           "  ra = f32[24] reshape(a)\n  rb = f32[24] reshape(b)\n  ROOT s = f32[24] add(ra, rb)\n"),
         "add", "reshape", 2);
  /* a broadcast of a vector is not trivially reshaped (XLA:CPU's options) */
  expect(M("  a = f32[4,6] parameter(0)\n  v = f32[24] parameter(1)\n"
           "  ra = f32[24] reshape(a)\n  bv = f32[24] broadcast(v), dimensions={0}\n"
           "  ROOT s = f32[24] add(ra, bv)\n"),
         "add", "reshape", 1);
}

int main(void) {
  RUN(reshapes_sink_below_elementwise_ops);
  RUN(reshape_mover_must_not_fire);
  return test_summary("test_pass_reshape_mover");
}
