/* The rng-bit-generator kernel, bit for bit the interpreter's algorithm
 * (src/interp/rng.c is the definition, after XLA's rng_bit_generator
 * expander over its prng library):
 *
 *   state[0] is the key (two u32 words, low first).
 *   three-fry: state[1] is a 64-bit counter; Threefry-2x32 (20 rounds)
 *     encrypts counter + i. 64-bit outputs take one block per element (low
 *     word first); narrower ones split the shape along its first even
 *     dimension (else its largest) and interleave the block's two words
 *     along it. new state[1] = state[1] + blocks used.
 *   philox (and default): a 128-bit counter, (low, high) = (state[1],
 *     state[2]) when N >= 3, else (state[1], state[0]); Philox-4x32 (10
 *     rounds) encrypts counter + i: four 32-bit or two 64-bit elements per
 *     block, in order. The new state stores the advanced counter (only its
 *     low word when N == 2).
 * Element types narrower than the generated word take its low bits. */
#include <stdio.h>

#include "codegen/cg_internal.h"

static LLVMValueRef c32(Em *e, uint32_t v) { return LLVMConstInt(e->cg->i32, v, 0); }

static LLVMValueRef rotl(Em *e, LLVMValueRef v, int n) {
  return LLVMBuildOr(e->b, LLVMBuildShl(e->b, v, c32(e, (uint32_t)n), ""),
                     LLVMBuildLShr(e->b, v, c32(e, (uint32_t)(32 - n)), ""), "");
}

