/* Prints an MlirModule tree in a canonical generic form (one op per line,
 * attributes sorted by name), so that two readers' trees of the same program
 * (pretty vs generic text, text vs bytecode) can be compared as strings. */
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "stablehlo/mlir.h"

typedef struct PrCtx {
  StrBuf *b;
  /* value numbering in definition order: an open-addressing hash of
   * pointers to their numbers */
  const MlirValue **keys;
  long *ids;
  size_t cap, used;
  bool oom;
} PrCtx;

static size_t slot(const PrCtx *c, const MlirValue *v) {
  size_t h = ((uintptr_t)v >> 4) * 0x9E3779B97F4A7C15ull;
  size_t k = h & (c->cap - 1);
  while (c->keys[k] && c->keys[k] != v) k = (k + 1) & (c->cap - 1);
  return k;
}

static long value_id(PrCtx *c, const MlirValue *v) {
  if (!c->cap) return -1;
  size_t k = slot(c, v);
  return c->keys[k] ? c->ids[k] : -1;
}

static void define(PrCtx *c, const MlirValue *v) {
  if ((c->used + 1) * 2 > c->cap) {
    size_t oc = c->cap, nc = oc ? oc * 2 : 1024;
    const MlirValue **nk = cxla_calloc(nc, sizeof *nk);
    long *ni = cxla_calloc(nc, sizeof *ni);
    if (!nk || !ni) {
      cxla_free((void *)nk);
      cxla_free(ni);
      c->oom = true;
      return;
    }
    const MlirValue **ok = c->keys;
    long *oi = c->ids;
    c->keys = nk;
    c->ids = ni;
    c->cap = nc;
    for (size_t k = 0; k < oc; k++)
      if (ok[k]) {
        size_t s = slot(c, ok[k]);
        nk[s] = ok[k];
        ni[s] = oi[k];
      }
    cxla_free((void *)ok);
    cxla_free(oi);
  }
  size_t k = slot(c, v);
  if (!c->keys[k]) {
    c->keys[k] = v;
    c->ids[k] = (long)c->used++;
  }
}

static void pr_i64s(StrBuf *b, const MlirI64s *l) {
  sb_putc(b, '[');
  for (int k = 0; k < l->n; k++) sb_printf(b, "%s%lld", k ? "," : "", (long long)l->v[k]);
  sb_putc(b, ']');
}

static void pr_attr(StrBuf *b, const MlirAttr *a);

static int cmp_named(const void *x, const void *y) {
  const MlirNamedAttr *a = x, *b = y;
  return strcmp(a->name, b->name);
}

static void pr_named_sorted(StrBuf *b, const MlirNamedAttr *attrs, int n) {
  MlirNamedAttr *s = n ? cxla_malloc((size_t)n * sizeof *s) : NULL;
  if (n && !s) {
    b->oom = true;
    return;
  }
  if (n) memcpy(s, attrs, (size_t)n * sizeof *s);
  if (n) qsort(s, (size_t)n, sizeof *s, cmp_named);
  sb_putc(b, '{');
  for (int k = 0; k < n; k++) {
    sb_printf(b, "%s%s=", k ? ", " : "", s[k].name);
    pr_attr(b, s[k].value);
  }
  sb_putc(b, '}');
  cxla_free(s);
}

