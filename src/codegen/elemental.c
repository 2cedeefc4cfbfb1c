/* The elemental emitter: for an output index, the value of an instruction
 * there, generated from the values of its operands at the indices the op
 * maps it to. Values are memoized per (instruction, index) while the loop
 * body that computed them is open (cg.c), so a fused operand used twice at
 * one index is computed once. Reductions, windows and contractions emit
 * their inner loops in place, with accumulators in stack slots that LLVM
 * promotes to registers. Index arithmetic is on i64. */
#include <stdio.h>
#include <string.h>

#include "codegen/cg_internal.h"
#include "interp/ew_scalar.h"
#include "ir/contract.h"

static int bound_slot(Em *e, const Instr *in) {
  for (int i = 0; i < e->nbound; i++)
    if (e->bound[i] == in) return e->bound_slot[i];
  return -1;
}

static LLVMValueRef load_at(Em *e, LLVMValueRef base, ElemType t, const Idx *idx, const int64_t *dims) {
  LLVMTypeRef st = cg_storage_type(e->cg, t);
  LLVMValueRef lin = em_linear(e, idx, dims);
  LLVMValueRef p = LLVMBuildGEP2(e->b, st, base, &lin, 1, "");
  return LLVMBuildLoad2(e->b, st, p, "");
}

static LLVMValueRef clampi(Em *e, LLVMValueRef v, int64_t lo, int64_t hi) {
  LLVMValueRef l = em_i64(e, lo), h = em_i64(e, hi);
  v = LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSLT, v, l, ""), l, v, "");
  return LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSGT, v, h, ""), h, v, "");
}

static Idx *scalar_idx(Em *e) { return em_idx(e, 0); }

/* The value of operand k of an elementwise op at idx (rank-0 operands
 * broadcast). */
static LLVMValueRef ew_operand(Em *e, const Instr *in, int k, const Idx *idx) {
  const Instr *o = in->operands[k];
  if (o->shape->rank == 0 && idx->rank != 0) return em_elem1(e, o, scalar_idx(e));
  return em_elem1(e, o, idx);
}

/* The operand of add/subtract `in` whose multiply is fused into it
 * (ir/contract.h), or -1; the plan is made once per fused computation. */
static int fma_operand(Em *e, const Instr *in) {
  const Computation *c = in->parent;
  if (!c || !c->contract || (in->op != OP_ADD && in->op != OP_SUBTRACT)) return -1;
  if (e->fma_comp != c) {
    signed char *plan = NULL, *copy = NULL;
    cxla_status s = comp_fma_plan(c, &plan);
    if (!s && !(copy = arena_alloc(&e->arena, (size_t)(c->ninstrs ? c->ninstrs : 1)))) s = cxla_oom();
    if (s) {
      cxla_free(plan);
      em_fail(e, s);
      return -1;
    }
    memcpy(copy, plan, (size_t)c->ninstrs);
    cxla_free(plan);
    e->fma_comp = c;
    e->fma_plan = copy;
  }
  return in->id >= 0 && in->id < c->ninstrs && c->instrs[in->id] == in ? e->fma_plan[in->id] : -1;
}

/* ---- constants ---- */

static LLVMValueRef const_elem(Em *e, const Instr *in, const Idx *idx) {
  const Literal *l = in->literal;
  if (l->nelems == 1) return em_const_elem(e, l->type, l->data);
  Codegen *cg = e->cg;
  size_t bytes = (size_t)l->nelems * (size_t)type_bytes(l->type);
  LLVMValueRef init = LLVMConstStringInContext(cg->ctx, (const char *)l->data, (unsigned)bytes, 1);
  char name[32];
  snprintf(name, sizeof name, "cst.%d", cg->nconst++);
  LLVMValueRef g = LLVMAddGlobal(cg->mod, LLVMTypeOf(init), name);
  LLVMSetInitializer(g, init);
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  LLVMSetAlignment(g, 64);
  return load_at(e, g, l->type, idx, in->shape->dims);
}

/* ---- shape ops ---- */

/* Maps a row-major linear index of dims_from onto an index of dims_to. */
static void delinearize(Em *e, LLVMValueRef lin, int rank, const int64_t *dims, Idx *out) {
  for (int i = rank - 1; i >= 0; i--) {
    if (i == 0) {
      out->v[0] = lin;
      break;
    }
    LLVMValueRef d = em_i64(e, dims[i]);
    out->v[i] = LLVMBuildURem(e->b, lin, d, "");
    lin = LLVMBuildUDiv(e->b, lin, d, "");
  }
}

static LLVMValueRef reshape_elem(Em *e, const Instr *in, const Idx *idx) {
  const Shape *os = in->operands[0]->shape;
  Idx *oi = em_idx(e, os->rank);
  if (!oi) return NULL;
  if (os->rank > 0) {
    LLVMValueRef lin = em_linear(e, idx, in->shape->dims);
    delinearize(e, lin, os->rank, os->dims, oi);
  }
  return em_elem1(e, in->operands[0], oi);
}

/* How a bitcast from os (strides ost) to rs (strides rst) maps result
 * dim i onto operand dims, without a division of the whole physical
 * offset per element (which LLVM does not vectorize: 6 GB/s for
 * attention's [S, H*D] -> [H, S, D]). grp[i]:
 *   -1  a dim of size 1, no part of any;
 *   d   (split) its digit range [rst[i], rst[i] * rs->dims[i]) of the
 *       offset lies within operand dim d's, ost[d] dividing rst[i]: it
 *       adds its index times rst[i] / ost[d] to d's index;
 *   -2  (merge) its digit range is exactly that of a run of operand dims
 *       of consecutive strides, the lowest of stride rst[i] (bitcast_run):
 *       each of them takes its digit of the result index.
 * Both layouts are dense with the same elements, so the digits of the
 * dims grouped into one operand dim sum below its size. A transposing
 * reshape (dims split or merged, their order changed) maps so. Whether
 * every result dim does. */
static int bitcast_run(const Shape *os, const int64_t *ost, int64_t stride, int64_t size, int *run) {
  int n = 0;
  while (size > 1) {
    int d = -1;
    for (int k = 0; k < os->rank && d < 0; k++)
      if (os->dims[k] > 1 && ost[k] == stride) d = k;
    if (d < 0 || size % os->dims[d] || n == CG_MAX_RANK) return 0;
    run[n++] = d;
    size /= os->dims[d];
    stride *= os->dims[d];
  }
  return n;
}

static bool bitcast_groups(const Shape *rs, const int64_t *rst, const Shape *os, const int64_t *ost, int *grp) {
  if (shape_elems(rs) != shape_elems(os) || type_bytes(rs->type) != type_bytes(os->type)) return false;
  for (int i = 0; i < rs->rank; i++) {
    grp[i] = -1;
    if (rs->dims[i] <= 1) continue;
    for (int d = 0; d < os->rank && grp[i] < 0; d++)
      if (os->dims[d] > 1 && rst[i] >= ost[d] && rst[i] % ost[d] == 0 &&
          rst[i] / ost[d] * rs->dims[i] <= os->dims[d])
        grp[i] = d;
    int run[CG_MAX_RANK];
    if (grp[i] < 0 && bitcast_run(os, ost, rst[i], rs->dims[i], run) >= 2) grp[i] = -2;
    if (grp[i] == -1) return false;
  }
  return true;
}

/* bitcast keeps physical bytes: the result's index gives a physical offset
 * under its layout, which the operand's layout maps back to an index. */
static LLVMValueRef bitcast_elem(Em *e, const Instr *in, const Idx *idx) {
  const Shape *rs = in->shape, *os = in->operands[0]->shape;
  int64_t rst[CG_MAX_RANK], ost[CG_MAX_RANK];
  shape_layout_strides(rs, rst);
  shape_layout_strides(os, ost);
  int grp[CG_MAX_RANK];
  if (bitcast_groups(rs, rst, os, ost, grp)) {
    Idx *oi = em_idx(e, os->rank);
    if (!oi) return NULL;
    for (int d = 0; d < os->rank; d++) oi->v[d] = em_i64(e, 0);
    for (int i = 0; i < rs->rank; i++)
      if (grp[i] >= 0) {
        int d = grp[i];
        LLVMValueRef part = LLVMBuildNSWMul(e->b, idx->v[i], em_i64(e, rst[i] / ost[d]), "");
        oi->v[d] = LLVMBuildNSWAdd(e->b, oi->v[d], part, "");
      } else if (grp[i] == -2) {
        /* digit k of the run: (index / the sizes below it) % its size;
         * the top one needs no remainder */
        int run[CG_MAX_RANK], n = bitcast_run(os, ost, rst[i], rs->dims[i], run);
        int64_t below = 1;
        for (int k = 0; k < n; k++) {
          int d = run[k];
          LLVMValueRef v = below > 1 ? LLVMBuildUDiv(e->b, idx->v[i], em_i64(e, below), "") : idx->v[i];
          oi->v[d] = k + 1 < n ? LLVMBuildURem(e->b, v, em_i64(e, os->dims[d]), "") : v;
          below *= os->dims[d];
        }
      }
    return em_retype(e, os->type, rs->type, em_elem1(e, in->operands[0], oi));
  }
  /* an operand in a buffer, both row-major: its element at that offset
   * (no division: [.., 224, 3] read as [.., 14, 48]) */
  int slot = bound_slot(e, in->operands[0]);
  if (slot >= 0 && os->type == rs->type && type_bits(os->type) >= 8 && shape_physically_row_major(os) &&
      shape_physically_row_major(rs) && rs->rank >= 1) {
    /* the innermost index in a GEP of its own: added to the rest (whose
     * low bits it fills), LLVM makes the sum an `or`, and the vectorizer
     * then gathers */
    LLVMTypeRef st = cg_storage_type(e->cg, os->type);
    LLVMValueRef hi = em_i64(e, 0);
    for (int i = 0; i + 1 < rs->rank; i++)
      hi = LLVMBuildNSWAdd(e->b, hi, LLVMBuildNSWMul(e->b, idx->v[i], em_i64(e, rst[i]), ""), "");
    LLVMValueRef lo = LLVMBuildNSWMul(e->b, idx->v[rs->rank - 1], em_i64(e, rst[rs->rank - 1]), "");
    LLVMValueRef row = LLVMBuildInBoundsGEP2(e->b, st, em_buf(e, slot), &hi, 1, "");
    return LLVMBuildLoad2(e->b, st, LLVMBuildInBoundsGEP2(e->b, st, row, &lo, 1, ""), "");
  }
  LLVMValueRef off = em_i64(e, 0);
  for (int i = 0; i < rs->rank; i++)
    off = LLVMBuildNSWAdd(e->b, off, LLVMBuildNSWMul(e->b, idx->v[i], em_i64(e, rst[i]), ""), "");
  Idx *oi = em_idx(e, os->rank);
  if (!oi) return NULL;
  for (int d = 0; d < os->rank; d++) {
    LLVMValueRef q = os->dims[d] <= 1 ? em_i64(e, 0) : LLVMBuildUDiv(e->b, off, em_i64(e, ost[d]), "");
    oi->v[d] = os->dims[d] <= 1 ? q : LLVMBuildURem(e->b, q, em_i64(e, os->dims[d]), "");
  }
  return em_retype(e, os->type, rs->type, em_elem1(e, in->operands[0], oi));
}

