/* Buffer assignment: schedule, liveness, in-place reuse and arena offsets.
 * See buffer_assignment.h for the model. The pass "buffer-assignment" only
 * analyses: it leaves the report in ctx->report and never changes m. */
#include "passes/buffer_assignment.h"

#include <stdlib.h>
#include <string.h>

#include "ir/rewrite.h"
#include "passes/passes.h"

#define BA_ALIGN 64
#define BA_MAX_DEPTH 32 /* nesting of while/conditional/call bodies */

/* ---- dataflow: which value each array leaf of each instruction holds ---- */

/* Schedule-independent facts about one computation. */
typedef struct Flow {
  const Computation *c;
  int n;            /* instructions */
  int *leaf_base;   /* per instruction id: first entry in leafval */
  int *nleaves;     /* per instruction id */
  int *leafval;     /* value id per leaf, -1 for none */
  int nvalues;
  const Instr **vinstr; /* defining instruction per value */
  int *vleaf;           /* leaf of the defining instruction */
  int64_t *vsize;
  bool *live_out;       /* a leaf of the root */
  int *rd_start;        /* readers of value v: rd[rd_start[v] .. rd_start[v+1]) */
  int *rd;              /* instruction ids */
  /* per tuple-shaped instruction id, the first entry in elem_leaf, which
   * holds for each tuple element the leaves before it (-1: not a tuple):
   * a get-tuple-element finds its leaves in O(1), where a sum over the
   * elements before it made a state of N elements cost N^2 */
  int *elem_base;
  int *elem_leaf;
} Flow;

static int count_leaves(const Shape *s) {
  if (s->type == T_TUPLE) {
    int n = 0;
    for (int i = 0; i < s->ntuple; i++) n += count_leaves(s->tuple[i]);
    return n;
  }
  return type_is_array(s->type) ? 1 : 0;
}

/* The array leaves of s in depth-first order into out (room for
 * count_leaves(s)); returns how many. */
static int fill_leaf_shapes(const Shape *s, const Shape **out) {
  if (s->type != T_TUPLE) {
    if (!type_is_array(s->type)) return 0;
    out[0] = s;
    return 1;
  }
  int n = 0;
  for (int i = 0; i < s->ntuple; i++) n += fill_leaf_shapes(s->tuple[i], out + n);
  return n;
}

/* The shape of array leaf `leaf` of s (depth-first order); appends its
 * ShapeIndex to path when path is non-NULL. */
static const Shape *leaf_shape(const Shape *s, int leaf, StrBuf *path) {
  if (s->type != T_TUPLE) return s;
  for (int i = 0; i < s->ntuple; i++) {
    int k = count_leaves(s->tuple[i]);
    if (leaf < k) {
      if (path) sb_printf(path, path->len && path->data[path->len - 1] != '{' ? ",%d" : "%d", i);
      return leaf_shape(s->tuple[i], leaf, path);
    }
    leaf -= k;
  }
  return s;
}

static int64_t array_bytes(const Shape *s) {
  int64_t b;
  if (!mul_i64(shape_elems(s), type_bytes(s->type), &b)) return INT64_MAX / 4;
  return b;
}

/* Views: instructions whose leaves are their operands' leaves. */
static bool is_view(const Instr *in) {
  switch (in->op) {
  case OP_GET_TUPLE_ELEMENT: case OP_TUPLE: case OP_OPT_BARRIER:
  case OP_ADD_DEPENDENCY: case OP_DOMAIN:
    return in->noperands >= 1;
  case OP_BITCAST:
    return in->noperands == 1 && count_leaves(in->shape) == 1 &&
           count_leaves(in->operands[0]->shape) == 1;
  default:
    return false;
  }
}

static void flow_free(Flow *f) {
  cxla_free(f->leaf_base);
  cxla_free(f->nleaves);
  cxla_free(f->leafval);
  cxla_free(f->vinstr);
  cxla_free(f->vleaf);
  cxla_free(f->vsize);
  cxla_free(f->live_out);
  cxla_free(f->rd_start);
  cxla_free(f->rd);
  cxla_free(f->elem_base);
  cxla_free(f->elem_leaf);
  memset(f, 0, sizeof *f);
}

/* Fills the leaves of a view from its operands' leaves. */
static void view_leaves(Flow *f, const Instr *in, int *dst) {
  const Instr *op0 = in->operands[0];
  const int *src = f->leafval + f->leaf_base[op0->id];
  int n = f->nleaves[in->id];
  if (in->op == OP_TUPLE) {
    int k = 0;
    for (int i = 0; i < in->noperands && k < n; i++) {
      const Instr *op = in->operands[i];
      for (int j = 0; j < f->nleaves[op->id] && k < n; j++)
        dst[k++] = f->leafval[f->leaf_base[op->id] + j];
    }
    return;
  }
  int skip = 0;
  if (in->op == OP_GET_TUPLE_ELEMENT && op0->shape->type == T_TUPLE && f->elem_base[op0->id] >= 0 &&
      in->index >= 0)
    skip = f->elem_leaf[f->elem_base[op0->id] + (in->index < op0->shape->ntuple ? in->index : op0->shape->ntuple)];
  for (int j = 0; j < n; j++)
    dst[j] = skip + j < f->nleaves[op0->id] ? src[skip + j] : -1;
}

