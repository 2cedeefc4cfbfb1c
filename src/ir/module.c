/* Modules, computations, instructions: creation and lookup. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

cxla_status module_create(const char *name, HloModule **out) {
  *out = NULL;
  HloModule *m = cxla_calloc(1, sizeof *m);
  if (!m) return cxla_oom();
  arena_init(&m->arena);
  m->name = arena_strdup(&m->arena, name ? name : "module");
  if (!m->name) {
    module_destroy(m);
    return cxla_oom();
  }
  *out = m;
  return NULL;
}

void module_destroy(HloModule *m) {
  if (!m) return;
  for (int i = 0; i < m->nliterals; i++) literal_free(m->literals[i]);
  cxla_free(m->literals);
  cxla_free(m->comps);
  namemap_free(&m->comp_names);
  namemap_free(&m->comp_suffix);
  arena_destroy(&m->arena);
  cxla_free(m);
}

static bool grow(void **arr, int *cap, int need, size_t elem) {
  if (need <= *cap) return true;
  int nc = *cap ? *cap * 2 : 8;
  while (nc < need) nc *= 2;
  void *p = cxla_realloc(*arr, (size_t)nc * elem);
  if (!p) return false;
  *arr = p;
  *cap = nc;
  return true;
}

Computation *module_add_computation(HloModule *m, const char *name) {
  if (!grow((void **)&m->comps, &m->cap, m->ncomps + 1, sizeof(Computation *))) return NULL;
  Computation *c = arena_alloc(&m->arena, sizeof *c);
  if (!c) return NULL;
  c->name = arena_strdup(&m->arena, name);
  if (!c->name) return NULL;
  c->module = m;
  if (!module_note_comp_name(m, c->name)) return NULL;
  m->comps[m->ncomps++] = c;
  return c;
}

bool module_note_comp_name(HloModule *m, const char *name) {
  return !m->comp_names_built || namemap_set(&m->comp_names, name, (void *)name);
}

Computation *module_find_computation(const HloModule *m, const char *name) {
  for (int i = 0; i < m->ncomps; i++)
    if (strcmp(m->comps[i]->name, name) == 0) return m->comps[i];
  return NULL;
}

cxla_status module_own_literal(HloModule *m, Literal *l) {
  if (!grow((void **)&m->literals, &m->literal_cap, m->nliterals + 1, sizeof(Literal *))) {
    literal_free(l);
    return cxla_oom();
  }
  m->literals[m->nliterals++] = l;
  return NULL;
}

void module_note_name(HloModule *m, const char *name) {
  const char *dot = strrchr(name, '.');
  if (!dot || !dot[1]) return;
  int64_t v = 0;
  const char *p = dot + 1;
  for (; *p >= '0' && *p <= '9' && v < ((int64_t)1 << 40); p++) v = v * 10 + (*p - '0');
  if (*p != '\0' || v <= m->next_id) return;
  /* A suffix past 2^30 is absurd; fresh names may then collide, which the
   * verifier reports (two instructions with one name). */
  m->next_id = v < ((int64_t)1 << 30) ? (int)v : (1 << 30);
}

/* Room for one more instruction in c's list. Computation instruction
 * arrays live in the arena too: grow by copying. */
static bool comp_room(Computation *c) {
  if (c->ninstrs + 1 <= c->cap) return true;
  int nc = c->cap ? c->cap * 2 : 16;
  Instr **arr = arena_array(&c->module->arena, (size_t)nc, sizeof(Instr *));
  if (!arr) return false;
  if (c->ninstrs) memcpy(arr, c->instrs, (size_t)c->ninstrs * sizeof(Instr *));
  c->instrs = arr;
  c->cap = nc;
  return true;
}

bool comp_move_instr(Computation *c, Instr *in) {
  if (!comp_room(c)) return false;
  in->parent = c;
  c->instrs[c->ninstrs++] = in;
  return true;
}