static LLVMValueRef broadcast_elem(Em *e, const Instr *in, const Idx *idx) {
  const Shape *os = in->operands[0]->shape;
  Idx *oi = em_idx(e, os->rank);
  if (!oi) return NULL;
  for (int k = 0; k < os->rank; k++) oi->v[k] = idx->v[in->dimensions.v[k]];
  return em_elem1(e, in->operands[0], oi);
}

static LLVMValueRef transpose_elem(Em *e, const Instr *in, const Idx *idx) {
  const Shape *os = in->operands[0]->shape;
  Idx *oi = em_idx(e, os->rank);
  if (!oi) return NULL;
  for (int i = 0; i < in->shape->rank; i++) oi->v[in->dimensions.v[i]] = idx->v[i];
  return em_elem1(e, in->operands[0], oi);
}

static LLVMValueRef slice_elem(Em *e, const Instr *in, const Idx *idx) {
  Idx *oi = em_idx(e, idx->rank);
  if (!oi) return NULL;
  for (int i = 0; i < idx->rank; i++) {
    const SliceDim *s = &in->slice[i];
    oi->v[i] = LLVMBuildNSWAdd(e->b, LLVMBuildNSWMul(e->b, idx->v[i], em_i64(e, s->stride), ""),
                               em_i64(e, s->start), "");
  }
  return em_elem1(e, in->operands[0], oi);
}

static LLVMValueRef reverse_elem(Em *e, const Instr *in, const Idx *idx) {
  Idx *oi = em_idx(e, idx->rank);
  if (!oi) return NULL;
  for (int i = 0; i < idx->rank; i++) oi->v[i] = idx->v[i];
  for (int k = 0; k < in->dimensions.n; k++) {
    int d = (int)in->dimensions.v[k];
    oi->v[d] = LLVMBuildSub(e->b, em_i64(e, in->shape->dims[d] - 1), idx->v[d], "");
  }
  return em_elem1(e, in->operands[0], oi);
}

static LLVMValueRef iota_elem(Em *e, const Instr *in, const Idx *idx) {
  LLVMValueRef v = idx->v[in->index];
  ElemType t = in->shape->type;
  if (t == T_S64 || t == T_U64) return v;
  if (type_is_int(t) && type_bits(t) >= 8) return LLVMBuildTrunc(e->b, v, cg_storage_type(e->cg, t), "");
  if (type_is_complex(t)) {
    ElemType pt = t == T_C64 ? T_F32 : T_F64;
    LLVMValueRef re = em_convert(e, T_S64, pt, v);
    LLVMValueRef z = LLVMGetUndef(cg_storage_type(e->cg, t));
    z = LLVMBuildInsertValue(e->b, z, re, 0, "");
    return LLVMBuildInsertValue(e->b, z, LLVMConstNull(cg_storage_type(e->cg, pt)), 1, "");
  }
  if (t == T_F16 || t == T_BF16) /* through f32: one rounding while exact there */
    return em_convert(e, T_F32, t, LLVMBuildSIToFP(e->b, v, e->cg->f32, ""));
  return em_convert(e, T_S64, t, v);
}

static LLVMValueRef concat_elem(Em *e, const Instr *in, const Idx *idx) {
  int d = (int)in->dimensions.v[0];
  LLVMValueRef res = NULL;
  int64_t off = 0;
  /* within a piece of the innermost loop (cg.c emit_pieces): the one
   * operand whose range holds the piece's */
  bool piece = e->piece_var && idx->v[d] == e->piece_var;
  for (int k = 0; k < in->noperands; k++) {
    const Instr *o = in->operands[k];
    int64_t n = o->shape->dims[d];
    if (n == 0) continue;
    if (shape_elems(o->shape) == 0) { off += n; continue; }
    Idx *oi = em_idx(e, idx->rank);
    if (!oi) return NULL;
    for (int i = 0; i < idx->rank; i++) oi->v[i] = idx->v[i];
    if (piece && off <= e->piece_lo && e->piece_hi <= off + n) {
      oi->v[d] = LLVMBuildNSWSub(e->b, idx->v[d], em_i64(e, off), "");
      return em_elem1(e, o, oi);
    }
    LLVMValueRef rel = LLVMBuildSub(e->b, idx->v[d], em_i64(e, off), "");
    oi->v[d] = clampi(e, rel, 0, n - 1);
    LLVMValueRef v = em_elem1(e, o, oi);
    if (!res) {
      res = v;
    } else {
      LLVMValueRef here = LLVMBuildICmp(e->b, LLVMIntSGE, idx->v[d], em_i64(e, off), "");
      res = LLVMBuildSelect(e->b, here, v, res, "");
    }
    off += n;
  }
  return res ? res : em_zero(e, in->shape->type);
}

static LLVMValueRef pad_elem(Em *e, const Instr *in, const Idx *idx) {
  const Instr *op = in->operands[0];
  LLVMValueRef pv = em_elem1(e, in->operands[1], scalar_idx(e));
  if (shape_elems(op->shape) == 0) return pv;
  Idx *oi = em_idx(e, idx->rank);
  if (!oi) return NULL;
  LLVMValueRef inside = LLVMConstInt(e->cg->i1, 1, 0);
  for (int i = 0; i < idx->rank; i++) {
    const PadDim *p = &in->padding[i];
    int64_t n = op->shape->dims[i];
    int64_t step = n <= 1 ? 1 : p->interior + 1;
    LLVMValueRef u = LLVMBuildSub(e->b, idx->v[i], em_i64(e, p->lo), "");
    if (step == 1 && e->piece_var && idx->v[i] == e->piece_var) {
      /* a piece of the innermost loop (cg.c emit_pieces): all of it
       * inside the operand's range, or all of it padding */
      if (p->lo <= e->piece_lo && e->piece_hi <= p->lo + n) {
        oi->v[i] = u;
        continue;
      }
      if (e->piece_hi <= p->lo || p->lo + n <= e->piece_lo) return pv;
    }
    LLVMValueRef q = step == 1 ? u : LLVMBuildSDiv(e->b, u, em_i64(e, step), "");
    LLVMValueRef ok = LLVMBuildAnd(e->b, LLVMBuildICmp(e->b, LLVMIntSGE, u, em_i64(e, 0), ""),
                                   LLVMBuildICmp(e->b, LLVMIntSLT, q, em_i64(e, n), ""), "");
    if (step != 1)
      ok = LLVMBuildAnd(e->b, ok, LLVMBuildICmp(e->b, LLVMIntEQ, LLVMBuildSRem(e->b, u, em_i64(e, step), ""), em_i64(e, 0), ""), "");
    inside = LLVMBuildAnd(e->b, inside, ok, "");
    oi->v[i] = clampi(e, q, 0, n - 1);
  }
  LLVMValueRef v = em_elem1(e, op, oi);
  return LLVMBuildSelect(e->b, inside, v, pv, "");
}

/* Start index along dim i from a scalar operand, clamped into [0, max]. */
static LLVMValueRef start_index(Em *e, const Instr *o, int64_t max) {
  LLVMValueRef v = em_to_i64(e, o->shape->type, em_elem1(e, o, scalar_idx(e)));
  return clampi(e, v, 0, max < 0 ? 0 : max);
}

static LLVMValueRef dynamic_slice_elem(Em *e, const Instr *in, const Idx *idx) {
  const Instr *op = in->operands[0];
  Idx *oi = em_idx(e, idx->rank);
  if (!oi) return NULL;
  for (int i = 0; i < idx->rank; i++) {
    LLVMValueRef s = start_index(e, in->operands[1 + i], op->shape->dims[i] - in->shape->dims[i]);
    oi->v[i] = LLVMBuildNSWAdd(e->b, idx->v[i], s, "");
  }
  return em_elem1(e, op, oi);
}

/* Whether a dynamic-update-slice's update is costly per element: it is,
 * through value-preserving shape ops, an op that is not cheap elementwise
 * work or data movement (a reduction, a dot, a transcendental...). */
static bool dus_update_costly(const Instr *up) {
  while ((up->op == OP_BITCAST || up->op == OP_RESHAPE || up->op == OP_BROADCAST ||
          up->op == OP_COPY) && up->noperands == 1)
    up = up->operands[0];
  switch (up->op) {
  case OP_PARAMETER: case OP_CONSTANT: case OP_IOTA: return false;
  case OP_REDUCE: case OP_REDUCE_WINDOW: case OP_DOT: case OP_CONVOLUTION: return true;
  default: return false;
  }
}