static cxla_status flow_build(const Computation *c, Flow *f) {
  memset(f, 0, sizeof *f);
  f->c = c;
  int n = f->n = c->ninstrs;
  for (int i = 0; i < n; i++)
    if (c->instrs[i]->id != i)
      return ERR(FAILED_PRECONDITION, "buffer assignment: computation %%%s has stale ids", c->name);
  f->leaf_base = cxla_calloc((size_t)n + 1, sizeof(int));
  f->nleaves = cxla_calloc((size_t)n + 1, sizeof(int));
  if (!f->leaf_base || !f->nleaves) return cxla_oom();
  f->elem_base = cxla_malloc(((size_t)n + 1) * sizeof(int));
  if (!f->elem_base) return cxla_oom();
  int total = 0, ndef = 0, nelem = 0, maxleaves = 0;
  for (int i = 0; i < n; i++) {
    const Shape *sh = c->instrs[i]->shape;
    f->elem_base[i] = sh->type == T_TUPLE ? nelem : -1;
    if (sh->type == T_TUPLE) nelem += sh->ntuple + 1;
  }
  f->elem_leaf = cxla_malloc(((size_t)nelem + 1) * sizeof(int));
  if (!f->elem_leaf) return cxla_oom();
  for (int i = 0; i < n; i++) {
    const Shape *sh = c->instrs[i]->shape;
    f->leaf_base[i] = total;
    if (sh->type == T_TUPLE) {
      int *e = f->elem_leaf + f->elem_base[i], k = 0;
      for (int t = 0; t < sh->ntuple; t++) {
        e[t] = k;
        k += count_leaves(sh->tuple[t]);
      }
      e[sh->ntuple] = k;
      f->nleaves[i] = k;
    } else {
      f->nleaves[i] = count_leaves(sh);
    }
    total += f->nleaves[i];
    if (!is_view(c->instrs[i])) ndef += f->nleaves[i];
    if (f->nleaves[i] > maxleaves) maxleaves = f->nleaves[i];
  }
  const Shape **leaves = cxla_malloc(((size_t)maxleaves + 1) * sizeof *leaves);
  if (!leaves) return cxla_oom();
  f->leafval = cxla_calloc((size_t)total + 1, sizeof(int));
  f->vinstr = cxla_calloc((size_t)ndef + 1, sizeof(Instr *));
  f->vleaf = cxla_calloc((size_t)ndef + 1, sizeof(int));
  f->vsize = cxla_calloc((size_t)ndef + 1, sizeof(int64_t));
  f->live_out = cxla_calloc((size_t)ndef + 1, sizeof(bool));
  f->rd_start = cxla_calloc((size_t)ndef + 2, sizeof(int));
  if (!f->leafval || !f->vinstr || !f->vleaf || !f->vsize || !f->live_out || !f->rd_start) {
    cxla_free(leaves);
    return cxla_oom();
  }
  for (int i = 0; i < n; i++) {
    const Instr *in = c->instrs[i];
    int *dst = f->leafval + f->leaf_base[i];
    if (is_view(in)) {
      view_leaves(f, in, dst);
      continue;
    }
    fill_leaf_shapes(in->shape, leaves);
    for (int j = 0; j < f->nleaves[i]; j++) {
      int v = f->nvalues++;
      f->vinstr[v] = in;
      f->vleaf[v] = j;
      f->vsize[v] = array_bytes(leaves[j]);
      dst[j] = v;
    }
  }
  cxla_free(leaves);
  if (c->root)
    for (int j = 0; j < f->nleaves[c->root->id]; j++) {
      int v = f->leafval[f->leaf_base[c->root->id] + j];
      if (v >= 0) f->live_out[v] = true;
    }
  /* Readers, two passes (count, fill). A reader is a non-view instruction
   * that has the value in one of its operands' leaves. */
  int *last_reader = cxla_malloc(((size_t)f->nvalues + 1) * sizeof(int));
  if (!last_reader) return cxla_oom();
  for (int pass = 0; pass < 2; pass++) {
    for (int v = 0; v < f->nvalues; v++) last_reader[v] = -1;
    int *fill = pass ? f->rd_start : NULL;
    int *cursor = NULL;
    if (pass) {
      f->rd = cxla_malloc(((size_t)f->rd_start[f->nvalues] + 1) * sizeof(int));
      cursor = cxla_malloc(((size_t)f->nvalues + 1) * sizeof(int));
      if (!f->rd || !cursor) {
        cxla_free(cursor);
        cxla_free(last_reader);
        return cxla_oom();
      }
      memcpy(cursor, fill, (size_t)f->nvalues * sizeof(int));
    }
    for (int i = 0; i < n; i++) {
      const Instr *in = c->instrs[i];
      if (is_view(in)) continue;
      for (int k = 0; k < in->noperands; k++) {
        const Instr *op = in->operands[k];
        for (int j = 0; j < f->nleaves[op->id]; j++) {
          int v = f->leafval[f->leaf_base[op->id] + j];
          if (v < 0 || last_reader[v] == i) continue;
          last_reader[v] = i;
          if (pass) f->rd[cursor[v]++] = i;
          else f->rd_start[v + 1]++;
        }
      }
    }
    if (!pass)
      for (int v = 0; v < f->nvalues; v++) f->rd_start[v + 1] += f->rd_start[v];
    cxla_free(cursor);
  }
  cxla_free(last_reader);
  return NULL;
}

/* ---- schedules --------------------------------------------------------------- */

static const Instr **schedule_in_order(const Flow *f) {
  const Instr **s = cxla_malloc(((size_t)f->n + 1) * sizeof(Instr *));
  if (s)
    for (int i = 0; i < f->n; i++) s[i] = f->c->instrs[i];
  return s;
}

/* Bytes of temporaries an instruction defines (parameters and constants
 * live elsewhere). */
static int64_t defined_bytes(const Flow *f, const Instr *in) {
  if (is_view(in) || in->op == OP_PARAMETER || in->op == OP_CONSTANT) return 0;
  int64_t b = 0;
  for (int j = 0; j < f->nleaves[in->id]; j++) {
    int v = f->leafval[f->leaf_base[in->id] + j];
    if (v >= 0) b += f->vsize[v];
  }
  return b;
}

/* A binary heap of ready instructions, best first: larger gain, then the
 * earlier instruction. Entries go stale when an instruction's gain grows
 * (it is pushed again) or it is scheduled; pop skips those. */
typedef struct Ready {
  int64_t gain;
  int idx;
} Ready;

static bool ready_before(Ready a, Ready b) {
  return a.gain != b.gain ? a.gain > b.gain : a.idx < b.idx;
}

