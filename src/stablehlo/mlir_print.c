/* mlir_print.c: prints an MlirModule in MLIR's generic op syntax
 * ("stablehlo.add"(%0, %1) {...} : (types) -> types), for debugging the
 * readers and for tests that compare what two readers built. Values are
 * numbered %0, %1, ... in definition order; dense data is printed as hex. */
#include "stablehlo/mlir.h"

#include <inttypes.h>
#include <string.h>

typedef struct Printer {
  StrBuf *b;
  int next;
} Printer;

static void print_ints(StrBuf *b, MlirI64s v) {
  sb_putc(b, '[');
  for (int i = 0; i < v.n; i++) sb_printf(b, "%s%" PRId64, i ? ", " : "", v.v[i]);
  sb_putc(b, ']');
}

static void print_attr(StrBuf *b, const MlirAttr *a);

static void print_string(StrBuf *b, const char *s, size_t len) {
  sb_putc(b, '"');
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') sb_printf(b, "\\%c", c);
    else if (c < 32 || c >= 127) sb_printf(b, "\\%02X", c);
    else sb_putc(b, (char)c);
  }
  sb_putc(b, '"');
}

static void print_attr(StrBuf *b, const MlirAttr *a) {
  if (!a) {
    sb_puts(b, "<null>");
    return;
  }
  switch (a->kind) {
  case MA_UNIT: sb_puts(b, "unit"); break;
  case MA_BOOL: sb_puts(b, a->i ? "true" : "false"); break;
  case MA_INT:
    sb_printf(b, "%" PRId64 " : ", a->i);
    mlir_type_print(b, a->type);
    break;
  case MA_FLOAT:
    sb_printf(b, "%.17g : ", a->f);
    mlir_type_print(b, a->type);
    break;
  case MA_STRING: print_string(b, a->str, a->len); break;
  case MA_ARRAY:
    sb_putc(b, '[');
    for (int i = 0; i < a->n; i++) {
      if (i) sb_puts(b, ", ");
      print_attr(b, a->elems[i]);
    }
    sb_putc(b, ']');
    break;
  case MA_DICT:
    sb_putc(b, '{');
    for (int i = 0; i < a->n; i++) {
      sb_printf(b, "%s%s = ", i ? ", " : "", a->entries[i].name);
      print_attr(b, a->entries[i].value);
    }
    sb_putc(b, '}');
    break;
  case MA_DENSE:
    sb_printf(b, "dense<%s\"0x", a->splat ? "splat " : "");
    for (size_t i = 0; i < a->nbytes; i++) sb_printf(b, "%02X", a->data[i]);
    sb_puts(b, "\"> : ");
    mlir_type_print(b, a->type);
    break;
  case MA_DENSE_ARRAY: {
    MlirType t = {.kind = MLT_ELEM, .elem = a->array_elem};
    sb_puts(b, "array<");
    mlir_type_print(b, &t);
    for (int i = 0; i < a->n; i++) {
      sb_puts(b, i ? ", " : ": ");
      if (a->floats) sb_printf(b, "%.17g", a->floats[i]);
      else sb_printf(b, "%" PRId64, a->ints[i]);
    }
    sb_putc(b, '>');
    break;
  }
  case MA_TYPE: mlir_type_print(b, a->type); break;
  case MA_SYMBOL_REF: sb_printf(b, "@%s", a->str); break;
  case MA_ENUM: sb_printf(b, "#stablehlo<%s %s>", mlir_enum_kind_name(a->ekind), a->str); break;
  case MA_DOT:
    sb_puts(b, "#stablehlo.dot<lhs_batching_dimensions = ");
    print_ints(b, a->dot.lhs_batch);
    sb_puts(b, ", rhs_batching_dimensions = ");
    print_ints(b, a->dot.rhs_batch);
    sb_puts(b, ", lhs_contracting_dimensions = ");
    print_ints(b, a->dot.lhs_contract);
    sb_puts(b, ", rhs_contracting_dimensions = ");
    print_ints(b, a->dot.rhs_contract);
    sb_putc(b, '>');
    break;
  case MA_CONV:
    sb_printf(b, "#stablehlo.conv<in %" PRId64 " %" PRId64 " ", a->conv.in_batch, a->conv.in_feature);
    print_ints(b, a->conv.in_spatial);
    sb_printf(b, ", kernel %" PRId64 " %" PRId64 " ", a->conv.k_in_feature, a->conv.k_out_feature);
    print_ints(b, a->conv.k_spatial);
    sb_printf(b, ", out %" PRId64 " %" PRId64 " ", a->conv.out_batch, a->conv.out_feature);
    print_ints(b, a->conv.out_spatial);
    sb_putc(b, '>');
    break;
  case MA_GATHER:
    sb_puts(b, "#stablehlo.gather<offset_dims = ");
    print_ints(b, a->gather.offset_dims);
    sb_puts(b, ", collapsed_slice_dims = ");
    print_ints(b, a->gather.collapsed_slice_dims);
    sb_puts(b, ", operand_batching_dims = ");
    print_ints(b, a->gather.operand_batching_dims);
    sb_puts(b, ", start_indices_batching_dims = ");
    print_ints(b, a->gather.start_indices_batching_dims);
    sb_puts(b, ", start_index_map = ");
    print_ints(b, a->gather.start_index_map);
    sb_printf(b, ", index_vector_dim = %" PRId64 ">", a->gather.index_vector_dim);
    break;
  case MA_SCATTER:
    sb_puts(b, "#stablehlo.scatter<update_window_dims = ");
    print_ints(b, a->scatter.update_window_dims);
    sb_puts(b, ", inserted_window_dims = ");
    print_ints(b, a->scatter.inserted_window_dims);
    sb_puts(b, ", input_batching_dims = ");
    print_ints(b, a->scatter.input_batching_dims);
    sb_puts(b, ", scatter_indices_batching_dims = ");
    print_ints(b, a->scatter.scatter_indices_batching_dims);
    sb_puts(b, ", scatter_dims_to_operand_dims = ");
    print_ints(b, a->scatter.scatter_dims_to_operand_dims);
    sb_printf(b, ", index_vector_dim = %" PRId64 ">", a->scatter.index_vector_dim);
    break;
  case MA_OUTPUT_OPERAND_ALIAS:
    sb_puts(b, "#stablehlo.output_operand_alias<output_tuple_indices = ");
    print_ints(b, a->alias.output_tuple_indices);
    sb_printf(b, ", operand_index = %" PRId64 ", operand_tuple_indices = ", a->alias.operand_index);
    print_ints(b, a->alias.operand_tuple_indices);
    sb_putc(b, '>');
    break;
  case MA_CHANNEL_HANDLE:
    sb_printf(b, "#stablehlo.channel_handle<handle = %" PRId64 ", type = %" PRId64 ">", a->channel.handle,
              a->channel.type);
    break;
  case MA_DOT_ALGORITHM:
    sb_puts(b, "#stablehlo.dot_algorithm<lhs_precision_type = ");
    mlir_type_print(b, a->algorithm.lhs_precision_type);
    sb_puts(b, ", rhs_precision_type = ");
    mlir_type_print(b, a->algorithm.rhs_precision_type);
    sb_puts(b, ", accumulation_type = ");
    mlir_type_print(b, a->algorithm.accumulation_type);
    sb_printf(b, ", lhs_component_count = %" PRId64 ", rhs_component_count = %" PRId64
                 ", num_primitive_operations = %" PRId64 ", allow_imprecise_accumulation = %s>",
              a->algorithm.lhs_component_count, a->algorithm.rhs_component_count,
              a->algorithm.num_primitive_operations, a->algorithm.allow_imprecise_accumulation ? "true" : "false");
    break;
  case MA_RESULT_ACCURACY:
    sb_printf(b, "#stablehlo.result_accuracy<atol = %.17g, rtol = %.17g, ulps = %" PRId64 ", mode = %s>",
              a->accuracy.atol, a->accuracy.rtol, a->accuracy.ulps, a->accuracy.mode ? a->accuracy.mode : "?");
    break;
  case MA_OPAQUE:
    sb_puts(b, "#opaque<");
    if (a->str) print_string(b, a->str, a->len);
    sb_putc(b, '>');
    break;
  }
}

