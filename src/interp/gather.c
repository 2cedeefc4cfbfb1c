/* gather.c: gather and scatter with all of XLA's dimension numbers.
 *
 * gather: for every batch position G (the output dimensions that are not
 * offset_dims, in order, matching the index array's dimensions other than
 * index_vector_dim), the start index vector read from the indices is spread
 * over the operand dimensions by start_index_map; operand_batching_dims take
 * the matching coordinate of G (via start_indices_batching_dims). Every start
 * is then CLAMPED to [0, operand_dim - slice_size] so the slice fits, and the
 * slice's non-collapsed, non-batching dimensions land in offset_dims.
 * index_vector_dim == rank(indices) means an implicit trailing 1.
 *
 * scatter: the inverse walk over the updates: scatter positions in row-major
 * order of the update scatter dimensions, and inside each the window in
 * row-major order; output[i] = to_apply(output[i], update) (variadic: N
 * current values then N updates). A window that does not fit entirely
 * inside the operand (any start < 0 or > dim - window size) is SKIPPED, as
 * XLA does; duplicate indices combine in that order. */
#include <string.h>

#include "interp/data_common.h"

#define BAD(...) interp_error(in, CXLA_INVALID_ARGUMENT, __VA_ARGS__)
#define MAX_OPERANDS 64

static bool list_has(const I64List *l, int64_t v) {
  for (int i = 0; i < l->n; i++)
    if (l->v[i] == v) return true;
  return false;
}

/* Every entry of l in [0, bound), strictly increasing when `sorted`. */
static bool list_ok(const I64List *l, int64_t bound, bool sorted) {
  for (int i = 0; i < l->n; i++) {
    if (l->v[i] < 0 || l->v[i] >= bound) return false;
    if (sorted && i > 0 && l->v[i] <= l->v[i - 1]) return false;
    for (int j = 0; j < i; j++)
      if (l->v[j] == l->v[i]) return false;
  }
  return true;
}

/* How the index array is read: its dimensions other than index_vector_dim
 * ("batch" dimensions, in order) and the index vector along ivd. */
typedef struct IndexGeom {
  const Literal *idx;
  int64_t ivd;
  bool implicit;             /* ivd == rank: vectors of length 1 */
  int nbatch;
  int64_t bdim[DATA_MAX_RANK]; /* index-array dimension of batch dim j */
  int64_t bsize[DATA_MAX_RANK];
  int64_t stride[DATA_MAX_RANK];
  int64_t veclen;
} IndexGeom;

static cxla_status index_geom(const Instr *in, const Literal *idx, int64_t ivd, IndexGeom *g) {
  TRY(check_array(in, idx, "indices"));
  if (!type_is_int(idx->type)) return BAD("indices must be integers");
  if (ivd < 0 || ivd > idx->rank) return BAD("index_vector_dim %lld out of range", (long long)ivd);
  g->idx = idx;
  g->ivd = ivd;
  g->implicit = ivd == idx->rank;
  g->veclen = g->implicit ? 1 : idx->dims[ivd];
  g->nbatch = 0;
  row_major_strides(idx->rank, idx->dims, g->stride);
  for (int d = 0; d < idx->rank; d++) {
    if (d == ivd) continue;
    g->bdim[g->nbatch] = d;
    g->bsize[g->nbatch++] = idx->dims[d];
  }
  return NULL;
}

/* The batch-dimension position of index-array dimension d. */
static int64_t batch_pos(const IndexGeom *g, int64_t d) { return d < g->ivd ? d : d - 1; }

/* Fills start[0..rank) for batch position G: the index vector spread by
 * `map`, plus the batching dimensions' coordinates. */
static void read_start(const IndexGeom *g, const int64_t *G, const I64List *map,
                       const I64List *op_batch, const I64List *idx_batch, int rank, int64_t *start) {
  int64_t base = 0;
  for (int j = 0; j < g->nbatch; j++) base += G[j] * g->stride[g->bdim[j]];
  for (int d = 0; d < rank; d++) start[d] = 0;
  for (int k = 0; k < map->n; k++) {
    int64_t at = base + (g->implicit ? 0 : k * g->stride[g->ivd]);
    start[map->v[k]] = index_value(g->idx, at);
  }
  for (int i = 0; i < op_batch->n; i++) start[op_batch->v[i]] = G[batch_pos(g, idx_batch->v[i])];
}