static LLVMValueRef dus_elem(Em *e, const Instr *in, const Idx *idx) {
  const Instr *op = in->operands[0], *up = in->operands[1];
  LLVMValueRef base = em_elem1(e, op, idx);
  if (shape_elems(up->shape) == 0) return base;
  Idx *ui = em_idx(e, idx->rank);
  if (!ui) return NULL;
  LLVMValueRef inside = LLVMConstInt(e->cg->i1, 1, 0);
  for (int i = 0; i < idx->rank; i++) {
    int64_t un = up->shape->dims[i];
    LLVMValueRef s = start_index(e, in->operands[2 + i], op->shape->dims[i] - un);
    LLVMValueRef u = LLVMBuildSub(e->b, idx->v[i], s, "");
    inside = LLVMBuildAnd(e->b, inside, LLVMBuildAnd(e->b, LLVMBuildICmp(e->b, LLVMIntSGE, u, em_i64(e, 0), ""),
                                                     LLVMBuildICmp(e->b, LLVMIntSLT, u, em_i64(e, un), ""), ""), "");
    ui->v[i] = clampi(e, u, 0, un - 1);
  }
  if (!dus_update_costly(up)) {
    LLVMValueRef v = em_elem1(e, up, ui);
    return v ? LLVMBuildSelect(e->b, inside, v, base, "") : NULL;
  }
  /* An update that costs real work (a reduction, say) is computed only
   * for the elements it covers, behind a branch, not for every element of
   * the result and then selected away. */
  LLVMBasicBlockRef from = LLVMGetInsertBlock(e->b);
  LLVMBasicBlockRef then = LLVMAppendBasicBlockInContext(e->cg->ctx, e->fn, "dus.in");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(e->cg->ctx, e->fn, "dus.done");
  LLVMBuildCondBr(e->b, inside, then, done);
  LLVMPositionBuilderAtEnd(e->b, then);
  em_scope_push(e);
  LLVMValueRef v = em_elem1(e, up, ui);
  em_scope_pop(e);
  if (!v) return NULL;
  LLVMBasicBlockRef then_end = LLVMGetInsertBlock(e->b);
  LLVMBuildBr(e->b, done);
  LLVMPositionBuilderAtEnd(e->b, done);
  LLVMValueRef phi = LLVMBuildPhi(e->b, LLVMTypeOf(base), "");
  LLVMValueRef vals[2] = {v, base};
  LLVMBasicBlockRef from_bb[2] = {then_end, from};
  LLVMAddIncoming(phi, vals, from_bb, 2);
  return phi;
}

/* bitcast-convert between widths: a wider operand splits along the
 * result's last dim (least significant part first); a narrower one is
 * gathered from the operand's last dim. */
/* A value's bits as an integer of its type's width: a 2/4-bit integer,
 * kept in an i8 as its value, is truncated to i2/i4. */
static LLVMValueRef to_bits(Em *e, ElemType t, LLVMValueRef v, LLVMTypeRef it) {
  if (type_bits(t) < 8) return LLVMBuildTrunc(e->b, v, it, "");
  return LLVMBuildBitCast(e->b, v, it, "");
}

/* The inverse: a 2/4-bit integer is sign- or zero-extended into its i8. */
static LLVMValueRef from_bits(Em *e, ElemType t, LLVMValueRef v) {
  LLVMTypeRef st = cg_storage_type(e->cg, t);
  if (type_bits(t) < 8)
    return type_kind(t) == TK_SINT ? LLVMBuildSExt(e->b, v, st, "") : LLVMBuildZExt(e->b, v, st, "");
  return LLVMBuildBitCast(e->b, v, st, "");
}

static LLVMValueRef bitcast_convert_elem(Em *e, const Instr *in, const Idx *idx) {
  Codegen *cg = e->cg;
  const Instr *op = in->operands[0];
  ElemType st = op->shape->type, dt = in->shape->type;
  int iw = type_bits(st), ow = type_bits(dt);
  LLVMTypeRef sit = LLVMIntTypeInContext(cg->ctx, (unsigned)iw), dit = LLVMIntTypeInContext(cg->ctx, (unsigned)ow);
  if (iw > ow) {
    Idx *oi = em_idx(e, op->shape->rank);
    if (!oi) return NULL;
    for (int i = 0; i < oi->rank; i++) oi->v[i] = idx->v[i];
    LLVMValueRef v = to_bits(e, st, em_elem1(e, op, oi), sit);
    LLVMValueRef sh = LLVMBuildMul(e->b, idx->v[idx->rank - 1], em_i64(e, ow), "");
    sh = LLVMBuildIntCast2(e->b, sh, sit, 0, "");
    v = LLVMBuildTrunc(e->b, LLVMBuildLShr(e->b, v, sh, ""), dit, "");
    return from_bits(e, dt, v);
  }
  int parts = ow / iw;
  LLVMValueRef acc = LLVMConstNull(dit);
  for (int k = 0; k < parts; k++) {
    Idx *oi = em_idx(e, op->shape->rank);
    if (!oi) return NULL;
    for (int i = 0; i < idx->rank; i++) oi->v[i] = idx->v[i];
    oi->v[idx->rank] = em_i64(e, k);
    LLVMValueRef v = LLVMBuildZExt(e->b, to_bits(e, st, em_elem1(e, op, oi), sit), dit, "");
    acc = LLVMBuildOr(e->b, acc, LLVMBuildShl(e->b, v, LLVMConstInt(dit, (unsigned long long)k * (unsigned)iw, 0), ""), "");
  }
  return from_bits(e, dt, acc);
}

/* ---- reductions ---- */

/* Whether reduce `in` is a float max or min: one f32/f64 input and a
 * computation that is maximum or minimum of its two parameters. */
static bool reduce_is_minmax(const Instr *in, bool *is_max) {
  if (in->noperands != 2 || in->ncalled != 1 || !type_is_array(in->shape->type)) return false;
  ElemType t = in->shape->type;
  if ((t != T_F32 && t != T_F64) || in->operands[0]->shape->type != t) return false;
  const Computation *c = in->called[0];
  const Instr *r = c->root;
  if (c->nparams != 2 || c->ninstrs != 3 || !r || (r->op != OP_MAXIMUM && r->op != OP_MINIMUM) ||
      r->noperands != 2 || r->shape->type != t || r->shape->rank != 0)
    return false;
  const Instr *a = r->operands[0], *b = r->operands[1];
  if (!((a == c->params[0] && b == c->params[1]) || (a == c->params[1] && b == c->params[0])))
    return false;
  *is_max = r->op == OP_MAXIMUM;
  return true;
}

/* The chunks of a reduce's innermost dim d (reduced) when it is a pass
 * over a row of a row kernel (em_row_chunk_begin): `in` one of its row
 * reduces (of the row dims' rank, over the output's dims). Whether it
 * chunks; the loop itself follows (em_row_inner_begin). */
static bool row_chunk_begin(Em *e, const Instr *in, RowLoop *rl, const Idx *oi, int d) {
  const Shape *is = in->operands[0]->shape;
  bool was = e->rowpf.on;
  e->rowpf.on = was && in->shape->rank == e->rowpf.k && is->rank == e->rowpf.rank;
  for (int i = 0; i < is->rank && e->rowpf.on; i++) e->rowpf.on = is->dims[i] == e->rowpf.dims[i];
  bool chunked = em_row_chunk_begin(e, rl, oi, d, is->dims[d]);
  if (!chunked) e->rowpf.on = was;
  return chunked;
}

static LLVMValueRef row_loop_begin(Em *e, const Instr *in, RowLoop *rl, const Idx *oi, int d) {
  (void)row_chunk_begin(e, in, rl, oi, d);
  return em_row_inner_begin(e, rl, "r");
}

/* Whether reduce `in` is a sum of one f32 or f64 input. */
static bool reduce_is_fsum(const Instr *in) {
  if (in->noperands != 2 || in->ncalled != 1) return false;
  ElemType t = in->shape->type;
  const Computation *c = in->called[0];
  return (t == T_F32 || t == T_F64) && in->operands[0]->shape->type == t && c->nparams == 2 && c->root &&
         c->root->op == OP_ADD && c->root->noperands == 2 && c->root->operands[0]->op == OP_PARAMETER &&
         c->root->operands[1]->op == OP_PARAMETER && c->root->operands[0] != c->root->operands[1];
}

/* The generic reduction loops: acc[k] (allocas holding the init values)
 * combined with every reduced element of the inputs, in index order. */
