/* Whole-op kernels that update an output in place: scatter and
 * select-and-scatter, with their computations inlined as scalar regions.
 * The semantics are the interpreter's (src/interp/gather.c and reduce.c
 * are the definition):
 *
 * scatter(operands..., indices, updates...): the outputs start as copies of
 * the operands; for every scatter position G (the index array's dimensions
 * other than index_vector_dim, row-major), the start vector read from the
 * indices is spread over the operand dims by scatter_dims_to_operand_dims
 * (input_batching_dims take G's matching coordinate); a window that does
 * not fit entirely inside the operand is skipped, as XLA does; else each
 * window element, in row-major order, becomes
 * to_apply(current..., update...). Duplicate indices combine in that
 * order; indices_are_sorted and unique_indices change nothing here.
 *
 * select-and-scatter(operand, source, init): the output starts as init;
 * for every source element (row-major), the window it covers in the padded
 * operand picks an element (the first valid one, replaced by a later one
 * when select(picked, later) is false; padding and base-dilation holes are
 * skipped) and output[picked] = scatter(source, output[picked]). */
#include <stdio.h>
#include <string.h>

#include "codegen/cg_internal.h"

static bool has(const I64List *l, int64_t v) {
  for (int i = 0; i < l->n; i++)
    if (l->v[i] == v) return true;
  return false;
}

/* Every entry of l in [0, bound), distinct, increasing when `sorted`. */
static bool list_ok(const I64List *l, int64_t bound, bool sorted) {
  for (int i = 0; i < l->n; i++) {
    if (l->v[i] < 0 || l->v[i] >= bound) return false;
    if (sorted && i > 0 && l->v[i] <= l->v[i - 1]) return false;
    for (int j = 0; j < i; j++)
      if (l->v[j] == l->v[i]) return false;
  }
  return true;
}

/* Whether computation c takes scalars of types want[0..n) and returns
 * scalars (a tuple of them when nres > 1) of types res[0..nres). */
static bool comp_sig(const Computation *c, const ElemType *want, int n, const ElemType *res, int nres) {
  if (!c || !c->root || c->nparams != n) return false;
  for (int i = 0; i < n; i++)
    if (!c->params[i] || c->params[i]->shape->type != want[i] || c->params[i]->shape->rank != 0) return false;
  const Shape *rs = c->root->shape;
  if (nres == 1) return rs->type == res[0] && rs->rank == 0;
  if (rs->type != T_TUPLE || rs->ntuple != nres || c->root->op != OP_TUPLE) return false;
  for (int i = 0; i < nres; i++)
    if (rs->tuple[i]->type != res[i] || rs->tuple[i]->rank != 0) return false;
  return true;
}

/* ---- scatter ---- */

#define SC_MAX 8 /* operands of a variadic scatter (kernel outputs) */

typedef struct ScGeom {
  int n, rank, urank, irank;
  int64_t ivd;
  bool implicit;
  int nbatch;                  /* scatter positions: index dims but ivd */
  int64_t bdim[CG_MAX_RANK];   /* index-array dim of batch dim j */
  int64_t usdim[CG_MAX_RANK];  /* update dim of batch dim j */
  int nw;                      /* window dims */
  int64_t wdim[CG_MAX_RANK];   /* operand dim of window dim k */
  int64_t uwdim[CG_MAX_RANK];  /* update dim of window dim k */
  int64_t opwin[CG_MAX_RANK];  /* window size per operand dim */
} ScGeom;

