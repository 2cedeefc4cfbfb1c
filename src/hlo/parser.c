/* The structure of HLO text: module header, computations, instructions.
 *
 *   module       ::= 'HloModule' name (',' attr '=' value)* stack_frames?
 *                    computation+
 *   computation  ::= 'ENTRY'? name ('(' (name ':' shape),* ')' '->' shape)?
 *                    '{' instruction+ '}'
 *   instruction  ::= 'ROOT'? name '=' shape opcode '(' operands ')'
 *                    (',' attr '=' value)*
 *   operand      ::= shape? name
 *
 * Names may be written with or without '%'. Operands may name instructions
 * defined later in the same computation and attributes may name
 * computations defined later in the module: references are recorded as
 * fixups and resolved when the computation (module) ends. Instructions are
 * then put in a post order (operands and control predecessors first,
 * otherwise source order), computations too (callees first, entry last). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "hlo/hlo.h"
#include "ir/rewrite.h"
#include "stablehlo/stablehlo.h"
#include "base/fpenv.h"

/* ---- errors and tokens ------------------------------------------------------ */

static bool verr(Parser *p, cxla_status_code code, size_t pos, const char *fmt, va_list ap) {
  if (p->err) return false;
  char *msg = cxla_vformat(fmt, ap);
  if (!msg) {
    p->err = cxla_oom();
    return false;
  }
  p->err = hlo_error_at(code, p->file, p->src, p->len, pos, msg);
  cxla_free(msg);
  return false;
}

bool perr(Parser *p, size_t pos, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  verr(p, CXLA_INVALID_ARGUMENT, pos, fmt, ap);
  va_end(ap);
  return false;
}

bool perr_code(Parser *p, cxla_status_code code, size_t pos, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  verr(p, code, pos, fmt, ap);
  va_end(ap);
  return false;
}

bool poom(Parser *p) {
  if (!p->err) p->err = cxla_oom();
  return false;
}

void padvance(Parser *p) {
  if (p->err) {
    /* After an error every token reads as end of input, so that loops
     * waiting for a closing token stop at once. */
    p->tok.kind = TOK_EOF;
    return;
  }
  p->tok = lexer_next(&p->lx);
  if (p->tok.kind == TOK_ERROR) {
    perr(p, p->tok.pos, "%s", p->lx.error);
    p->tok.kind = TOK_EOF;
  }
}

bool peat(Parser *p, TokKind k) {
  if (p->tok.kind != k) return false;
  padvance(p);
  return true;
}

static const char *tok_desc(const Token *t) {
  switch (t->kind) {
  case TOK_EOF: return "end of input";
  case TOK_IDENT: return "a name";
  case TOK_NUMBER: return "a number";
  case TOK_STRING: return "a string";
  default: return NULL;
  }
}

bool pexpect(Parser *p, TokKind k, const char *what) {
  if (p->tok.kind == k) {
    padvance(p);
    return true;
  }
  return pexpected(p, what);
}

bool pexpected(Parser *p, const char *what) {
  const char *d = tok_desc(&p->tok);
  if (d) return perr(p, p->tok.pos, "expected %s, found %s", what, d);
  return perr(p, p->tok.pos, "expected %s, found '%.*s'", what, (int)p->tok.len, p->tok.text);
}

TokKind ppeek(Parser *p) {
  Lexer save = p->lx;
  Token t = lexer_next(&p->lx);
  p->lx = save;
  return t.kind;
}

void pseek(Parser *p, size_t pos) {
  p->lx.pos = pos;
  padvance(p);
}

/* ---- fixups ------------------------------------------------------------------ */

static bool push_fixup(Parser *p, Fixup **arr, int *n, int *cap, Fixup f) {
  if (*n == *cap) {
    int nc = *cap ? *cap * 2 : 64;
    Fixup *na = cxla_realloc(*arr, (size_t)nc * sizeof *na);
    if (!na) return poom(p);
    *arr = na;
    *cap = nc;
  }
  (*arr)[(*n)++] = f;
  return true;
}