/* Checks the batching-dimension lists of gather/scatter. */
static cxla_status check_batching(const Instr *in, const I64List *op_batch, const I64List *idx_batch,
                                  const I64List *collapsed, int rank, const IndexGeom *g) {
  if (op_batch->n != idx_batch->n) return BAD("batching dimension lists differ in length");
  if (!list_ok(op_batch, rank, false) || !list_ok(idx_batch, g->idx->rank, false))
    return BAD("batching dimension out of range");
  for (int i = 0; i < idx_batch->n; i++) {
    if (idx_batch->v[i] == g->ivd) return BAD("index_vector_dim cannot be a batching dimension");
    if (list_has(collapsed, op_batch->v[i])) return BAD("a batching dimension is also collapsed");
  }
  return NULL;
}

/* ---- gather ---------------------------------------------------------------------- */

/* The validated geometry of a gather. */
typedef struct GatherGeom {
  int nw;                       /* window (offset) dimensions */
  int64_t wdim[DATA_MAX_RANK];  /* operand dimension of window dim k */
  int64_t wsize[DATA_MAX_RANK]; /* its slice size */
  int64_t obdim[DATA_MAX_RANK]; /* output dimension of batch dim j */
} GatherGeom;

static bool gather_dropped(const GatherDims *gd, int64_t d) {
  return list_has(&gd->collapsed_slice_dims, d) || list_has(&gd->operand_batching_dims, d);
}

static cxla_status gather_geom(const Instr *in, const Literal *x, const IndexGeom *g, GatherGeom *gg) {
  const GatherDims *gd = &in->gather;
  const I64List *ss = &in->slice_sizes;
  const Shape *s = in->shape;
  int rank = x->rank;
  if (s->type != x->type) return BAD("result type differs from the operand's");
  TRY(check_rank(in, s->rank));
  if (ss->n != rank) return BAD("slice_sizes has %d entries, operand rank is %d", ss->n, rank);
  if (g->veclen != gd->start_index_map.n) return BAD("index vector length differs from start_index_map");
  if (!list_ok(&gd->start_index_map, rank, false) || !list_ok(&gd->collapsed_slice_dims, rank, true) ||
      !list_ok(&gd->offset_dims, s->rank, true))
    return BAD("dimension numbers out of range");
  TRY(check_batching(in, &gd->operand_batching_dims, &gd->start_indices_batching_dims,
                     &gd->collapsed_slice_dims, rank, g));
  gg->nw = 0;
  for (int d = 0; d < rank; d++) {
    if (ss->v[d] < 0 || ss->v[d] > x->dims[d]) return BAD("slice size %d out of range", d);
    if (gather_dropped(gd, d)) {
      if (ss->v[d] != 1) return BAD("collapsed/batching dimension %d needs slice size 1", d);
      continue;
    }
    gg->wdim[gg->nw] = d;
    gg->wsize[gg->nw++] = ss->v[d];
  }
  if (gg->nw != gd->offset_dims.n) return BAD("offset_dims count mismatches the slice");
  if (g->nbatch + gg->nw != s->rank) return BAD("result rank mismatches");
  for (int d = 0, j = 0; d < s->rank; d++) {
    if (list_has(&gd->offset_dims, d)) continue;
    if (s->dims[d] != g->bsize[j]) return BAD("result batch dimension %d mismatches the indices", d);
    gg->obdim[j++] = d;
  }
  for (int k = 0; k < gg->nw; k++)
    if (s->dims[gd->offset_dims.v[k]] != gg->wsize[k])
      return BAD("result offset dimension mismatches the slice");
  return NULL;
}