static bool scatter_geom(const Instr *in, ScGeom *g, char *why, size_t nw) {
#define NO(...) (snprintf(why, nw, __VA_ARGS__), false)
  if (in->noperands < 3 || in->noperands % 2 == 0 || in->ncalled < 1)
    return NO("scatter %%%s: operands", in->name);
  int n = (in->noperands - 1) / 2;
  if (n > SC_MAX) return NO("scatter %%%s with %d operands", in->name, n);
  const ScatterDims *sd = &in->scatter;
  const Shape *xs = in->operands[0]->shape, *is = in->operands[n]->shape, *us = in->operands[n + 1]->shape;
  if (!type_is_int(is->type)) return NO("scatter %%%s: indices of %s", in->name, type_name(is->type));
  g->n = n;
  g->rank = xs->rank;
  g->urank = us->rank;
  g->irank = is->rank;
  g->ivd = sd->index_vector_dim;
  if (g->rank > CG_MAX_RANK || g->urank > CG_MAX_RANK || g->irank > CG_MAX_RANK || g->ivd < 0 ||
      g->ivd > g->irank)
    return NO("scatter %%%s: index geometry", in->name);
  g->implicit = g->ivd == g->irank;
  int64_t veclen = g->implicit ? 1 : is->dims[g->ivd];
  ElemType ct[2 * SC_MAX], rt[SC_MAX];
  for (int i = 0; i < n; i++) {
    const Shape *x = in->operands[i]->shape, *u = in->operands[n + 1 + i]->shape;
    const Shape *o = in->shape->type == T_TUPLE ? (i < in->shape->ntuple ? in->shape->tuple[i] : NULL) : in->shape;
    if (!o || (in->shape->type == T_TUPLE ? in->shape->ntuple != n : n != 1) || o->type != x->type ||
        x->rank != g->rank || u->rank != g->urank || o->rank != g->rank)
      return NO("scatter %%%s: operand shapes", in->name);
    for (int d = 0; d < g->rank; d++)
      if (x->dims[d] != xs->dims[d] || o->dims[d] != xs->dims[d]) return NO("scatter %%%s: operand shapes", in->name);
    for (int d = 0; d < g->urank; d++)
      if (u->dims[d] != us->dims[d]) return NO("scatter %%%s: update shapes", in->name);
    ct[i] = rt[i] = x->type;
    ct[n + i] = u->type;
  }
  if (veclen != sd->scatter_dims_to_operand_dims.n || !list_ok(&sd->scatter_dims_to_operand_dims, g->rank, false) ||
      !list_ok(&sd->inserted_window_dims, g->rank, true) || !list_ok(&sd->update_window_dims, g->urank, true) ||
      sd->input_batching_dims.n != sd->scatter_indices_batching_dims.n ||
      !list_ok(&sd->input_batching_dims, g->rank, false) ||
      !list_ok(&sd->scatter_indices_batching_dims, g->irank, false))
    return NO("scatter %%%s: dimension numbers", in->name);
  for (int i = 0; i < sd->scatter_indices_batching_dims.n; i++)
    if (sd->scatter_indices_batching_dims.v[i] == g->ivd || has(&sd->inserted_window_dims, sd->input_batching_dims.v[i]))
      return NO("scatter %%%s: batching dimensions", in->name);
  g->nbatch = 0;
  for (int d = 0; d < g->irank; d++)
    if (d != g->ivd) g->bdim[g->nbatch++] = d;
  g->nw = 0;
  for (int d = 0; d < g->rank; d++) {
    g->opwin[d] = 1;
    if (has(&sd->inserted_window_dims, d) || has(&sd->input_batching_dims, d)) continue;
    if (g->nw >= sd->update_window_dims.n) return NO("scatter %%%s: update_window_dims", in->name);
    g->wdim[g->nw] = d;
    g->uwdim[g->nw] = sd->update_window_dims.v[g->nw];
    g->opwin[d] = us->dims[g->uwdim[g->nw]];
    g->nw++;
  }
  if (g->nw != sd->update_window_dims.n) return NO("scatter %%%s: update_window_dims", in->name);
  int ns = 0;
  for (int d = 0; d < g->urank; d++) {
    if (has(&sd->update_window_dims, d)) continue;
    if (ns >= g->nbatch || us->dims[d] != is->dims[g->bdim[ns]])
      return NO("scatter %%%s: update scatter dimensions", in->name);
    g->usdim[ns++] = d;
  }
  if (ns != g->nbatch) return NO("scatter %%%s: update scatter dimensions", in->name);
  if (!comp_sig(in->called[0], ct, 2 * n, rt, n)) return NO("scatter %%%s: update computation signature", in->name);
  return em_scalar_comp_ok(in->called[0], why, nw);
#undef NO
}

bool em_scatter_supported(const Instr *in, char *why, size_t n) {
  ScGeom g;
  return scatter_geom(in, &g, why, n);
}

/* Whether the kernel of scatter `in` splits over its operands' last dim
 * (*cols of them): a window dim that every window covers whole, so that
 * each column's elements are combined in the same order whichever
 * columns a call takes (every window starts at column 0). An embedding
 * gradient's rows split so over the threads instead of running on one. */