static void reduce_loops(Em *e, const Instr *in, const Idx *idx, const bool *reduced, LLVMValueRef *acc) {
  int n = in->noperands / 2;
  const Shape *is = in->operands[0]->shape;
  Idx *oi = em_idx(e, is->rank);
  if (!oi) return;
  Loop loops[CG_MAX_RANK];
  RowLoop rl;
  int nl = 0, j = 0;
  /* A float sum over a row in chunks (row_chunk_begin) sums each chunk
   * from -0 (the identity) into `part`, then adds that to the sum: the
   * vectorized loop's lanes are added up at each chunk's end, and that
   * chain is then not in the next chunk's way. */
  LLVMValueRef part = NULL, sum = acc[0];
  for (int d = 0; d < is->rank; d++) {
    if (reduced[d] && d == is->rank - 1) {
      /* under a band, a sum may stop at the band's chunks (cg.c) */
      e->chunk_lim = reduce_is_fsum(in) ? em_band_sum_lim(e, in, oi, d) : NULL;
      if (row_chunk_begin(e, in, &rl, oi, d) && reduce_is_fsum(in)) {
        LLVMTypeRef ft = cg_storage_type(e->cg, in->shape->type);
        part = em_alloca(e, ft);
        LLVMBuildStore(e->b, LLVMConstReal(ft, -0.0), part);
        sum = part;
      }
      oi->v[d] = em_row_inner_begin(e, &rl, "r");
    } else if (reduced[d]) {
      oi->v[d] = em_loop_begin(e, &loops[nl++], em_i64(e, 0), em_i64(e, is->dims[d]), "r");
    } else {
      oi->v[d] = idx->v[j++];
    }
  }
  LLVMValueRef args[16], *accs = part ? &sum : acc;
  for (int k = 0; k < n; k++) args[k] = LLVMBuildLoad2(e->b, cg_storage_type(e->cg, in->operands[k]->shape->type), accs[k], "");
  for (int k = 0; k < n; k++) args[n + k] = em_elem1(e, in->operands[k], oi);
  if (in == e->stash_red && n == 1 && !e->err) {
    const Shape *xs = in->operands[0]->shape;
    LLVMValueRef base = em_buf(e, e->stash_row ? CG_SLOT_STASH : 0);
    LLVMBuildStore(e->b, args[1], em_elem_ptr(e, base, xs->type, em_linear(e, oi, xs->dims)));
  }
  LLVMValueRef res[8];
  em_call_scalar_comp(e, in->called[0], args, res, n);
  if (e->err) return;
  /* A float sum may be reassociated, as XLA:CPU's vectorized reductions
   * do: LLVM then keeps several partial sums in vector lanes. */
  if (n == 1 && LLVMIsAInstruction(res[0]) && LLVMGetInstructionOpcode(res[0]) == LLVMFAdd)
    LLVMSetFastMathFlags(res[0], LLVMFastMathAllowReassoc);
  for (int k = 0; k < n; k++) LLVMBuildStore(e->b, res[k], accs[k]);
  if (reduced[is->rank - 1]) {
    em_row_inner_end(e, &rl);
    if (part) {
      LLVMTypeRef ft = cg_storage_type(e->cg, in->shape->type);
      LLVMValueRef t = LLVMBuildFAdd(e->b, LLVMBuildLoad2(e->b, ft, acc[0], ""), LLVMBuildLoad2(e->b, ft, part, ""), "");
      LLVMSetFastMathFlags(t, LLVMFastMathAllowReassoc);
      LLVMBuildStore(e->b, t, acc[0]);
    }
    em_row_chunk_end(e, &rl);
  }
  for (int l = nl - 1; l >= 0; l--) em_loop_end(e, &loops[l]);
}

/* A float max/min reduction over a non-empty set, vectorizable and exact.
 * maximum/minimum as the interpreter defines them (NaN if either is NaN;
 * -0 < +0; the chosen value flushed to a signed zero when subnormal) folded
 * over x1..xn from init equals the flushed largest (smallest) element under
 * IEEE's total order, when no element is a NaN: flushing is monotone, the
 * total order's max associative. Three reductions run together, one vector
 * instruction each per vector of elements:
 *   m, the float max (min) in any order (vmaxps: no NaN, and the sign of
 *     a zero result and subnormals left open, the fast-math flags say);
 *   s, the signed max of the bits (an element's sign bit clear: s >= 0;
 *     a positive NaN: s > the bits of +inf);
 *   u, the unsigned max of the bits (a negative NaN: u > the bits of -inf).
 * No NaN and |m| normal: m is the unique extremum. No NaN and |m| below
 * the smallest normal (zero, or a subnormal read as zero): every element
 * is within a subnormal of zero on the far side, and the flushed extremum
 * is a zero whose sign says whether some element has its sign bit clear
 * (max: s >= 0 gives +0) or set (min: u has the top bit: -0). A NaN seen:
 * the generic loop runs again from init, so the result is the
 * interpreter's NaN, bit for bit. (The elements' integer keys in total
 * order with a NaN test each, before: 7 operations a vector.) */
/* reduce_minmax's three accumulators (float extremum, signed and
 * unsigned max of the bits: allocas accs[0..2]) with x folded in. */
static void minmax_fold(Em *e, bool is_max, LLVMTypeRef ft, LLVMTypeRef it, LLVMValueRef *accs, LLVMValueRef x) {
  LLVMBuilderRef B = e->b;
  LLVMValueRef bits = LLVMBuildBitCast(B, x, it, "");
  LLVMValueRef fm = em_intrinsic(e, is_max ? "llvm.maxnum" : "llvm.minnum", ft, 2,
                                 (LLVMValueRef[]){LLVMBuildLoad2(B, ft, accs[0], ""), x});
  LLVMSetFastMathFlags(fm, LLVMFastMathNoNaNs | LLVMFastMathNoSignedZeros);
  LLVMBuildStore(B, fm, accs[0]);
  LLVMBuildStore(B, em_intrinsic(e, "llvm.smax", it, 2, (LLVMValueRef[]){LLVMBuildLoad2(B, it, accs[1], ""), bits}), accs[1]);
  LLVMBuildStore(B, em_intrinsic(e, "llvm.umax", it, 2, (LLVMValueRef[]){LLVMBuildLoad2(B, it, accs[2], ""), bits}), accs[2]);
}

static void reduce_minmax(Em *e, const Instr *in, const Idx *idx, const bool *reduced, bool is_max,
                          LLVMValueRef acc) {
  Codegen *cg = e->cg;
  LLVMBuilderRef B = e->b;
  ElemType t = in->shape->type;
  int w = t == T_F64 ? 64 : 32;
  LLVMTypeRef it = w == 64 ? cg->i64 : cg->i32, ft = cg_storage_type(cg, t);
  unsigned long long sign = w == 64 ? 0x8000000000000000ull : 0x80000000ull;
  unsigned long long pinf = w == 64 ? 0x7ff0000000000000ull : 0x7f800000ull;
  const Shape *is = in->operands[0]->shape;
  LLVMValueRef init = LLVMBuildLoad2(B, ft, acc, "");
  LLVMValueRef facc = em_alloca(e, ft), sacc = em_alloca(e, it), uacc = em_alloca(e, it);
  LLVMBuildStore(B, init, facc);
  LLVMBuildStore(B, LLVMBuildBitCast(B, init, it, ""), sacc);
  LLVMBuildStore(B, LLVMBuildBitCast(B, init, it, ""), uacc);
  LLVMValueRef accs[3] = {facc, sacc, uacc};
  Idx *oi = em_idx(e, is->rank);
  if (!oi) return;
  Loop loops[CG_MAX_RANK];
  RowLoop rl;
  int nl = 0, j = 0;
  for (int d = 0; d < is->rank; d++) {
    if (reduced[d] && d == is->rank - 1) {
      /* under a band (cg.c), the band's elements and the one value past
       * it: the same extremum (max and min are exact in any order, and
       * the last element is counted twice at most) */
      LLVMValueRef tail = em_band_minmax_tail(e, in, oi, d);
      if (tail) minmax_fold(e, is_max, ft, it, accs, tail);
      oi->v[d] = row_loop_begin(e, in, &rl, oi, d);
    } else if (reduced[d]) oi->v[d] = em_loop_begin(e, &loops[nl++], em_i64(e, 0), em_i64(e, is->dims[d]), "r");
    else oi->v[d] = idx->v[j++];
  }
  LLVMValueRef x = em_elem1(e, in->operands[0], oi);
  if (e->err) return;
  minmax_fold(e, is_max, ft, it, accs, x);
  if (reduced[is->rank - 1]) em_row_loop_end(e, &rl);
  for (int l = nl - 1; l >= 0; l--) em_loop_end(e, &loops[l]);
  LLVMValueRef m = LLVMBuildLoad2(B, ft, facc, ""), sm = LLVMBuildLoad2(B, it, sacc, ""),
               um = LLVMBuildLoad2(B, it, uacc, "");
  LLVMValueRef pnan = LLVMBuildICmp(B, LLVMIntSGT, sm, LLVMConstInt(it, pinf, 0), "");
  LLVMValueRef nnan = LLVMBuildICmp(B, LLVMIntUGT, um, LLVMConstInt(it, pinf | sign, 0), "");
  LLVMValueRef saw_nan = LLVMBuildOr(B, pnan, nnan, "");
  LLVMValueRef am = em_intrinsic(e, "llvm.fabs", ft, 1, &m);
  LLVMValueRef tiny = LLVMBuildFCmp(B, LLVMRealOLT, am, LLVMConstReal(ft, w == 64 ? 0x1p-1022 : 0x1p-126), "");
  /* a zero result: max +0 when some element's sign bit is clear, min -0
   * when some element's is set */
  LLVMValueRef neg = is_max ? LLVMBuildICmp(B, LLVMIntSLT, sm, LLVMConstNull(it), "")
                            : LLVMBuildICmp(B, LLVMIntUGE, um, LLVMConstInt(it, sign, 0), "");
  LLVMValueRef zero = LLVMBuildSelect(B, neg, LLVMConstReal(ft, -0.0), LLVMConstReal(ft, 0.0), "");
  LLVMValueRef fast = LLVMBuildSelect(B, tiny, zero, m, "");
  IfBlk f;
  em_if_begin(e, &f, LLVMBuildNot(B, saw_nan, ""));
  LLVMBuildStore(B, fast, acc);
  em_if_end(e, &f);
  em_if_begin(e, &f, saw_nan);
  reduce_loops(e, in, idx, reduced, &acc);
  em_if_end(e, &f);
}

/* ---- argmax / argmin ----
 * jnp.argmax's reduce: (value, index) pairs from the input and an iota
 * along the one reduced dim, folded by
 *   keep = a > b || a != a          (a, i the pair so far; b, j the next)
 *   value = keep ? a : b
 *   index = keep || (a == b && i < j) ? i : j
 * (argmin: <; integers: no NaN test). Folded in index order it gives the
 * first NaN, else the first position p of the largest value m (==: -0
 * and +0 tie) with x[p]; and the init pair only where no element is
 * greater than its value. That is computed in two vectorized passes over
 * the reduced dim: m (with a NaN test), then the least p with x[p] == m;
 * where a NaN turned up or m is not past the init value, the fold itself
 * runs (reduce_loops). Over the innermost dim only (rows, contiguous).
 * f32[4096,4096] along rows: 33.3 -> 0.79 ms. */