/* Threefry-2x32, 20 rounds, on x[0], x[1] (i32). */
static void threefry(Em *e, LLVMValueRef k0, LLVMValueRef k1, LLVMValueRef x[2]) {
  static const int rot[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  LLVMBuilderRef B = e->b;
  LLVMValueRef ks[3] = {k0, k1, LLVMBuildXor(B, LLVMBuildXor(B, c32(e, 0x1BD11BDAu), k0, ""), k1, "")};
  LLVMValueRef a = LLVMBuildAdd(B, x[0], ks[0], ""), b = LLVMBuildAdd(B, x[1], ks[1], "");
  for (int g = 0; g < 5; g++) {
    for (int r = 0; r < 4; r++) {
      a = LLVMBuildAdd(B, a, b, "");
      b = LLVMBuildXor(B, rotl(e, b, rot[(g % 2) * 4 + r]), a, "");
    }
    a = LLVMBuildAdd(B, a, ks[(g + 1) % 3], "");
    b = LLVMBuildAdd(B, b, LLVMBuildAdd(B, ks[(g + 2) % 3], c32(e, (uint32_t)(g + 1)), ""), "");
  }
  x[0] = a;
  x[1] = b;
}

/* Philox-4x32, 10 rounds, on c[0..4) (i32). */
static void philox(Em *e, LLVMValueRef k0, LLVMValueRef k1, LLVMValueRef c[4]) {
  LLVMBuilderRef B = e->b;
  LLVMTypeRef i64 = e->cg->i64, i32 = e->cg->i32;
  LLVMValueRef sh = LLVMConstInt(i64, 32, 0);
  for (int r = 0; r < 10; r++) {
    LLVMValueRef p0 = LLVMBuildMul(B, LLVMBuildZExt(B, c[0], i64, ""), LLVMConstInt(i64, 0xD2511F53u, 0), "");
    LLVMValueRef p1 = LLVMBuildMul(B, LLVMBuildZExt(B, c[2], i64, ""), LLVMConstInt(i64, 0xCD9E8D57u, 0), "");
    LLVMValueRef n0 = LLVMBuildXor(B, LLVMBuildXor(B, LLVMBuildTrunc(B, LLVMBuildLShr(B, p1, sh, ""), i32, ""), c[1], ""), k0, "");
    LLVMValueRef n1 = LLVMBuildTrunc(B, p1, i32, "");
    LLVMValueRef n2 = LLVMBuildXor(B, LLVMBuildXor(B, LLVMBuildTrunc(B, LLVMBuildLShr(B, p0, sh, ""), i32, ""), c[3], ""), k1, "");
    LLVMValueRef n3 = LLVMBuildTrunc(B, p0, i32, "");
    c[0] = n0, c[1] = n1, c[2] = n2, c[3] = n3;
    k0 = LLVMBuildAdd(B, k0, c32(e, 0x9E3779B9u), "");
    k1 = LLVMBuildAdd(B, k1, c32(e, 0xBB67AE85u), "");
  }
}

/* The low bits of v (an integer) as an element of type t, stored at
 * element lin of base. */
static void put_bits(Em *e, LLVMValueRef base, ElemType t, LLVMValueRef lin, LLVMValueRef v) {
  Codegen *cg = e->cg;
  LLVMBuilderRef B = e->b;
  int bits = type_bits(t);
  LLVMValueRef s;
  if (type_is_int(t) && bits < 8) {
    LLVMValueRef sh = LLVMConstInt(cg->i8, (unsigned)(8 - bits), 0);
    s = LLVMBuildShl(B, LLVMBuildTrunc(B, v, cg->i8, ""), sh, "");
    s = type_kind(t) == TK_SINT ? LLVMBuildAShr(B, s, sh, "") : LLVMBuildLShr(B, s, sh, "");
  } else {
    LLVMTypeRef it = LLVMIntTypeInContext(cg->ctx, (unsigned)(8 * type_bytes(t)));
    s = LLVMTypeOf(v) == it ? v : LLVMBuildTrunc(B, v, it, "");
    s = LLVMBuildBitCast(B, s, cg_storage_type(cg, t), "");
  }
  LLVMBuildStore(B, s, em_elem_ptr(e, base, t, lin));
}

static LLVMValueRef lo32(Em *e, LLVMValueRef v) { return LLVMBuildTrunc(e->b, v, e->cg->i32, ""); }
static LLVMValueRef hi32(Em *e, LLVMValueRef v) {
  return LLVMBuildTrunc(e->b, LLVMBuildLShr(e->b, v, LLVMConstInt(LLVMTypeOf(v), 32, 0), ""), e->cg->i32, "");
}
static LLVMValueRef join64(Em *e, LLVMValueRef lo, LLVMValueRef hi) {
  LLVMTypeRef i64 = e->cg->i64;
  return LLVMBuildOr(e->b, LLVMBuildZExt(e->b, lo, i64, ""),
                     LLVMBuildShl(e->b, LLVMBuildZExt(e->b, hi, i64, ""), LLVMConstInt(i64, 32, 0), ""), "");
}

static RngAlg alg_of(const Instr *in) { return in->rng_alg == RNGA_DEFAULT ? RNGA_PHILOX : in->rng_alg; }

bool em_rng_bits_supported(const Instr *in, char *why, size_t n) {
  const Shape *s = in->shape, *st = in->noperands == 1 ? in->operands[0]->shape : NULL;
  bool ok = st && st->type == T_U64 && st->rank == 1 && st->dims[0] >= 2 && s->type == T_TUPLE && s->ntuple == 2 &&
            s->tuple[0]->type == T_U64 && s->tuple[0]->rank == 1 && s->tuple[0]->dims[0] == st->dims[0] &&
            type_is_array(s->tuple[1]->type) && s->tuple[1]->type != T_TUPLE;
  if (ok) {
    ElemType dt = s->tuple[1]->type;
    ok = dt != T_PRED && !type_is_complex(dt) && type_bits(dt) <= 64 && s->tuple[1]->rank <= CG_MAX_RANK;
  }
  if (ok && alg_of(in) == RNGA_PHILOX) ok = st->dims[0] <= 3;
  if (!ok) snprintf(why, n, "rng-bit-generator %%%s: state or output shape", in->name);
  return ok;
}

/* Three-fry, 32-bit (and narrower) outputs; returns the blocks used. */
static uint64_t threefry32(Em *e, LLVMValueRef k0, LLVMValueRef k1, LLVMValueRef ctr, const Shape *d,
                           LLVMValueRef out) {
  ElemType t = d->type;
  if (d->rank == 0) {
    LLVMValueRef x[2] = {lo32(e, ctr), hi32(e, ctr)};
    threefry(e, k0, k1, x);
    put_bits(e, out, t, em_i64(e, 0), x[0]);
    return 1;
  }
  int split = -1;
  for (int i = 0; i < d->rank && split < 0; i++)
    if (d->dims[i] % 2 == 0) split = i;
  if (split < 0)
    for (int i = 0; i < d->rank; i++)
      if (split < 0 || d->dims[i] > d->dims[split]) split = i;
  int64_t pre = 1, post = 1, m = d->dims[split], h = (m + 1) / 2;
  for (int i = 0; i < split; i++) pre *= d->dims[i];
  for (int i = split + 1; i < d->rank; i++) post *= d->dims[i];
  if (pre * h * post == 0) return 0;
  Loop la, lj, lp;
  LLVMBuilderRef B = e->b;
  LLVMValueRef a = em_loop_begin(e, &la, em_i64(e, 0), em_i64(e, pre), "a");
  LLVMValueRef j = em_loop_begin(e, &lj, em_i64(e, 0), em_i64(e, h), "j");
  LLVMValueRef p = em_loop_begin(e, &lp, em_i64(e, 0), em_i64(e, post), "p");
  /* block (a * h + j) * post + p gives elements (a, 2j, p) and (a, 2j + 1, p) */
  LLVMValueRef blk = LLVMBuildAdd(B, LLVMBuildMul(B, LLVMBuildAdd(B, LLVMBuildMul(B, a, em_i64(e, h), ""), j, ""), em_i64(e, post), ""), p, "");
  LLVMValueRef c = LLVMBuildAdd(B, ctr, blk, "");
  LLVMValueRef x[2] = {lo32(e, c), hi32(e, c)};
  threefry(e, k0, k1, x);
  LLVMValueRef row = LLVMBuildAdd(B, LLVMBuildMul(B, a, em_i64(e, m), ""), LLVMBuildMul(B, j, em_i64(e, 2), ""), "");
  LLVMValueRef o0 = LLVMBuildAdd(B, LLVMBuildMul(B, row, em_i64(e, post), ""), p, "");
  put_bits(e, out, t, o0, x[0]);
  LLVMValueRef o1 = LLVMBuildAdd(B, o0, em_i64(e, post), "");
  if (m % 2 == 0) {
    put_bits(e, out, t, o1, x[1]);
  } else {
    IfBlk f;
    em_if_begin(e, &f, LLVMBuildICmp(B, LLVMIntSLT, LLVMBuildAdd(B, LLVMBuildMul(B, j, em_i64(e, 2), ""), em_i64(e, 1), ""), em_i64(e, m), ""));
    put_bits(e, out, t, o1, x[1]);
    em_if_end(e, &f);
  }
  em_loop_end(e, &lp);
  em_loop_end(e, &lj);
  em_loop_end(e, &la);
  return (uint64_t)(pre * h * post);
}

/* Philox block b (i64) of the 128-bit counter ctr (i128): four words. */
static void philox_block(Em *e, LLVMValueRef k0, LLVMValueRef k1, LLVMValueRef ctr, LLVMValueRef b,
                         LLVMValueRef w[4]) {
  LLVMTypeRef i128 = LLVMIntTypeInContext(e->cg->ctx, 128);
  LLVMValueRef c = LLVMBuildAdd(e->b, ctr, LLVMBuildZExt(e->b, b, i128, ""), "");
  LLVMValueRef lo = LLVMBuildTrunc(e->b, c, e->cg->i64, "");
  LLVMValueRef hi = LLVMBuildTrunc(e->b, LLVMBuildLShr(e->b, c, LLVMConstInt(i128, 64, 0), ""), e->cg->i64, "");
  w[0] = lo32(e, lo), w[1] = hi32(e, lo), w[2] = lo32(e, hi), w[3] = hi32(e, hi);
  philox(e, k0, k1, w);
}

/* Philox elements: `per` (4 for 32-bit, 2 for 64-bit) per block; blocks
 * [b0, b1) with elements past `n` dropped. */
static void philox_range(Em *e, LLVMValueRef k0, LLVMValueRef k1, LLVMValueRef ctr, ElemType t, LLVMValueRef out,
                         int per, int64_t b0, int64_t b1, int64_t n) {
  if (b0 >= b1) return;
  Loop l;
  LLVMValueRef b = em_loop_begin(e, &l, em_i64(e, b0), em_i64(e, b1), "blk");
  LLVMValueRef w[4];
  philox_block(e, k0, k1, ctr, b, w);
  LLVMValueRef base = LLVMBuildMul(e->b, b, em_i64(e, per), "");
  for (int c = 0; c < per && b0 * per + c < n; c++) {
    LLVMValueRef v = per == 4 ? w[c] : join64(e, w[2 * c], w[2 * c + 1]);
    put_bits(e, out, t, LLVMBuildAdd(e->b, base, em_i64(e, c), ""), v);
  }
  em_loop_end(e, &l);
}

void em_rng_bits(Em *e, const Instr *in) {
  Codegen *cg = e->cg;
  LLVMBuilderRef B = e->b;
  const Shape *d = in->shape->tuple[1];
  ElemType t = d->type;
  int64_t N = in->operands[0]->shape->dims[0], n = shape_elems(d);
  LLVMValueRef sout = em_buf(e, 0), out = em_buf(e, 1), sin = em_buf(e, 2);
  LLVMValueRef s[3] = {NULL, NULL, NULL};
  for (int i = 0; i < 3 && i < N; i++) s[i] = LLVMBuildLoad2(B, cg->i64, em_elem_ptr(e, sin, T_U64, em_i64(e, i)), "");
  for (int i = 0; i < N; i++) {
    LLVMValueRef v = i < 3 ? s[i] : LLVMBuildLoad2(B, cg->i64, em_elem_ptr(e, sin, T_U64, em_i64(e, i)), "");
    LLVMBuildStore(B, v, em_elem_ptr(e, sout, T_U64, em_i64(e, i)));
  }
  LLVMValueRef k0 = lo32(e, s[0]), k1 = hi32(e, s[0]);
  bool wide = type_bits(t) == 64;
  if (alg_of(in) == RNGA_THREE_FRY) {
    uint64_t used;
    if (wide) {
      used = (uint64_t)n;
      if (n > 0) {
        Loop l;
        LLVMValueRef i = em_loop_begin(e, &l, em_i64(e, 0), em_i64(e, n), "i");
        LLVMValueRef c = LLVMBuildAdd(B, s[1], i, "");
        LLVMValueRef x[2] = {lo32(e, c), hi32(e, c)};
        threefry(e, k0, k1, x);
        put_bits(e, out, t, i, join64(e, x[0], x[1]));
        em_loop_end(e, &l);
      }
    } else {
      used = threefry32(e, k0, k1, s[1], d, out);
    }
    LLVMValueRef next = LLVMBuildAdd(B, s[1], LLVMConstInt(cg->i64, used, 0), "");
    LLVMBuildStore(B, next, em_elem_ptr(e, sout, T_U64, em_i64(e, 1)));
    return;
  }
  LLVMTypeRef i128 = LLVMIntTypeInContext(cg->ctx, 128);
  LLVMValueRef hi = N >= 3 ? s[2] : s[0];
  LLVMValueRef ctr = LLVMBuildOr(B, LLVMBuildZExt(B, s[1], i128, ""),
                                 LLVMBuildShl(B, LLVMBuildZExt(B, hi, i128, ""), LLVMConstInt(i128, 64, 0), ""), "");
  int per = wide ? 2 : 4;
  int64_t blocks = (n + per - 1) / per, full = n / per;
  philox_range(e, k0, k1, ctr, t, out, per, 0, full, n);
  philox_range(e, k0, k1, ctr, t, out, per, full, blocks, n);
  LLVMValueRef next = LLVMBuildAdd(B, ctr, LLVMConstInt(i128, (unsigned long long)blocks, 0), "");
  LLVMBuildStore(B, LLVMBuildTrunc(B, next, cg->i64, ""), em_elem_ptr(e, sout, T_U64, em_i64(e, 1)));
  if (N >= 3)
    LLVMBuildStore(B, LLVMBuildTrunc(B, LLVMBuildLShr(B, next, LLVMConstInt(i128, 64, 0), ""), cg->i64, ""),
                   em_elem_ptr(e, sout, T_U64, em_i64(e, 2)));
}