static int64_t split_cols(const Instr *in, const ScGeom *g) {
  if (g->nw == 0 || g->rank < 1) return 0;
  int64_t last = g->rank - 1, w = in->operands[0]->shape->dims[last];
  return g->wdim[g->nw - 1] == last && g->opwin[last] == w && w >= 2 ? w : 0;
}

bool em_scatter_split(const Instr *in, int64_t *cols) {
  ScGeom g;
  char why[8];
  if (!scatter_geom(in, &g, why, sizeof why)) return false;
  *cols = split_cols(in, &g);
  return *cols > 0;
}

/* Copies operand buffer `src_slot` into output `dst_slot` (bytes), unless
 * they are one buffer. */
static void copy_in(Em *e, int dst_slot, int src_slot, int64_t bytes) {
  if (bytes <= 0) return;
  LLVMValueRef d = em_buf(e, dst_slot), s = em_buf(e, src_slot);
  IfBlk f;
  em_if_begin(e, &f, LLVMBuildICmp(e->b, LLVMIntNE, d, s, ""));
  LLVMBuildMemCpy(e->b, d, 1, s, 1, em_i64(e, bytes)); /* borrowed buffers may be unaligned */
  em_if_end(e, &f);
}

/* ---- dynamic-update-slice in place ----
 * A kernel whose value is a dynamic-update-slice of operand 0 (an unfused
 * one, or a fusion whose root it is, its base being parameter 0 and read
 * nowhere else) starts its output as a copy of that operand, skipped when
 * the executor passes the operand's own buffer, and then writes only the
 * update's elements: a scan carrying its stacked outputs updates one slice
 * per iteration instead of rewriting the whole array. Same semantics as
 * the elemental form (src/interp: every start clamped so the update fits). */

const Instr *cg_dus_inplace(const Instr *in) {
  if (!in->shape || in->shape->type == T_TUPLE) return NULL;
  const Instr *v = in;
  if (in->op == OP_FUSION) {
    if (in->ncalled < 1 || !in->called[0]->root) return NULL;
    const Computation *c = in->called[0];
    v = c->root;
    if (v->op != OP_DYNAMIC_UPDATE_SLICE || v->noperands < 2) return NULL;
    const Instr *base = v->operands[0];
    if (base->op != OP_PARAMETER || base->param_number != 0) return NULL;
    int uses = 0;
    for (int i = 0; i < c->ninstrs; i++)
      for (int k = 0; k < c->instrs[i]->noperands; k++) uses += c->instrs[i]->operands[k] == base;
    if (uses != 1) return NULL;
  } else if (in->op != OP_DYNAMIC_UPDATE_SLICE || in->noperands < 2) {
    return NULL;
  }
  const Shape *bs = v->operands[0]->shape, *us = v->operands[1]->shape;
  if (bs->type != in->shape->type || bs->rank != in->shape->rank || us->rank != bs->rank ||
      v->noperands != 2 + bs->rank)
    return NULL;
  for (int d = 0; d < bs->rank; d++)
    if (bs->dims[d] != in->shape->dims[d] || us->dims[d] > bs->dims[d]) return NULL;
  return v;
}

void em_dus_inplace(Em *e, const Instr *dus) {
  const Instr *base = dus->operands[0], *up = dus->operands[1];
  const Shape *os = base->shape, *us = up->shape;
  copy_in(e, 0, e->nout, shape_elems(os) * type_bytes(os->type));
  if (shape_elems(us) == 0) return;
  int rank = os->rank;
  LLVMValueRef start[CG_MAX_RANK];
  Idx *si = em_idx(e, 0);
  if (!si) return;
  for (int d = 0; d < rank; d++) {
    const Instr *ix = dus->operands[2 + d];
    LLVMValueRef v = em_to_i64(e, ix->shape->type, em_elem1(e, ix, si));
    if (e->err) return;
    LLVMValueRef lo = em_i64(e, 0), hi = em_i64(e, os->dims[d] - us->dims[d]);
    v = LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSLT, v, lo, ""), lo, v, "");
    start[d] = LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSGT, v, hi, ""), hi, v, "");
  }
  Idx *ui = em_idx(e, rank), *oi = em_idx(e, rank);
  if (!ui || !oi) return;
  Loop l[CG_MAX_RANK];
  LLVMValueRef out = em_buf(e, 0);
  for (int d = 0; d < rank; d++) {
    ui->v[d] = em_loop_begin(e, &l[d], em_i64(e, 0), em_i64(e, us->dims[d]), "du");
    oi->v[d] = LLVMBuildNSWAdd(e->b, ui->v[d], start[d], "");
  }
  LLVMValueRef v = em_elem1(e, up, ui);
  if (!e->err) LLVMBuildStore(e->b, v, em_elem_ptr(e, out, os->type, em_linear(e, oi, os->dims)));
  for (int d = rank - 1; d >= 0; d--) em_loop_end(e, &l[d]);
}