/* Whether x is compare(a, b) in direction dir (default or float type). */
static bool is_cmp(const Instr *x, const Instr *a, const Instr *b, CmpDir dir) {
  return x->op == OP_COMPARE && x->noperands == 2 && x->operands[0] == a && x->operands[1] == b &&
         x->cmp_dir == dir && x->cmp_type != CMPT_TOTALORDER;
}

/* Whether x is the binary op `op` (or, and); its operands into *p, *q. */
static bool is_pair(const Instr *x, Opcode op, const Instr **p, const Instr **q) {
  if (x->op != op || x->noperands != 2) return false;
  *p = x->operands[0];
  *q = x->operands[1];
  return true;
}

/* Whether keep is the value's test: a > b (a < b for min) or, for
 * floats, that or a != a. */
static bool keep_test(const Instr *keep, const Instr *a, const Instr *b, bool fl, CmpDir dir) {
  if (!fl) return is_cmp(keep, a, b, dir);
  const Instr *p, *q;
  if (!is_pair(keep, OP_OR, &p, &q)) return false;
  return (is_cmp(p, a, b, dir) && is_cmp(q, a, a, CMP_NE)) || (is_cmp(q, a, b, dir) && is_cmp(p, a, a, CMP_NE));
}

/* Whether reduce `in` is an argmax (*is_max) or argmin of a float or
 * integer input with an iota along its one reduced dim *r. */
static bool reduce_is_argminmax(const Instr *in, bool *is_max, int *r) {
  if (in->noperands != 4 || in->ncalled != 1 || in->dimensions.n != 1 || in->shape->type != T_TUPLE) return false;
  const Instr *x = in->operands[0], *ix = in->operands[1];
  ElemType vt = x->shape->type, kt = ix->shape->type;
  bool fl = vt == T_F32 || vt == T_F64;
  if (!fl && !(type_is_int(vt) && type_bits(vt) >= 8)) return false;
  if (kt != T_S32 && kt != T_S64 && kt != T_U32 && kt != T_U64) return false;
  *r = (int)in->dimensions.v[0];
  /* the innermost dim, contiguous: two passes over another (a column)
   * would each read a line per element */
  if (*r != x->shape->rank - 1 || !shape_physically_row_major(x->shape) || x->shape->dims[*r] >= ((int64_t)1 << 31))
    return false;
  /* the index: an iota along r, maybe broadcast */
  bool along = ix->op == OP_IOTA && ix->index == *r;
  if (ix->op == OP_BROADCAST && ix->noperands == 1 && ix->operands[0]->op == OP_IOTA) {
    const Instr *io = ix->operands[0];
    along = io->index >= 0 && io->index < ix->dimensions.n && ix->dimensions.v[io->index] == *r;
  }
  if (!along) return false;
  const Computation *c = in->called[0];
  const Instr *t = c->root;
  if (c->nparams != 4 || !t || t->op != OP_TUPLE || t->noperands != 2) return false;
  const Instr *a = c->params[0], *i = c->params[1], *b = c->params[2], *j = c->params[3];
  const Instr *v = t->operands[0], *k = t->operands[1];
  if (v->op != OP_SELECT || v->noperands != 3 || v->operands[1] != a || v->operands[2] != b) return false;
  if (k->op != OP_SELECT || k->noperands != 3 || k->operands[1] != i || k->operands[2] != j) return false;
  const Instr *keep = v->operands[0];
  CmpDir dir;
  if (keep_test(keep, a, b, fl, CMP_GT)) dir = CMP_GT;
  else if (keep_test(keep, a, b, fl, CMP_LT)) dir = CMP_LT;
  else return false;
  /* the index's test: keep || (a == b && i < j) */
  const Instr *p, *q, *e1, *e2;
  if (!is_pair(k->operands[0], OP_OR, &p, &q)) return false;
  if (p != keep) {
    const Instr *tmp = p;
    p = q;
    q = tmp;
  }
  if (p != keep || !is_pair(q, OP_AND, &e1, &e2)) return false;
  if (!((is_cmp(e1, a, b, CMP_EQ) && is_cmp(e2, i, j, CMP_LT)) || (is_cmp(e2, a, b, CMP_EQ) && is_cmp(e1, i, j, CMP_LT))))
    return false;
  /* integer compares in the type's own signedness */
  for (int n = 0; n < c->ninstrs; n++) {
    const Instr *y = c->instrs[n];
    if (y->op == OP_COMPARE && (y->cmp_type == CMPT_SIGNED || y->cmp_type == CMPT_UNSIGNED) &&
        (y->cmp_type == CMPT_UNSIGNED) != (type_kind(y->operands[0]->shape->type) == TK_UINT))
      return false;
  }
  *is_max = dir == CMP_GT;
  return true;
}

static void reduce_argminmax(Em *e, const Instr *in, const Idx *idx, const bool *reduced, bool is_max, int r,
                             LLVMValueRef *acc) {
  Codegen *cg = e->cg;
  LLVMBuilderRef B = e->b;
  const Instr *x = in->operands[0];
  const Shape *is = x->shape;
  ElemType vt = x->shape->type, kt = in->operands[1]->shape->type;
  bool fl = vt == T_F32 || vt == T_F64, uns = type_kind(vt) == TK_UINT;
  LLVMTypeRef vty = cg_storage_type(cg, vt), i8 = cg->i8;
  Idx *oi = em_idx(e, is->rank);
  if (!oi) return;
  for (int d = 0, j = 0; d < is->rank; d++)
    if (d != r) oi->v[d] = idx->v[j++];
  /* pass 1: the extreme m and whether a NaN is among the elements */
  LLVMValueRef init = LLVMBuildLoad2(B, vty, acc[0], "");
  LLVMValueRef ms = em_alloca(e, vty), ns = em_alloca(e, i8);
  LLVMBuildStore(B, init, ms);
  LLVMBuildStore(B, LLVMConstInt(i8, 0, 0), ns);
  Loop l;
  oi->v[r] = em_loop_begin(e, &l, em_i64(e, 0), em_i64(e, is->dims[r]), "am");
  LLVMValueRef v = em_elem1(e, x, oi), m = LLVMBuildLoad2(B, vty, ms, "");
  if (e->err) return;
  LLVMValueRef past;
  if (fl) {
    past = LLVMBuildFCmp(B, is_max ? LLVMRealOGT : LLVMRealOLT, v, m, "");
    LLVMValueRef nan = LLVMBuildZExt(B, LLVMBuildFCmp(B, LLVMRealUNO, v, v, ""), i8, "");
    LLVMBuildStore(B, LLVMBuildOr(B, LLVMBuildLoad2(B, i8, ns, ""), nan, ""), ns);
  } else {
    past = LLVMBuildICmp(B, is_max ? (uns ? LLVMIntUGT : LLVMIntSGT) : (uns ? LLVMIntULT : LLVMIntSLT), v, m, "");
  }
  LLVMValueRef nm = LLVMBuildSelect(B, past, v, m, "");
  if (fl) { /* NaNs are tested apart, and -0 and +0 tie: a reduction LLVM vectorizes */
    LLVMSetFastMathFlags(past, LLVMFastMathNoNaNs | LLVMFastMathNoSignedZeros);
    LLVMSetFastMathFlags(nm, LLVMFastMathNoNaNs | LLVMFastMathNoSignedZeros);
  }
  LLVMBuildStore(B, nm, ms);
  em_loop_end(e, &l);
  m = LLVMBuildLoad2(B, vty, ms, "");
  LLVMValueRef ok = fl ? LLVMBuildFCmp(B, is_max ? LLVMRealOGT : LLVMRealOLT, m, init, "")
                       : LLVMBuildICmp(B, is_max ? (uns ? LLVMIntUGT : LLVMIntSGT) : (uns ? LLVMIntULT : LLVMIntSLT),
                                       m, init, "");
  if (fl) ok = LLVMBuildAnd(B, ok, LLVMBuildICmp(B, LLVMIntEQ, LLVMBuildLoad2(B, i8, ns, ""), LLVMConstInt(i8, 0, 0), ""), "");
  IfBlk f;
  em_if_begin(e, &f, ok);
  /* pass 2: the first position of m */
  LLVMValueRef ps = em_alloca(e, cg->i64), none = em_i64(e, INT64_MAX);
  LLVMBuildStore(B, none, ps);
  oi->v[r] = em_loop_begin(e, &l, em_i64(e, 0), em_i64(e, is->dims[r]), "am");
  v = em_elem1(e, x, oi);
  if (e->err) return;
  LLVMValueRef eq = fl ? LLVMBuildFCmp(B, LLVMRealOEQ, v, m, "") : LLVMBuildICmp(B, LLVMIntEQ, v, m, "");
  LLVMValueRef a2[2] = {LLVMBuildLoad2(B, cg->i64, ps, ""), LLVMBuildSelect(B, eq, oi->v[r], none, "")};
  LLVMBuildStore(B, em_intrinsic(e, "llvm.smin", cg->i64, 2, a2), ps);
  em_loop_end(e, &l);
  Idx *pi = em_idx(e, is->rank);
  if (!pi) return;
  for (int d = 0; d < is->rank; d++) pi->v[d] = oi->v[d];
  pi->v[r] = LLVMBuildLoad2(B, cg->i64, ps, "");
  LLVMBuildStore(B, em_elem1(e, x, pi), acc[0]);
  LLVMValueRef k = type_bits(kt) == 64 ? pi->v[r] : LLVMBuildTrunc(B, pi->v[r], cg_storage_type(cg, kt), "");
  LLVMBuildStore(B, k, acc[1]);
  em_if_end(e, &f);
  em_if_begin(e, &f, LLVMBuildNot(B, ok, ""));
  reduce_loops(e, in, idx, reduced, acc);
  em_if_end(e, &f);
}

