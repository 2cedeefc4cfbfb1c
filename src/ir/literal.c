/* Literals: dense row-major arrays and tuples. See ir.h for the storage. */
#include <math.h>
#include <string.h>

#include "ir/ir.h"
#include "ir/numeric.h"

cxla_status literal_create(ElemType t, int rank, const int64_t *dims, Literal **out) {
  *out = NULL;
  if ((unsigned)t >= T_COUNT || t == T_TUPLE)
    return ERR(INVALID_ARGUMENT, "literal_create: bad element type");
  if (rank < 0) return ERR(INVALID_ARGUMENT, "literal_create: negative rank");
  int64_t n = 1;
  for (int i = 0; i < rank; i++) {
    if (dims[i] < 0) return ERR(INVALID_ARGUMENT, "negative dimension %lld", (long long)dims[i]);
    if (!mul_i64(n, dims[i], &n)) return ERR(RESOURCE_EXHAUSTED, "array too large");
  }
  int64_t bytes;
  if (!mul_i64(n, type_bytes(t), &bytes) || bytes > CXLA_MAX_ARRAY_BYTES)
    return ERR(RESOURCE_EXHAUSTED, "array of %lld elements of %s is larger than cxla's limit",
               (long long)n, type_name(t));
  Literal *l = cxla_calloc(1, sizeof *l);
  if (!l) return cxla_oom();
  l->type = t;
  l->rank = rank;
  l->nelems = n;
  if (rank) {
    l->dims = cxla_malloc((size_t)rank * sizeof(int64_t));
    if (!l->dims) goto oom;
    memcpy(l->dims, dims, (size_t)rank * sizeof(int64_t));
  }
  if (bytes) {
    l->data = cxla_calloc((size_t)bytes, 1);
    if (!l->data) goto oom;
  }
  *out = l;
  return NULL;
oom:
  literal_free(l);
  return cxla_oom();
}

cxla_status literal_create_tuple(int n, Literal **elems_taken, Literal **out) {
  *out = NULL;
  Literal *l = cxla_calloc(1, sizeof *l);
  if (!l) goto fail;
  l->type = T_TUPLE;
  l->ntuple = n;
  if (n) {
    l->tuple = cxla_calloc((size_t)n, sizeof(Literal *));
    if (!l->tuple) goto fail;
    memcpy(l->tuple, elems_taken, (size_t)n * sizeof(Literal *));
  }
  *out = l;
  return NULL;
fail:
  for (int i = 0; i < n; i++) literal_free(elems_taken[i]);
  cxla_free(l);
  return cxla_oom();
}

cxla_status literal_create_for_shape(const Shape *s, Literal **out) {
  *out = NULL;
  if (s->type == T_TUPLE) {
    Literal **el = cxla_calloc((size_t)(s->ntuple ? s->ntuple : 1), sizeof(Literal *));
    if (!el) return cxla_oom();
    for (int i = 0; i < s->ntuple; i++) {
      cxla_status st = literal_create_for_shape(s->tuple[i], &el[i]);
      if (st) {
        for (int j = 0; j < i; j++) literal_free(el[j]);
        cxla_free(el);
        return st;
      }
    }
    cxla_status st = literal_create_tuple(s->ntuple, el, out);
    cxla_free(el);
    return st;
  }
  if (s->type == T_TOKEN || s->type == T_OPAQUE) return literal_create(s->type, 0, NULL, out);
  return literal_create(s->type, s->rank, s->dims, out);
}

cxla_status literal_tuple_of_clones(Literal *const *elems, int n, Literal **out) {
  *out = NULL;
  Literal **el = cxla_calloc((size_t)(n ? n : 1), sizeof(Literal *));
  if (!el) return cxla_oom();
  for (int i = 0; i < n; i++) {
    cxla_status st = literal_clone(elems[i], &el[i]);
    if (st) {
      for (int j = 0; j < i; j++) literal_free(el[j]);
      cxla_free(el);
      return st;
    }
  }
  cxla_status st = literal_create_tuple(n, el, out);
  cxla_free(el);
  return st;
}