static void pr_attr(StrBuf *b, const MlirAttr *a) {
  switch (a->kind) {
  case MA_UNIT: sb_puts(b, "unit"); break;
  case MA_BOOL: sb_puts(b, a->i ? "true" : "false"); break;
  case MA_INT:
    sb_printf(b, "%lld:", (long long)a->i);
    mlir_type_print(b, a->type);
    break;
  case MA_FLOAT:
    sb_printf(b, "%.17g:", a->f);
    mlir_type_print(b, a->type);
    break;
  case MA_STRING:
    sb_putc(b, '"');
    for (size_t k = 0; k < a->len; k++) {
      unsigned char c = (unsigned char)a->str[k];
      if (c < 32 || c >= 127 || c == '"' || c == '\\') sb_printf(b, "\\%02X", c);
      else sb_putc(b, (char)c);
    }
    sb_putc(b, '"');
    break;
  case MA_ARRAY:
    sb_putc(b, '[');
    for (int k = 0; k < a->n; k++) {
      if (k) sb_puts(b, ", ");
      pr_attr(b, a->elems[k]);
    }
    sb_putc(b, ']');
    break;
  case MA_DICT: pr_named_sorted(b, a->entries, a->n); break;
  case MA_DENSE:
    sb_printf(b, "dense%s<0x", a->splat ? "_splat" : "");
    for (size_t k = 0; k < a->nbytes; k++) sb_printf(b, "%02X", a->data[k]);
    sb_puts(b, ">:");
    mlir_type_print(b, a->type);
    break;
  case MA_DENSE_ARRAY:
    sb_printf(b, "array<%s:", type_name(a->array_elem));
    for (int k = 0; k < a->n; k++) {
      if (a->floats) sb_printf(b, "%s%.17g", k ? "," : "", a->floats[k]);
      else sb_printf(b, "%s%lld", k ? "," : "", (long long)a->ints[k]);
    }
    sb_putc(b, '>');
    break;
  case MA_TYPE: mlir_type_print(b, a->type); break;
  case MA_SYMBOL_REF: sb_printf(b, "@%s", a->str); break;
  case MA_ENUM: sb_printf(b, "#%s<%s>", mlir_enum_kind_name(a->ekind), a->str); break;
  case MA_DOT:
    sb_puts(b, "#dot<lb=");
    pr_i64s(b, &a->dot.lhs_batch);
    sb_puts(b, ",rb=");
    pr_i64s(b, &a->dot.rhs_batch);
    sb_puts(b, ",lc=");
    pr_i64s(b, &a->dot.lhs_contract);
    sb_puts(b, ",rc=");
    pr_i64s(b, &a->dot.rhs_contract);
    sb_putc(b, '>');
    break;
  case MA_CONV: {
    const MlirConvDims *c = &a->conv;
    sb_printf(b, "#conv<ib=%lld,if=%lld,is=", (long long)c->in_batch, (long long)c->in_feature);
    pr_i64s(b, &c->in_spatial);
    sb_printf(b, ",ki=%lld,ko=%lld,ks=", (long long)c->k_in_feature, (long long)c->k_out_feature);
    pr_i64s(b, &c->k_spatial);
    sb_printf(b, ",ob=%lld,of=%lld,os=", (long long)c->out_batch, (long long)c->out_feature);
    pr_i64s(b, &c->out_spatial);
    sb_putc(b, '>');
    break;
  }
  case MA_GATHER: {
    const MlirGatherDims *g = &a->gather;
    sb_puts(b, "#gather<od=");
    pr_i64s(b, &g->offset_dims);
    sb_puts(b, ",cs=");
    pr_i64s(b, &g->collapsed_slice_dims);
    sb_puts(b, ",ob=");
    pr_i64s(b, &g->operand_batching_dims);
    sb_puts(b, ",sb=");
    pr_i64s(b, &g->start_indices_batching_dims);
    sb_puts(b, ",sim=");
    pr_i64s(b, &g->start_index_map);
    sb_printf(b, ",ivd=%lld>", (long long)g->index_vector_dim);
    break;
  }
  case MA_SCATTER: {
    const MlirScatterDims *g = &a->scatter;
    sb_puts(b, "#scatter<uw=");
    pr_i64s(b, &g->update_window_dims);
    sb_puts(b, ",iw=");
    pr_i64s(b, &g->inserted_window_dims);
    sb_puts(b, ",ib=");
    pr_i64s(b, &g->input_batching_dims);
    sb_puts(b, ",sb=");
    pr_i64s(b, &g->scatter_indices_batching_dims);
    sb_puts(b, ",sd=");
    pr_i64s(b, &g->scatter_dims_to_operand_dims);
    sb_printf(b, ",ivd=%lld>", (long long)g->index_vector_dim);
    break;
  }
  case MA_OUTPUT_OPERAND_ALIAS:
    sb_puts(b, "#alias<");
    pr_i64s(b, &a->alias.output_tuple_indices);
    sb_printf(b, ",%lld,", (long long)a->alias.operand_index);
    pr_i64s(b, &a->alias.operand_tuple_indices);
    sb_putc(b, '>');
    break;
  case MA_CHANNEL_HANDLE:
    sb_printf(b, "#channel<%lld,%lld>", (long long)a->channel.handle, (long long)a->channel.type);
    break;
  case MA_DOT_ALGORITHM: sb_puts(b, "#dot_algorithm"); break;
  case MA_RESULT_ACCURACY:
    sb_printf(b, "#accuracy<%g,%g,%lld,%s>", a->accuracy.atol, a->accuracy.rtol,
              (long long)a->accuracy.ulps, a->accuracy.mode ? a->accuracy.mode : "?");
    break;
  case MA_OPAQUE: sb_puts(b, "#opaque"); break;
  }
}