static int reduce_elem(Em *e, const Instr *in, const Idx *idx, LLVMValueRef *out) {
  int n = in->noperands / 2;
  const Shape *is = in->operands[0]->shape;
  bool reduced[CG_MAX_RANK] = {false};
  for (int k = 0; k < in->dimensions.n; k++) reduced[in->dimensions.v[k]] = true;
  LLVMValueRef acc[8];
  for (int k = 0; k < n; k++) {
    acc[k] = em_alloca(e, cg_storage_type(e->cg, in->operands[k]->shape->type));
    LLVMBuildStore(e->b, em_elem1(e, in->operands[n + k], scalar_idx(e)), acc[k]);
  }
  bool empty = false;
  for (int d = 0; d < is->rank; d++) empty |= reduced[d] && is->dims[d] == 0;
  bool is_max;
  int r;
  if (!empty && in != e->stash_red && reduce_is_minmax(in, &is_max)) reduce_minmax(e, in, idx, reduced, is_max, acc[0]);
  else if (!empty && in != e->stash_red && reduce_is_argminmax(in, &is_max, &r))
    reduce_argminmax(e, in, idx, reduced, is_max, r, acc);
  else if (!empty) reduce_loops(e, in, idx, reduced, acc);
  if (e->err) return 0;
  for (int k = 0; k < n; k++) out[k] = LLVMBuildLoad2(e->b, cg_storage_type(e->cg, in->operands[k]->shape->type), acc[k], "");
  return n;
}

LLVMValueRef em_window_pos(Em *e, const WindowDim *win, int rank, const Idx *out, const int64_t *out_dims,
                           const LLVMValueRef *w, const int64_t *dims, Idx *pos) {
  LLVMValueRef ok = LLVMConstInt(e->cg->i1, 1, 0);
  for (int d = 0; d < rank; d++) {
    const WindowDim *wd = &win[d];
    LLVMValueRef u = LLVMBuildAdd(e->b, LLVMBuildMul(e->b, out->v[d], em_i64(e, wd->stride), ""),
                                  LLVMBuildMul(e->b, w[d], em_i64(e, wd->rhs_dilate), ""), "");
    u = LLVMBuildSub(e->b, u, em_i64(e, wd->pad_lo), "");
    LLVMValueRef p = u;
    /* A test that holds for every output and window position is left out
     * (from the extreme positions, known here): a window with no padding
     * has no bounds test at all, and its loops vectorize. */
    int64_t a = 0, b = 0, hi = 0; /* the largest position; unknown (tested) on overflow */
    bool hi_known = !__builtin_mul_overflow(out_dims[d] > 0 ? out_dims[d] - 1 : 0, wd->stride, &a) &&
                    !__builtin_mul_overflow(wd->size > 0 ? wd->size - 1 : 0, wd->rhs_dilate, &b) &&
                    !__builtin_add_overflow(a, b, &hi) && !__builtin_sub_overflow(hi, wd->pad_lo, &hi);
    if (wd->pad_lo > 0) ok = LLVMBuildAnd(e->b, ok, LLVMBuildICmp(e->b, LLVMIntSGE, u, em_i64(e, 0), ""), "");
    if (wd->lhs_dilate > 1) {
      ok = LLVMBuildAnd(e->b, ok, LLVMBuildICmp(e->b, LLVMIntEQ, LLVMBuildSRem(e->b, u, em_i64(e, wd->lhs_dilate), ""), em_i64(e, 0), ""), "");
      p = LLVMBuildSDiv(e->b, u, em_i64(e, wd->lhs_dilate), "");
      hi /= wd->lhs_dilate;
    }
    if (!hi_known || hi >= dims[d])
      ok = LLVMBuildAnd(e->b, ok, LLVMBuildICmp(e->b, LLVMIntSLT, p, em_i64(e, dims[d]), ""), "");
    pos->v[d] = p;
  }
  return ok;
}

static int reduce_window_elem(Em *e, const Instr *in, const Idx *idx, LLVMValueRef *out) {
  int n = in->noperands / 2;
  const Shape *is = in->operands[0]->shape;
  int rank = is->rank;
  LLVMValueRef acc[8];
  for (int k = 0; k < n; k++) {
    acc[k] = em_alloca(e, cg_storage_type(e->cg, in->operands[k]->shape->type));
    LLVMBuildStore(e->b, em_elem1(e, in->operands[n + k], scalar_idx(e)), acc[k]);
  }
  bool empty = shape_elems(is) == 0;
  for (int d = 0; d < rank; d++) empty |= in->window[d].size == 0;
  if (!empty) {
    Loop loops[CG_MAX_RANK];
    Idx *oi = em_idx(e, rank);
    if (!oi) return 0;
    LLVMValueRef w[CG_MAX_RANK];
    for (int d = 0; d < rank; d++) w[d] = em_loop_begin(e, &loops[d], em_i64(e, 0), em_i64(e, in->window[d].size), "w");
    const Shape *os = in->shape->type == T_TUPLE ? in->shape->tuple[0] : in->shape;
    LLVMValueRef ok = em_window_pos(e, in->window, rank, idx, os->dims, w, is->dims, oi);
    IfBlk f;
    em_if_begin(e, &f, ok);
    LLVMValueRef args[16], res[8];
    for (int k = 0; k < n; k++) args[k] = LLVMBuildLoad2(e->b, cg_storage_type(e->cg, in->operands[k]->shape->type), acc[k], "");
    for (int k = 0; k < n; k++) args[n + k] = em_elem1(e, in->operands[k], oi);
    em_call_scalar_comp(e, in->called[0], args, res, n);
    if (e->err) return 0;
    for (int k = 0; k < n; k++) LLVMBuildStore(e->b, res[k], acc[k]);
    em_if_end(e, &f);
    for (int d = rank - 1; d >= 0; d--) em_loop_end(e, &loops[d]);
  }
  for (int k = 0; k < n; k++) out[k] = LLVMBuildLoad2(e->b, cg_storage_type(e->cg, in->operands[k]->shape->type), acc[k], "");
  return n;
}

/* ---- contractions ---- */

static bool in_list(const I64List *l, int64_t d) {
  for (int i = 0; i < l->n; i++)
    if (l->v[i] == d) return true;
  return false;
}

static LLVMValueRef dot_elem(Em *e, const Instr *in, const Idx *idx) {
  const Instr *L = in->operands[0], *R = in->operands[1];
  const DotDims *dd = &in->dot;
  ElemType rt = in->shape->type, t = cg_acc_type(in);
  LLVMTypeRef st = cg_storage_type(e->cg, t);
  LLVMValueRef acc = em_alloca(e, st);
  LLVMBuildStore(e->b, em_zero(e, t), acc);
  int lr = L->shape->rank, rr = R->shape->rank;
  Idx *li = em_idx(e, lr), *ri = em_idx(e, rr);
  if (!li || !ri) return NULL;
  int j = 0;
  for (int b = 0; b < dd->lhs_batch.n; b++, j++) {
    li->v[dd->lhs_batch.v[b]] = idx->v[j];
    ri->v[dd->rhs_batch.v[b]] = idx->v[j];
  }
  for (int d = 0; d < lr; d++)
    if (!in_list(&dd->lhs_batch, d) && !in_list(&dd->lhs_contract, d)) li->v[d] = idx->v[j++];
  for (int d = 0; d < rr; d++)
    if (!in_list(&dd->rhs_batch, d) && !in_list(&dd->rhs_contract, d)) ri->v[d] = idx->v[j++];
  bool empty = false;
  for (int c = 0; c < dd->lhs_contract.n; c++) empty |= L->shape->dims[dd->lhs_contract.v[c]] == 0;
  if (!empty) {
    Loop loops[CG_MAX_RANK];
    for (int c = 0; c < dd->lhs_contract.n; c++) {
      LLVMValueRef k = em_loop_begin(e, &loops[c], em_i64(e, 0), em_i64(e, L->shape->dims[dd->lhs_contract.v[c]]), "k");
      li->v[dd->lhs_contract.v[c]] = k;
      ri->v[dd->rhs_contract.v[c]] = k;
    }
    LLVMValueRef a = em_to_acc(e, L->shape->type, t, em_elem1(e, L, li));
    LLVMValueRef b = em_to_acc(e, R->shape->type, t, em_elem1(e, R, ri));
    LLVMValueRef s = em_add(e, t, LLVMBuildLoad2(e->b, st, acc, ""), em_mul(e, t, a, b));
    LLVMBuildStore(e->b, s, acc);
    for (int c = dd->lhs_contract.n - 1; c >= 0; c--) em_loop_end(e, &loops[c]);
  }
  return em_from_acc(e, t, rt, LLVMBuildLoad2(e->b, st, acc, ""));
}

