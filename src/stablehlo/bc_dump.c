/* bc_dump.c: a readable dump of a decoded bytecode module (VHLO names, one
 * op per line, %N value ids), for debugging the reader and for tests. */
#include "stablehlo/bytecode.h"

#include <inttypes.h>
#include <string.h>

static const char *const FLOAT_NAMES[] = {
    "f16", "bf16", "f32", "f64", "tf32", "f8E4M3FN", "f8E5M2", "f8E4M3FNUZ", "f8E5M2FNUZ",
    "f8E4M3B11FNUZ", "f8E4M3", "f8E3M4", "f8E8M0FNU", "f4E2M1FN", "f6E2M3FN", "f6E3M2FN", "f80", "f128"};

static void dump_type(const BcType *t, StrBuf *o) {
  if (!t) {
    sb_puts(o, "<null>");
    return;
  }
  switch (t->kind) {
  case BCT_BOOL: sb_puts(o, "i1"); break;
  case BCT_INT: sb_printf(o, "%s%d", t->is_unsigned ? "ui" : "i", t->bits); break;
  case BCT_FLOAT: sb_puts(o, FLOAT_NAMES[t->fkind]); break;
  case BCT_INDEX: sb_puts(o, "index"); break;
  case BCT_COMPLEX:
    sb_puts(o, "complex<");
    dump_type(t->elem, o);
    sb_putc(o, '>');
    break;
  case BCT_TENSOR:
    sb_puts(o, "tensor<");
    for (size_t i = 0; i < t->rank; i++) {
      if (t->shape[i] == BC_DYNAMIC) sb_puts(o, "?x");
      else sb_printf(o, "%" PRId64 "x", t->shape[i]);
    }
    dump_type(t->elem, o);
    sb_putc(o, '>');
    break;
  case BCT_UNRANKED:
    sb_puts(o, "tensor<*x");
    dump_type(t->elem, o);
    sb_putc(o, '>');
    break;
  case BCT_TUPLE:
  case BCT_FUNCTION:
    sb_putc(o, t->kind == BCT_TUPLE ? '<' : '(');
    for (size_t i = 0; i < t->n; i++) {
      if (i) sb_puts(o, ", ");
      dump_type(t->types[i], o);
    }
    sb_putc(o, t->kind == BCT_TUPLE ? '>' : ')');
    if (t->kind == BCT_FUNCTION) {
      sb_puts(o, " -> (");
      for (size_t i = 0; i < t->nresults; i++) {
        if (i) sb_puts(o, ", ");
        dump_type(t->results[i], o);
      }
      sb_putc(o, ')');
    }
    break;
  case BCT_TOKEN: sb_puts(o, "token"); break;
  case BCT_NONE: sb_puts(o, "none"); break;
  case BCT_QUANT:
  case BCT_OTHER: sb_puts(o, t->name ? t->name : "?"); break;
  }
}

static const char *const ENUM_NAMES[][6] = {
    {"EQ", "NE", "GE", "GT", "LE", "LT"},
    {"NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"},
    {"API_VERSION_UNSPECIFIED", "API_VERSION_ORIGINAL", "API_VERSION_STATUS_RETURNING",
     "API_VERSION_STATUS_RETURNING_UNIFIED", "API_VERSION_TYPED_FFI"},
    {"FFT", "IFFT", "RFFT", "IRFFT"},
    {"DEFAULT", "HIGH", "HIGHEST"},
    {"DEFAULT", "THREE_FRY", "PHILOX"},
    {"UNSPECIFIED", "UNIFORM", "NORMAL"},
    {"TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"},
    {"DEFAULT", "HIGHEST", "TOLERANCE"},
};