cxla_status literal_clone(const Literal *src, Literal **out) {
  *out = NULL;
  if (src->type == T_TUPLE) return literal_tuple_of_clones(src->tuple, src->ntuple, out);
  TRY(literal_create(src->type, src->rank, src->dims, out));
  if (src->data && src->nelems > 0) memcpy((*out)->data, src->data, (size_t)(src->nelems * type_bytes(src->type)));
  (*out)->unknown = src->unknown;
  return NULL;
}

void literal_free(Literal *l) {
  if (!l) return;
  for (int i = 0; i < l->ntuple; i++) literal_free(l->tuple[i]);
  cxla_free(l->tuple);
  cxla_free(l->dims);
  cxla_free(l->data);
  cxla_free(l);
}

bool literal_equal(const Literal *a, const Literal *b) {
  if (a->type != b->type || a->rank != b->rank || a->ntuple != b->ntuple) return false;
  if (a->type == T_TUPLE) {
    for (int i = 0; i < a->ntuple; i++)
      if (!literal_equal(a->tuple[i], b->tuple[i])) return false;
    return true;
  }
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i]) return false;
  if (a->unknown || b->unknown) return false;
  size_t n = (size_t)(a->nelems * type_bytes(a->type));
  return n == 0 || memcmp(a->data, b->data, n) == 0;
}

double literal_get_f64(const Literal *l, int64_t i) {
  const unsigned char *p = (const unsigned char *)l->data + i * type_bytes(l->type);
  switch (l->type) {
  case T_PRED: return *p ? 1 : 0;
  case T_S2: case T_S4: case T_S8: return *(const int8_t *)p;
  case T_S16: return *(const int16_t *)p;
  case T_S32: return *(const int32_t *)p;
  case T_S64: return (double)*(const int64_t *)p;
  case T_U2: case T_U4: case T_U8: return *p;
  case T_U16: return *(const uint16_t *)p;
  case T_U32: return *(const uint32_t *)p;
  case T_U64: return (double)*(const uint64_t *)p;
  case T_F32: return *(const float *)p;
  case T_F64: return *(const double *)p;
  case T_C64: return *(const float *)p;
  case T_C128: return *(const double *)p;
  case T_BF16: return bf16_to_f32(*(const uint16_t *)p);
  case T_F16: return minifloat_decode(T_F16, *(const uint16_t *)p);
  default:
    if (minifloat_is(l->type)) return minifloat_decode(l->type, *p);
    return 0;
  }
}

int64_t literal_get_i64(const Literal *l, int64_t i) {
  const unsigned char *p = (const unsigned char *)l->data + i * type_bytes(l->type);
  switch (l->type) {
  case T_PRED: return *p ? 1 : 0;
  case T_S2: case T_S4: case T_S8: return *(const int8_t *)p;
  case T_S16: return *(const int16_t *)p;
  case T_S32: return *(const int32_t *)p;
  case T_S64: return *(const int64_t *)p;
  case T_U2: case T_U4: case T_U8: return *p;
  case T_U16: return *(const uint16_t *)p;
  case T_U32: return *(const uint32_t *)p;
  case T_U64: return (int64_t) * (const uint64_t *)p;
  default: {
    double d = literal_get_f64(l, i);
    if (isnan(d)) return 0;
    if (d >= 9.2233720368547758e18) return INT64_MAX;
    if (d <= -9.2233720368547758e18) return INT64_MIN;
    return (int64_t)d;
  }
  }
}

static int64_t wrap_signed(int64_t v, int bits) {
  uint64_t m = (bits == 64) ? ~0ull : ((1ull << bits) - 1);
  uint64_t u = (uint64_t)v & m;
  if (bits < 64 && (u >> (bits - 1)) & 1) u |= ~m;
  return (int64_t)u;
}