static LLVMValueRef conv_elem(Em *e, const Instr *in, const Idx *idx) {
  const Instr *L = in->operands[0], *R = in->operands[1];
  const ConvDims *cd = &in->conv;
  ElemType rt = in->shape->type, t = cg_acc_type(in);
  LLVMTypeRef st = cg_storage_type(e->cg, t);
  int nsp = cd->nspatial;
  int64_t O = R->shape->dims[cd->k_out], Ci = R->shape->dims[cd->k_in];
  int64_t NB = L->shape->dims[cd->in_batch];
  int64_t G = in->feature_group_count, BG = in->batch_group_count;
  LLVMValueRef acc = em_alloca(e, st);
  LLVMBuildStore(e->b, em_zero(e, t), acc);
  LLVMValueRef n = idx->v[cd->out_batch], o = idx->v[cd->out_feature];
  LLVMValueRef g = LLVMBuildSDiv(e->b, o, em_i64(e, O / G), "");
  LLVMValueRef nb = n;
  if (BG > 1)
    nb = LLVMBuildAdd(e->b, n, LLVMBuildMul(e->b, LLVMBuildSDiv(e->b, o, em_i64(e, O / BG), ""), em_i64(e, NB / BG), ""), "");
  bool empty = Ci == 0;
  for (int s = 0; s < nsp; s++) empty |= R->shape->dims[cd->k_spatial[s]] == 0;
  if (!empty) {
    Loop loops[CG_MAX_RANK + 1];
    Idx *li = em_idx(e, nsp + 2), *ri = em_idx(e, nsp + 2);
    if (!li || !ri) return NULL;
    LLVMValueRef ok = LLVMConstInt(e->cg->i1, 1, 0);
    LLVMValueRef ks[CG_MAX_RANK];
    for (int s = 0; s < nsp; s++)
      ks[s] = em_loop_begin(e, &loops[s], em_i64(e, 0), em_i64(e, R->shape->dims[cd->k_spatial[s]]), "ks");
    LLVMValueRef i = em_loop_begin(e, &loops[nsp], em_i64(e, 0), em_i64(e, Ci), "ci");
    for (int s = 0; s < nsp; s++) {
      const WindowDim *wd = &in->window[s];
      LLVMValueRef u = LLVMBuildAdd(e->b, LLVMBuildMul(e->b, idx->v[cd->out_spatial[s]], em_i64(e, wd->stride), ""),
                                    LLVMBuildMul(e->b, ks[s], em_i64(e, wd->rhs_dilate), ""), "");
      u = LLVMBuildSub(e->b, u, em_i64(e, wd->pad_lo), "");
      LLVMValueRef p = u;
      ok = LLVMBuildAnd(e->b, ok, LLVMBuildICmp(e->b, LLVMIntSGE, u, em_i64(e, 0), ""), "");
      if (wd->lhs_dilate > 1) {
        ok = LLVMBuildAnd(e->b, ok, LLVMBuildICmp(e->b, LLVMIntEQ, LLVMBuildSRem(e->b, u, em_i64(e, wd->lhs_dilate), ""), em_i64(e, 0), ""), "");
        p = LLVMBuildSDiv(e->b, u, em_i64(e, wd->lhs_dilate), "");
      }
      ok = LLVMBuildAnd(e->b, ok, LLVMBuildICmp(e->b, LLVMIntSLT, p, em_i64(e, L->shape->dims[cd->in_spatial[s]]), ""), "");
      li->v[cd->in_spatial[s]] = p;
      int64_t K = R->shape->dims[cd->k_spatial[s]];
      ri->v[cd->k_spatial[s]] = wd->reversal ? LLVMBuildSub(e->b, em_i64(e, K - 1), ks[s], "") : ks[s];
    }
    li->v[cd->in_batch] = nb;
    li->v[cd->in_feature] = LLVMBuildAdd(e->b, LLVMBuildMul(e->b, g, em_i64(e, Ci), ""), i, "");
    ri->v[cd->k_in] = i;
    ri->v[cd->k_out] = o;
    IfBlk f;
    em_if_begin(e, &f, ok);
    LLVMValueRef a = em_to_acc(e, L->shape->type, t, em_elem1(e, L, li));
    LLVMValueRef b = em_to_acc(e, R->shape->type, t, em_elem1(e, R, ri));
    LLVMBuildStore(e->b, em_add(e, t, LLVMBuildLoad2(e->b, st, acc, ""), em_mul(e, t, a, b)), acc);
    em_if_end(e, &f);
    for (int s = nsp; s >= 0; s--) em_loop_end(e, &loops[s]);
  }
  return em_from_acc(e, t, rt, LLVMBuildLoad2(e->b, st, acc, ""));
}

/* gather: the output's batch dims pick an index vector, spread over the
 * operand dims by start_index_map (operand batching dims take the batch
 * coordinate), every start clamped so the slice fits; the offset dims walk
 * the slice. (src/interp/gather.c is the definition.) */
static LLVMValueRef gather_elem(Em *e, const Instr *in, const Idx *idx) {
  const Instr *op = in->operands[0], *ix = in->operands[1];
  const GatherDims *gd = &in->gather;
  int rank = op->shape->rank, ri = ix->shape->rank, ro = in->shape->rank;
  int64_t ivd = gd->index_vector_dim;
  bool implicit = ivd == ri;
  LLVMValueRef G[CG_MAX_RANK];
  int nb = 0;
  for (int d = 0; d < ro; d++)
    if (!in_list(&gd->offset_dims, d)) G[nb++] = idx->v[d];
  LLVMValueRef start[CG_MAX_RANK];
  for (int d = 0; d < rank; d++) start[d] = em_i64(e, 0);
  for (int k = 0; k < gd->start_index_map.n; k++) {
    Idx *ii = em_idx(e, ri);
    if (!ii) return NULL;
    for (int d = 0, j = 0; d < ri; d++) ii->v[d] = d == ivd ? em_i64(e, k) : G[j++];
    (void)implicit;
    start[gd->start_index_map.v[k]] = em_to_i64(e, ix->shape->type, em_elem1(e, ix, ii));
  }
  for (int i = 0; i < gd->operand_batching_dims.n; i++) {
    int64_t d = gd->start_indices_batching_dims.v[i];
    start[gd->operand_batching_dims.v[i]] = G[d < ivd ? d : d - 1];
  }
  Idx *oi = em_idx(e, rank);
  if (!oi) return NULL;
  for (int d = 0, k = 0; d < rank; d++) {
    LLVMValueRef s = clampi(e, start[d], 0, op->shape->dims[d] - in->slice_sizes.v[d]);
    bool dropped = in_list(&gd->collapsed_slice_dims, d) || in_list(&gd->operand_batching_dims, d);
    oi->v[d] = dropped ? s : LLVMBuildNSWAdd(e->b, s, idx->v[gd->offset_dims.v[k++]], "");
  }
  return em_elem1(e, op, oi);
}

/* ---- dispatch ---- */

static int elem_uncached(Em *e, const Instr *in, const Idx *idx, LLVMValueRef *out, int max_out) {
  int slot = bound_slot(e, in);
  if (slot >= 0 || slot == CG_SLOT_STASH) {
    out[0] = load_at(e, em_buf(e, slot), in->shape->type, idx, in->shape->dims);
    return 1;
  }
  switch (in->op) {
  case OP_CONSTANT: out[0] = const_elem(e, in, idx); return 1;
  case OP_BROADCAST: out[0] = broadcast_elem(e, in, idx); return 1;
  case OP_RESHAPE: out[0] = reshape_elem(e, in, idx); return 1;
  case OP_BITCAST: out[0] = bitcast_elem(e, in, idx); return 1;
  case OP_COPY: out[0] = em_elem1(e, in->operands[0], idx); return 1;
  case OP_TRANSPOSE: out[0] = transpose_elem(e, in, idx); return 1;
  case OP_SLICE: out[0] = slice_elem(e, in, idx); return 1;
  case OP_REVERSE: out[0] = reverse_elem(e, in, idx); return 1;
  case OP_IOTA: out[0] = iota_elem(e, in, idx); return 1;
  case OP_CONCATENATE: out[0] = concat_elem(e, in, idx); return 1;
  case OP_PAD: out[0] = pad_elem(e, in, idx); return 1;
  case OP_DYNAMIC_SLICE: out[0] = dynamic_slice_elem(e, in, idx); return 1;
  case OP_DYNAMIC_UPDATE_SLICE: out[0] = dus_elem(e, in, idx); return 1;
  case OP_DOT: out[0] = dot_elem(e, in, idx); return 1;
  case OP_CONVOLUTION: out[0] = conv_elem(e, in, idx); return 1;
  case OP_GATHER: out[0] = gather_elem(e, in, idx); return 1;
  case OP_REDUCE: return reduce_elem(e, in, idx, out);
  case OP_REDUCE_WINDOW: return reduce_window_elem(e, in, idx, out);
  case OP_TUPLE: {
    int n = 0;
    for (int k = 0; k < in->noperands && n < max_out; k++) out[n++] = em_elem1(e, in->operands[k], idx);
    return n;
  }
  case OP_GET_TUPLE_ELEMENT: {
    LLVMValueRef vals[8];
    int n = em_elem(e, in->operands[0], idx, vals, 8);
    if (in->index >= n) {
      em_fail(e, em_unsupported(in, "element out of range"));
      return 0;
    }
    out[0] = vals[in->index];
    return 1;
  }
  case OP_MAP: {
    LLVMValueRef args[16];
    for (int k = 0; k < in->noperands; k++) args[k] = ew_operand(e, in, k, idx);
    em_call_scalar_comp(e, in->called[0], args, out, 1);
    return 1;
  }
  case OP_BITCAST_CONVERT:
    if (type_bits(in->shape->type) != type_bits(in->operands[0]->shape->type)) {
      out[0] = bitcast_convert_elem(e, in, idx);
      return 1;
    }
    break;
  default:
    break;
  }
  int fk = fma_operand(e, in);
  if (fk >= 0) {
    /* a multiply this kernel reads from a buffer (a fusion run as a
     * program of its own instructions, a stashed value) was rounded
     * there: its operands need not be at hand */
    int ms = bound_slot(e, in->operands[fk]);
    if (ms >= 0 || ms == CG_SLOT_STASH) fk = -1;
  }
  if (fk >= 0) {
    const Instr *m = in->operands[fk];
    const Idx *mi = m->shape->rank == 0 && idx->rank != 0 ? scalar_idx(e) : idx;
    LLVMValueRef a = ew_operand(e, m, 0, mi), b = ew_operand(e, m, 1, mi), c = ew_operand(e, in, 1 - fk, idx);
    out[0] = em_fma(e, in->shape->type, a, b, c, in->op == OP_SUBTRACT && fk == 1, in->op == OP_SUBTRACT && fk == 0);
    return 1;
  }
  if ((op_info(in->op)->flags & OPF_EW) || in->op == OP_BITCAST_CONVERT) {
    LLVMValueRef ops[3];
    for (int k = 0; k < in->noperands; k++) ops[k] = ew_operand(e, in, k, idx);
    out[0] = em_scalar_op(e, in, ops);
    return 1;
  }
  em_fail(e, em_unsupported(in, NULL));
  return 0;
}

