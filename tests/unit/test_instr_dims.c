/* The dimension numbers of an instruction (ir.h: Instr's union of the
 * convolution's, the dot's, the gather's and the scatter's groups, the one
 * live picked by opcode, op_dims_kind): the four groups share memory;
 * instr_clone deep-copies the group its opcode holds (a custom-call's
 * dim_labels too); instr_attrs_identical and comp_structure_hash tell apart
 * instructions that differ only there; and a module of each kind prints
 * back as read after a clone of every instruction. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "pass_helpers.h"

static const char *kModule =
    "HloModule m\n"
    "add {\n"
    "  x = f32[] parameter(0)\n"
    "  y = f32[] parameter(1)\n"
    "  ROOT s = f32[] add(x, y)\n"
    "}\n"
    "ENTRY e {\n"
    "  a = f32[4,4]{1,0} parameter(0)\n"
    "  k = f32[3,3,4,4]{3,2,1,0} parameter(1)\n"
    "  x = f32[1,5,5,4]{3,2,1,0} parameter(2)\n"
    "  i = s32[2,1]{1,0} parameter(3)\n"
    "  u = f32[2,4]{1,0} parameter(4)\n"
    "  d = f32[4,4]{1,0} dot(a, a), lhs_contracting_dims={0}, rhs_contracting_dims={1}\n"
    "  c = f32[1,3,3,4]{3,2,1,0} convolution(x, k), window={size=3x3}, dim_labels=b01f_01io->b01f\n"
    "  cc = f32[1,3,3,4]{3,2,1,0} custom-call(x, k), custom_call_target=\"conv\", window={size=3x3}, "
    "dim_labels=b10f_01io->b01f\n"
    "  g = f32[2,4]{1,0} gather(a, i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, "
    "index_vector_dim=1, slice_sizes={1,4}\n"
    "  s = f32[4,4]{1,0} scatter(a, i, u), update_window_dims={1}, inserted_window_dims={0}, "
    "scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add\n"
    "  ROOT t = (f32[4,4]{1,0}, f32[1,3,3,4]{3,2,1,0}, f32[1,3,3,4]{3,2,1,0}, f32[2,4]{1,0}, "
    "f32[4,4]{1,0}) tuple(d, c, cc, g, s)\n"
    "}\n";

static Instr *find(HloModule *m, const char *name) { return comp_find_instr(m->entry, name); }

TEST(groups_share_memory_by_opcode) {
  CHECK(offsetof(Instr, conv) == offsetof(Instr, dot));
  CHECK(offsetof(Instr, dot) == offsetof(Instr, gather));
  CHECK(offsetof(Instr, gather) == offsetof(Instr, scatter));
  CHECK(op_dims_kind(OP_DOT) == DIMS_DOT && op_dims_kind(OP_RAGGED_DOT) == DIMS_DOT &&
        op_dims_kind(OP_SCALED_DOT) == DIMS_DOT);
  CHECK(op_dims_kind(OP_CONVOLUTION) == DIMS_CONV && op_dims_kind(OP_CUSTOM_CALL) == DIMS_CONV);
  CHECK(op_dims_kind(OP_GATHER) == DIMS_GATHER && op_dims_kind(OP_SCATTER) == DIMS_SCATTER);
  CHECK(op_dims_kind(OP_ADD) == DIMS_NONE && op_dims_kind(OP_REDUCE_WINDOW) == DIMS_NONE);
}

/* Whether list b holds a's values in memory of its own. */
static bool own_copy(const I64List *a, const I64List *b) {
  if (a->n != b->n) return false;
  if (a->n == 0) return true;
  return a->v != b->v && memcmp(a->v, b->v, (size_t)a->n * sizeof *a->v) == 0;
}

static bool conv_copied(const ConvDims *a, const ConvDims *b) {
  size_t n = (size_t)a->nspatial;
  return a->nspatial == b->nspatial && n > 0 && a->in_spatial != b->in_spatial &&
         a->k_spatial != b->k_spatial && a->out_spatial != b->out_spatial &&
         memcmp(a->in_spatial, b->in_spatial, n * 8) == 0 && memcmp(a->k_spatial, b->k_spatial, n * 8) == 0 &&
         memcmp(a->out_spatial, b->out_spatial, n * 8) == 0 && a->in_batch == b->in_batch &&
         a->in_feature == b->in_feature && a->k_in == b->k_in && a->k_out == b->k_out &&
         a->out_batch == b->out_batch && a->out_feature == b->out_feature;
}

static Instr *clone_of(HloModule *m, const char *name) {
  Instr *src = find(m, name);
  if (!src) return NULL;
  return instr_clone(m->entry, src, src->noperands, src->operands, NULL);
}