static void heap_push(Ready *h, int *n, Ready x) {
  int i = (*n)++;
  while (i > 0 && ready_before(x, h[(i - 1) / 2])) {
    h[i] = h[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  h[i] = x;
}

static Ready heap_pop(Ready *h, int *n) {
  Ready top = h[0], x = h[--*n];
  int i = 0;
  for (;;) {
    int c = 2 * i + 1;
    if (c >= *n) break;
    if (c + 1 < *n && ready_before(h[c + 1], h[c])) c++;
    if (!ready_before(h[c], x)) break;
    h[i] = h[c];
    i = c;
  }
  if (*n > 0) h[i] = x;
  return top;
}

/* Greedy list scheduling: among the ready instructions, take the one that
 * frees the most bytes net of what it defines; ties go to the earlier
 * instruction, so a computation with nothing to gain keeps its order.
 * gain[i] is kept current: a value's bytes count for its last unscheduled
 * reader once only one is left. A heap of ready instructions: N log N. */
static const Instr **schedule_list(const Flow *f) {
  int n = f->n, nv = f->nvalues;
  const Computation *c = f->c;
  int nreads = f->rd_start[nv];
  const Instr **s = cxla_malloc(((size_t)n + 1) * sizeof(Instr *));
  int *pending = cxla_calloc((size_t)n + 1, sizeof(int)); /* unscheduled deps */
  int *remaining = cxla_calloc((size_t)nv + 1, sizeof(int));
  bool *done = cxla_calloc((size_t)n + 1, sizeof(bool));
  int64_t *gain = cxla_calloc((size_t)n + 1, sizeof(int64_t));
  int *mark = cxla_malloc(((size_t)n + 1) * sizeof(int));
  int *rs = cxla_calloc((size_t)n + 2, sizeof(int)); /* values read by i: reads[rs[i]..rs[i+1]) */
  int *reads = cxla_malloc(((size_t)nreads + 1) * sizeof(int));
  int *cs = cxla_calloc((size_t)n + 2, sizeof(int)); /* control successors, same layout */
  int ncs = 0;
  for (int i = 0; i < n; i++) ncs += c->instrs[i]->ncontrol_preds;
  int *succ = cxla_malloc(((size_t)ncs + 1) * sizeof(int));
  Ready *heap = cxla_malloc(((size_t)n + (size_t)nv + 1) * sizeof(Ready));
  int nheap = 0;
  Users u = {0};
  cxla_status st = users_build(c, &u);
  if (!s || !pending || !remaining || !done || !gain || !mark || !rs || !reads || !cs || !succ ||
      !heap || st) {
    cxla_status_free(st);
    cxla_free(s);
    s = NULL;
    goto out;
  }
  for (int i = 0; i < n; i++) mark[i] = -1;
  for (int i = 0; i < n; i++) {
    const Instr *in = c->instrs[i];
    for (int k = 0; k < in->noperands; k++) {
      int o = in->operands[k]->id;
      if (mark[o] == i) continue;
      mark[o] = i;
      pending[i]++;
    }
    pending[i] += in->ncontrol_preds;
    for (int k = 0; k < in->ncontrol_preds; k++) cs[in->control_preds[k]->id + 1]++;
  }
  for (int i = 0; i < n; i++) cs[i + 1] += cs[i];
  for (int i = 0; i < n; i++) mark[i] = cs[i];
  for (int i = 0; i < n; i++) {
    const Instr *in = c->instrs[i];
    for (int k = 0; k < in->ncontrol_preds; k++) succ[mark[in->control_preds[k]->id]++] = i;
  }
  for (int v = 0; v < nv; v++)
    for (int r = f->rd_start[v]; r < f->rd_start[v + 1]; r++) rs[f->rd[r] + 1]++;
  for (int i = 0; i < n; i++) rs[i + 1] += rs[i];
  for (int i = 0; i < n; i++) mark[i] = rs[i];
  for (int v = 0; v < nv; v++)
    for (int r = f->rd_start[v]; r < f->rd_start[v + 1]; r++) reads[mark[f->rd[r]]++] = v;
  for (int v = 0; v < nv; v++) remaining[v] = f->rd_start[v + 1] - f->rd_start[v];
  for (int i = 0; i < n; i++) {
    gain[i] = -defined_bytes(f, c->instrs[i]);
    for (int r = rs[i]; r < rs[i + 1]; r++) {
      int v = reads[r];
      if (remaining[v] == 1 && !f->live_out[v]) gain[i] += f->vsize[v];
    }
    if (!pending[i]) heap_push(heap, &nheap, (Ready){gain[i], i});
  }
  for (int step = 0; step < n; step++) {
    int best = -1;
    while (nheap > 0 && best < 0) {
      Ready r = heap_pop(heap, &nheap);
      if (!done[r.idx] && r.gain == gain[r.idx]) best = r.idx;
    }
    if (best < 0) { /* a cycle: cannot happen in a verified module */
      cxla_free(s);
      s = NULL;
      goto out;
    }
    const Instr *in = c->instrs[best];
    s[step] = in;
    done[best] = true;
    for (int r = rs[best]; r < rs[best + 1]; r++) {
      int v = reads[r];
      if (--remaining[v] != 1 || f->live_out[v]) continue;
      for (int q = f->rd_start[v]; q < f->rd_start[v + 1]; q++) {
        int last = f->rd[q];
        if (done[last]) continue;
        gain[last] += f->vsize[v];
        if (!pending[last]) heap_push(heap, &nheap, (Ready){gain[last], last});
        break;
      }
    }
    for (int r = 0; r < u.count[best]; r++) {
      int k = u.list[best][r]->id;
      if (--pending[k] == 0) heap_push(heap, &nheap, (Ready){gain[k], k});
    }
    for (int r = cs[best]; r < cs[best + 1]; r++)
      if (--pending[succ[r]] == 0) heap_push(heap, &nheap, (Ready){gain[succ[r]], succ[r]});
  }
out:
  users_free(&u);
  cxla_free(pending);
  cxla_free(remaining);
  cxla_free(done);
  cxla_free(gain);
  cxla_free(mark);
  cxla_free(rs);
  cxla_free(reads);
  cxla_free(cs);
  cxla_free(succ);
  cxla_free(heap);
  return s;
}

/* ---- planning ------------------------------------------------------------------ */

/* The plans of called computations, made once each: a list in planning
 * order (callees before callers) and a hash from computation to index. */
typedef struct Memo {
  int n, cap;
  const Computation **comp;
  BufferPlan *plans;
  int *slot;       /* hash slots: index + 1, 0 = empty; nslot a power of 2 */
  int nslot;
} Memo;

static void memo_free(Memo *m) {
  for (int i = 0; i < m->n; i++) buffer_plan_free(&m->plans[i]);
  cxla_free(m->comp);
  cxla_free(m->plans);
  cxla_free(m->slot);
  memset(m, 0, sizeof *m);
}

static size_t memo_hash(const Computation *c, int nslot) {
  uintptr_t x = (uintptr_t)c;
  x ^= x >> 17;
  x *= 0x9e3779b97f4a7c15ull;
  return (size_t)(x >> 32) & (size_t)(nslot - 1);
}

static int memo_find(const Memo *m, const Computation *c) {
  if (!m->nslot) return -1;
  for (size_t h = memo_hash(c, m->nslot);; h = (h + 1) & (size_t)(m->nslot - 1)) {
    int k = m->slot[h];
    if (!k) return -1;
    if (m->comp[k - 1] == c) return k - 1;
  }
}

/* Takes ownership of *p (zeroed on return, also on error). */
static cxla_status memo_add(Memo *m, const Computation *c, BufferPlan *p) {
  if (m->n == m->cap) {
    int cap = m->cap ? 2 * m->cap : 8;
    const Computation **nc = cxla_realloc(m->comp, (size_t)cap * sizeof *nc);
    if (nc) m->comp = nc;
    BufferPlan *np = nc ? cxla_realloc(m->plans, (size_t)cap * sizeof *np) : NULL;
    if (np) m->plans = np;
    int *ns = np ? cxla_calloc((size_t)cap * 2, sizeof *ns) : NULL;
    if (!ns) {
      buffer_plan_free(p);
      return cxla_oom();
    }
    cxla_free(m->slot);
    m->slot = ns;
    m->nslot = cap * 2;
    m->cap = cap;
    for (int i = 0; i < m->n; i++) {
      size_t h = memo_hash(m->comp[i], m->nslot);
      while (m->slot[h]) h = (h + 1) & (size_t)(m->nslot - 1);
      m->slot[h] = i + 1;
    }
  }
  m->comp[m->n] = c;
  m->plans[m->n] = *p;
  memset(p, 0, sizeof *p);
  size_t h = memo_hash(c, m->nslot);
  while (m->slot[h]) h = (h + 1) & (size_t)(m->nslot - 1);
  m->slot[h] = ++m->n;
  return NULL;
}

static cxla_status plan_with_schedule(const Flow *f, const Instr **sched, Memo *memo,
                                      int depth, BufferPlan *p);

/* The arena a called computation needs (its temporaries); its plan is kept
 * in the memo. */
static cxla_status callee_bytes(const Computation *c, Memo *memo, int depth, int64_t *out) {
  *out = 0;
  int k = memo_find(memo, c);
  if (k >= 0) {
    *out = memo->plans[k].temp_bytes;
    return NULL;
  }
  if (depth > BA_MAX_DEPTH)
    return ERR(UNIMPLEMENTED, "buffer assignment: calls nested deeper than %d", BA_MAX_DEPTH);
  Flow f;
  cxla_status st = flow_build(c, &f);
  BufferPlan p;
  memset(&p, 0, sizeof p);
  const Instr **sched = st ? NULL : schedule_in_order(&f);
  if (!st && !sched) st = cxla_oom();
  if (!st) st = plan_with_schedule(&f, sched, memo, depth + 1, &p);
  else cxla_free(sched);
  flow_free(&f);
  if (st) return st;
  *out = p.temp_bytes;
  return memo_add(memo, c, &p);
}

/* Whether fused parameter k of a kLoop fusion only feeds elementwise ops of
 * the fusion's shape (or the updated operand of a dynamic-update-slice), so
 * that element i of the result is written after element i of the operand
 * was last read. */
static bool fused_param_elementwise(const Computation *fc, int64_t k, const Shape *out) {
  if (k >= fc->nparams || !fc->params[k]) return false;
  int n = fc->ninstrs;
  bool *mark = cxla_calloc((size_t)n + 1, sizeof(bool));
  if (!mark) return false;
  bool ok = true;
  for (int i = 0; i < n && ok; i++) {
    const Instr *in = fc->instrs[i];
    if (in == fc->params[k]) {
      mark[i] = true;
      continue;
    }
    bool uses = false;
    for (int j = 0; j < in->noperands; j++)
      if (in->operands[j]->id >= 0 && in->operands[j]->id < n &&
          fc->instrs[in->operands[j]->id] == in->operands[j] && mark[in->operands[j]->id])
        uses = true;
    if (!uses) continue;
    if ((op_info(in->op)->flags & OPF_EW) && !(op_info(in->op)->flags & OPF_CTRL) &&
        shape_compatible(in->shape, out))
      mark[i] = true;
    else if (in->op == OP_DYNAMIC_UPDATE_SLICE && mark[in->operands[0]->id]) {
      for (int j = 1; j < in->noperands; j++) ok &= !mark[in->operands[j]->id];
      mark[i] = ok;
    } else
      ok = false;
  }
  cxla_free(mark);
  return ok;
}

/* Whether `in` may write its (single, array) result over operand k. */
static bool can_share(const Instr *in, int k) {
  const Shape *os = in->operands[k]->shape;
  if (in->shape->type == T_TUPLE || os->type == T_TUPLE) return false;
  bool same = shape_compatible(in->shape, os) ||
              (in->shape->rank == os->rank && type_bytes(in->shape->type) == type_bytes(os->type) &&
               (os->rank == 0 || memcmp(in->shape->dims, os->dims, (size_t)os->rank * sizeof(int64_t)) == 0));
  if (!same) return false;
  unsigned fl = op_info(in->op)->flags;
  if ((fl & OPF_EW) && !(fl & OPF_CTRL)) return true;
  if (in->op == OP_DYNAMIC_UPDATE_SLICE || in->op == OP_SCATTER) return k == 0;
  if (in->op == OP_FUSION && in->fusion_kind == FUSION_LOOP && in->ncalled == 1)
    return fused_param_elementwise(in->called[0], k, in->shape);
  return false;
}

typedef struct Builder {
  BufferPlan *p;
  int cap;
  int *vcap; /* per buffer capacity of its values array */
} Builder;

static int new_buffer(Builder *b, BufKind kind) {
  BufferPlan *p = b->p;
  if (p->nbuffers == b->cap) {
    int nc = b->cap ? 2 * b->cap : 16;
    LogicalBuffer *nb = cxla_realloc(p->buffers, (size_t)nc * sizeof *nb);
    int *nv = nb ? cxla_realloc(b->vcap, (size_t)nc * sizeof(int)) : NULL;
    if (nb) p->buffers = nb;
    if (!nv) return -1;
    b->vcap = nv;
    b->cap = nc;
  }
  LogicalBuffer *lb = &p->buffers[p->nbuffers];
  memset(lb, 0, sizeof *lb);
  lb->kind = kind;
  lb->offset = -1;
  lb->host = -1;
  lb->param_number = -1;
  lb->first = INT32_MAX;
  lb->last = -1;
  b->vcap[p->nbuffers] = 0;
  return p->nbuffers++;
}

static bool buffer_add_value(Builder *b, int buf, int v) {
  LogicalBuffer *lb = &b->p->buffers[buf];
  if (lb->nvalues == b->vcap[buf]) {
    int nc = b->vcap[buf] ? 2 * b->vcap[buf] : 2;
    int *nv = cxla_realloc(lb->values, (size_t)nc * sizeof(int));
    if (!nv) return false;
    lb->values = nv;
    b->vcap[buf] = nc;
  }
  lb->values[lb->nvalues++] = v;
  BufValue *bv = &b->p->values[v];
  bv->buffer = buf;
  if (bv->size > lb->size) lb->size = bv->size;
  if (bv->def < lb->first) lb->first = bv->def;
  if (bv->last > lb->last) lb->last = bv->last;
  return true;
}

/* The value in leaf j of operand k of in, or -1. */
static int operand_value(const Flow *f, const Instr *in, int k, int j) {
  const Instr *op = in->operands[k];
  return j < f->nleaves[op->id] ? f->leafval[f->leaf_base[op->id] + j] : -1;
}

/* Whether some operand other than k of `in` holds a value of buffer buf. */
static bool buffer_read_elsewhere(const Flow *f, const BufferPlan *p, const Instr *in, int k, int buf) {
  for (int kk = 0; kk < in->noperands; kk++) {
    if (kk == k) continue;
    const Instr *op = in->operands[kk];
    for (int j = 0; j < f->nleaves[op->id]; j++) {
      int v = f->leafval[f->leaf_base[op->id] + j];
      if (v >= 0 && p->values[v].buffer == buf) return true;
    }
  }
  return false;
}

/* A buffer that may be taken over at step s: a temporary whose values are
 * all dead after s, not yet taken by another result at this step. */
static bool takeable(const BufferPlan *p, int buf, int s, const int *taken, int64_t size) {
  const LogicalBuffer *lb = &p->buffers[buf];
  return lb->kind == BUF_TEMP && lb->last == s && taken[buf] != s && lb->size == size;
}

/* Groups the values of the instruction at step s into buffers. taken[buf]
 * is the step that last claimed buf. */
static cxla_status assign_instr(Builder *b, const Flow *f, const Instr *in, int s, int *taken) {
  BufferPlan *p = b->p;
  int nl = f->nleaves[in->id];
  for (int j = 0; j < nl; j++) {
    int v = f->leafval[f->leaf_base[in->id] + j];
    if (v < 0) continue;
    int buf = -1;
    if (in->op == OP_PARAMETER || in->op == OP_CONSTANT) {
      buf = new_buffer(b, in->op == OP_PARAMETER ? BUF_PARAMETER : BUF_CONSTANT);
      if (buf >= 0 && in->op == OP_PARAMETER) p->buffers[buf].param_number = in->param_number;
    } else if (in->op == OP_WHILE) {
      int u = operand_value(f, in, 0, j);
      if (u >= 0 && takeable(p, p->values[u].buffer, s, taken, p->values[v].size)) buf = p->values[u].buffer;
    } else {
      for (int k = 0; k < in->noperands && buf < 0 && nl == 1; k++) {
        int u = operand_value(f, in, k, 0);
        if (u < 0 || f->nleaves[in->operands[k]->id] != 1) continue;
        int ub = p->values[u].buffer;
        if (!takeable(p, ub, s, taken, p->values[v].size) || !can_share(in, k)) continue;
        bool ew = (op_info(in->op)->flags & OPF_EW) != 0;
        if (!ew && buffer_read_elsewhere(f, p, in, k, ub)) continue;
        buf = ub;
      }
    }
    if (buf >= 0 && p->buffers[buf].kind == BUF_TEMP && p->buffers[buf].nvalues > 0) {
      p->inplace_count++;
      taken[buf] = s;
    }
    if (buf < 0 && (buf = new_buffer(b, BUF_TEMP)) < 0) return cxla_oom();
    if (!buffer_add_value(b, buf, v)) return cxla_oom();
  }
  return NULL;
}

/* The array leaf number (depth-first, as count_leaves counts) that shape
 * index ix names in s, or -1 when ix does not name an array leaf. top[k]:
 * leaves before element k of s when s is a tuple (precomputed: many aliases
 * into one wide result tuple stay linear). */
static int leaf_of_index(const Shape *s, const int *top, const I64List *ix) {
  int leaf = 0;
  for (int d = 0; d < ix->n; d++) {
    int64_t k = ix->v[d];
    if (s->type != T_TUPLE || k < 0 || k >= s->ntuple) return -1;
    if (d == 0 && top) {
      leaf += top[k];
    } else {
      for (int64_t i = 0; i < k; i++) leaf += count_leaves(s->tuple[i]);
    }
    s = s->tuple[k];
  }
  return type_is_array(s->type) ? leaf : -1;
}

/* Output buffers named by the module's input_output_alias live in their
 * parameter's buffer: they become BUF_PARAMETER. */
static cxla_status apply_io_alias(const Flow *f, BufferPlan *p) {
  const HloModule *m = f->c->module;
  if (!m || !f->c->is_entry || !f->c->root || m->nio_alias == 0) return NULL;
  const Instr *root = f->c->root;
  const Shape *rs = root->shape;
  int *top = NULL;
  if (rs->type == T_TUPLE && rs->ntuple > 0) {
    if (!(top = cxla_malloc((size_t)rs->ntuple * sizeof *top))) return cxla_oom();
    for (int i = 0, acc = 0; i < rs->ntuple; i++) {
      top[i] = acc;
      acc += count_leaves(rs->tuple[i]);
    }
  }
  for (int a = 0; a < m->nio_alias; a++) {
    int j = leaf_of_index(rs, top, &m->io_alias[a].output_index);
    if (j < 0 || j >= f->nleaves[root->id]) continue;
    int v = f->leafval[f->leaf_base[root->id] + j];
    if (v < 0) continue;
    LogicalBuffer *lb = &p->buffers[p->values[v].buffer];
    if (lb->kind == BUF_OUTPUT) {
      lb->kind = BUF_PARAMETER;
      lb->param_number = (int)m->io_alias[a].param_number;
    }
  }
  cxla_free(top);
  return NULL;
}

/* Sorts buffer indices idx[0..n) by decreasing size, then earlier first
 * step, then index (a total order, so the result is deterministic). */
typedef struct SizeKey {
  int64_t size;
  int first, idx;
} SizeKey;

static int cmp_size_key(const void *a, const void *b) {
  const SizeKey *x = a, *y = b;
  if (x->size != y->size) return x->size > y->size ? -1 : 1;
  if (x->first != y->first) return x->first < y->first ? -1 : 1;
  return (x->idx > y->idx) - (x->idx < y->idx);
}

static cxla_status sort_by_size(const BufferPlan *p, int *idx, int n) {
  SizeKey *k = cxla_malloc(((size_t)n + 1) * sizeof *k);
  if (!k) return cxla_oom();
  for (int i = 0; i < n; i++)
    k[i] = (SizeKey){p->buffers[idx[i]].size, p->buffers[idx[i]].first, idx[i]};
  qsort(k, (size_t)n, sizeof *k, cmp_size_key);
  for (int i = 0; i < n; i++) idx[i] = k[i].idx;
  cxla_free(k);
  return NULL;
}

/* The guests of all output buffers, as a treap keyed by (host, first
 * step). One host's guests never overlap, so the guest of host h with the
 * largest first step <= b is the only one that can meet a range [a, b]. */
typedef struct Guest {
  int host, first, last;
  unsigned pri;
  int l, r; /* children, -1 for none */
} Guest;

static bool guest_less(const Guest *g, int host, int first) {
  return g->host != host ? g->host < host : g->first < first;
}

/* Splits tree t into keys < (host, first) and the rest. */
static void guest_split(Guest *g, int t, int host, int first, int *lo, int *hi) {
  if (t < 0) {
    *lo = *hi = -1;
    return;
  }
  if (guest_less(&g[t], host, first)) {
    guest_split(g, g[t].r, host, first, &g[t].r, hi);
    *lo = t;
  } else {
    guest_split(g, g[t].l, host, first, lo, &g[t].l);
    *hi = t;
  }
}

static int guest_merge(Guest *g, int a, int b) {
  if (a < 0) return b;
  if (b < 0) return a;
  if (g[a].pri > g[b].pri) {
    g[a].r = guest_merge(g, g[a].r, b);
    return a;
  }
  g[b].l = guest_merge(g, a, g[b].l);
  return b;
}

/* Whether a guest of host meets [first, last]. */
static bool guest_clash(const Guest *g, int t, int host, int first, int last) {
  int best = -1; /* largest key <= (host, last) */
  while (t >= 0) {
    if (guest_less(&g[t], host, last + 1)) {
      best = t;
      t = g[t].r;
    } else {
      t = g[t].l;
    }
  }
  return best >= 0 && g[best].host == host && g[best].last >= first;
}

/* Smallest position o in [lo, hi) of the max-tree `mx` (leaves at
 * size + o) whose value is > x, or -1. */
static int first_above(const int *mx, int size, int node, int nlo, int nhi, int lo, int hi, int x) {
  if (nhi <= lo || hi <= nlo || mx[node] <= x) return -1;
  if (nhi - nlo == 1) return nlo;
  int mid = nlo + (nhi - nlo) / 2;
  int r = first_above(mx, size, 2 * node, nlo, mid, lo, hi, x);
  return r >= 0 ? r : first_above(mx, size, 2 * node + 1, mid, nhi, lo, hi, x);
}

/* Temporaries that die before an output buffer's first value is written
 * may use its memory: first fit over the output buffers, largest first.
 * Each output buffer keeps the live ranges of the temporaries it hosts.
 * The candidates are found in a max-tree over the outputs' first steps,
 * the clashes with earlier guests in a treap: N log N. */
static cxla_status reuse_output_buffers(BufferPlan *p) {
  int n = p->nbuffers, no = 0, nt = 0;
  int *outs = cxla_malloc(((size_t)n + 1) * sizeof(int));
  int *temps = cxla_malloc(((size_t)n + 1) * sizeof(int));
  Guest *g = cxla_malloc(((size_t)n + 1) * sizeof *g);
  int *mx = NULL;
  cxla_status st = NULL;
  if (!outs || !temps || !g) {
    st = cxla_oom();
    goto out;
  }
  for (int i = 0; i < n; i++) {
    if (p->buffers[i].kind == BUF_OUTPUT) outs[no++] = i;
    if (p->buffers[i].kind == BUF_TEMP && p->buffers[i].size > 0) temps[nt++] = i;
  }
  if (no == 0 || nt == 0) goto out;
  if ((st = sort_by_size(p, outs, no)) || (st = sort_by_size(p, temps, nt))) goto out;
  int size = 1;
  while (size < no) size *= 2;
  if (!(mx = cxla_malloc(2 * (size_t)size * sizeof(int)))) {
    st = cxla_oom();
    goto out;
  }
  for (int i = 0; i < size; i++) mx[size + i] = i < no ? p->buffers[outs[i]].first : INT32_MIN;
  for (int i = size - 1; i >= 1; i--) mx[i] = mx[2 * i] > mx[2 * i + 1] ? mx[2 * i] : mx[2 * i + 1];
  int root = -1, ng = 0;
  unsigned seed = 0x9e3779b9u;
  /* A temporary fits in an output buffer if it is no larger and dies before
   * everything the output buffer already holds; processing temporaries
   * from the latest death backwards would pack more, but size order is
   * what XLA does and keeps large buffers out of the arena first. */
  for (int t = 0; t < nt; t++) {
    LogicalBuffer *tb = &p->buffers[temps[t]];
    /* outputs no smaller than tb: a prefix of outs */
    int lo = 0, hi = no;
    while (lo < hi) {
      int mid = lo + (hi - lo) / 2;
      if (p->buffers[outs[mid]].size >= tb->size) lo = mid + 1;
      else hi = mid;
    }
    int lim = lo;
    for (int o = 0; o < lim;) {
      o = first_above(mx, size, 1, 0, size, o, lim, tb->last);
      if (o < 0) break;
      int h = outs[o];
      if (guest_clash(g, root, h, tb->first, tb->last)) {
        o++;
        continue;
      }
      tb->host = h;
      tb->offset = 0;
      seed = seed * 1664525u + 1013904223u;
      g[ng] = (Guest){h, tb->first, tb->last, seed, -1, -1};
      int a, b;
      guest_split(g, root, h, tb->first, &a, &b);
      root = guest_merge(g, guest_merge(g, a, ng), b);
      ng++;
      break;
    }
  }
out:
  cxla_free(outs);
  cxla_free(temps);
  cxla_free(g);
  cxla_free(mx);
  return st;
}

static int64_t align_up(int64_t x) { return (x + BA_ALIGN - 1) / BA_ALIGN * BA_ALIGN; }

static bool is_temp(const LogicalBuffer *b) {
  return b->kind == BUF_TEMP || b->kind == BUF_SCRATCH;
}

typedef struct Chunk {
  int64_t off, end;
} Chunk;

static int cmp_chunk(const void *a, const void *b) {
  const Chunk *x = a, *y = b;
  return x->off < y->off ? -1 : x->off > y->off;
}

/* The live ranges of a set of buffers, indexed for "which of them overlap
 * [a, b]": those that contain step a (a segment tree over the steps: each
 * range is kept at the O(log n) nodes that tile it, a point query visits
 * one path) and those that start in (a, b] (sorted by first step). A
 * query costs O(log n) plus the ranges it returns. */
typedef struct Ranges {
  int size;       /* leaves: a power of two >= steps */
  int *ns, *nl;   /* node lists: nl[ns[node] .. ns[node + 1]) */
  int *byfirst;   /* positions sorted by first step */
  int *firsts;    /* first step of byfirst[i] */
} Ranges;

static void ranges_free(Ranges *r) {
  cxla_free(r->ns);
  cxla_free(r->nl);
  cxla_free(r->byfirst);
  cxla_free(r->firsts);
  memset(r, 0, sizeof *r);
}

/* Calls fn on each tree node that tiles [l, r] (inclusive). */
#define RANGES_TILE(size, l0, r0, NODE_STMT)                                                   \
  do {                                                                                       \
    int l_ = (l0) + (size), r_ = (r0) + (size) + 1;                                          \
    while (l_ < r_) {                                                                        \
      if (l_ & 1) { int node = l_++; NODE_STMT; }                                            \
      if (r_ & 1) { int node = --r_; NODE_STMT; }                                            \
      l_ >>= 1;                                                                              \
      r_ >>= 1;                                                                              \
    }                                                                                        \
  } while (0)

typedef struct FirstKey {
  int first, pos;
} FirstKey;

static int cmp_first_key(const void *a, const void *b) {
  const FirstKey *x = a, *y = b;
  if (x->first != y->first) return x->first < y->first ? -1 : 1;
  return (x->pos > y->pos) - (x->pos < y->pos);
}

/* Ranges of buffers order[0..n) (positions are indices into order). */
static cxla_status ranges_build(const BufferPlan *p, const int *order, int n, int steps,
                                Ranges *r) {
  memset(r, 0, sizeof *r);
  r->size = 1;
  while (r->size < steps + 1) r->size *= 2;
  int nodes = 2 * r->size;
  r->ns = cxla_calloc((size_t)nodes + 1, sizeof(int));
  r->byfirst = cxla_malloc(((size_t)n + 1) * sizeof(int));
  r->firsts = cxla_malloc(((size_t)n + 1) * sizeof(int));
  FirstKey *fk = cxla_malloc(((size_t)n + 1) * sizeof *fk);
  int *fill = cxla_malloc(((size_t)nodes + 1) * sizeof(int));
  if (!r->ns || !r->byfirst || !r->firsts || !fk || !fill) goto oom;
  for (int t = 0; t < n; t++) {
    const LogicalBuffer *b = &p->buffers[order[t]];
    RANGES_TILE(r->size, b->first, b->last, r->ns[node + 1]++);
  }
  for (int i = 0; i < nodes; i++) r->ns[i + 1] += r->ns[i];
  if (!(r->nl = cxla_malloc(((size_t)r->ns[nodes] + 1) * sizeof(int)))) goto oom;
  memcpy(fill, r->ns, (size_t)nodes * sizeof(int));
  for (int t = 0; t < n; t++) {
    const LogicalBuffer *b = &p->buffers[order[t]];
    RANGES_TILE(r->size, b->first, b->last, r->nl[fill[node]++] = t);
    fk[t] = (FirstKey){b->first, t};
  }
  qsort(fk, (size_t)n, sizeof *fk, cmp_first_key);
  for (int t = 0; t < n; t++) {
    r->byfirst[t] = fk[t].pos;
    r->firsts[t] = fk[t].first;
  }
  cxla_free(fk);
  cxla_free(fill);
  return NULL;
oom:
  cxla_free(fk);
  cxla_free(fill);
  ranges_free(r);
  return cxla_oom();
}

/* Best-fit placement in decreasing size order: each buffer goes into the
 * smallest gap between the already placed buffers whose live ranges meet
 * its own (found through Ranges, not by scanning all placed buffers).
 * A buffer that meets more than PLACE_MAX_NEAR placed ones (thousands of
 * small values live at once: a loop unrolled over the rows of an array)
 * goes on top of everything placed so far, which keeps placement linear:
 * 25000 such buffers took 7 s of best fit. */
enum { PLACE_MAX_NEAR = 512 };

static cxla_status place_buffers(BufferPlan *p) {
  int nt = 0;
  int *order = cxla_malloc(((size_t)p->nbuffers + 1) * sizeof(int));
  Chunk *chunks = cxla_malloc(((size_t)p->nbuffers + 1) * sizeof(Chunk));
  if (!order || !chunks) {
    cxla_free(order);
    cxla_free(chunks);
    return cxla_oom();
  }
  for (int i = 0; i < p->nbuffers; i++)
    if (is_temp(&p->buffers[i]) && p->buffers[i].host < 0 && p->buffers[i].size > 0) order[nt++] = i;
  Ranges rg;
  memset(&rg, 0, sizeof rg);
  cxla_status st = sort_by_size(p, order, nt);
  if (!st) st = ranges_build(p, order, nt, p->nsteps, &rg);
  if (st) {
    cxla_free(order);
    cxla_free(chunks);
    return st;
  }
  for (int t = 0; t < nt; t++) {
    LogicalBuffer *b = &p->buffers[order[t]];
    int nc = 0;
    /* placed buffers (position < t) live at step b->first ... */
    for (int node = b->first + rg.size; node >= 1 && nc <= PLACE_MAX_NEAR; node >>= 1)
      for (int k = rg.ns[node]; k < rg.ns[node + 1] && nc <= PLACE_MAX_NEAR; k++) {
        int q = rg.nl[k];
        if (q >= t) continue;
        const LogicalBuffer *o = &p->buffers[order[q]];
        chunks[nc++] = (Chunk){o->offset, o->offset + o->size};
      }
    /* ... or starting in (b->first, b->last] */
    int lo = 0, hi = nt;
    while (lo < hi) {
      int mid = lo + (hi - lo) / 2;
      if (rg.firsts[mid] <= b->first) lo = mid + 1;
      else hi = mid;
    }
    for (int k = lo; k < nt && rg.firsts[k] <= b->last && nc <= PLACE_MAX_NEAR; k++) {
      int q = rg.byfirst[k];
      if (q >= t) continue;
      const LogicalBuffer *o = &p->buffers[order[q]];
      chunks[nc++] = (Chunk){o->offset, o->offset + o->size};
    }
    if (nc > PLACE_MAX_NEAR) {
      b->offset = align_up(p->temp_bytes);
      p->temp_bytes = b->offset + b->size;
      continue;
    }
    qsort(chunks, (size_t)nc, sizeof(Chunk), cmp_chunk);
    int64_t cur = 0, best = -1, best_gap = INT64_MAX;
    for (int q = 0; q < nc; q++) {
      int64_t start = align_up(cur);
      int64_t gap = chunks[q].off - start;
      if (gap >= b->size && gap < best_gap) {
        best = start;
        best_gap = gap;
      }
      if (chunks[q].end > cur) cur = chunks[q].end;
    }
    b->offset = best >= 0 ? best : align_up(cur);
    if (b->offset + b->size > p->temp_bytes) p->temp_bytes = b->offset + b->size;
  }
  for (int i = 0; i < p->nbuffers; i++)
    if (is_temp(&p->buffers[i]) && p->buffers[i].size == 0) p->buffers[i].offset = 0;
  ranges_free(&rg);
  cxla_free(order);
  cxla_free(chunks);
  return NULL;
}

static cxla_status compute_peak(BufferPlan *p) {
  int64_t *delta = cxla_calloc((size_t)p->nsteps + 2, sizeof(int64_t));
  if (!delta) return cxla_oom();
  for (int i = 0; i < p->nbuffers; i++) {
    const LogicalBuffer *b = &p->buffers[i];
    if (!is_temp(b) || b->host >= 0 || b->nvalues + (b->kind == BUF_SCRATCH) == 0) continue;
    delta[b->first] += b->size;
    delta[b->last + 1] -= b->size;
  }
  int64_t live = 0;
  for (int s = 0; s <= p->nsteps; s++) {
    live += delta[s];
    if (live > p->peak_bytes) p->peak_bytes = live;
  }
  cxla_free(delta);
  return NULL;
}

/* Scratch buffers for the callees of while/conditional/call at step s. */
static cxla_status add_scratch(Builder *b, const Instr *in, int s, Memo *memo, int depth) {
  if (in->op != OP_WHILE && in->op != OP_CONDITIONAL && in->op != OP_CALL) return NULL;
  int64_t need = 0;
  for (int k = 0; k < in->ncalled; k++) {
    int64_t cb;
    TRY(callee_bytes(in->called[k], memo, depth, &cb));
    if (cb > need) need = cb;
  }
  if (need == 0) return NULL;
  int buf = new_buffer(b, BUF_SCRATCH);
  if (buf < 0) return cxla_oom();
  LogicalBuffer *lb = &b->p->buffers[buf];
  lb->size = need;
  lb->first = lb->last = s;
  if (need > b->p->scratch_bytes) b->p->scratch_bytes = need;
  return NULL;
}

/* Takes ownership of sched. */
static cxla_status plan_with_schedule(const Flow *f, const Instr **sched, Memo *memo,
                                      int depth, BufferPlan *p) {
  memset(p, 0, sizeof *p);
  p->comp = f->c;
  p->scheduler = "instruction order";
  p->nsteps = f->n;
  p->schedule = sched;
  p->nvalues = f->nvalues;
  p->values = cxla_calloc((size_t)f->nvalues + 1, sizeof(BufValue));
  int *step = cxla_malloc(((size_t)f->n + 1) * sizeof(int));
  int *taken = NULL, ntaken = 0;
  Builder b = {p, 0, NULL};
  cxla_status st = NULL;
  if (!p->values || !step) {
    st = cxla_oom();
    goto out;
  }
  for (int s = 0; s < f->n; s++) step[sched[s]->id] = s;
  for (int v = 0; v < f->nvalues; v++) {
    BufValue *bv = &p->values[v];
    bv->instr = f->vinstr[v];
    bv->leaf = f->vleaf[v];
    bv->size = f->vsize[v];
    bv->def = step[bv->instr->id];
    bv->last = bv->def;
    bv->buffer = -1;
    for (int r = f->rd_start[v]; r < f->rd_start[v + 1]; r++)
      if (step[f->rd[r]] > bv->last) bv->last = step[f->rd[r]];
    if (f->live_out[v]) bv->last = f->n; /* beyond the last step */
    if (bv->instr->op == OP_PARAMETER) bv->def = 0;
  }
  for (int s = 0; s < f->n && !st; s++) {
    const Instr *in = sched[s];
    if (is_view(in)) continue;
    /* `taken` covers the buffers that exist before this instruction adds
     * its own (only those can be claimed) */
    if (p->nbuffers + 1 > ntaken) {
      int nn = 2 * (p->nbuffers + 1);
      int *nt = cxla_realloc(taken, (size_t)nn * sizeof(int));
      if (!nt) {
        st = cxla_oom();
        break;
      }
      for (int i = ntaken; i < nn; i++) nt[i] = -1;
      taken = nt;
      ntaken = nn;
    }
    st = assign_instr(&b, f, in, s, taken);
    if (!st) st = add_scratch(&b, in, s, memo, depth);
  }
  if (st) goto out;
  for (int i = 0; i < p->nbuffers; i++) {
    LogicalBuffer *lb = &p->buffers[i];
    bool out_ = false;
    for (int k = 0; k < lb->nvalues; k++) out_ |= f->live_out[lb->values[k]];
    if (out_ && lb->kind == BUF_TEMP) lb->kind = BUF_OUTPUT;
    if (lb->last >= f->n) lb->last = f->n > 0 ? f->n - 1 : 0;
    if (lb->kind == BUF_PARAMETER) lb->first = 0;
    if (lb->first > lb->last) lb->first = lb->last;
  }
  if ((st = apply_io_alias(f, p))) goto out;
  for (int i = 0; i < p->nbuffers; i++) {
    const LogicalBuffer *lb = &p->buffers[i];
    if (lb->kind == BUF_PARAMETER) p->param_bytes += lb->size;
    if (lb->kind == BUF_OUTPUT) p->output_bytes += lb->size;
    if (lb->kind == BUF_CONSTANT) p->constant_bytes += lb->size;
  }
  if (!(st = reuse_output_buffers(p)) && !(st = place_buffers(p))) st = compute_peak(p);
out:
  cxla_free(step);
  cxla_free(taken);
  cxla_free(b.vcap);
  if (st) buffer_plan_free(p);
  return st;
}

void buffer_plan_free(BufferPlan *p) {
  if (!p) return;
  for (int i = 0; i < p->ncallees; i++) buffer_plan_free(&p->callees[i]);
  cxla_free(p->callees);
  cxla_free(p->callee_by_comp);
  for (int i = 0; i < p->nbuffers; i++) cxla_free(p->buffers[i].values);
  cxla_free(p->buffers);
  cxla_free(p->values);
  cxla_free((void *)p->schedule);
  memset(p, 0, sizeof *p);
}

typedef struct CompKey {
  uintptr_t comp;
  int idx;
} CompKey;

static int cmp_comp_key(const void *a, const void *b) {
  const CompKey *x = a, *y = b;
  return (x->comp > y->comp) - (x->comp < y->comp);
}

cxla_status buffer_assign_computation(const Computation *c, BufSchedule sched,
                                      BufferPlan *out) {
  memset(out, 0, sizeof *out);
  Flow f;
  cxla_status st = flow_build(c, &f);
  Memo memo;
  memset(&memo, 0, sizeof memo);
  BufferPlan a, b;
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  if (!st && sched != BA_SCHEDULE_LIST) {
    const Instr **s = schedule_in_order(&f);
    st = s ? plan_with_schedule(&f, s, &memo, 0, &a) : cxla_oom();
  }
  if (!st && sched != BA_SCHEDULE_ORDER) {
    /* Keep the list schedule only when it needs a smaller arena. */
    const Instr **s = schedule_list(&f);
    st = s ? plan_with_schedule(&f, s, &memo, 0, &b) : cxla_oom();
    if (!st) b.scheduler = "list scheduler";
  }
  flow_free(&f);
  if (st) {
    buffer_plan_free(&a);
    buffer_plan_free(&b);
    memo_free(&memo);
    return st;
  }
  if (sched == BA_SCHEDULE_LIST || (sched == BA_SCHEDULE_BEST && b.temp_bytes < a.temp_bytes)) {
    *out = b;
    buffer_plan_free(&a);
  } else {
    *out = a;
    buffer_plan_free(&b);
  }
  /* The callees' plans go with the plan (the memo's arrays are handed over;
   * its comp list and hash are not needed: each plan names its comp). */
  out->ncallees = memo.n;
  out->callees = memo.plans;
  memo.plans = NULL;
  memo.n = 0;
  memo_free(&memo);
  if (out->ncallees) {
    CompKey *k = cxla_malloc((size_t)out->ncallees * sizeof *k);
    out->callee_by_comp = cxla_malloc((size_t)out->ncallees * sizeof(int));
    if (!k || !out->callee_by_comp) {
      cxla_free(k);
      buffer_plan_free(out);
      return cxla_oom();
    }
    for (int i = 0; i < out->ncallees; i++) k[i] = (CompKey){(uintptr_t)out->callees[i].comp, i};
    qsort(k, (size_t)out->ncallees, sizeof *k, cmp_comp_key);
    for (int i = 0; i < out->ncallees; i++) out->callee_by_comp[i] = k[i].idx;
    cxla_free(k);
  }
  return NULL;
}

const BufferPlan *buffer_plan_callee(const BufferPlan *p, const Computation *c) {
  int lo = 0, hi = p->ncallees - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    const BufferPlan *q = &p->callees[p->callee_by_comp[mid]];
    if (q->comp == c) return q;
    if ((uintptr_t)q->comp < (uintptr_t)c) lo = mid + 1;
    else hi = mid - 1;
  }
  return NULL;
}

cxla_status buffer_assign(const HloModule *m, BufferPlan *out) {
  memset(out, 0, sizeof *out);
  if (!m->entry) return ERR(INVALID_ARGUMENT, "buffer assignment: module has no entry computation");
  return buffer_assign_computation(m->entry, BA_SCHEDULE_BEST, out);
}

/* ---- report ---------------------------------------------------------------------- */

static const char *kind_text(BufKind k) {
  switch (k) {
  case BUF_TEMP: return "temp";
  case BUF_SCRATCH: return "callee scratch";
  case BUF_PARAMETER: return "parameter";
  case BUF_CONSTANT: return "constant";
  case BUF_OUTPUT: return "output";
  }
  return "?";
}

cxla_status buffer_plan_report(const BufferPlan *p, char **out_text) {
  *out_text = NULL;
  StrBuf b;
  sb_init(&b);
  sb_printf(&b, "BufferAssignment (cxla) of computation %s: %d steps, schedule: %s\n",
            p->comp ? p->comp->name : "?", p->nsteps, p->scheduler ? p->scheduler : "?");
  for (int i = 0; i < p->nbuffers; i++) {
    const LogicalBuffer *lb = &p->buffers[i];
    sb_printf(&b, "buffer %d: size %lld, ", i, (long long)lb->size);
    if (lb->kind == BUF_PARAMETER) sb_printf(&b, "parameter %d", lb->param_number);
    else sb_puts(&b, kind_text(lb->kind));
    if (is_temp(lb) && lb->host >= 0) sb_printf(&b, ", in output buffer %d", lb->host);
    else if (is_temp(lb)) sb_printf(&b, ", offset %lld", (long long)lb->offset);
    sb_printf(&b, ", live [%d, %d]:\n", lb->first, lb->last);
    for (int k = 0; k < lb->nvalues; k++) {
      const BufValue *v = &p->values[lb->values[k]];
      sb_printf(&b, " value: <%s {", v->instr->name);
      StrBuf path;
      sb_init(&path);
      const Shape *ls = leaf_shape(v->instr->shape, v->leaf, &path);
      if (path.data) sb_puts(&b, path.data);
      sb_free(&path);
      sb_printf(&b, "}> (size=%lld, live [%d, %d]): ", (long long)v->size, v->def,
                v->last >= p->nsteps ? p->nsteps - 1 : v->last);
      shape_print(&b, ls, true);
      sb_putc(&b, '\n');
    }
  }
  sb_printf(&b, "Parameter bytes: %lld, output bytes: %lld, constant bytes: %lld\n",
            (long long)p->param_bytes, (long long)p->output_bytes, (long long)p->constant_bytes);
  sb_printf(&b, "Values written in place: %d, largest callee scratch: %lld\n", p->inplace_count,
            (long long)p->scratch_bytes);
  sb_printf(&b, "Total temporary bytes: %lld\n", (long long)p->temp_bytes);
  sb_printf(&b, "Peak live temporary bytes: %lld\n", (long long)p->peak_bytes);
  char *s = sb_take(&b);
  if (!s) return cxla_oom();
  *out_text = s;
  return NULL;
}

/* ---- the pass --------------------------------------------------------------------- */

cxla_status pass_buffer_assignment(HloModule *m, const PassContext *ctx, bool *changed) {
  *changed = false;
  if (!ctx || !ctx->report) return NULL; /* nobody reads the report */
  for (int i = 0; i < m->ncomps; i++) comp_renumber(m->comps[i]);
  BufferPlan p;
  TRY(buffer_assign(m, &p));
  char *text = NULL;
  cxla_status st = buffer_plan_report(&p, &text);
  buffer_plan_free(&p);
  if (st) return st;
  cxla_free(*ctx->report);
  *ctx->report = text;
  return NULL;
}
