/* slice-views: a slice inside a fusion that reads one contiguous block of
 * the fusion's operand moves out of it, and the block becomes the
 * fusion's operand (pass "slice-views", the cpu backend's pipeline only:
 * PassContext.slice_views; that backend runs such a slice as a view, the
 * block's address, no copy: compile.c).
 *
 *   %f = f32[1,16] fusion(f32[25000,16] %x), calls=%c
 *     %c: %p = f32[25000,16] parameter(0)
 *         %s = f32[1,16] slice(%p), slice={[7:8], [0:16]}
 *         %e = f32[1,16] exponential(%s) ...
 *   -> %v = f32[1,16] slice(%x), slice={[7:8], [0:16]}
 *      %f = f32[1,16] fusion(%v), calls=%c
 *     %c: %p = f32[1,16] parameter(0)
 *         %e = f32[1,16] exponential(%p) ...
 *
 * Why: a loop unrolled over blocks of rows (JAX's unrolled scans, TF's
 * unstacked sequences) makes one fusion per block, the same but for the
 * slice's start; with the slices outside, the fusions are identical and
 * the backend compiles one kernel for them all (compile.c's identical
 * kernels): 25000 blocks of f32[1,16] (bench/compile's "slices" shape at
 * 10^5 instructions) were 25000 kernels.
 *
 * Which slices: the only user of a parameter of a loop, input or output
 * (a GEMM's epilogue) fusion's computation (one fusion calls it), not its
 * root, stride 1 in every dim,
 * over an operand laid out row-major, taking one index of each dim before
 * some dim j, a range of j and the whole of each dim after it (a
 * contiguous block). Values are unchanged: the same elements are read. */
#include <stdint.h>

#include "ir/rewrite.h"
#include "passes/passes.h"

/* How many fusion instructions of m call each fused computation (in
 * Computation.scratch, as an int counted from 0; reset by the caller). */
static void count_callers(HloModule *m) {
  for (int i = 0; i < m->ncomps; i++) m->comps[i]->scratch = NULL;
  for (int i = 0; i < m->ncomps; i++) {
    const Computation *c = m->comps[i];
    for (int k = 0; k < c->ninstrs; k++) {
      const Instr *in = c->instrs[k];
      if (in->op == OP_FUSION && in->ncalled == 1)
        in->called[0]->scratch = (void *)((uintptr_t)in->called[0]->scratch + 1);
    }
  }
}

/* Moves the hoistable slices of fusion f (in computation c) out. */
static cxla_status hoist(HloModule *m, Computation *c, Instr *f, bool *changed) {
  Computation *fc = f->called[0];
  if ((uintptr_t)fc->scratch != 1 || fc->nparams != f->noperands) return NULL;
  Users u = {0};
  TRY(users_build(fc, &u));
  cxla_status s = NULL;
  bool any = false;
  for (int k = 0; k < fc->nparams && !s; k++) {
    Instr *p = fc->params[k];
    if (!p || u.count[p->id] != 1) continue;
    Instr *sl = u.list[p->id][0];
    int64_t off;
    if (sl->op != OP_SLICE || sl == fc->root || sl->noperands != 1 ||
        !shape_slice_contiguous(p->shape, sl->slice, sl->shape, &off))
      continue;
    Instr *op = f->operands[k];
    if (!shape_equal(op->shape, p->shape, true)) continue;
    Instr *v = instr_clone(c, sl, 1, &op, NULL);
    Shape *ps = v ? shape_clone(&m->arena, sl->shape) : NULL;
    if (!ps) {
      s = cxla_oom();
      break;
    }
    f->operands[k] = v;
    p->shape = ps;
    comp_replace_uses(fc, sl, p);
    any = true;
  }
  users_free(&u);
  if (s || !any) return s;
  comp_prune(fc);
  *changed = true;
  return NULL;
}

cxla_status pass_slice_views(HloModule *m, const PassContext *ctx, bool *changed) {
  (void)ctx;
  *changed = false;
  count_callers(m);
  cxla_status s = NULL;
  for (int i = 0; i < m->ncomps && !s; i++) {
    Computation *c = m->comps[i];
    if (c->is_fusion) continue;
    bool here = false;
    for (int k = 0; k < c->ninstrs && !s; k++) {
      Instr *in = c->instrs[k];
      if (in->op == OP_FUSION && in->ncalled == 1 &&
          (in->fusion_kind == FUSION_LOOP || in->fusion_kind == FUSION_INPUT || in->fusion_kind == FUSION_OUTPUT))
        s = hoist(m, c, in, &here);
    }
    if (!s && here) {
      s = comp_sort(c);
      *changed = true;
    }
  }
  for (int i = 0; i < m->ncomps; i++) m->comps[i]->scratch = NULL;
  return s;
}