static void dump_attr(const BcAttr *a, StrBuf *o) {
  if (!a) {
    sb_puts(o, "<null>");
    return;
  }
  switch (a->kind) {
  case BCA_ARRAY:
    sb_putc(o, '[');
    for (size_t i = 0; i < a->n; i++) {
      if (i) sb_puts(o, ", ");
      dump_attr(a->elems[i], o);
    }
    sb_putc(o, ']');
    break;
  case BCA_DICT:
    sb_putc(o, '{');
    for (size_t i = 0; i < a->n; i++) {
      if (i) sb_puts(o, ", ");
      sb_putn(o, a->keys[i]->str, a->keys[i]->len);
      sb_puts(o, " = ");
      dump_attr(a->elems[i], o);
    }
    sb_putc(o, '}');
    break;
  case BCA_STRING:
    sb_putc(o, '"');
    for (size_t i = 0; i < a->len; i++) {
      unsigned char c = (unsigned char)a->str[i];
      if (c == '"' || c == '\\') sb_printf(o, "\\%c", c);
      else if (c < 32 || c >= 127) sb_printf(o, "\\%02X", c);
      else sb_putc(o, (char)c);
    }
    sb_putc(o, '"');
    break;
  case BCA_BOOL: sb_puts(o, a->i ? "true" : "false"); break;
  case BCA_INT:
    sb_printf(o, "%" PRId64 " : ", a->i);
    dump_type(a->type, o);
    break;
  case BCA_FLOAT:
    sb_printf(o, "0x%" PRIX64 " : ", a->bits);
    dump_type(a->type, o);
    break;
  case BCA_TENSOR:
  case BCA_DENSE_ARRAY:
    sb_printf(o, "%s<0x", a->kind == BCA_TENSOR ? "dense" : "array");
    for (size_t i = 0; i < a->len && i < 32; i++) sb_printf(o, "%02X", a->data[i]);
    if (a->len > 32) sb_puts(o, "...");
    sb_puts(o, "> : ");
    dump_type(a->type, o);
    break;
  case BCA_TYPE: dump_type(a->type, o); break;
  case BCA_ENUM:
    if (a->i >= 0 && a->i < 6 && ENUM_NAMES[a->ekind][a->i]) sb_printf(o, "#%s", ENUM_NAMES[a->ekind][a->i]);
    else sb_printf(o, "#enum%" PRId64, a->i);
    break;
  case BCA_UNIT: sb_puts(o, "unit"); break;
  case BCA_LOC: sb_puts(o, "loc"); break;
  case BCA_INTS:
    sb_puts(o, "bounds<");
    for (size_t i = 0; i < a->nints; i++) sb_printf(o, "%s%" PRId64, i ? ", " : "", a->ints[i]);
    sb_putc(o, '>');
    break;
  case BCA_OUTPUT_OPERAND_ALIAS:
    sb_printf(o, "alias<operand %" PRId64 ">", a->i);
    break;
  case BCA_RESULT_ACCURACY:
    sb_printf(o, "accuracy<atol %g, rtol %g, ulps %" PRId64 ", mode ", a->f, a->f2, a->i);
    dump_attr(a->elems[0], o);
    sb_putc(o, '>');
    break;
  case BCA_SYMREF:
    sb_putc(o, '@');
    sb_putn(o, a->str, a->len);
    break;
  case BCA_OTHER: sb_printf(o, "<%s>", a->name ? a->name : "?"); break;
  }
}

static void dump_block(const BcModule *m, const BcBlock *b, int indent, StrBuf *o);

static void dump_op(const BcModule *m, const BcOp *op, int indent, StrBuf *o) {
  sb_printf(o, "%*s", indent, "");
  for (size_t i = 0; i < op->nresults; i++) sb_printf(o, "%s%%%u", i ? ", " : "", op->results[i]);
  if (op->nresults) sb_puts(o, " = ");
  sb_printf(o, "%s.%s(", op->dialect, op->name);
  for (size_t i = 0; i < op->noperands; i++) sb_printf(o, "%s%%%u", i ? ", " : "", op->operands[i]);
  sb_putc(o, ')');
  if (op->nattrs) {
    sb_puts(o, " {");
    for (size_t i = 0; i < op->nattrs; i++) {
      sb_printf(o, "%s%s = ", i ? ", " : "", op->attrs[i].name);
      dump_attr(op->attrs[i].value, o);
    }
    sb_putc(o, '}');
  }
  if (op->nresults) {
    sb_puts(o, " : ");
    for (size_t i = 0; i < op->nresults; i++) {
      if (i) sb_puts(o, ", ");
      dump_type(m->value_types[op->results[i]], o);
    }
  }
  for (size_t r = 0; r < op->nregions; r++) {
    sb_puts(o, r ? ", {\n" : " ({\n");
    for (size_t b = 0; b < op->regions[r].nblocks; b++) dump_block(m, &op->regions[r].blocks[b], indent + 2, o);
    sb_printf(o, "%*s}", indent, "");
    if (r + 1 == op->nregions) sb_putc(o, ')');
  }
  sb_putc(o, '\n');
}

static void dump_block(const BcModule *m, const BcBlock *b, int indent, StrBuf *o) {
  if (b->nargs) {
    sb_printf(o, "%*s^bb(", indent, "");
    for (size_t i = 0; i < b->nargs; i++) {
      sb_printf(o, "%s%%%u: ", i ? ", " : "", b->args[i]);
      dump_type(m->value_types[b->args[i]], o);
    }
    sb_puts(o, "):\n");
  }
  for (size_t i = 0; i < b->nops; i++) dump_op(m, b->ops[i], indent + 2, o);
}

void bc_dump(const BcModule *m, StrBuf *out) {
  sb_printf(out, "// bytecode version %" PRIu64 ", producer \"%s\"\n", m->version, m->producer);
  dump_block(m, &m->top, -2, out);
}