TEST(clone_deep_copies_the_group_of_its_opcode) {
  HloModule *m = pt_parse(kModule);
  if (!m) return;
  Instr *d = find(m, "d"), *c = find(m, "c"), *cc = find(m, "cc"), *g = find(m, "g"), *s = find(m, "s");
  Instr *d2 = clone_of(m, "d"), *c2 = clone_of(m, "c"), *cc2 = clone_of(m, "cc");
  Instr *g2 = clone_of(m, "g"), *s2 = clone_of(m, "s");
  CHECK(d && c && cc && g && s && d2 && c2 && cc2 && g2 && s2);
  if (!(d2 && c2 && cc2 && g2 && s2)) goto out;
  CHECK(own_copy(&d->dot.lhs_contract, &d2->dot.lhs_contract) &&
        own_copy(&d->dot.rhs_contract, &d2->dot.rhs_contract) && d2->dot.lhs_batch.n == 0);
  CHECK(conv_copied(&c->conv, &c2->conv));
  CHECK(conv_copied(&cc->conv, &cc2->conv));
  CHECK(cc2->conv.in_spatial[0] == 2 && cc2->conv.in_spatial[1] == 1); /* b10f */
  CHECK(own_copy(&g->gather.offset_dims, &g2->gather.offset_dims) &&
        own_copy(&g->gather.collapsed_slice_dims, &g2->gather.collapsed_slice_dims) &&
        own_copy(&g->gather.start_index_map, &g2->gather.start_index_map) && g2->gather.index_vector_dim == 1);
  CHECK(own_copy(&s->scatter.update_window_dims, &s2->scatter.update_window_dims) &&
        own_copy(&s->scatter.inserted_window_dims, &s2->scatter.inserted_window_dims) &&
        own_copy(&s->scatter.scatter_dims_to_operand_dims, &s2->scatter.scatter_dims_to_operand_dims) &&
        s2->scatter.index_vector_dim == 1);
  CHECK(instr_attrs_identical(d, d2) && instr_attrs_identical(c, c2) && instr_attrs_identical(cc, cc2) &&
        instr_attrs_identical(g, g2) && instr_attrs_identical(s, s2));
out:
  module_destroy(m);
}

TEST(identical_compares_each_group) {
  HloModule *m = pt_parse(kModule);
  if (!m) return;
  Instr *d2 = clone_of(m, "d"), *c2 = clone_of(m, "c"), *cc2 = clone_of(m, "cc");
  Instr *g2 = clone_of(m, "g"), *s2 = clone_of(m, "s");
  CHECK(d2 && c2 && cc2 && g2 && s2);
  if (!(d2 && c2 && cc2 && g2 && s2)) goto out;
  /* the clones own their lists: changing them leaves the originals as read */
  d2->dot.lhs_contract.v[0] = 1;
  c2->conv.k_spatial[0] = 1, c2->conv.k_spatial[1] = 0;
  cc2->conv.out_feature = 0, cc2->conv.out_batch = 4;
  g2->gather.index_vector_dim = 2;
  s2->scatter.update_window_dims.v[0] = 0;
  CHECK(!instr_attrs_identical(find(m, "d"), d2));
  CHECK(!instr_attrs_identical(find(m, "c"), c2));
  CHECK(!instr_attrs_identical(find(m, "cc"), cc2));
  CHECK(!instr_attrs_identical(find(m, "g"), g2));
  CHECK(!instr_attrs_identical(find(m, "s"), s2));
  CHECK(find(m, "d")->dot.lhs_contract.v[0] == 0 && find(m, "c")->conv.k_spatial[0] == 0 &&
        find(m, "g")->gather.index_vector_dim == 1 && find(m, "s")->scatter.update_window_dims.v[0] == 1);
out:
  module_destroy(m);
}

/* Two dots that differ only in their contracting dims. */
static uint64_t dot_hash(const char *lc, const char *rc) {
  char text[512];
  snprintf(text, sizeof text,
           "HloModule m\nENTRY e {\n  a = f32[4,4] parameter(0)\n"
           "  ROOT d = f32[4,4] dot(a, a), lhs_contracting_dims={%s}, rhs_contracting_dims={%s}\n}\n",
           lc, rc);
  HloModule *m = pt_parse(text);
  if (!m) return 0;
  uint64_t h = comp_structure_hash(m->entry);
  module_destroy(m);
  return h;
}

TEST(structure_hash_reads_dot_dims) {
  uint64_t a = dot_hash("1", "0"), b = dot_hash("0", "0"), c = dot_hash("1", "0");
  CHECK(a && b && c);
  CHECK(a == c && a != b);
}

/* Every instruction of the root tuple cloned (the clone taking the
 * original's name), and the root tuple too over the clones: once DCE has
 * dropped the originals the module prints exactly as read. */
TEST(cloned_module_prints_as_read) {
  HloModule *m = pt_parse(kModule);
  if (!m) return;
  char *before = pt_print(m), *after = NULL;
  Instr *root = m->entry->root, *ops[5];
  const char *names[] = {"d", "c", "cc", "g", "s"}, *old[] = {"old_d", "old_c", "old_cc", "old_g", "old_s"};
  bool ok = true;
  for (int k = 0; k < 5 && ok; k++) {
    Instr *src = find(m, names[k]);
    src->name = old[k];
    ops[k] = instr_clone(m->entry, src, src->noperands, src->operands, names[k]);
    ok = ops[k] != NULL;
  }
  root->name = "old_root";
  Instr *t = ok ? instr_clone(m->entry, root, 5, ops, "t") : NULL;
  CHECK(t != NULL);
  if (!t) goto out;
  m->entry->root = t;
  CHECK(pt_run(m, "dce") == 0);
  after = pt_print(m);
  CHECK(before && after && strcmp(before, after) == 0);
out:
  cxla_free_string(before);
  cxla_free_string(after);
  module_destroy(m);
}

int main(void) {
  RUN(groups_share_memory_by_opcode);
  RUN(clone_deep_copies_the_group_of_its_opcode);
  RUN(identical_compares_each_group);
  RUN(structure_hash_reads_dot_dims);
  RUN(cloned_module_prints_as_read);
  return test_summary(__FILE__);
}
