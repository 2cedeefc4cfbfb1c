/* The element-type and opcode tables (from types.def and ops.def). */
#include <string.h>

#include "ir/ir.h"

typedef struct TypeInfo {
  const char *name;
  int bytes, bits;
  TypeKind kind;
} TypeInfo;

static const TypeInfo type_table[] = {
#define TY(E, name, bytes, bits, kind) {name, bytes, bits, kind},
#include "cxla/types.def"
#undef TY
};
_Static_assert(sizeof type_table / sizeof type_table[0] == T_COUNT,
               "types.def and the type enum disagree");

const char *type_name(ElemType t) {
  return (unsigned)t < T_COUNT ? type_table[t].name : "?";
}
int type_bytes(ElemType t) { return (unsigned)t < T_COUNT ? type_table[t].bytes : 0; }
int type_bits(ElemType t) { return (unsigned)t < T_COUNT ? type_table[t].bits : 0; }
TypeKind type_kind(ElemType t) {
  return (unsigned)t < T_COUNT ? type_table[t].kind : TK_OTHER;
}

bool type_from_name(const char *s, size_t n, ElemType *out) {
  for (int i = 0; i < T_COUNT; i++) {
    if (i == T_TUPLE) continue; /* tuples are written (...), never by name */
    const char *m = type_table[i].name;
    if (n && m[0] == s[0] && strlen(m) == n && memcmp(m, s, n) == 0) {
      *out = (ElemType)i;
      return true;
    }
  }
  return false;
}

const char *cxla_type_name(cxla_type t) { return type_name(t); }
int cxla_type_size(cxla_type t) { return type_bytes(t); }

static const OpInfo op_table[] = {
#define OP(E, name, arity, flags) {name, arity, flags},
#include "ir/ops.def"
#undef OP
};
_Static_assert(sizeof op_table / sizeof op_table[0] == OP_COUNT,
               "ops.def and the opcode enum disagree");

const OpInfo *op_info(Opcode op) {
  static const OpInfo bad = {"?", -1, 0};
  return (unsigned)op < OP_COUNT ? &op_table[op] : &bad;
}

/* Linear in the table, but a name's first character is compared before
 * any call: the parser asks once per instruction. */
bool op_from_name(const char *s, size_t n, Opcode *out) {
  for (int i = 0; i < OP_COUNT; i++) {
    const char *m = op_table[i].name;
    if (n && m[0] == s[0] && strncmp(m, s, n) == 0 && m[n] == 0) {
      *out = (Opcode)i;
      return true;
    }
  }
  return false;
}