bool add_instr_fixup(Parser *p, Instr *in, Instr **slot, const char *name, size_t len,
                     size_t pos) {
  Fixup f = {in, slot, NULL, name, len, pos};
  return push_fixup(p, &p->ifix, &p->nifix, &p->capifix, f);
}

bool add_comp_fixup(Parser *p, Instr *in, Computation **slot, const char *name, size_t len,
                    size_t pos) {
  Fixup f = {in, NULL, slot, name, len, pos};
  return push_fixup(p, &p->cfix, &p->ncfix, &p->capcfix, f);
}

/* ---- instructions -------------------------------------------------------------- */

typedef struct OperandRef {
  const char *name;
  size_t len, pos;
} OperandRef;

/* operands ::= '(' (shape? name (',' shape? name)*)? ')' ; the shapes, if
 * written, are not kept (the operand's own shape is authoritative and the
 * verifier checks instructions). */
static bool parse_operand_list(Parser *p, OperandRef **out, int *nout) {
  *out = NULL;
  *nout = 0;
  int cap = 0;
  if (!pexpect(p, TOK_LPAREN, "'(' before the operands")) return false;
  if (peat(p, TOK_RPAREN)) return true;
  for (;;) {
    if (at_shape(p)) {
      Shape *ignored;
      if (!parse_shape(p, &ignored)) return false;
    }
    if (p->tok.kind != TOK_IDENT) return pexpected(p, "an operand name");
    if (*nout == cap) {
      int nc = cap ? cap * 2 : 4;
      if (nc > (1 << 26)) return perr(p, p->tok.pos, "too many operands");
      OperandRef *na = cxla_realloc(*out, (size_t)nc * sizeof *na);
      if (!na) return poom(p);
      *out = na;
      cap = nc;
    }
    (*out)[(*nout)++] = (OperandRef){p->tok.text, p->tok.len, p->tok.pos};
    padvance(p);
    if (peat(p, TOK_COMMA)) continue;
    return pexpect(p, TOK_RPAREN, "',' or ')' after an operand");
  }
}

static bool remember_instr_pos(Parser *p, int idx, size_t pos) {
  if (idx >= p->cap_instr_pos) {
    int nc = p->cap_instr_pos ? p->cap_instr_pos * 2 : 64;
    size_t *na = cxla_realloc(p->instr_pos, (size_t)nc * sizeof *na);
    if (!na) return poom(p);
    p->instr_pos = na;
    p->cap_instr_pos = nc;
  }
  p->instr_pos[idx] = pos;
  return true;
}

/* Creates the instruction with its operand slots empty; the operand names
 * become fixups. */
static Instr *create_instr(Parser *p, Opcode op, Shape *shape, const OperandRef *ops, int nops,
                           const Token *name) {
  Computation *c = p->comp;
  char *nm = arena_strndup(&p->m->arena, name->text, name->len);
  if (!nm) return poom(p), NULL;
  Instr *in;
  if (nops) {
    Instr **nulls = cxla_calloc((size_t)nops, sizeof *nulls);
    if (!nulls) return poom(p), NULL;
    in = comp_add_instr(c, op, shape, nops, nulls, nm);
    cxla_free(nulls);
  } else {
    in = comp_add_instr(c, op, shape, 0, NULL, nm);
  }
  if (!in) return poom(p), NULL;
  if (!namemap_put(&p->instr_names, in->name, in)) return poom(p), NULL;
  if (!remember_instr_pos(p, in->id, name->pos)) return NULL;
  for (int i = 0; i < nops; i++)
    if (!add_instr_fixup(p, in, &in->operands[i], ops[i].name, ops[i].len, ops[i].pos))
      return NULL;
  return in;
}

/* The part after "shape opcode" that differs by opcode: parameter(N),
 * constant(literal), or an operand list. */