static cxla_status eval_gather(const Instr *in, Literal *const *ops, Literal **out) {
  if (in->noperands != 2) return BAD("gather takes operand and indices");
  const Literal *x = ops[0];
  TRY(check_array(in, x, "operand"));
  const GatherDims *gd = &in->gather;
  IndexGeom g;
  GatherGeom gg;
  TRY(index_geom(in, ops[1], gd->index_vector_dim, &g));
  TRY(gather_geom(in, x, &g, &gg));
  TRY(literal_create(in->shape->type, in->shape->rank, in->shape->dims, out));
  Literal *r = *out;
  if (r->nelems == 0) return NULL;
  int es = type_bytes(x->type), rank = x->rank;
  int64_t xstride[DATA_MAX_RANK], rstride[DATA_MAX_RANK], sstride[DATA_MAX_RANK], dstride[DATA_MAX_RANK];
  row_major_strides(rank, x->dims, xstride);
  row_major_strides(r->rank, r->dims, rstride);
  for (int k = 0; k < gg.nw; k++) {
    sstride[k] = xstride[gg.wdim[k]];
    dstride[k] = rstride[gd->offset_dims.v[k]];
  }
  /* One slice copy per batch position; starts clamped so the slice fits. */
  int64_t G[DATA_MAX_RANK] = {0}, start[DATA_MAX_RANK];
  do {
    read_start(&g, G, &gd->start_index_map, &gd->operand_batching_dims,
               &gd->start_indices_batching_dims, rank, start);
    int64_t soff = 0, doff = 0;
    for (int d = 0; d < rank; d++) {
      int64_t hi = x->dims[d] - in->slice_sizes.v[d];
      int64_t v = start[d] < 0 ? 0 : start[d] > hi ? hi : start[d];
      soff += v * xstride[d];
    }
    for (int j = 0; j < g.nbatch; j++) doff += G[j] * rstride[gg.obdim[j]];
    strided_copy(gg.nw, gg.wsize, (char *)r->data + doff * es, dstride, (const char *)x->data + soff * es,
                 sstride, es);
  } while (idx_next(g.nbatch, g.bsize, G));
  return NULL;
}

/* ---- scatter ----------------------------------------------------------------------- */

typedef struct Combiner {
  int n;
  enum { C_CALL, C_NATIVE, C_ASSIGN, C_KEEP } kind;
  Opcode op;
  bool swapped;
  ElemType type;
  ScalarCall call;
  ElemType res_types[MAX_OPERANDS];
} Combiner;

static cxla_status combiner_init(Combiner *c, Interp *ip, const Instr *in, int n, Literal *const *res,
                                 Literal *const *upd) {
  memset(c, 0, sizeof *c);
  c->n = n;
  const Computation *comp = in->called[0];
  if (n == 1 && res[0]->type == upd[0]->type && comp && comp->nparams == 2 && comp->root) {
    c->type = res[0]->type;
    const Instr *root = comp->root;
    if (root->op == OP_PARAMETER && root->shape->rank == 0) {
      c->kind = root->param_number == 1 ? C_ASSIGN : C_KEEP;
      return NULL;
    }
    ScalarFn f = scalar_fn_of(comp);
    if (f.op != OP_COUNT && binop_supported(f.op, c->type)) {
      c->kind = C_NATIVE;
      c->op = f.op;
      c->swapped = f.swapped;
      return NULL;
    }
  }
  c->kind = C_CALL;
  ElemType types[2 * MAX_OPERANDS];
  for (int i = 0; i < n; i++) {
    types[i] = c->res_types[i] = res[i]->type;
    types[n + i] = upd[i]->type;
  }
  return scall_init(&c->call, ip, in, comp, 2 * n, types);
}

static cxla_status combine(Combiner *c, Literal *const *res, int64_t ro, Literal *const *upd, int64_t uo) {
  switch (c->kind) {
  case C_KEEP: return NULL;
  case C_ASSIGN: {
    int es = type_bytes(c->type);
    memcpy((char *)res[0]->data + ro * es, (const char *)upd[0]->data + uo * es, (size_t)es);
    return NULL;
  }
  case C_NATIVE: {
    int es = type_bytes(c->type);
    char *cur = (char *)res[0]->data + ro * es;
    const char *u = (const char *)upd[0]->data + uo * es;
    if (c->swapped) binop_apply(c->op, c->type, cur, u, cur);
    else binop_apply(c->op, c->type, cur, cur, u);
    return NULL;
  }
  default: break;
  }
  void *outs[MAX_OPERANDS];
  for (int i = 0; i < c->n; i++) {
    int res_es = type_bytes(res[i]->type), upd_es = type_bytes(upd[i]->type);
    outs[i] = (char *)res[i]->data + ro * res_es;
    memcpy(scall_arg(&c->call, i), outs[i], (size_t)res_es);
    memcpy(scall_arg(&c->call, c->n + i), (const char *)upd[i]->data + uo * upd_es, (size_t)upd_es);
  }
  return scall_run(&c->call, c->n, c->res_types, outs);
}