/* Columns [lo, hi) of every row (cols elements of es bytes each) of
 * operand buffer `src_slot` into output `dst_slot`, unless they are one
 * buffer (copy_in for a call that takes those columns). */
static void copy_in_cols(Em *e, int dst_slot, int src_slot, int64_t rows, int64_t cols, int64_t es,
                         LLVMValueRef lo, LLVMValueRef hi) {
  if (rows <= 0) return;
  LLVMValueRef d = em_buf(e, dst_slot), s = em_buf(e, src_slot);
  IfBlk f;
  em_if_begin(e, &f, LLVMBuildICmp(e->b, LLVMIntNE, d, s, ""));
  LLVMValueRef len = LLVMBuildMul(e->b, LLVMBuildSub(e->b, hi, lo, ""), em_i64(e, es), "");
  Loop l;
  LLVMValueRef r = em_loop_begin(e, &l, em_i64(e, 0), em_i64(e, rows), "cr");
  LLVMValueRef off = LLVMBuildMul(e->b, LLVMBuildAdd(e->b, LLVMBuildMul(e->b, r, em_i64(e, cols), ""), lo, ""),
                                  em_i64(e, es), "");
  LLVMValueRef dp = LLVMBuildGEP2(e->b, e->cg->i8, d, &off, 1, ""), sp = LLVMBuildGEP2(e->b, e->cg->i8, s, &off, 1, "");
  LLVMBuildMemCpy(e->b, dp, 1, sp, 1, len);
  em_loop_end(e, &l);
  em_if_end(e, &f);
}

/* The scatter's kernel: all of it, or (em_scatter_split) the columns
 * [lo, hi) of its operands' last dim. */