static bool parse_instr_body(Parser *p, Opcode op, Shape *shape, const Token *name,
                             size_t op_pos, Instr **out) {
  Instr *in = NULL;
  if (op == OP_PARAMETER) {
    if (!pexpect(p, TOK_LPAREN, "'(' before the parameter number")) return false;
    Token t = p->tok;
    if (t.kind != TOK_NUMBER || t.is_float || t.is_hex || t.text[0] == '-')
      return perr(p, t.pos, "expected a parameter number");
    bool neg;
    uint64_t mag;
    if (!parse_int_token(p, &t, &neg, &mag)) return false;
    if (mag > INT32_MAX) return perr(p, t.pos, "parameter number too large");
    padvance(p);
    if (!pexpect(p, TOK_RPAREN, "')' after the parameter number")) return false;
    if (!(in = create_instr(p, op, shape, NULL, 0, name))) return false;
    in->param_number = (int64_t)mag;
  } else if (op == OP_CONSTANT) {
    if (!pexpect(p, TOK_LPAREN, "'(' before the constant's value")) return false;
    Literal *lit;
    if (!parse_literal(p, shape, &lit)) return false;
    cxla_status st = module_own_literal(p->m, lit);
    if (st) {
      p->err = st;
      return false;
    }
    if (!pexpect(p, TOK_RPAREN, "')' after the constant's value")) return false;
    if (!(in = create_instr(p, op, shape, NULL, 0, name))) return false;
    in->literal = lit;
  } else {
    OperandRef *ops;
    int nops;
    bool ok = parse_operand_list(p, &ops, &nops);
    int arity = op_info(op)->arity;
    if (ok && arity >= 0 && nops != arity)
      ok = perr(p, op_pos, "'%s' takes %d operand%s, but %d %s given", op_name(op), arity,
                arity == 1 ? "" : "s", nops, nops == 1 ? "was" : "were");
    if (ok) in = create_instr(p, op, shape, ops, nops, name);
    cxla_free(ops);
    if (!in) return false;
  }
  *out = in;
  return true;
}

static bool parse_instruction(Parser *p, Instr **root) {
  bool is_root = false;
  size_t root_kw = p->tok.pos;
  if (tok_is(&p->tok, "ROOT") && !p->tok.percent && ppeek(p) != TOK_EQUAL) {
    is_root = true;
    padvance(p);
  }
  if (p->tok.kind != TOK_IDENT) return pexpected(p, "an instruction name");
  Token name = p->tok;
  if (namemap_get(&p->instr_names, name.text, name.len))
    return perr(p, name.pos, "duplicate instruction name '%.*s'", (int)name.len, name.text);
  padvance(p);
  if (!pexpect(p, TOK_EQUAL, "'=' after the instruction name")) return false;
  Shape *shape;
  if (!parse_shape(p, &shape)) return false;
  if (p->tok.kind != TOK_IDENT) return pexpected(p, "an opcode");
  Opcode op;
  size_t op_pos = p->tok.pos;
  if (p->tok.percent || !op_from_name(p->tok.text, p->tok.len, &op))
    return perr(p, op_pos, "unknown opcode '%.*s'", (int)p->tok.len, p->tok.text);
  padvance(p);
  Instr *in = NULL;
  if (!parse_instr_body(p, op, shape, &name, op_pos, &in)) return false;
  if (!parse_instr_attrs(p, in)) return false;
  if (is_root) {
    if (*root) return perr(p, root_kw, "computation has more than one ROOT instruction");
    *root = in;
  }
  return true;
}

/* ---- computations ---------------------------------------------------------------- */

/* "(p0: shape, ...) -> shape": read and checked for syntax; the parameters
 * and the root define the computation's signature, so it is not kept. */
