/* Helpers over the generic MLIR op tree (see mlir.h), shared by the text and
 * bytecode readers and the importer. */
#include "stablehlo/mlir.h"

#include <stdio.h>
#include <string.h>

#include "ir/ir.h"

MlirModule *mlir_module_new(const char *filename) {
  MlirModule *m = cxla_calloc(1, sizeof *m);
  if (!m) return NULL;
  arena_init(&m->arena);
  if (filename) {
    m->filename = arena_strdup(&m->arena, filename);
    if (!m->filename) {
      cxla_free(m);
      return NULL;
    }
  }
  return m;
}

void mlir_module_free(MlirModule *m) {
  if (!m) return;
  arena_destroy(&m->arena);
  cxla_free(m);
}

bool mlir_is_bytecode(const void *data, size_t len) {
  return len >= 4 && memcmp(data, "ML\xEFR", 4) == 0;
}

MlirAttr *mlir_op_attr(const MlirOp *op, const char *name) {
  for (int i = 0; i < op->nattrs; i++)
    if (strcmp(op->attrs[i].name, name) == 0) return op->attrs[i].value;
  return NULL;
}

MlirAttr *mlir_dict_get(const MlirAttr *dict, const char *name) {
  if (!dict || dict->kind != MA_DICT) return NULL;
  for (int i = 0; i < dict->n; i++)
    if (strcmp(dict->entries[i].name, name) == 0) return dict->entries[i].value;
  return NULL;
}

void mlir_pos_print(StrBuf *b, const char *filename, MlirPos pos) {
  const char *f = filename ? filename : "<input>";
  if (pos.line > 0)
    sb_printf(b, "%s:%d:%d", f, (int)pos.line, (int)pos.col);
  else if (pos.section)
    sb_printf(b, "%s: byte %lld (%s section)", f, (long long)pos.offset, pos.section);
  else
    sb_printf(b, "%s: byte %lld", f, (long long)pos.offset);
}

cxla_status mlir_error_at(cxla_status_code code, const MlirModule *m, MlirPos pos,
                          const char *fmt, ...) {
  StrBuf b;
  sb_init(&b);
  mlir_pos_print(&b, m ? m->filename : NULL, pos);
  sb_puts(&b, ": ");
  va_list ap;
  va_start(ap, fmt);
  char *msg = cxla_vformat(fmt, ap);
  va_end(ap);
  if (msg) sb_puts(&b, msg);
  cxla_free(msg);
  char *s = sb_take(&b);
  if (!s || !msg) {
    cxla_free(s);
    return cxla_oom();
  }
  cxla_status st = cxla_status_make(code, "%s", s);
  cxla_free(s);
  return st;
}

static void print_elem(StrBuf *b, cxla_type t) {
  int bits = type_bits(t);
  switch (type_kind(t)) {
  case TK_PRED: sb_puts(b, "i1"); break;
  case TK_SINT: sb_printf(b, "i%d", bits); break;
  case TK_UINT: sb_printf(b, "ui%d", bits); break;
  case TK_COMPLEX: sb_puts(b, t == T_C64 ? "complex<f32>" : "complex<f64>"); break;
  case TK_FLOAT: {
    /* MLIR spells the f8/f4 types with capitals: f8E4M3FN. */
    const char *n = type_name(t);
    if (strlen(n) > 3 && (n[1] == '8' || n[1] == '4')) {
      sb_putn(b, n, 2);
      for (const char *p = n + 2; *p; p++)
        sb_putc(b, (*p >= 'a' && *p <= 'z') ? (char)(*p - 'a' + 'A') : *p);
    } else {
      sb_puts(b, n);
    }
    break;
  }
  default: sb_puts(b, type_name(t)); break;
  }
}

void mlir_type_print(StrBuf *b, const MlirType *t) {
  if (!t) {
    sb_puts(b, "<null type>");
    return;
  }
  switch (t->kind) {
  case MLT_ELEM: print_elem(b, t->elem); break;
  case MLT_INDEX: sb_puts(b, "index"); break;
  case MLT_NONE: sb_puts(b, "none"); break;
  case MLT_TOKEN: sb_puts(b, "!stablehlo.token"); break;
  case MLT_OTHER: sb_puts(b, t->text ? t->text : "?"); break;
  case MLT_UNRANKED:
    sb_puts(b, "tensor<*x");
    mlir_type_print(b, t->element);
    sb_putc(b, '>');
    break;
  case MLT_TENSOR:
    sb_puts(b, "tensor<");
    for (int i = 0; i < t->rank; i++) {
      if (t->dims[i] == MLIR_DYNAMIC) sb_putc(b, '?');
      else sb_printf(b, "%lld", (long long)t->dims[i]);
      sb_putc(b, 'x');
    }
    mlir_type_print(b, t->element);
    if (t->bounds) {
      sb_puts(b, ", #stablehlo.bounds<");
      for (int i = 0; i < t->rank; i++) {
        if (i) sb_puts(b, ", ");
        if (t->bounds[i] == MLIR_DYNAMIC) sb_putc(b, '?');
        else sb_printf(b, "%lld", (long long)t->bounds[i]);
      }
      sb_putc(b, '>');
    }
    sb_putc(b, '>');
    break;
  case MLT_TUPLE:
    sb_puts(b, "tuple<");
    for (int i = 0; i < t->n; i++) {
      if (i) sb_puts(b, ", ");
      mlir_type_print(b, t->types[i]);
    }
    sb_putc(b, '>');
    break;
  case MLT_FUNCTION:
    sb_putc(b, '(');
    for (int i = 0; i < t->n; i++) {
      if (i) sb_puts(b, ", ");
      mlir_type_print(b, t->types[i]);
    }
    sb_puts(b, ") -> (");
    for (int i = 0; i < t->nresults; i++) {
      if (i) sb_puts(b, ", ");
      mlir_type_print(b, t->results[i]);
    }
    sb_putc(b, ')');
    break;
  }
}

int mlir_elem_bytes(const MlirType *t) {
  if (!t) return 0;
  if (t->kind == MLT_INDEX) return 8;
  if (t->kind == MLT_ELEM) return type_bytes(t->elem);
  return 0;
}

int64_t mlir_type_elems(const MlirType *t) {
  if (!t || t->kind != MLT_TENSOR) return -1;
  int64_t n = 1;
  for (int i = 0; i < t->rank; i++) {
    if (t->dims[i] < 0 || !mul_i64(n, t->dims[i], &n)) return -1;
  }
  return n;
}

const char *mlir_enum_kind_name(MlirEnumKind k) {
  switch (k) {
  case ME_COMPARISON_DIRECTION: return "comparison_direction";
  case ME_COMPARISON_TYPE: return "comparison_type";
  case ME_PRECISION: return "precision";
  case ME_FFT_TYPE: return "fft_type";
  case ME_RNG_DISTRIBUTION: return "rng_distribution";
  case ME_RNG_ALGORITHM: return "rng_algorithm";
  case ME_TRANSPOSE: return "transpose";
  case ME_RESULT_ACCURACY_MODE: return "result_accuracy_mode";
  case ME_OTHER: return "?";
  }
  return "?";
}