Instr *comp_add_instr(Computation *c, Opcode op, Shape *shape, int nops,
                      Instr *const *ops, const char *name) {
  HloModule *m = c->module;
  if (!comp_room(c)) return NULL;
  Instr *in = arena_alloc(&m->arena, sizeof *in);
  if (!in) return NULL;
  in->op = op;
  in->shape = shape;
  in->parent = c;
  in->noperands = nops;
  if (nops) {
    in->operands = arena_array(&m->arena, (size_t)nops, sizeof(Instr *));
    if (!in->operands) return NULL;
    memcpy(in->operands, ops, (size_t)nops * sizeof(Instr *));
  }
  if (name) {
    in->name = arena_strdup(&m->arena, name);
    if (in->name) module_note_name(m, in->name);
  } else {
    char buf[96];
    snprintf(buf, sizeof buf, "%s.%d", op_name(op), ++m->next_id);
    in->name = arena_strdup(&m->arena, buf);
  }
  if (!in->name) return NULL;
  in->feature_group_count = 1;
  in->batch_group_count = 1;
  if (op == OP_GATHER) in->gather.index_vector_dim = -1; /* absent */
  if (op == OP_SCATTER) in->scatter.index_vector_dim = -1;
  in->id = c->ninstrs;
  c->instrs[c->ninstrs++] = in;
  return in;
}

void comp_renumber(Computation *c) {
  for (int i = 0; i < c->ninstrs; i++) c->instrs[i]->id = i;
}

Instr *comp_find_instr(const Computation *c, const char *name) {
  for (int i = 0; i < c->ninstrs; i++)
    if (strcmp(c->instrs[i]->name, name) == 0) return c->instrs[i];
  return NULL;
}

cxla_status instr_add_raw(HloModule *m, Instr *in, const char *name, const char *value) {
  RawAttr *r = arena_array(&m->arena, (size_t)in->nraw + 1, sizeof(RawAttr));
  if (!r) return cxla_oom();
  if (in->nraw) memcpy(r, in->raw, (size_t)in->nraw * sizeof(RawAttr));
  r[in->nraw].name = arena_strdup(&m->arena, name);
  r[in->nraw].value = arena_strdup(&m->arena, value);
  if (!r[in->nraw].name || !r[in->nraw].value) return cxla_oom();
  in->raw = r;
  in->nraw++;
  return NULL;
}

const char *instr_raw(const Instr *in, const char *name) {
  for (int i = 0; i < in->nraw; i++)
    if (strcmp(in->raw[i].name, name) == 0) return in->raw[i].value;
  return NULL;
}

int instr_config_char(const Instr *in, const char *key, int dflt) {
  const char *cfg = instr_raw(in, "backend_config");
  if (!cfg) return dflt;
  size_t kl = strlen(key);
  for (const char *p = strstr(cfg, key); p; p = strstr(p + 1, key)) {
    bool start_ok = p == cfg || strchr("{ ,\"", p[-1]);
    const char *q = p + kl;
    while (*q == ' ') q++;
    if (!start_ok || *q != '=') continue;
    q++;
    while (*q == ' ') q++;
    char *end;
    long v = strtol(q, &end, 10);
    if (end != q) return (int)v;
  }
  return dflt;
}

/* ---- public API ---- */

void cxla_module_destroy(cxla_module *m) { module_destroy(m); }

int cxla_module_num_parameters(const cxla_module *m) {
  return m->entry ? m->entry->nparams : 0;
}

cxla_status cxla_module_parameter(const cxla_module *m, int i, cxla_type *out_type,
                                  int *out_rank, const int64_t **out_dims) {
  *out_type = T_COUNT;
  *out_rank = 0;
  *out_dims = NULL;
  if (!m->entry || i < 0 || i >= m->entry->nparams || !m->entry->params[i])
    return ERR(INVALID_ARGUMENT, "module has no parameter %d", i);
  const Shape *s = m->entry->params[i]->shape;
  *out_type = s->type;
  *out_rank = s->rank;
  *out_dims = s->dims;
  return NULL;
}