static bool parse_signature(Parser *p) {
  padvance(p); /* '(' */
  if (p->tok.kind != TOK_RPAREN) {
    for (;;) {
      if (p->tok.kind != TOK_IDENT) return pexpected(p, "a parameter name");
      padvance(p);
      if (!pexpect(p, TOK_COLON, "':' after the parameter name")) return false;
      Shape *ignored;
      if (!parse_shape(p, &ignored)) return false;
      if (!peat(p, TOK_COMMA)) break;
    }
  }
  if (!pexpect(p, TOK_RPAREN, "')' after the parameters")) return false;
  if (!pexpect(p, TOK_ARROW, "'->' after the parameters")) return false;
  Shape *ignored;
  return parse_shape(p, &ignored);
}

static bool resolve_operands(Parser *p) {
  for (int i = 0; i < p->nifix; i++) {
    Fixup *f = &p->ifix[i];
    Instr *target = namemap_get(&p->instr_names, f->name, f->len);
    if (!target)
      return perr(p, f->pos, "use of undefined instruction '%.*s'", (int)f->len, f->name);
    *f->slot_instr = target;
  }
  p->nifix = 0;
  return true;
}

/* Min-heap of instruction indices (source positions). */
typedef struct Heap {
  int *v;
  int n;
} Heap;

