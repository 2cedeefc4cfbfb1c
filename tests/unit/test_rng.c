/* rng-bit-generator against Random123's published known-answer vectors
 * (kat_vectors: threefry2x32-20 and philox4x32-10), through XLA's state
 * layout; and the range/distribution of the `rng` op. */
#include <math.h>

#include "harness.h"
#include "interp_test.h"

/* Runs rng-bit-generator(state) -> (state', bits of type t, dims) and
 * returns the tuple. */
static Literal *rbg(RngAlg alg, int nstate, const uint64_t *state, ElemType t, int rank,
                    const int64_t *dims, cxla_status *err) {
  HloModule *m = tm_module();
  Computation *c = tm_comp(m, "main");
  Shape *ss = tm_shape(m, T_U64, 1, nstate);
  Instr *p = tm_param(c, 0, ss);
  Shape *ds = shape_new(&m->arena, t, rank, dims);
  Instr *r = tm_op(c, OP_RNG_BIT_GENERATOR, tm_tuple(m, 2, ss, ds), 1, p);
  r->rng_alg = alg;
  r->attrs |= A_RNG;
  tm_root(c, r);
  tm_entry(m, c);
  int64_t n = nstate;
  Literal *arg = tl_new(T_U64, 1, &n);
  memcpy(arg->data, state, (size_t)nstate * 8);
  Literal *out = NULL;
  cxla_status s = tm_run(m, &arg, 1, &out);
  literal_free(arg);
  module_destroy(m);
  if (err) *err = s;
  else CHECK_OK(s);
  return out;
}

static const uint32_t *u32s(const Literal *t) { return t->tuple[1]->data; }
static const uint64_t *u64s(const Literal *t) { return t->tuple[1]->data; }
static const uint64_t *state_of(const Literal *t) { return t->tuple[0]->data; }

TEST(threefry_known_answers) {
  /* A u64 scalar is one block: low word first. key (0,0), counter (0,0). */
  uint64_t s0[] = {0, 0};
  Literal *r = rbg(RNGA_THREE_FRY, 2, s0, T_U64, 0, NULL, NULL);
  CHECK(r && u64s(r)[0] == 0x99ba4efe6b200159ull && state_of(r)[0] == 0 && state_of(r)[1] == 1);
  literal_free(r);
  uint64_t s1[] = {UINT64_MAX, UINT64_MAX};
  r = rbg(RNGA_THREE_FRY, 2, s1, T_U64, 0, NULL, NULL);
  CHECK(r && u64s(r)[0] == 0xbb002be71cb996fcull && state_of(r)[1] == 0);
  literal_free(r);
  /* key words (13198a2e, 03707344), counter words (243f6a88, 85a308d3). */
  uint64_t s2[] = {0x0370734413198a2eull, 0x85a308d3243f6a88ull};
  r = rbg(RNGA_THREE_FRY, 2, s2, T_U64, 0, NULL, NULL);
  CHECK(r && u64s(r)[0] == 0x483df7a0c4923a9cull && state_of(r)[1] == 0x85a308d3243f6a89ull);
  literal_free(r);
}

TEST(threefry_u32_layout) {
  /* u32[2,3]: split along dim 0 (the first even one) into halves of one
   * row: counter p feeds column p, its two words go to rows 0 and 1. */
  uint64_t s0[] = {0, 0};
  int64_t d23[] = {2, 3}, d4[] = {4}, d3[] = {3};
  Literal *a = rbg(RNGA_THREE_FRY, 2, s0, T_U32, 2, d23, NULL);
  Literal *b = rbg(RNGA_THREE_FRY, 2, s0, T_U32, 1, d4, NULL);
  Literal *c = rbg(RNGA_THREE_FRY, 2, s0, T_U32, 1, d3, NULL);
  Literal *d = rbg(RNGA_THREE_FRY, 2, s0, T_U32, 0, NULL, NULL);
  CHECK(a && b && c && d);
  if (a && b && c && d) {
    const uint32_t *x = u32s(a), *y = u32s(b), *z = u32s(c), *w = u32s(d);
    CHECK(x[0] == 0x6b200159u && x[3] == 0x99ba4efeu);
    CHECK(state_of(a)[1] == 3);
    /* u32[4]: blocks 0 and 1, each word pair adjacent. */
    CHECK(y[0] == 0x6b200159u && y[1] == 0x99ba4efeu && y[2] == x[1] && y[3] == x[4]);
    CHECK(state_of(b)[1] == 2);
    /* u32[3]: odd, so the largest dim is split into ceil(3/2) = 2 blocks. */
    CHECK(z[0] == y[0] && z[1] == y[1] && z[2] == y[2] && state_of(c)[1] == 2);
    /* A scalar is word 0 of one block. */
    CHECK(w[0] == 0x6b200159u && state_of(d)[1] == 1);
  }
  literal_free(a), literal_free(b), literal_free(c), literal_free(d);
  /* Narrow types keep the low bits of the 32-bit words. */
  Literal *e = rbg(RNGA_THREE_FRY, 2, s0, T_U16, 1, d4, NULL);
  CHECK(e && ((uint16_t *)e->tuple[1]->data)[0] == 0x0159 && ((uint16_t *)e->tuple[1]->data)[1] == 0x4efe);
  literal_free(e);
}