void literal_set_i64(Literal *l, int64_t i, int64_t v) {
  unsigned char *p = (unsigned char *)l->data + i * type_bytes(l->type);
  switch (l->type) {
  case T_PRED: *p = v != 0; break;
  case T_S2: *(int8_t *)p = (int8_t)wrap_signed(v, 2); break;
  case T_S4: *(int8_t *)p = (int8_t)wrap_signed(v, 4); break;
  case T_S8: *(int8_t *)p = (int8_t)v; break;
  case T_S16: *(int16_t *)p = (int16_t)v; break;
  case T_S32: *(int32_t *)p = (int32_t)v; break;
  case T_S64: *(int64_t *)p = v; break;
  case T_U2: *p = (uint8_t)(v & 3); break;
  case T_U4: *p = (uint8_t)(v & 15); break;
  case T_U8: *p = (uint8_t)v; break;
  case T_U16: *(uint16_t *)p = (uint16_t)v; break;
  case T_U32: *(uint32_t *)p = (uint32_t)v; break;
  case T_U64: *(uint64_t *)p = (uint64_t)v; break;
  default: literal_set_f64(l, i, (double)v); break;
  }
}

void literal_set_f64(Literal *l, int64_t i, double v) {
  unsigned char *p = (unsigned char *)l->data + i * type_bytes(l->type);
  switch (l->type) {
  case T_F32: *(float *)p = (float)v; break;
  case T_F64: *(double *)p = v; break;
  case T_C64: ((float *)p)[0] = (float)v; ((float *)p)[1] = 0; break;
  case T_C128: ((double *)p)[0] = v; ((double *)p)[1] = 0; break;
  case T_BF16: *(uint16_t *)p = (uint16_t)minifloat_encode(T_BF16, v); break;
  case T_F16: *(uint16_t *)p = (uint16_t)minifloat_encode(T_F16, v); break;
  default:
    if (minifloat_is(l->type)) {
      *p = (uint8_t)minifloat_encode(l->type, v);
    } else if (type_is_int(l->type) || l->type == T_PRED) {
      if (l->type == T_PRED) { *p = v != 0; break; }
      int64_t iv = isnan(v) ? 0 : v >= 9.2233720368547758e18 ? INT64_MAX
                 : v <= -9.2233720368547758e18 ? INT64_MIN : (int64_t)v;
      literal_set_i64(l, i, iv);
    }
    break;
  }
}

void literal_print_shape(StrBuf *b, const Literal *l) {
  if (l->type == T_TUPLE) {
    sb_putc(b, '(');
    for (int i = 0; i < l->ntuple; i++) {
      if (i) sb_puts(b, ", ");
      literal_print_shape(b, l->tuple[i]);
    }
    sb_putc(b, ')');
    return;
  }
  sb_puts(b, type_name(l->type));
  sb_putc(b, '[');
  for (int i = 0; i < l->rank; i++) sb_printf(b, "%s%lld", i ? "," : "", (long long)l->dims[i]);
  sb_putc(b, ']');
}

/* ---- public API ---- */

cxla_status cxla_literal_create(cxla_type t, int rank, const int64_t *dims, cxla_literal **out) {
  return literal_create(t, rank, dims, out);
}
void cxla_literal_destroy(cxla_literal *l) { literal_free(l); }
cxla_type cxla_literal_type(const cxla_literal *l) { return l->type; }
int cxla_literal_rank(const cxla_literal *l) { return l->rank; }
const int64_t *cxla_literal_dims(const cxla_literal *l) { return l->dims; }
int64_t cxla_literal_elements(const cxla_literal *l) { return l->nelems; }
void *cxla_literal_data(cxla_literal *l) { return l->data; }
int cxla_literal_tuple_size(const cxla_literal *l) { return l->ntuple; }
cxla_literal *cxla_literal_tuple_get(cxla_literal *l, int i) {
  return (i >= 0 && i < l->ntuple) ? l->tuple[i] : NULL;
}
void cxla_free_string(char *s) { cxla_free(s); }