void em_scatter(Em *e, const Instr *in, LLVMValueRef lo, LLVMValueRef hi) {
  ScGeom g;
  char why[256];
  if (!scatter_geom(in, &g, why, sizeof why)) {
    em_fail(e, ERR(UNIMPLEMENTED, "cpu backend: %s", why));
    return;
  }
  int n = g.n;
  const Instr *ix = in->operands[n];
  const Shape *xs = in->operands[0]->shape, *is = ix->shape;
  const ScatterDims *sd = &in->scatter;
  /* em_scatter_split, on the geometry already made */
  int64_t cols = split_cols(in, &g);
  bool split = cols > 0;
  for (int i = 0; i < n; i++) {
    const Shape *x = in->operands[i]->shape;
    if (split) copy_in_cols(e, i, n + i, shape_elems(x) / cols, cols, type_bytes(x->type), lo, hi);
    else copy_in(e, i, n + i, shape_elems(x) * type_bytes(x->type));
  }
  if (shape_elems(in->operands[n + 1]->shape) == 0) return;
  for (int d = 0; d < g.rank; d++)
    if (xs->dims[d] < g.opwin[d]) return; /* no window ever fits */
  Loop gl[CG_MAX_RANK], wl[CG_MAX_RANK];
  LLVMValueRef G[CG_MAX_RANK];
  for (int j = 0; j < g.nbatch; j++)
    G[j] = em_loop_begin(e, &gl[j], em_i64(e, 0), em_i64(e, is->dims[g.bdim[j]]), "sg");
  LLVMValueRef start[CG_MAX_RANK];
  for (int d = 0; d < g.rank; d++) start[d] = em_i64(e, 0);
  for (int k = 0; k < sd->scatter_dims_to_operand_dims.n; k++) {
    Idx *ii = em_idx(e, g.irank);
    if (!ii) return;
    for (int j = 0; j < g.nbatch; j++) ii->v[g.bdim[j]] = G[j];
    if (!g.implicit) ii->v[g.ivd] = em_i64(e, k);
    start[sd->scatter_dims_to_operand_dims.v[k]] = em_to_i64(e, is->type, em_elem1(e, ix, ii));
  }
  for (int i = 0; i < sd->input_batching_dims.n; i++) {
    int64_t d = sd->scatter_indices_batching_dims.v[i];
    start[sd->input_batching_dims.v[i]] = G[d < g.ivd ? d : d - 1];
  }
  /* fits: 0 <= start[d] <= dim - window, as one unsigned compare */
  LLVMValueRef fits = LLVMConstInt(e->cg->i1, 1, 0);
  for (int d = 0; d < g.rank; d++)
    fits = LLVMBuildAnd(e->b, fits, LLVMBuildICmp(e->b, LLVMIntULE, start[d], em_i64(e, xs->dims[d] - g.opwin[d]), ""), "");
  IfBlk f;
  em_if_begin(e, &f, fits);
  LLVMValueRef W[CG_MAX_RANK];
  for (int k = 0; k < g.nw; k++)
    W[k] = split && k == g.nw - 1 ? em_loop_begin(e, &wl[k], lo, hi, "sw")
                                  : em_loop_begin(e, &wl[k], em_i64(e, 0), em_i64(e, g.opwin[g.wdim[k]]), "sw");
  Idx *oi = em_idx(e, g.rank), *ui = em_idx(e, g.urank);
  if (!oi || !ui) return;
  for (int d = 0; d < g.rank; d++) oi->v[d] = start[d];
  for (int k = 0; k < g.nw; k++) {
    oi->v[g.wdim[k]] = LLVMBuildNSWAdd(e->b, start[g.wdim[k]], W[k], "");
    ui->v[g.uwdim[k]] = W[k];
  }
  for (int j = 0; j < g.nbatch; j++) ui->v[g.usdim[j]] = G[j];
  LLVMValueRef lin = em_linear(e, oi, xs->dims);
  LLVMValueRef args[2 * SC_MAX], res[SC_MAX], ptr[SC_MAX];
  for (int i = 0; i < n; i++) {
    ElemType t = in->operands[i]->shape->type;
    ptr[i] = em_elem_ptr(e, em_buf(e, i), t, lin);
    args[i] = LLVMBuildLoad2(e->b, cg_storage_type(e->cg, t), ptr[i], "");
    args[n + i] = em_elem1(e, in->operands[n + 1 + i], ui);
  }
  em_call_scalar_comp(e, in->called[0], args, res, n);
  if (e->err) return;
  for (int i = 0; i < n; i++) LLVMBuildStore(e->b, res[i], ptr[i]);
  for (int k = g.nw - 1; k >= 0; k--) em_loop_end(e, &wl[k]);
  em_if_end(e, &f);
  for (int j = g.nbatch - 1; j >= 0; j--) em_loop_end(e, &gl[j]);
}

/* ---- select-and-scatter ---- */

bool em_select_scatter_supported(const Instr *in, char *why, size_t n) {
  if (in->noperands != 3 || in->ncalled < 2 || in->shape->type == T_TUPLE) {
    snprintf(why, n, "select-and-scatter %%%s: operands", in->name);
    return false;
  }
  const Shape *x = in->operands[0]->shape, *src = in->operands[1]->shape, *init = in->operands[2]->shape;
  bool ok = src->rank == x->rank && init->rank == 0 && init->type == x->type && in->shape->type == x->type &&
            in->shape->rank == x->rank && in->nwindow == x->rank && x->rank <= CG_MAX_RANK;
  for (int d = 0; ok && d < x->rank; d++) {
    const WindowDim *w = &in->window[d];
    ok = in->shape->dims[d] == x->dims[d] && w->size >= 0 && w->stride >= 1 && w->lhs_dilate >= 1 && w->rhs_dilate >= 1;
  }
  ElemType xt = x->type, pt = T_PRED, st[2] = {src->type, x->type};
  if (ok) ok = comp_sig(in->called[0], (ElemType[]){xt, xt}, 2, &pt, 1) && comp_sig(in->called[1], st, 2, &xt, 1);
  if (!ok) {
    snprintf(why, n, "select-and-scatter %%%s: shapes, window or computations", in->name);
    return false;
  }
  return em_scalar_comp_ok(in->called[0], why, n) && em_scalar_comp_ok(in->called[1], why, n);
}