static void combiner_free(Combiner *c) {
  if (c->kind == C_CALL) scall_free(&c->call);
}

/* The validated geometry of a scatter. */
typedef struct ScatterGeom {
  int rank, urank;
  int nw;                       /* window dimensions */
  int64_t wdim[DATA_MAX_RANK];  /* operand dimension of window dim k */
  int64_t uwdim[DATA_MAX_RANK]; /* update dimension of window dim k */
  int64_t wsize[DATA_MAX_RANK];
  int64_t usdim[DATA_MAX_RANK]; /* update dimension of scatter dim j */
  int64_t opwin[DATA_MAX_RANK]; /* window size per operand dimension */
} ScatterGeom;

static cxla_status scatter_geom(const Instr *in, const Literal *x, const Literal *u, const IndexGeom *g,
                                ScatterGeom *sg) {
  const ScatterDims *sd = &in->scatter;
  int rank = x->rank;
  sg->rank = rank;
  sg->urank = u->rank;
  if (g->veclen != sd->scatter_dims_to_operand_dims.n)
    return BAD("index vector length differs from scatter_dims_to_operand_dims");
  if (!list_ok(&sd->scatter_dims_to_operand_dims, rank, false) ||
      !list_ok(&sd->inserted_window_dims, rank, true) || !list_ok(&sd->update_window_dims, u->rank, true))
    return BAD("dimension numbers out of range");
  TRY(check_batching(in, &sd->input_batching_dims, &sd->scatter_indices_batching_dims,
                     &sd->inserted_window_dims, rank, g));
  sg->nw = 0;
  for (int d = 0; d < rank; d++) {
    sg->opwin[d] = 1;
    if (list_has(&sd->inserted_window_dims, d) || list_has(&sd->input_batching_dims, d)) continue;
    if (sg->nw >= sd->update_window_dims.n) return BAD("update_window_dims count mismatches");
    sg->wdim[sg->nw] = d;
    sg->uwdim[sg->nw] = sd->update_window_dims.v[sg->nw];
    sg->wsize[sg->nw] = u->dims[sg->uwdim[sg->nw]];
    sg->opwin[d] = sg->wsize[sg->nw];
    sg->nw++;
  }
  if (sg->nw != sd->update_window_dims.n) return BAD("update_window_dims count mismatches");
  int ns = 0;
  for (int d = 0; d < u->rank; d++) {
    if (list_has(&sd->update_window_dims, d)) continue;
    if (ns >= g->nbatch || u->dims[d] != g->bsize[ns])
      return BAD("update scatter dimension %d mismatches the indices", d);
    sg->usdim[ns++] = d;
  }
  if (ns != g->nbatch) return BAD("update scatter dimensions mismatch the indices");
  return NULL;
}

/* Checks the N operands and N updates agree with each other and with the
 * result shape. */
static cxla_status scatter_check_operands(const Instr *in, int n, Literal *const *xs, Literal *const *upd) {
  for (int i = 0; i < n; i++) {
    TRY(check_array(in, xs[i], "operand"));
    TRY(check_array(in, upd[i], "updates"));
    if (xs[i]->rank != xs[0]->rank || upd[i]->rank != upd[0]->rank) return BAD("operands differ in rank");
    for (int d = 0; d < xs[0]->rank; d++)
      if (xs[i]->dims[d] != xs[0]->dims[d]) return BAD("operands differ in shape");
    for (int d = 0; d < upd[0]->rank; d++)
      if (upd[i]->dims[d] != upd[0]->dims[d]) return BAD("updates differ in shape");
  }
  const Shape *s = in->shape;
  bool tuple = s->type == T_TUPLE;
  if (tuple ? s->ntuple != n : n != 1) return BAD("result shape does not match the operands");
  for (int i = 0; i < n; i++)
    if ((tuple ? s->tuple[i] : s)->type != xs[i]->type) return BAD("result %d has the wrong type", i);
  return NULL;
}

