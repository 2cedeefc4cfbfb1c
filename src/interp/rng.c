/* Random numbers: rng-bit-generator exactly as XLA expands it
 * (xla/service/rng_bit_generator_expander.cc over xla/hlo/builder/lib/
 * prng.cc), and the stateful `rng` op, which is not reproducible across
 * implementations (only its range and distribution are specified).
 *
 * rng-bit-generator(state u64[N]) -> (new state u64[N], bits):
 *   state[0] is the key (split into two u32 words, low word first).
 *   three-fry: state[1] is a 64-bit counter; Threefry-2x32 (20 rounds)
 *     encrypts counter+i; new state[1] = state[1] + (number of blocks).
 *   philox (and default, which is what XLA:CPU picks): a 128-bit counter,
 *     (low, high) = (state[1], state[2]) when N >= 3, (state[1], state[0])
 *     when N == 2; Philox-4x32 (10 rounds) encrypts counter+i; the new state
 *     is the key, then the advanced counter (only its low word when N == 2).
 * Element types narrower than 32 bits take the low bits of 32-bit outputs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "interp/ew_scalar.h"

/* ---- the block ciphers ---- */

static inline uint32_t rotl32(uint32_t v, int n) { return (v << n) | (v >> (32 - n)); }

/* Threefry-2x32 with 20 rounds (Salmon et al., SC 2011), as XLA's prng. */
static void threefry2x32(uint32_t k0, uint32_t k1, uint32_t x[2]) {
  static const int rot[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  const uint32_t ks[3] = {k0, k1, 0x1BD11BDAu ^ k0 ^ k1};
  uint32_t a = x[0] + ks[0], b = x[1] + ks[1];
  for (int g = 0; g < 5; g++) {
    for (int r = 0; r < 4; r++) {
      a += b;
      b = rotl32(b, rot[(g % 2) * 4 + r]);
      b ^= a;
    }
    a += ks[(g + 1) % 3];
    b += ks[(g + 2) % 3] + (uint32_t)(g + 1);
  }
  x[0] = a;
  x[1] = b;
}

/* Philox-4x32 with 10 rounds (same paper), as XLA's prng. */
static void philox4x32(uint32_t k0, uint32_t k1, uint32_t c[4]) {
  for (int r = 0; r < 10; r++) {
    uint64_t p0 = (uint64_t)c[0] * 0xD2511F53u, p1 = (uint64_t)c[2] * 0xCD9E8D57u;
    uint32_t n0 = (uint32_t)(p1 >> 32) ^ c[1] ^ k0, n1 = (uint32_t)p1;
    uint32_t n2 = (uint32_t)(p0 >> 32) ^ c[3] ^ k1, n3 = (uint32_t)p0;
    c[0] = n0, c[1] = n1, c[2] = n2, c[3] = n3;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
}

/* ---- writing generated bits ---- */

/* Stores the low bits of v into element i of the data array. */
static void put_bits(Literal *d, int64_t i, uint64_t v) {
  if (type_is_int(d->type)) {
    ew_store_int(d->type, d->data, i, (int64_t)v);
  } else {
    int nb = type_bytes(d->type);
    memcpy((unsigned char *)d->data + i * nb, &v, (size_t)nb);
  }
}

/* ---- three-fry ---- */

/* 32-bit (and narrower) outputs. XLA splits the shape in two halves along
 * its first even dimension (else its largest), encrypts one counter per
 * element of the half shape, and interleaves the two output words along
 * that dimension: element m of it comes from word m % 2 of block m / 2.
 * Returns the number of counters used. */
static uint64_t threefry_bits32(uint32_t k0, uint32_t k1, uint64_t ctr, Literal *d) {
  if (d->rank == 0) {
    uint32_t x[2] = {(uint32_t)ctr, (uint32_t)(ctr >> 32)};
    threefry2x32(k0, k1, x);
    put_bits(d, 0, x[0]);
    return 1;
  }
  int split = -1;
  for (int i = 0; i < d->rank && split < 0; i++)
    if (d->dims[i] % 2 == 0) split = i;
  if (split < 0)
    for (int i = 0; i < d->rank; i++)
      if (split < 0 || d->dims[i] > d->dims[split]) split = i;
  int64_t pre = 1, post = 1, m = d->dims[split], h = (m + 1) / 2;
  for (int i = 0; i < split; i++) pre *= d->dims[i];
  for (int i = split + 1; i < d->rank; i++) post *= d->dims[i];
  int64_t o = 0;
  for (int64_t a = 0; a < pre; a++)
    for (int64_t j = 0; j < m; j++)
      for (int64_t p = 0; p < post; p++) {
        uint64_t in = ctr + (uint64_t)((a * h + j / 2) * post + p);
        uint32_t x[2] = {(uint32_t)in, (uint32_t)(in >> 32)};
        threefry2x32(k0, k1, x);
        put_bits(d, o++, x[j % 2]);
      }
  return (uint64_t)(pre * h * post);
}

/* 64-bit outputs: one counter per element, low word first. */
static uint64_t threefry_bits64(uint32_t k0, uint32_t k1, uint64_t ctr, Literal *d) {
  for (int64_t i = 0; i < d->nelems; i++) {
    uint64_t in = ctr + (uint64_t)i;
    uint32_t x[2] = {(uint32_t)in, (uint32_t)(in >> 32)};
    threefry2x32(k0, k1, x);
    put_bits(d, i, (uint64_t)x[0] | (uint64_t)x[1] << 32);
  }
  return (uint64_t)d->nelems;
}

/* ---- philox ---- */

typedef struct U128 {
  uint64_t lo, hi;
} U128;

static U128 u128_add(U128 a, uint64_t b) {
  U128 r = {a.lo + b, a.hi};
  if (r.lo < a.lo) r.hi++;
  return r;
}

static void philox_block(uint32_t k0, uint32_t k1, U128 ctr, uint32_t out[4]) {
  out[0] = (uint32_t)ctr.lo;
  out[1] = (uint32_t)(ctr.lo >> 32);
  out[2] = (uint32_t)ctr.hi;
  out[3] = (uint32_t)(ctr.hi >> 32);
  philox4x32(k0, k1, out);
}

/* 32-bit outputs: block i gives elements 4i..4i+3. Returns the blocks used. */
static uint64_t philox_bits32(uint32_t k0, uint32_t k1, U128 ctr, Literal *d) {
  int64_t n = d->nelems, blocks = (n + 3) / 4;
  for (int64_t b = 0; b < blocks; b++) {
    uint32_t w[4];
    philox_block(k0, k1, u128_add(ctr, (uint64_t)b), w);
    for (int c = 0; c < 4 && 4 * b + c < n; c++) put_bits(d, 4 * b + c, w[c]);
  }
  return (uint64_t)blocks;
}

/* 64-bit outputs: block i gives elements 2i (words 0,1) and 2i+1 (2,3). */
static uint64_t philox_bits64(uint32_t k0, uint32_t k1, U128 ctr, Literal *d) {
  int64_t n = d->nelems, blocks = (n + 1) / 2;
  for (int64_t b = 0; b < blocks; b++) {
    uint32_t w[4];
    philox_block(k0, k1, u128_add(ctr, (uint64_t)b), w);
    put_bits(d, 2 * b, (uint64_t)w[0] | (uint64_t)w[1] << 32);
    if (2 * b + 1 < n) put_bits(d, 2 * b + 1, (uint64_t)w[2] | (uint64_t)w[3] << 32);
  }
  return (uint64_t)blocks;
}

/* ---- rng-bit-generator ---- */

static cxla_status eval_rng_bit_generator(const Instr *in, Literal *const *ops, Literal **out) {
  *out = NULL;
  const Literal *st = ops[0];
  if (in->noperands != 1 || st->type != T_U64 || st->rank != 1 || st->nelems < 2)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "state must be u64[N], N >= 2");
  const Shape *s = in->shape;
  if (s->type != T_TUPLE || s->ntuple != 2 || !type_is_array(s->tuple[1]->type))
    return interp_error(in, CXLA_INVALID_ARGUMENT, "result must be (state, bits)");
  ElemType dt = s->tuple[1]->type;
  int bits = type_bits(dt);
  if (dt == T_PRED || type_is_complex(dt) || bits > 64)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "cannot generate bits of type %s", type_name(dt));
  RngAlg alg = in->rng_alg == RNGA_DEFAULT ? RNGA_PHILOX : in->rng_alg; /* XLA:CPU's default */
  if (alg == RNGA_PHILOX && st->nelems > 3)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "philox state must be u64[2] or u64[3]");

  Literal *state = NULL, *data = NULL, *tuple = NULL;
  cxla_status e = literal_clone(st, &state);
  if (!e) e = literal_create_for_shape(s->tuple[1], &data);
  if (e) goto fail;
  uint64_t *sv = state->data;
  uint32_t k0 = (uint32_t)sv[0], k1 = (uint32_t)(sv[0] >> 32);
  if (alg == RNGA_THREE_FRY) {
    uint64_t used = bits == 64 ? threefry_bits64(k0, k1, sv[1], data)
                               : threefry_bits32(k0, k1, sv[1], data);
    sv[1] += used;
  } else {
    U128 ctr = st->nelems >= 3 ? (U128){sv[1], sv[2]} : (U128){sv[1], sv[0]};
    uint64_t used = bits == 64 ? philox_bits64(k0, k1, ctr, data) : philox_bits32(k0, k1, ctr, data);
    U128 next = u128_add(ctr, used);
    sv[1] = next.lo;
    if (st->nelems >= 3) sv[2] = next.hi;
  }
  Literal *el[2] = {state, data};
  state = data = NULL;
  e = literal_create_tuple(2, el, &tuple);
  if (e) goto fail;
  *out = tuple;
  return NULL;