static void pr_op(PrCtx *c, const MlirOp *op, int indent);

static void pr_region(PrCtx *c, const MlirRegion *r, int indent) {
  sb_puts(c->b, "{\n");
  for (int bi = 0; bi < r->nblocks; bi++) {
    const MlirBlock *blk = r->blocks[bi];
    for (int k = 0; k < indent + 1; k++) sb_puts(c->b, "  ");
    sb_printf(c->b, "^bb%d(", bi);
    for (int k = 0; k < blk->nargs; k++) {
      define(c, &blk->args[k]);
      sb_printf(c->b, "%s%%%ld: ", k ? ", " : "", value_id(c, &blk->args[k]));
      mlir_type_print(c->b, blk->args[k].type);
    }
    sb_puts(c->b, "):\n");
    for (int k = 0; k < blk->nops; k++) pr_op(c, blk->ops[k], indent + 1);
  }
  for (int k = 0; k < indent; k++) sb_puts(c->b, "  ");
  sb_putc(c->b, '}');
}

static void pr_op(PrCtx *c, const MlirOp *op, int indent) {
  StrBuf *b = c->b;
  for (int k = 0; k < indent; k++) sb_puts(b, "  ");
  for (int k = 0; k < op->nresults; k++) {
    define(c, &op->results[k]);
    sb_printf(b, "%s%%%ld", k ? ", " : "", value_id(c, &op->results[k]));
  }
  if (op->nresults) sb_puts(b, " = ");
  sb_printf(b, "\"%s\"(", op->name);
  for (int k = 0; k < op->noperands; k++)
    sb_printf(b, "%s%%%ld", k ? ", " : "", value_id(c, op->operands[k]));
  sb_puts(b, ") ");
  pr_named_sorted(b, op->attrs, op->nattrs);
  if (op->nregions) {
    sb_puts(b, " (");
    for (int k = 0; k < op->nregions; k++) {
      if (k) sb_puts(b, ", ");
      pr_region(c, &op->regions[k], indent);
    }
    sb_putc(b, ')');
  }
  sb_puts(b, " : (");
  for (int k = 0; k < op->noperands; k++) {
    if (k) sb_puts(b, ", ");
    mlir_type_print(b, op->operands[k]->type);
  }
  sb_puts(b, ") -> (");
  for (int k = 0; k < op->nresults; k++) {
    if (k) sb_puts(b, ", ");
    mlir_type_print(b, op->results[k].type);
  }
  sb_puts(b, ")\n");
}

cxla_status mlir_print_generic(const MlirModule *m, char **out) {
  *out = NULL;
  StrBuf b;
  sb_init(&b);
  PrCtx c = {&b, NULL, NULL, 0, 0, false};
  if (m->op) pr_op(&c, m->op, 0);
  cxla_free((void *)c.keys);
  cxla_free(c.ids);
  char *s = sb_take(&b);
  if (!s || c.oom) {
    cxla_free(s);
    return cxla_oom();
  }
  *out = s;
  return NULL;
}