static void heap_push(Heap *h, int x) {
  int i = h->n++;
  while (i > 0 && h->v[(i - 1) / 2] > x) {
    h->v[i] = h->v[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  h->v[i] = x;
}

static int heap_pop(Heap *h) {
  int top = h->v[0], x = h->v[--h->n], i = 0;
  for (;;) {
    int c = 2 * i + 1;
    if (c >= h->n) break;
    if (c + 1 < h->n && h->v[c + 1] < h->v[c]) c++;
    if (h->v[c] >= x) break;
    h->v[i] = h->v[c];
    i = c;
  }
  if (h->n) h->v[i] = x;
  return top;
}

static int instr_nedges(const Instr *in) { return in->noperands + in->ncontrol_preds; }
static Instr *instr_edge(const Instr *in, int e) {
  return e < in->noperands ? in->operands[e] : in->control_preds[e - in->noperands];
}

/* Some instruction on a cycle among the instructions not emitted (done[i]
 * == 0): walk from one of them through not-emitted dependencies until an
 * instruction repeats. */
static Instr *find_cycle(Computation *c, const unsigned char *done, unsigned char *seen) {
  int v = 0;
  while (done[v]) v++;
  for (;;) {
    if (seen[v]) return c->instrs[v];
    seen[v] = 1;
    Instr *in = c->instrs[v];
    for (int e = 0; e < instr_nedges(in); e++)
      if (!done[instr_edge(in, e)->id]) {
        v = instr_edge(in, e)->id;
        break;
      }
  }
}

/* Reorders c->instrs into a post order (every instruction after its operands
 * and control predecessors) that keeps source order wherever it can: of the
 * instructions whose dependencies are placed, the first in source order goes
 * next (Kahn's algorithm with a min-heap). Source text that is already in
 * order stays as it is. */
static bool order_instructions(Parser *p, Computation *c) {
  int n = c->ninstrs;
  if (n == 0) return true;
  int64_t nedges = 0;
  for (int i = 0; i < n; i++) nedges += instr_nedges(c->instrs[i]);
  int *pending = cxla_calloc((size_t)n, sizeof(int));   /* unplaced dependencies */
  int *ustart = cxla_calloc((size_t)n + 1, sizeof(int)); /* users, CSR layout */
  int *users = cxla_malloc((size_t)(nedges ? nedges : 1) * sizeof(int));
  int *fill = cxla_calloc((size_t)n, sizeof(int));
  Heap heap = {cxla_malloc((size_t)n * sizeof(int)), 0};
  unsigned char *done = cxla_calloc((size_t)n, 1);
  Instr **out = arena_array(&p->m->arena, (size_t)n, sizeof(Instr *));
  bool ok = pending && ustart && users && fill && heap.v && done && out;
  if (!ok) poom(p);
  if (ok) {
    for (int i = 0; i < n; i++) {
      Instr *in = c->instrs[i];
      pending[i] = instr_nedges(in);
      for (int e = 0; e < pending[i]; e++) ustart[instr_edge(in, e)->id + 1]++;
    }
    for (int i = 0; i < n; i++) ustart[i + 1] += ustart[i];
    for (int i = 0; i < n; i++) {
      Instr *in = c->instrs[i];
      for (int e = 0; e < instr_nedges(in); e++) {
        int u = instr_edge(in, e)->id;
        users[ustart[u] + fill[u]++] = i;
      }
    }
    for (int i = 0; i < n; i++)
      if (pending[i] == 0) heap_push(&heap, i);
    int nout = 0;
    while (heap.n) {
      int v = heap_pop(&heap);
      done[v] = 1;
      out[nout++] = c->instrs[v];
      for (int k = ustart[v]; k < ustart[v + 1]; k++)
        if (--pending[users[k]] == 0) heap_push(&heap, users[k]);
    }
    if (nout < n) {
      unsigned char *seen = cxla_calloc((size_t)n, 1);
      if (!seen) {
        ok = poom(p);
      } else {
        Instr *bad = find_cycle(c, done, seen);
        ok = perr(p, p->instr_pos[bad->id], "instruction '%s' depends on itself (cycle)",
                  bad->name);
        cxla_free(seen);
      }
    }
  }
  if (ok) {
    c->instrs = out;
    c->cap = n;
    comp_renumber(c);
  }
  cxla_free(pending);
  cxla_free(ustart);
  cxla_free(users);
  cxla_free(fill);
  cxla_free(heap.v);
  cxla_free(done);
  return ok;
}

/* Fills c->params by parameter number; numbers must be 0..n-1, each once. */
static bool collect_params(Parser *p, Computation *c) {
  int n = 0;
  for (int i = 0; i < c->ninstrs; i++) n += c->instrs[i]->op == OP_PARAMETER;
  if (n == 0) return true;
  Instr **params = arena_array(&p->m->arena, (size_t)n, sizeof(Instr *));
  if (!params) return poom(p);
  for (int i = 0; i < c->ninstrs; i++) {
    Instr *in = c->instrs[i];
    if (in->op != OP_PARAMETER) continue;
    if (in->param_number >= n)
      return perr(p, p->instr_pos[in->id], "parameter number %lld out of range: '%s' has %d parameters",
                  (long long)in->param_number, c->name, n);
    if (params[in->param_number])
      return perr(p, p->instr_pos[in->id], "duplicate parameter number %lld",
                  (long long)in->param_number);
    params[in->param_number] = in;
  }
  c->params = params;
  c->nparams = n;
  return true;
}

static bool parse_computation(Parser *p, Computation **entry) {
  size_t start = p->tok.pos;
  bool is_entry = false;
  if (tok_is(&p->tok, "ENTRY") && !p->tok.percent) {
    is_entry = true;
    padvance(p);
  }
  if (p->tok.kind != TOK_IDENT) return pexpected(p, "a computation name");
  Token name = p->tok;
  if (namemap_get(&p->comp_names, name.text, name.len))
    return perr(p, name.pos, "duplicate computation name '%.*s'", (int)name.len, name.text);
  char *nm = arena_strndup(&p->m->arena, name.text, name.len);
  if (!nm) return poom(p);
  Computation *c = module_add_computation(p->m, nm);
  if (!c || !namemap_put(&p->comp_names, c->name, c)) return poom(p);
  if (p->m->ncomps > p->cap_comp_pos) {
    int nc = p->cap_comp_pos ? p->cap_comp_pos * 2 : 16;
    size_t *na = cxla_realloc(p->comp_pos, (size_t)nc * sizeof *na);
    if (!na) return poom(p);
    p->comp_pos = na;
    p->cap_comp_pos = nc;
  }
  p->comp_pos[p->m->ncomps - 1] = name.pos;
  padvance(p);
  if (p->tok.kind == TOK_LPAREN && !parse_signature(p)) return false;
  if (!pexpect(p, TOK_LBRACE, "'{' at the start of the computation body")) return false;
  p->comp = c;
  namemap_clear(&p->instr_names);
  p->nifix = 0;
  Instr *root = NULL;
  do {
    if (!parse_instruction(p, &root)) return false;
  } while (p->tok.kind != TOK_RBRACE && p->tok.kind != TOK_EOF);
  if (!pexpect(p, TOK_RBRACE, "'}' at the end of the computation")) return false;
  if (!resolve_operands(p)) return false;
  /* Without a ROOT marker the last instruction written is the root. */
  c->root = root ? root : c->instrs[c->ninstrs - 1];
  if (!order_instructions(p, c) || !collect_params(p, c)) return false;
  if (is_entry) {
    if (*entry) return perr(p, start, "more than one ENTRY computation");
    *entry = c;
  }
  p->comp = NULL;
  return true;
}

/* ---- module ---------------------------------------------------------------------- */

/* ", name=value" pairs after "HloModule name": entry_computation_layout and
 * input_output_alias into the module's typed fields (header.c), the others
 * kept verbatim (collected on the heap, then copied to the arena). */
static bool parse_header_attrs(Parser *p) {
  HloModule *m = p->m;
  RawAttr *v = NULL;
  int n = 0, cap = 0;
  bool ok = true;
  while (ok && p->tok.kind == TOK_COMMA) {
    padvance(p);
    if (p->tok.kind != TOK_IDENT || p->tok.percent) {
      ok = pexpected(p, "a module attribute name");
      break;
    }
    Token name = p->tok;
    padvance(p);
    if (p->tok.kind != TOK_EQUAL) {
      ok = pexpected(p, "'=' after the attribute name");
      break;
    }
    bool ecl = tok_is(&name, "entry_computation_layout");
    if (ecl || tok_is(&name, "input_output_alias")) {
      if (ecl ? m->entry_layout != NULL : m->has_io_alias) {
        ok = perr(p, name.pos, "duplicate module attribute '%.*s'", (int)name.len, name.text);
        break;
      }
      padvance(p);
      if (!(ok = ecl ? parse_entry_layout(p) : parse_io_alias(p))) break;
      continue;
    }
    size_t vstart = p->tok.pos + 1, vend;
    if (!(ok = scan_raw_value(p, vstart, false, &vend))) break;
    while (p->src[vstart] == ' ' || p->src[vstart] == '\t') vstart++;
    if (n == cap) {
      int nc = cap ? cap * 2 : 8;
      RawAttr *nv = cxla_realloc(v, (size_t)nc * sizeof *nv);
      if (!nv) {
        ok = poom(p);
        break;
      }
      v = nv;
      cap = nc;
    }
    v[n].name = arena_strndup(&m->arena, name.text, name.len);
    v[n].value = arena_strndup(&m->arena, p->src + vstart, vend - vstart);
    if (!v[n].name || !v[n].value) {
      ok = poom(p);
      break;
    }
    n++;
    pseek(p, vend);
  }
  if (ok && n) {
    if (!(m->raw = arena_array(&m->arena, (size_t)n, sizeof(RawAttr)))) {
      ok = poom(p);
    } else {
      memcpy(m->raw, v, (size_t)n * sizeof(RawAttr));
      m->nraw = n;
    }
  }
  cxla_free(v);
  return ok && !p->err;
}

/* The stack-frame index XLA writes after the header:
 *   FileNames (int string)* FunctionNames (int string)*
 *   FileLocations (int {k=v ...})* StackFrames (int {k=v ...})*
 * It is checked for shape and kept verbatim. */
static bool parse_stack_frames(Parser *p) {
  static const char *const sections[] = {"FileNames", "FunctionNames", "FileLocations",
                                         "StackFrames"};
  size_t start = p->tok.pos, end = start;
  for (int s = 0; s < 4; s++) {
    if (!tok_is(&p->tok, sections[s])) {
      char what[32];
      snprintf(what, sizeof what, "'%s'", sections[s]);
      return pexpected(p, what);
    }
    end = p->tok.pos + p->tok.len;
    padvance(p);
    while (p->tok.kind == TOK_NUMBER && !p->tok.is_float) {
      padvance(p);
      if (s < 2) {
        if (p->tok.kind != TOK_STRING) return pexpected(p, "a quoted name");
        end = p->tok.pos + p->tok.len + 2;
        padvance(p);
        continue;
      }
      if (!pexpect(p, TOK_LBRACE, "'{'")) return false;
      while (p->tok.kind == TOK_IDENT) {
        padvance(p);
        if (!pexpect(p, TOK_EQUAL, "'='")) return false;
        if (p->tok.kind != TOK_NUMBER) return pexpected(p, "a number");
        padvance(p);
      }
      if (p->tok.kind != TOK_RBRACE) return pexpected(p, "'}'");
      end = p->tok.pos + 1;
      padvance(p);
    }
  }
  p->m->stack_frames = arena_strndup(&p->m->arena, p->src + start, end - start);
  return p->m->stack_frames ? true : poom(p);
}

/* Depth-first post order over "calls" edges, so that callees precede their
 * callers; source order otherwise. The entry goes last. */
static bool order_computations(Parser *p, Computation *entry) {
  HloModule *m = p->m;
  int n = m->ncomps;
  NameMap index = {0};
  unsigned char *state = cxla_calloc((size_t)n, 1);
  int *stack = cxla_malloc((size_t)n * sizeof(int));
  int *edge = cxla_malloc((size_t)n * sizeof(int)); /* instruction index */
  int *sub = cxla_malloc((size_t)n * sizeof(int));  /* called index in it */
  Computation **out = cxla_malloc((size_t)n * sizeof(Computation *));
  bool ok = state && stack && edge && sub && out;
  if (!ok) poom(p);
  for (int i = 0; ok && i < n; i++)
    if (!namemap_put(&index, m->comps[i]->name, (void *)(intptr_t)(i + 1))) ok = poom(p);
  int nout = 0;
  for (int s = 0; ok && s < n; s++) {
    if (state[s]) continue;
    int sp = 0;
    stack[sp] = s, edge[sp] = 0, sub[sp++] = 0;
    state[s] = 1;
    while (ok && sp > 0) {
      Computation *c = m->comps[stack[sp - 1]];
      /* edge = instruction index, sub = called index within it */
      int *ei = &edge[sp - 1], *si = &sub[sp - 1];
      while (*ei < c->ninstrs && *si >= c->instrs[*ei]->ncalled) (*ei)++, *si = 0;
      if (*ei < c->ninstrs) {
        Computation *callee = c->instrs[*ei]->called[(*si)++];
        int u = (int)(intptr_t)namemap_get(&index, callee->name, strlen(callee->name)) - 1;
        if (state[u] == 0) {
          state[u] = 1;
          stack[sp] = u, edge[sp] = 0, sub[sp++] = 0;
        } else if (state[u] == 1) {
          ok = perr(p, p->comp_pos[u], "computation '%s' calls itself (recursion is not allowed)",
                    callee->name);
        }
      } else {
        state[stack[sp - 1]] = 2;
        if (c != entry) out[nout++] = c;
        sp--;
      }
    }
  }
  if (ok) {
    out[nout++] = entry;
    memcpy(m->comps, out, (size_t)n * sizeof *out);
  }
  namemap_free(&index);
  cxla_free(state);
  cxla_free(stack);
  cxla_free(edge);
  cxla_free(sub);
  cxla_free(out);
  return ok;
}

static bool resolve_computations(Parser *p, Computation *entry) {
  for (int i = 0; i < p->ncfix; i++) {
    Fixup *f = &p->cfix[i];
    Computation *c = namemap_get(&p->comp_names, f->name, f->len);
    if (!c) return perr(p, f->pos, "unknown computation '%.*s'", (int)f->len, f->name);
    if (c == entry)
      return perr(p, f->pos, "the entry computation '%s' cannot be called", c->name);
    *f->slot_comp = c;
    if (f->in->op == OP_FUSION) c->is_fusion = c->contract = true;
  }
  return true;
}

static bool parse_module(Parser *p) {
  padvance(p);
  if (!tok_is(&p->tok, "HloModule")) return pexpected(p, "'HloModule'");
  padvance(p);
  if (p->tok.kind != TOK_IDENT) return pexpected(p, "the module name");
  char *name = arena_strndup(&p->m->arena, p->tok.text, p->tok.len);
  if (!name) return poom(p);
  p->m->name = name;
  padvance(p);
  if (!parse_header_attrs(p)) return false;
  if (tok_is(&p->tok, "FileNames") && !parse_stack_frames(p)) return false;
  Computation *entry = NULL;
  do {
    if (!parse_computation(p, &entry)) return false;
  } while (p->tok.kind != TOK_EOF);
  if (p->err) return false;
  if (!entry) entry = p->m->comps[p->m->ncomps - 1];
  entry->is_entry = true;
  p->m->entry = entry;
  return resolve_computations(p, entry) && order_computations(p, entry);
}

/* ---- public API --------------------------------------------------------------------- */

static cxla_status module_parse(const char *text, size_t len, const char *filename,
                                const cxla_arg_shape *args, int nargs, cxla_module **out) {
  *out = NULL;
  if (!text) return ERR(INVALID_ARGUMENT, "cxla_module_parse: no text");
  /* StableHLO text and portable artifacts go to their own reader. */
  if (shlo_detect_format(text, len) != SHLO_FORMAT_HLO)
    return shlo_module_parse_refined(text, len, filename, args, nargs, out);
  Parser p;
  memset(&p, 0, sizeof p);
  p.src = text;
  p.len = len;
  p.file = filename ? filename : "<input>";
  const char *why;
  size_t bad = hlo_check_text(text, len, &why);
  if (bad < len) return hlo_error_at(CXLA_INVALID_ARGUMENT, p.file, text, len, bad, why);
  TRY(module_create("module", &p.m));
  lexer_init(&p.lx, text, len);
  parse_module(&p);
  namemap_free(&p.instr_names);
  namemap_free(&p.comp_names);
  cxla_free(p.ifix);
  cxla_free(p.cfix);
  cxla_free(p.instr_pos);
  cxla_free(p.comp_pos);
  if (p.err) {
    module_destroy(p.m);
    return p.err;
  }
  cxla_status s = module_mark_side_effects(p.m);
  if (s) {
    module_destroy(p.m);
    return s;
  }
  *out = p.m;
  return NULL;
}

cxla_status cxla_module_parse(const char *text, size_t len, const char *filename,
                              cxla_module **out) {
  unsigned fp = fpenv_default_enter();
  cxla_status s = module_parse(text, len, filename, NULL, -1, out);
  fpenv_leave(fp);
  return s;
}

cxla_status cxla_module_parse_refined(const char *text, size_t len, const char *filename,
                                      const cxla_arg_shape *args, int nargs,
                                      cxla_module **out) {
  *out = NULL;
  if (nargs < 0 || (nargs > 0 && !args))
    return ERR(INVALID_ARGUMENT, "cxla_module_parse_refined: bad argument shapes");
  for (int i = 0; i < nargs; i++)
    if (args[i].rank < 0 || args[i].rank > HLO_MAX_RANK || (args[i].rank > 0 && !args[i].dims))
      return ERR(INVALID_ARGUMENT, "cxla_module_parse_refined: bad shape for argument %d", i);
  unsigned fp = fpenv_default_enter();
  cxla_status s = module_parse(text, len, filename, args, nargs, out);
  fpenv_leave(fp);
  return s;
}

cxla_status cxla_module_parse_file(const char *path, cxla_module **out) {
  *out = NULL;
  char *text;
  size_t len;
  TRY(cxla_read_file(path, (int64_t)1 << 32, &text, &len));
  cxla_status st = cxla_module_parse(text, len, path, out);
  cxla_free(text);
  return st;
}