void em_select_scatter(Em *e, const Instr *in) {
  Codegen *cg = e->cg;
  const Instr *X = in->operands[0], *S = in->operands[1];
  const Shape *xs = X->shape, *ss = S->shape;
  ElemType t = xs->type;
  LLVMTypeRef st = cg_storage_type(cg, t);
  int rank = xs->rank;
  int64_t total = shape_elems(xs);
  LLVMValueRef out = em_buf(e, 0);
  /* the output starts as the init value */
  if (total > 0) {
    LLVMValueRef init = em_elem1(e, in->operands[2], em_idx(e, 0));
    Loop l;
    LLVMValueRef i = em_loop_begin(e, &l, em_i64(e, 0), em_i64(e, total), "init");
    LLVMBuildStore(e->b, init, em_elem_ptr(e, out, t, i));
    em_loop_end(e, &l);
  }
  bool empty = shape_elems(ss) == 0 || total == 0;
  for (int d = 0; d < rank; d++) empty |= in->window[d].size == 0;
  if (empty) return;
  LLVMValueRef picked = em_alloca(e, cg->i64), pval = em_alloca(e, st);
  Loop sl[CG_MAX_RANK], wl[CG_MAX_RANK];
  Idx *si = em_idx(e, rank);
  if (!si) return;
  for (int d = 0; d < rank; d++) si->v[d] = em_loop_begin(e, &sl[d], em_i64(e, 0), em_i64(e, ss->dims[d]), "ss");
  LLVMBuildStore(e->b, em_i64(e, -1), picked);
  LLVMBuildStore(e->b, em_zero(e, t), pval);
  LLVMValueRef w[CG_MAX_RANK];
  for (int d = 0; d < rank; d++) w[d] = em_loop_begin(e, &wl[d], em_i64(e, 0), em_i64(e, in->window[d].size), "sw");
  Idx *xi = em_idx(e, rank);
  if (!xi) return;
  LLVMValueRef ok = em_window_pos(e, in->window, rank, si, ss->dims, w, xs->dims, xi);
  IfBlk f;
  em_if_begin(e, &f, ok);
  LLVMValueRef v = em_elem1(e, X, xi);
  LLVMValueRef pk = LLVMBuildLoad2(e->b, cg->i64, picked, "");
  LLVMValueRef pv = LLVMBuildLoad2(e->b, st, pval, "");
  LLVMValueRef keep = NULL;
  em_call_scalar_comp(e, in->called[0], (LLVMValueRef[]){pv, v}, &keep, 1);
  if (e->err) return;
  LLVMValueRef first = LLVMBuildICmp(e->b, LLVMIntSLT, pk, em_i64(e, 0), "");
  LLVMValueRef take = LLVMBuildOr(e->b, first, LLVMBuildICmp(e->b, LLVMIntEQ, keep, LLVMConstNull(cg->i8), ""), "");
  LLVMBuildStore(e->b, LLVMBuildSelect(e->b, take, em_linear(e, xi, xs->dims), pk, ""), picked);
  LLVMBuildStore(e->b, LLVMBuildSelect(e->b, take, v, pv, ""), pval);
  em_if_end(e, &f);
  for (int d = rank - 1; d >= 0; d--) em_loop_end(e, &wl[d]);
  LLVMValueRef at = LLVMBuildLoad2(e->b, cg->i64, picked, "");
  IfBlk g;
  em_if_begin(e, &g, LLVMBuildICmp(e->b, LLVMIntSGE, at, em_i64(e, 0), ""));
  LLVMValueRef ptr = em_elem_ptr(e, out, t, at);
  LLVMValueRef cur = LLVMBuildLoad2(e->b, st, ptr, "");
  LLVMValueRef r = NULL;
  em_call_scalar_comp(e, in->called[1], (LLVMValueRef[]){em_elem1(e, S, si), cur}, &r, 1);
  if (e->err) return;
  LLVMBuildStore(e->b, r, ptr);
  em_if_end(e, &g);
  for (int d = rank - 1; d >= 0; d--) em_loop_end(e, &sl[d]);
}