static void print_block(Printer *p, const MlirBlock *blk, int indent);

static void number_results(Printer *p, const MlirOp *op) {
  for (int i = 0; i < op->nresults; i++) op->results[i].scratch = (void *)(intptr_t)(p->next++);
}

static void print_value(StrBuf *b, const MlirValue *v) { sb_printf(b, "%%%d", (int)(intptr_t)v->scratch); }

static void print_op(Printer *p, const MlirOp *op, int indent) {
  StrBuf *b = p->b;
  number_results(p, op);
  sb_printf(b, "%*s", indent, "");
  for (int i = 0; i < op->nresults; i++) {
    sb_puts(b, i ? ", " : "");
    print_value(b, &op->results[i]);
  }
  if (op->nresults) sb_puts(b, " = ");
  sb_printf(b, "\"%s\"(", op->name);
  for (int i = 0; i < op->noperands; i++) {
    if (i) sb_puts(b, ", ");
    print_value(b, op->operands[i]);
  }
  sb_putc(b, ')');
  for (int r = 0; r < op->nregions; r++) {
    sb_puts(b, r ? ", {\n" : " ({\n");
    for (int k = 0; k < op->regions[r].nblocks; k++) print_block(p, op->regions[r].blocks[k], indent + 2);
    sb_printf(b, "%*s}", indent, "");
    if (r + 1 == op->nregions) sb_putc(b, ')');
  }
  if (op->nattrs) {
    sb_puts(b, " {");
    for (int i = 0; i < op->nattrs; i++) {
      sb_printf(b, "%s%s = ", i ? ", " : "", op->attrs[i].name);
      print_attr(b, op->attrs[i].value);
    }
    sb_putc(b, '}');
  }
  sb_puts(b, " : (");
  for (int i = 0; i < op->noperands; i++) {
    if (i) sb_puts(b, ", ");
    mlir_type_print(b, op->operands[i]->type);
  }
  sb_puts(b, ") -> ");
  if (op->nresults != 1) sb_putc(b, '(');
  for (int i = 0; i < op->nresults; i++) {
    if (i) sb_puts(b, ", ");
    mlir_type_print(b, op->results[i].type);
  }
  if (op->nresults != 1) sb_putc(b, ')');
  sb_putc(b, '\n');
}

static void print_block(Printer *p, const MlirBlock *blk, int indent) {
  StrBuf *b = p->b;
  if (blk->nargs) {
    sb_printf(b, "%*s^bb(", indent, "");
    for (int i = 0; i < blk->nargs; i++) {
      blk->args[i].scratch = (void *)(intptr_t)(p->next++);
      if (i) sb_puts(b, ", ");
      print_value(b, &blk->args[i]);
      sb_puts(b, ": ");
      mlir_type_print(b, blk->args[i].type);
    }
    sb_puts(b, "):\n");
  }
  for (int i = 0; i < blk->nops; i++) print_op(p, blk->ops[i], indent + 2);
}

void mlir_module_print(StrBuf *b, MlirModule *m) {
  Printer p = {b, 0};
  if (m && m->op) print_op(&p, m->op, 0);
}
