/* Shapes: construction, comparison, size checks, printing. */
#include <string.h>

#include "ir/ir.h"

int64_t shape_elems(const Shape *s) {
  if (s->type == T_TUPLE) return 0;
  int64_t n = 1;
  for (int i = 0; i < s->rank; i++) n *= s->dims[i];
  return n;
}

cxla_status shape_check_size(const Shape *s) {
  if (s->type == T_TUPLE) {
    for (int i = 0; i < s->ntuple; i++) TRY(shape_check_size(s->tuple[i]));
    return NULL;
  }
  int64_t n = 1;
  for (int i = 0; i < s->rank; i++) {
    if (s->dims[i] < 0) return ERR(INVALID_ARGUMENT, "negative dimension %lld", (long long)s->dims[i]);
    if (!mul_i64(n, s->dims[i], &n))
      return ERR(RESOURCE_EXHAUSTED, "shape has more elements than fit in 64 bits");
  }
  int64_t bytes;
  if (!mul_i64(n, type_bytes(s->type) ? type_bytes(s->type) : 1, &bytes) ||
      bytes > CXLA_MAX_ARRAY_BYTES)
    return ERR(RESOURCE_EXHAUSTED, "array of %lld elements is larger than cxla's limit of %lld bytes",
               (long long)n, (long long)CXLA_MAX_ARRAY_BYTES);
  return NULL;
}

bool shape_physically_row_major(const Shape *s) {
  if (!s->has_layout || !s->minor_to_major) return true;
  int64_t prev = -1;
  for (int k = s->rank - 1; k >= 0; k--) {
    int64_t d = s->minor_to_major[k];
    if (s->dims[d] == 1) continue;
    if (d < prev) return false;
    prev = d;
  }
  return true;
}

bool shape_slice_contiguous(const Shape *in, const SliceDim *sl, const Shape *out, int64_t *offset) {
  *offset = 0;
  if (!sl || !type_is_array(in->type) || in->type == T_TUPLE || out->rank != in->rank ||
      !shape_physically_row_major(in) || !shape_physically_row_major(out))
    return false;
  int j = -1; /* the last dim not taken whole */
  for (int i = 0; i < in->rank; i++) {
    if (sl[i].stride != 1 || sl[i].start < 0 || sl[i].limit > in->dims[i] || sl[i].start > sl[i].limit) return false;
    if (sl[i].start != 0 || sl[i].limit != in->dims[i]) j = i;
  }
  int64_t off = 0;
  for (int i = 0; i < in->rank; i++) {
    if (i < j && sl[i].limit - sl[i].start != 1) return false;
    off = off * in->dims[i] + sl[i].start;
  }
  *offset = off;
  return true;
}

void shape_layout_strides(const Shape *s, int64_t *strides) {
  bool has = s->has_layout && s->minor_to_major;
  int64_t acc = 1;
  for (int k = 0; k < s->rank; k++) {
    int64_t d = has ? s->minor_to_major[k] : s->rank - 1 - k;
    strides[d] = acc;
    acc *= s->dims[d];
  }
}

bool shape_compatible(const Shape *a, const Shape *b) {
  if (a->type != b->type) return false;
  if (a->type == T_TUPLE) {
    if (a->ntuple != b->ntuple) return false;
    for (int i = 0; i < a->ntuple; i++)
      if (!shape_compatible(a->tuple[i], b->tuple[i])) return false;
    return true;
  }
  if (a->rank != b->rank) return false;
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i]) return false;
  return true;
}

bool shape_same_dims(const Shape *a, const Shape *b) {
  if (a->rank != b->rank) return false;
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i]) return false;
  return true;
}

bool shape_equal(const Shape *a, const Shape *b, bool compare_layout) {
  if (!shape_compatible(a, b)) return false;
  if (a->type == T_TUPLE) {
    for (int i = 0; i < a->ntuple; i++)
      if (!shape_equal(a->tuple[i], b->tuple[i], compare_layout)) return false;
    return true;
  }
  for (int i = 0; i < a->rank; i++) {
    bool da = a->dynamic && a->dynamic[i], db = b->dynamic && b->dynamic[i];
    if (da != db) return false;
  }
  if (compare_layout && a->rank > 0) {
    if (a->has_layout != b->has_layout) return false;
    if (a->has_layout) {
      for (int i = 0; i < a->rank; i++)
        if (a->minor_to_major[i] != b->minor_to_major[i]) return false;
      const char *ta = a->layout_tail ? a->layout_tail : "";
      const char *tb = b->layout_tail ? b->layout_tail : "";
      if (strcmp(ta, tb) != 0) return false;
    }
  }
  return true;
}

