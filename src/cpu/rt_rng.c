/* rt_rng.c: the legacy stateful `rng` op (uniform, normal) on raw buffers
 * with the interpreter's generator (src/interp/rng.c): splitmix64 over one
 * state per execution, starting where the interpreter's does; uniform
 * floats a + (b - a) u with draws that round up to b drawn again (a after
 * 64 tries), normals by Box-Muller, integers a + draw mod (b - a).
 * rng-get-and-update-state returns u64[2] {state, 0} and advances the
 * state by its delta. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_internal.h"

static uint64_t next_u64(uint64_t *state) {
  uint64_t z = __atomic_add_fetch(state, 0x9E3779B97F4A7C15ull, __ATOMIC_RELAXED);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static double next_unit(uint64_t *state) { return (double)(next_u64(state) >> 11) * 0x1p-53; }

cxla_status rt_rng_check(const Instr *in) {
  const Shape *s = in->shape;
  if (in->op == OP_RNG_GET_AND_UPDATE_STATE) {
    if (s->type != T_U64 || s->rank != 1 || s->dims[0] != 2)
      return ERR(INVALID_ARGUMENT, "rng-get-and-update-state %%%s: the result must be u64[2]", in->name);
    return NULL;
  }
  if (in->noperands != 2 || in->operands[0]->shape->rank != 0 || in->operands[1]->shape->rank != 0 ||
      in->operands[0]->shape->type != s->type || in->operands[1]->shape->type != s->type)
    return ERR(INVALID_ARGUMENT, "rng %%%s: takes two scalars of the result type", in->name);
  if (!type_is_float(s->type) && !(type_is_int(s->type) && in->rng_dist == RNG_UNIFORM))
    return ERR(UNIMPLEMENTED, "rng %%%s: %s with this distribution", in->name, type_name(s->type));
  return NULL;
}

cxla_status rt_rng_run(const Instr *in, uint64_t *state, RVal *const *ops, RVal **out) {
  *out = NULL;
  TRY(rt_rng_check(in));
  const Shape *s = in->shape;
  RVal *r;
  TRY(rval_array(s->type, s->rank, s->dims, &r));
  if (in->op == OP_RNG_GET_AND_UPDATE_STATE) {
    const char *d = instr_raw(in, "delta");
    uint64_t v[2] = {__atomic_fetch_add(state, d ? strtoull(d, NULL, 10) : 0, __ATOMIC_RELAXED), 0};
    memcpy(r->lit.data, v, sizeof v);
    *out = r;
    return NULL;
  }
  Literal *o = &r->lit;
  if (type_is_float(s->type)) {
    double a = literal_get_f64(&ops[0]->lit, 0), b = literal_get_f64(&ops[1]->lit, 0);
    for (int64_t i = 0; i < o->nelems; i++) {
      if (in->rng_dist == RNG_NORMAL) {
        double u1 = 1.0 - next_unit(state), u2 = next_unit(state);
        literal_set_f64(o, i, a + b * sqrt(-2.0 * log(u1)) * cos(2 * M_PI * u2));
        continue;
      }
      double v;
      int tries = 0;
      do {
        literal_set_f64(o, i, a + (b - a) * next_unit(state));
        v = literal_get_f64(o, i);
      } while (v >= b && b > a && ++tries < 64);
      if (v >= b && b > a) literal_set_f64(o, i, a);
    }
  } else {
    int64_t a = literal_get_i64(&ops[0]->lit, 0), b = literal_get_i64(&ops[1]->lit, 0);
    uint64_t range = (uint64_t)b - (uint64_t)a;
    for (int64_t i = 0; i < o->nelems; i++)
      literal_set_i64(o, i, b > a ? (int64_t)((uint64_t)a + next_u64(state) % range) : a);
  }
  *out = r;
  return NULL;
}