fail:
  literal_free(state);
  literal_free(data);
  return e;
}

/* ---- the stateful rng op ---- */

/* splitmix64: a small, well-mixed generator for `rng`. */
static uint64_t next_u64(Interp *ip) {
  uint64_t z = (ip->rng_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* A double uniform in [0, 1). */
static double next_unit(Interp *ip) { return (double)(next_u64(ip) >> 11) * 0x1p-53; }

static cxla_status eval_rng(Interp *ip, const Instr *in, Literal *const *ops, Literal **out) {
  *out = NULL;
  if (in->noperands != 2 || ops[0]->rank != 0 || ops[1]->rank != 0)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "rng takes two scalar parameters");
  ElemType t = in->shape->type;
  if (ops[0]->type != t || ops[1]->type != t)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "parameters must be %s", type_name(t));
  Literal *o;
  TRY(literal_create(t, in->shape->rank, in->shape->dims, &o));
  if (type_is_float(t)) {
    double a = ew_load_float(t, ops[0]->data, 0), b = ew_load_float(t, ops[1]->data, 0);
    for (int64_t i = 0; i < o->nelems; i++) {
      double v;
      if (in->rng_dist == RNG_NORMAL) {
        /* Box-Muller; 1 - u is in (0, 1]. */
        double u1 = 1.0 - next_unit(ip), u2 = next_unit(ip);
        v = a + b * sqrt(-2.0 * log(u1)) * cos(2 * M_PI * u2);
        ew_store_float(t, o->data, i, v);
      } else {
        /* [a, b): resample the rare draws that round up to b. */
        int tries = 0;
        do {
          ew_store_float(t, o->data, i, a + (b - a) * next_unit(ip));
          v = ew_load_float(t, o->data, i);
        } while (v >= b && b > a && ++tries < 64);
        if (v >= b && b > a) ew_store_float(t, o->data, i, a);
      }
    }
  } else if (type_is_int(t) && in->rng_dist == RNG_UNIFORM) {
    int64_t a = ew_load_int(t, ops[0]->data, 0), b = ew_load_int(t, ops[1]->data, 0);
    uint64_t range = (uint64_t)b - (uint64_t)a;
    for (int64_t i = 0; i < o->nelems; i++) {
      int64_t v = b > a ? (int64_t)((uint64_t)a + next_u64(ip) % range) : a;
      ew_store_int(t, o->data, i, v);
    }
  } else {
    literal_free(o);
    return interp_error(in, CXLA_UNIMPLEMENTED, "rng of %s with this distribution",
                        type_name(t));
  }
  *out = o;
  return NULL;
}

/* rng-get-and-update-state: returns the state as u64[2] and advances it by
 * the instruction's delta. */
static cxla_status eval_rng_get_state(Interp *ip, const Instr *in, Literal **out) {
  const char *d = instr_raw(in, "delta");
  uint64_t delta = d ? strtoull(d, NULL, 10) : 0;
  int64_t two = 2;
  TRY(literal_create(T_U64, 1, &two, out));
  uint64_t *v = (*out)->data;
  v[0] = ip->rng_state;
  v[1] = 0;
  ip->rng_state += delta;
  return NULL;
}

cxla_status interp_rng(Interp *ip, const Instr *in, Literal *const *ops, Literal **out) {
  *out = NULL;
  switch (in->op) {
  case OP_RNG_BIT_GENERATOR:
    return eval_rng_bit_generator(in, ops, out);
  case OP_RNG:
    return eval_rng(ip, in, ops, out);
  case OP_RNG_GET_AND_UPDATE_STATE:
    return eval_rng_get_state(ip, in, out);
  default:
    return interp_error(in, CXLA_UNIMPLEMENTED, "not a random-number op");
  }
}