Shape *shape_new(Arena *a, ElemType t, int rank, const int64_t *dims) {
  Shape *s = arena_alloc(a, sizeof *s);
  if (!s) return NULL;
  s->type = t;
  s->rank = rank;
  if (rank > 0) {
    s->dims = arena_array(a, (size_t)rank, sizeof(int64_t));
    if (!s->dims) return NULL;
    if (dims) memcpy(s->dims, dims, (size_t)rank * sizeof(int64_t));
  }
  return s;
}

Shape *shape_new_tuple(Arena *a, int n, Shape *const *elems) {
  Shape *s = arena_alloc(a, sizeof *s);
  if (!s) return NULL;
  s->type = T_TUPLE;
  s->ntuple = n;
  if (n > 0) {
    s->tuple = arena_array(a, (size_t)n, sizeof(Shape *));
    if (!s->tuple) return NULL;
    for (int i = 0; i < n; i++) s->tuple[i] = elems[i];
  }
  return s;
}

Shape *shape_clone(Arena *a, const Shape *src) {
  Shape *s = arena_alloc(a, sizeof *s);
  if (!s) return NULL;
  *s = *src;
  if (src->type == T_TUPLE) {
    if (src->ntuple) {
      s->tuple = arena_array(a, (size_t)src->ntuple, sizeof(Shape *));
      if (!s->tuple) return NULL;
      for (int i = 0; i < src->ntuple; i++)
        if (!(s->tuple[i] = shape_clone(a, src->tuple[i]))) return NULL;
    }
    return s;
  }
  if (src->rank) {
    s->dims = arena_i64dup(a, src->dims, (size_t)src->rank);
    if (!s->dims) return NULL;
    if (src->minor_to_major) {
      s->minor_to_major = arena_i64dup(a, src->minor_to_major, (size_t)src->rank);
      if (!s->minor_to_major) return NULL;
    }
    if (src->dynamic) {
      s->dynamic = arena_array(a, (size_t)src->rank, sizeof(bool));
      if (!s->dynamic) return NULL;
      memcpy(s->dynamic, src->dynamic, (size_t)src->rank * sizeof(bool));
    }
  }
  if (src->layout_tail && !(s->layout_tail = arena_strdup(a, src->layout_tail))) return NULL;
  return s;
}

cxla_status shape_set_default_layout(Arena *a, Shape *s) {
  if (s->type == T_TUPLE) {
    for (int i = 0; i < s->ntuple; i++) TRY(shape_set_default_layout(a, s->tuple[i]));
    return NULL;
  }
  if (!type_is_array(s->type)) return NULL;
  s->has_layout = true;
  if (s->rank == 0) return NULL;
  if (!s->minor_to_major) {
    s->minor_to_major = arena_array(a, (size_t)s->rank, sizeof(int64_t));
    if (!s->minor_to_major) return cxla_oom();
  }
  for (int i = 0; i < s->rank; i++) s->minor_to_major[i] = s->rank - 1 - i;
  return NULL;
}

/* XLA's spelling: "f32[2,<=3]{1,0:T(8,128)}", "token[]", tuples "(a, b)" with
 * an index comment before every fifth element of long tuples. Scalars
 * print no "{}" unless a layout tail must be kept. */
void shape_print(StrBuf *b, const Shape *s, bool print_layout) {
  if (s->type == T_TUPLE) {
    sb_putc(b, '(');
    for (int i = 0; i < s->ntuple; i++) {
      if (i) sb_puts(b, ", ");
      if (i && i % 5 == 0) sb_printf(b, "/*index=%d*/", i);
      shape_print(b, s->tuple[i], print_layout);
    }
    sb_putc(b, ')');
    return;
  }
  sb_puts(b, type_name(s->type));
  sb_putc(b, '[');
  for (int i = 0; i < s->rank; i++) {
    if (i) sb_putc(b, ',');
    if (s->dynamic && s->dynamic[i]) sb_puts(b, "<=");
    sb_put_i64(b, s->dims[i]);
  }
  sb_putc(b, ']');
  if (print_layout && s->has_layout && (s->rank > 0 || s->layout_tail)) {
    sb_putc(b, '{');
    for (int i = 0; i < s->rank && s->minor_to_major; i++) {
      if (i) sb_putc(b, ',');
      sb_put_i64(b, s->minor_to_major[i]);
    }
    if (s->layout_tail) {
      sb_putc(b, ':');
      sb_puts(b, s->layout_tail);
    }
    sb_putc(b, '}');
  }
}