TEST(philox_known_answers) {
  /* State (key, counter low, counter high); u32[4] is one block. */
  int64_t d4[] = {4}, d2[] = {2};
  uint64_t s0[] = {0, 0, 0};
  Literal *r = rbg(RNGA_PHILOX, 3, s0, T_U32, 1, d4, NULL);
  CHECK(r);
  if (r) {
    const uint32_t *x = u32s(r);
    CHECK(x[0] == 0x6627e8d5u && x[1] == 0xe169c58du && x[2] == 0xbc57ac4cu && x[3] == 0x9b00dbd8u);
    CHECK(state_of(r)[0] == 0 && state_of(r)[1] == 1 && state_of(r)[2] == 0);
  }
  literal_free(r);
  uint64_t s1[] = {UINT64_MAX, UINT64_MAX, UINT64_MAX};
  r = rbg(RNGA_PHILOX, 3, s1, T_U32, 1, d4, NULL);
  CHECK(r);
  if (r) {
    const uint32_t *x = u32s(r);
    CHECK(x[0] == 0x408f276du && x[1] == 0x41c83b0eu && x[2] == 0xa20bc7c6u && x[3] == 0x6d5451fdu);
    /* The 128-bit counter wraps to zero. */
    CHECK(state_of(r)[0] == UINT64_MAX && state_of(r)[1] == 0 && state_of(r)[2] == 0);
  }
  literal_free(r);
  uint64_t s2[] = {0x299f31d0a4093822ull, 0x85a308d3243f6a88ull, 0x0370734413198a2eull};
  r = rbg(RNGA_DEFAULT, 3, s2, T_U32, 1, d4, NULL); /* default is philox on CPU */
  CHECK(r);
  if (r) {
    const uint32_t *x = u32s(r);
    CHECK(x[0] == 0xd16cfe09u && x[1] == 0x94fdccebu && x[2] == 0x5001e420u && x[3] == 0x24126ea1u);
  }
  literal_free(r);
  /* u64 outputs: one block gives two, words (0,1) then (2,3). */
  r = rbg(RNGA_PHILOX, 3, s0, T_U64, 1, d2, NULL);
  CHECK(r && u64s(r)[0] == 0xe169c58d6627e8d5ull && u64s(r)[1] == 0x9b00dbd8bc57ac4cull &&
        state_of(r)[1] == 1);
  literal_free(r);
  /* A u64[2] state: the counter is (state[1], state[0]); the new state keeps
   * the key and the counter's low word. */
  uint64_t s3[] = {0, 0};
  r = rbg(RNGA_PHILOX, 2, s3, T_U32, 1, d2, NULL);
  CHECK(r && u32s(r)[0] == 0x6627e8d5u && u32s(r)[1] == 0xe169c58du && state_of(r)[0] == 0 &&
        state_of(r)[1] == 1);
  literal_free(r);
}

TEST(rng_bit_generator_errors) {
  uint64_t s[] = {0};
  cxla_status err = NULL;
  Literal *r = rbg(RNGA_PHILOX, 1, s, T_U32, 0, NULL, &err);
  CHECK(!r);
  CHECK_ERR(err, "state must be u64[N], N >= 2");
}

/* ---- rng ---- */

static Literal *run_rng(RngDist dist, Literal *a, Literal *b, int64_t n) {
  HloModule *m = tm_module();
  Computation *c = tm_comp(m, "main");
  Instr *pa = tm_param(c, 0, tm_scalar(m, a->type)), *pb = tm_param(c, 1, tm_scalar(m, b->type));
  Instr *r = tm_op(c, OP_RNG, shape_new(&m->arena, a->type, 1, &n), 2, pa, pb);
  r->rng_dist = dist;
  r->attrs |= A_RNG;
  tm_root(c, r);
  tm_entry(m, c);
  Literal *args[2] = {a, b}, *out = NULL;
  CHECK_OK(tm_run(m, args, 2, &out));
  module_destroy(m);
  literal_free(a);
  literal_free(b);
  return out;
}

TEST(rng_uniform_and_normal) {
  int64_t n = 20000;
  Literal *u = run_rng(RNG_UNIFORM, tl_f32(2), tl_f32(3), n);
  CHECK(u);
  if (u) {
    const float *x = u->data;
    double sum = 0;
    bool in_range = true;
    for (int64_t i = 0; i < n; i++) {
      in_range &= x[i] >= 2 && x[i] < 3;
      sum += x[i];
    }
    CHECK(in_range);
    CHECK(fabs(sum / n - 2.5) < 0.01);
  }
  literal_free(u);
  Literal *k = run_rng(RNG_UNIFORM, tl_s32(-5), tl_s32(5), n);
  CHECK(k);
  if (k) {
    const int32_t *x = k->data;
    int seen[10] = {0};
    bool in_range = true;
    for (int64_t i = 0; i < n; i++) {
      in_range &= x[i] >= -5 && x[i] < 5;
      if (x[i] >= -5 && x[i] < 5) seen[x[i] + 5]++;
    }
    CHECK(in_range);
    for (int v = 0; v < 10; v++) CHECK(seen[v] > n / 20);
  }
  literal_free(k);
  Literal *g = run_rng(RNG_NORMAL, tl_f32(10), tl_f32(2), n);
  CHECK(g);
  if (g) {
    const float *x = g->data;
    double s = 0, s2 = 0;
    for (int64_t i = 0; i < n; i++) s += x[i], s2 += (double)x[i] * x[i];
    double mean = s / n, var = s2 / n - mean * mean;
    CHECK(fabs(mean - 10) < 0.1 && fabs(sqrt(var) - 2) < 0.1);
  }
  literal_free(g);
}

int main(void) {
  RUN(threefry_known_answers);
  RUN(threefry_u32_layout);
  RUN(philox_known_answers);
  RUN(rng_bit_generator_errors);
  RUN(rng_uniform_and_normal);
  return test_summary("test_rng");
}