int em_elem(Em *e, const Instr *in, const Idx *idx, LLVMValueRef *out, int max_out) {
  if (e->err || !idx) {
    for (int k = 0; k < max_out; k++) out[k] = NULL;
    return 0;
  }
  MemoEnt *m = em_memo_find(e, in, idx);
  if (m) {
    for (int k = 0; k < m->nvals && k < max_out; k++) out[k] = m->vals[k];
    return m->nvals;
  }
  int n = elem_uncached(e, in, idx, out, max_out);
  if (e->err) return 0;
  for (int k = 0; k < n; k++)
    if (!out[k]) {
      if (!e->err) em_fail(e, cxla_oom());
      return 0;
    }
  em_memo_put(e, in, idx, n, out);
  return n;
}

LLVMValueRef em_elem1(Em *e, const Instr *in, const Idx *idx) {
  LLVMValueRef v[8];
  int n = em_elem(e, in, idx, v, 8);
  if (n < 1) {
    /* after an error: a value of the right type, so that emission can go
     * on building well-typed (discarded) IR */
    if (!e->err) em_fail(e, em_unsupported(in, "no value"));
    ElemType t = in->shape->type == T_TUPLE ? in->shape->tuple[0]->type : in->shape->type;
    return LLVMGetUndef(cg_storage_type(e->cg, t));
  }
  return v[0];
}

/* ---- what is supported ---- */

static bool ew_ok(const Instr *in, char *why, size_t n) {
  unsigned char zeros[3][16] = {{0}}, out[16];
  const void *ops[3] = {zeros[0], zeros[1], zeros[2]};
  if (in->noperands > 3 || !ew_scalar_eval(in, ops, out)) {
    snprintf(why, n, "%s %%%s on %s", op_name(in->op), in->name, type_name(in->shape->type));
    return false;
  }
  return true;
}

static bool instr_ok(const Instr *in, bool in_fusion, char *why, size_t n) {
  if (cg_whole_op(in->op)) {
    if (!in_fusion) return em_whole_supported(in, why, n);
    snprintf(why, n, "%s %%%s inside a fusion", op_name(in->op), in->name);
    return false;
  }
  if (in->shape->type == T_TUPLE && in->op != OP_TUPLE && in->op != OP_REDUCE && in->op != OP_REDUCE_WINDOW &&
      in->op != OP_PARAMETER) {
    snprintf(why, n, "%s %%%s: tuple-shaped value in a kernel", op_name(in->op), in->name);
    return false;
  }
  if (in->shape->rank > CG_MAX_RANK) {
    snprintf(why, n, "%s %%%s: rank %d", op_name(in->op), in->name, in->shape->rank);
    return false;
  }
  switch (in->op) {
  case OP_PARAMETER:
    if (!in_fusion || in->shape->type == T_TUPLE) {
      snprintf(why, n, "parameter %%%s in a kernel", in->name);
      return false;
    }
    return true;
  case OP_CONSTANT:
    if (!in->literal || in->literal->unknown || in->literal->type == T_TUPLE) {
      snprintf(why, n, "constant %%%s without data", in->name);
      return false;
    }
    return true;
  case OP_BITCAST:
    if (in->shape->type != in->operands[0]->shape->type &&
        (type_bytes(in->shape->type) != type_bytes(in->operands[0]->shape->type) ||
         type_is_complex(in->shape->type) || type_is_complex(in->operands[0]->shape->type) ||
         shape_elems(in->shape) != shape_elems(in->operands[0]->shape))) {
      snprintf(why, n, "bitcast %%%s between %s and %s", in->name, type_name(in->operands[0]->shape->type),
               type_name(in->shape->type));
      return false;
    }
    return true;
  case OP_BROADCAST: case OP_RESHAPE: case OP_COPY: case OP_TRANSPOSE: case OP_SLICE:
  case OP_REVERSE: case OP_CONCATENATE: case OP_PAD: case OP_DYNAMIC_SLICE: case OP_DYNAMIC_UPDATE_SLICE:
  case OP_TUPLE: case OP_GET_TUPLE_ELEMENT:
    return true;
  case OP_GATHER: {
    const Shape *is = in->operands[1]->shape;
    bool ok = type_is_int(is->type) && in->slice_sizes.n == in->operands[0]->shape->rank &&
              in->gather.index_vector_dim >= 0 && in->gather.index_vector_dim <= is->rank &&
              (in->gather.index_vector_dim == is->rank ? in->gather.start_index_map.n == 1
                                                        : in->gather.start_index_map.n == is->dims[in->gather.index_vector_dim]);
    if (!ok) snprintf(why, n, "gather %%%s: index geometry", in->name);
    return ok;
  }
  case OP_IOTA: {
    ElemType t = in->shape->type;
    if (type_is_int(t) || t == T_F32 || t == T_F64 || t == T_F16 || t == T_BF16 || type_is_complex(t))
      return true;
    snprintf(why, n, "iota %%%s of %s", in->name, type_name(t));
    return false;
  }
  case OP_DOT: case OP_CONVOLUTION: {
    ElemType t = in->shape->type;
    bool ok = t == T_F32 || t == T_F64 || t == T_F16 || t == T_BF16 || type_is_complex(t) ||
              (type_is_int(t) && type_bits(t) >= 8) || t == T_PRED || cg_is_f8(t);
    ElemType o0 = in->operands[0]->shape->type, o1 = in->operands[1]->shape->type;
    bool f8 = cg_is_f8(t) || cg_is_f8(o0) || cg_is_f8(o1);
    if (f8) ok = cg_f8_contraction_ok(t, o0) && cg_f8_contraction_ok(t, o1);
    for (int k = 0; k < 2 && ok && !f8; k++) {
      ElemType ot = in->operands[k]->shape->type;
      /* c64 operands of a c128 result are widened as they are read */
      ok = ot == t || (ot == T_C64 && t == T_C128) ||
           !(type_is_complex(ot) || type_is_complex(t) || (type_is_int(ot) && type_bits(ot) < 8) ||
             !(ot == T_F32 || ot == T_F64 || ot == T_F16 || ot == T_BF16 || type_is_int(ot) || ot == T_PRED));
    }
    if (in->op == OP_CONVOLUTION && (in->conv.nspatial + 2 != in->shape->rank || in->nwindow != in->conv.nspatial))
      ok = false;
    if (!ok) snprintf(why, n, "%s %%%s of %s", op_name(in->op), in->name, type_name(t));
    return ok;
  }
  case OP_REDUCE: case OP_REDUCE_WINDOW:
    if (in->noperands / 2 > 8) {
      snprintf(why, n, "%s %%%s with %d inputs", op_name(in->op), in->name, in->noperands / 2);
      return false;
    }
    if (in->op == OP_REDUCE_WINDOW && in->nwindow != in->operands[0]->shape->rank) {
      snprintf(why, n, "reduce-window %%%s: window rank", in->name);
      return false;
    }
    return em_scalar_comp_ok(in->called[0], why, n);
  case OP_MAP:
    return in->noperands <= 16 && em_scalar_comp_ok(in->called[0], why, n);
  case OP_BITCAST_CONVERT:
    if (type_bits(in->shape->type) != type_bits(in->operands[0]->shape->type)) {
      ElemType a = in->shape->type, b = in->operands[0]->shape->type;
      if (type_is_complex(a) || type_is_complex(b) || a == T_PRED || b == T_PRED ||
          (type_bits(a) < 8 && !type_is_int(a)) || (type_bits(b) < 8 && !type_is_int(b))) {
        snprintf(why, n, "bitcast-convert %%%s from %s to %s", in->name, type_name(b), type_name(a));
        return false;
      }
      return true;
    }
    return ew_ok(in, why, n);
  default:
    if ((op_info(in->op)->flags & OPF_EW) && in->op != OP_MAP) return ew_ok(in, why, n);
    snprintf(why, n, "%s %%%s", op_name(in->op), in->name);
    return false;
  }
}

bool em_scalar_comp_ok(const Computation *c, char *why, size_t n) {
  for (int i = 0; i < c->ninstrs; i++) {
    const Instr *in = c->instrs[i];
    switch (in->op) {
    case OP_PARAMETER: case OP_TUPLE: case OP_GET_TUPLE_ELEMENT: continue;
    case OP_CONSTANT:
      if (in->literal && !in->literal->unknown && in->literal->type != T_TUPLE && in->literal->nelems == 1) continue;
      break;
    case OP_RESHAPE: case OP_BROADCAST: case OP_COPY: case OP_BITCAST:
      if (shape_elems(in->shape) == 1) continue;
      break;
    default:
      if ((op_info(in->op)->flags & OPF_EW) && in->op != OP_MAP && in->noperands <= 8 &&
          in->shape->type != T_TUPLE) {
        if (!ew_ok(in, why, n)) return false;
        continue;
      }
      break;
    }
    snprintf(why, n, "%s %%%s in computation %s", op_name(in->op), in->name, c->name);
    return false;
  }
  return true;
}

bool em_elem_supported(const Instr *in, char *why, size_t n) {
  if (in->op == OP_FUSION) {
    if (in->ncalled < 1) {
      snprintf(why, n, "fusion %%%s without a computation", in->name);
      return false;
    }
    const Computation *c = in->called[0];
    for (int i = 0; i < c->ninstrs; i++)
      if (!instr_ok(c->instrs[i], true, why, n)) return false;
    return true;
  }
  return instr_ok(in, false, why, n);
}