/* Applies every update to res: scatter positions in row-major order, each
 * window (skipped whole unless it fits) in row-major order. */
static cxla_status scatter_walk(const Instr *in, const IndexGeom *g, const ScatterGeom *sg, Combiner *c,
                                Literal *const *res, Literal *const *upd) {
  const Literal *x = res[0], *u = upd[0];
  if (u->nelems == 0) return NULL;
  const ScatterDims *sd = &in->scatter;
  int rank = sg->rank;
  int64_t xstride[DATA_MAX_RANK], ustride[DATA_MAX_RANK];
  row_major_strides(rank, x->dims, xstride);
  row_major_strides(u->rank, u->dims, ustride);
  int64_t G[DATA_MAX_RANK] = {0}, W[DATA_MAX_RANK] = {0}, start[DATA_MAX_RANK];
  do {
    read_start(g, G, &sd->scatter_dims_to_operand_dims, &sd->input_batching_dims,
               &sd->scatter_indices_batching_dims, rank, start);
    bool fits = true;
    int64_t xbase = 0, ubase = 0;
    for (int d = 0; d < rank; d++)
      if (start[d] < 0 || start[d] > x->dims[d] - sg->opwin[d]) fits = false;
    if (!fits) continue; /* (before the products: an index far out of bounds overflows them) */
    for (int d = 0; d < rank; d++) xbase += start[d] * xstride[d];
    for (int j = 0; j < g->nbatch; j++) ubase += G[j] * ustride[sg->usdim[j]];
    do {
      int64_t xo = xbase, uo = ubase;
      for (int k = 0; k < sg->nw; k++) {
        xo += W[k] * xstride[sg->wdim[k]];
        uo += W[k] * ustride[sg->uwdim[k]];
      }
      TRY(combine(c, res, xo, upd, uo));
    } while (idx_next(sg->nw, sg->wsize, W));
  } while (idx_next(g->nbatch, g->bsize, G));
  return NULL;
}

static cxla_status eval_scatter(Interp *ip, const Instr *in, Literal *const *ops, Literal **out) {
  if (in->noperands < 3 || in->noperands % 2 == 0) return BAD("scatter takes N operands, indices, N updates");
  int n = (in->noperands - 1) / 2;
  if (n > MAX_OPERANDS) return interp_error(in, CXLA_UNIMPLEMENTED, "more than %d scatter operands", MAX_OPERANDS);
  if (in->ncalled < 1) return BAD("scatter without an update computation");
  Literal *const *xs = ops, *const *upd = ops + n + 1;
  TRY(scatter_check_operands(in, n, xs, upd));
  IndexGeom g;
  TRY(index_geom(in, ops[n], in->scatter.index_vector_dim, &g));
  ScatterGeom sg;
  TRY(scatter_geom(in, xs[0], upd[0], &g, &sg));

  /* The result starts as a copy of the operands; updates combine into it. */
  Literal *res[MAX_OPERANDS] = {NULL};
  cxla_status st = NULL;
  for (int i = 0; i < n && !st; i++) st = literal_clone(xs[i], &res[i]);
  Combiner c;
  if (!st) {
    st = combiner_init(&c, ip, in, n, res, upd);
    if (!st) {
      st = scatter_walk(in, &g, &sg, &c, res, upd);
      combiner_free(&c);
    }
  }
  if (st) {
    for (int i = 0; i < n; i++) literal_free(res[i]);
    return st;
  }
  if (in->shape->type != T_TUPLE) {
    *out = res[0];
    return NULL;
  }
  return literal_create_tuple(n, res, out);
}

cxla_status interp_gather(Interp *ip, const Instr *in, Literal *const *ops, Literal **out) {
  *out = NULL;
  switch (in->op) {
  case OP_GATHER: return eval_gather(in, ops, out);
  case OP_SCATTER: return eval_scatter(ip, in, ops, out);
  default: return interp_error(in, CXLA_UNIMPLEMENTED, "not a gather or scatter");
  }
}
