/* Targeted tests of the HLO text reader: every typed attribute decoded to
 * the values worked out by hand from the text, constants of every type
 * checked bit by bit, structure (ordering, roots, entry, parameters), and
 * the error cases with their line:col and message. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"
#include "ir/ir.h"

static HloModule *parse(const char *text) {
  HloModule *m = NULL;
  cxla_status s = cxla_module_parse(text, strlen(text), "t.hlo", &m);
  if (s) {
    fprintf(stderr, "%s: unexpected parse error:\n%s\n", harness_current, cxla_status_message(s));
    harness_failed_checks++;
    cxla_status_free(s);
    return NULL;
  }
  return m;
}

/* Expects parsing to fail with a message containing each of the needles. */
static void parse_err(const char *text, size_t len, const char *n1, const char *n2) {
  HloModule *m = NULL;
  cxla_status s = cxla_module_parse(text, len, "t.hlo", &m);
  if (!s) {
    fprintf(stderr, "%s: expected an error containing \"%s\"\n", harness_current, n1);
    harness_failed_checks++;
    cxla_module_destroy(m);
    return;
  }
  const char *msg = cxla_status_message(s);
  if (!strstr(msg, n1) || (n2 && !strstr(msg, n2))) {
    fprintf(stderr, "%s: error \"%s\" lacks \"%s\"%s%s\n", harness_current, msg, n1,
            n2 ? " / " : "", n2 ? n2 : "");
    harness_failed_checks++;
  }
  CHECK(m == NULL);
  cxla_status_free(s);
}
#define PARSE_ERR(text, n1, n2) parse_err(text, strlen(text), n1, n2)

static Instr *find(HloModule *m, const char *name) {
  for (int c = 0; c < m->ncomps; c++) {
    Instr *in = comp_find_instr(m->comps[c], name);
    if (in) return in;
  }
  return NULL;
}

static bool list_is(const I64List *l, int n, const int64_t *v) {
  if (l->n != n) return false;
  for (int i = 0; i < n; i++)
    if (l->v[i] != v[i]) return false;
  return true;
}
#define LIST_IS(l, ...)                                                        \
  list_is(&(l), (int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)),    \
          (int64_t[]){__VA_ARGS__})

/* ---- attributes ------------------------------------------------------------- */

static const char *attrs_module =
    "HloModule attrs, is_scheduled=true, entry_computation_layout={(f32[4]{0})->f32[4]{0}}\n"
    "\n"
    "add_f32 {\n"
    "  a = f32[] parameter(0)\n"
    "  b = f32[] parameter(1)\n"
    "  ROOT s = f32[] add(a, b)\n"
    "}\n"
    "cond {\n"
    "  t = (s32[], f32[4]) parameter(0)\n"
    "  ROOT c = pred[] constant(true)\n"
    "}\n"
    "body {\n"
    "  ROOT t = (s32[], f32[4]) parameter(0)\n"
    "}\n"
    "ge {\n"
    "  a = f32[] parameter(0)\n"
    "  b = f32[] parameter(1)\n"
    "  ROOT r = pred[] compare(a, b), direction=GE\n"
    "}\n"
    "fused {\n"
    "  p = f32[4] parameter(0)\n"
    "  ROOT n = f32[4] negate(p)\n"
    "}\n"
    "ENTRY main {\n"
    "  x = f32[4]{0} parameter(0)\n"
    "  img = f32[1,5,5,2]{3,2,1,0} parameter(1)\n"
    "  ker = f32[3,2,2,4]{3,2,1,0} parameter(2)\n"
    "  m = f32[4,8] parameter(3)\n"
    "  idx = s32[3,1] parameter(4)\n"
    "  tup = (s32[], f32[4]) parameter(5)\n"
    "  zero = f32[] constant(0)\n"
    "  bc = f32[2,4,3] broadcast(x), dimensions={1}\n"
    "  gte = f32[4] get-tuple-element(tup), index=1\n"
    "  sl = f32[2,2] slice(m), slice={[0:4:2], [1:3]}\n"
    "  pd = f32[5,12] pad(m, zero), padding=0_1x2_-3_1\n"
    "  cv = f32[1,2,5,4] convolution(img, ker), window={size=3x2 stride=2x1 pad=0_1x1_0 "
    "lhs_dilate=1x2 rhs_dilate=2x1 rhs_reversal=0x1}, dim_labels=b01f_01io->b01f, "
    "feature_group_count=2, batch_group_count=1\n"
    "  cv2 = f32[4,2,2,1] convolution(img, ker), window={size=3x2}, dim_labels=bf10_o01i->f10b\n"
    "  dt = f32[4,4] dot(m, m), lhs_batch_dims={}, lhs_contracting_dims={1}, rhs_contracting_dims={1}, "
    "operand_precision={highest,default}\n"
    "  ga = f32[3,1,8] gather(m, idx), offset_dims={1,2}, collapsed_slice_dims={}, "
    "start_index_map={0}, operand_batching_dims={}, index_vector_dim=1, slice_sizes={1,8}, "
    "indices_are_sorted=true\n"
    "  sc = f32[4,8] scatter(m, idx, ga), update_window_dims={1,2}, inserted_window_dims={}, "
    "scatter_dims_to_operand_dims={0}, index_vector_dim=1, indices_are_sorted=false, "
    "unique_indices=true, to_apply=add_f32\n"
    "  cmp = pred[4] compare(x, x), direction=LE, type=TOTALORDER\n"
    "  io = s32[4,3] iota(), iota_dimension=1\n"
    "  rp = f32[4] reduce-precision(x), exponent_bits=5, mantissa_bits=10\n"
    "  ff = c64[4,8] fft(m), fft_type=RFFT, fft_length={8}\n"
    "  rn = f32[4] rng(zero, zero), distribution=rng_normal\n"
    "  st = u64[2] parameter(6)\n"
    "  rbg = (u64[2], u32[4]) rng-bit-generator(st), algorithm=rng_philox\n"
    "  cc = f32[4] custom-call(x), custom_call_target=\"my\\\"target\\n\", "
    "api_version=API_VERSION_TYPED_FFI, backend_config={a = 1 : ui8}\n"
    "  so = f32[4] sort(x), dimensions={0}, is_stable=true, to_apply=ge\n"
    "  sq = f32[4,4] parameter(7)\n"
    "  ts = f32[4,4] triangular-solve(sq, sq), left_side=true, lower=true, unit_diagonal=false, "
    "transpose_a=ADJOINT\n"
    "  ch = f32[4,4] cholesky(sq), lower=true\n"
    "  fu = f32[4] fusion(x), kind=kLoop, calls=fused\n"
    "  tk = (f32[2], s32[2]) topk(x), k=2, largest=false\n"
    "  wh = (s32[], f32[4]) while(tup), body=body, condition=cond\n"
    "  pr = pred[] parameter(8)\n"
    "  cd = f32[4] conditional(pr, x, x), false_computation=fused, true_computation=fused\n"
    "  bi = s32[] parameter(9)\n"
    "  cd2 = f32[4] conditional(bi, x, x, x), branch_computations={fused, %fused, fused}\n"
    "  ss = f32[4] select-and-scatter(x, x, zero), window={size=2}, scatter=add_f32, select=ge\n"
    "  red = f32[] reduce(x, zero), dimensions={0}, to_apply=add_f32\n"
    "  ds = f32[2,8] dynamic-slice(m, bi, bi), dynamic_slice_sizes={2,8}\n"
    "  cp = f32[4] copy(x), control-predecessors={%rn, so}, "
    "metadata={op_name=\"a, b {c}\" source_line=3}, sharding={devices=[2,1]0,1}\n"
    "  ROOT out = f32[4] add(x, x)\n"
    "}\n";

TEST(attribute_values) {
  HloModule *m = parse(attrs_module);
  if (!m) return;
  CHECK(strcmp(m->name, "attrs") == 0);
  CHECK(m->nraw == 1);
  CHECK(m->nraw == 1 && strcmp(m->raw[0].name, "is_scheduled") == 0 &&
        strcmp(m->raw[0].value, "true") == 0);
  /* entry_computation_layout={(f32[4]{0})->f32[4]{0}}: typed */
  const EntryLayout *el = m->entry_layout;
  CHECK(el && el->nparams == 1);
  CHECK(el && el->nparams == 1 && el->params[0]->type == T_F32 && el->params[0]->rank == 1 &&
        el->params[0]->dims[0] == 4 && el->params[0]->has_layout);
  CHECK(el && el->result->type == T_F32 && el->result->rank == 1 && el->result->has_layout);
  CHECK(!m->has_io_alias && m->nio_alias == 0);
  Instr *in;

  in = find(m, "bc");
  CHECK(in->attrs == A_DIMENSIONS && LIST_IS(in->dimensions, 1));
  in = find(m, "gte");
  CHECK(in->attrs == A_INDEX && in->index == 1);

  in = find(m, "sl");
  CHECK(in->attrs == A_SLICE);
  CHECK(in->slice[0].start == 0 && in->slice[0].limit == 4 && in->slice[0].stride == 2);
  CHECK(in->slice[1].start == 1 && in->slice[1].limit == 3 && in->slice[1].stride == 1);

  in = find(m, "pd");
  CHECK(in->attrs == A_PADDING);
  CHECK(in->padding[0].lo == 0 && in->padding[0].hi == 1 && in->padding[0].interior == 0);
  CHECK(in->padding[1].lo == 2 && in->padding[1].hi == -3 && in->padding[1].interior == 1);

  in = find(m, "cv");
  CHECK(in->attrs == (A_WINDOW | A_CONV_DIMS | A_GROUPS));
  CHECK(in->nwindow == 2);
  WindowDim w0 = in->window[0], w1 = in->window[1];
  CHECK(w0.size == 3 && w0.stride == 2 && w0.pad_lo == 0 && w0.pad_hi == 1 && w0.lhs_dilate == 1 &&
        w0.rhs_dilate == 2 && !w0.reversal);
  CHECK(w1.size == 2 && w1.stride == 1 && w1.pad_lo == 1 && w1.pad_hi == 0 && w1.lhs_dilate == 2 &&
        w1.rhs_dilate == 1 && w1.reversal);
  ConvDims *c = &in->conv;
  CHECK(c->nspatial == 2 && c->in_batch == 0 && c->in_feature == 3);
  CHECK(c->in_spatial[0] == 1 && c->in_spatial[1] == 2);
  CHECK(c->k_spatial[0] == 0 && c->k_spatial[1] == 1 && c->k_in == 2 && c->k_out == 3);
  CHECK(c->out_batch == 0 && c->out_feature == 3 && c->out_spatial[0] == 1 && c->out_spatial[1] == 2);
  CHECK(in->feature_group_count == 2 && in->batch_group_count == 1);

  /* bf10_o01i->f10b: spatial dims listed by digit, not by position. */
  in = find(m, "cv2");
  c = &in->conv;
  CHECK(in->nwindow == 2 && in->window[0].size == 3 && in->window[1].stride == 1);
  CHECK(c->in_batch == 0 && c->in_feature == 1 && c->in_spatial[0] == 3 && c->in_spatial[1] == 2);
  CHECK(c->k_out == 0 && c->k_in == 3 && c->k_spatial[0] == 1 && c->k_spatial[1] == 2);
  CHECK(c->out_feature == 0 && c->out_batch == 3 && c->out_spatial[0] == 2 &&
        c->out_spatial[1] == 1);
  CHECK(in->feature_group_count == 1 && in->batch_group_count == 1);

  in = find(m, "dt");
  CHECK(in->attrs == A_DOT_DIMS);
  CHECK(in->dot.lhs_batch.n == 0 && in->dot.rhs_batch.n == 0);
  CHECK(LIST_IS(in->dot.lhs_contract, 1) && LIST_IS(in->dot.rhs_contract, 1));
  CHECK(in->nraw == 1 && strcmp(in->raw[0].name, "operand_precision") == 0 &&
        strcmp(in->raw[0].value, "{highest,default}") == 0);

  in = find(m, "ga");
  CHECK(in->attrs == (A_GATHER_DIMS | A_SLICE_SIZES | A_INDICES_SORTED));
  CHECK(LIST_IS(in->gather.offset_dims, 1, 2) && in->gather.collapsed_slice_dims.n == 0);
  CHECK(LIST_IS(in->gather.start_index_map, 0) && in->gather.index_vector_dim == 1);
  CHECK(LIST_IS(in->slice_sizes, 1, 8) && in->indices_are_sorted);

  in = find(m, "sc");
  CHECK(in->attrs == (A_SCATTER_DIMS | A_INDICES_SORTED | A_UNIQUE_INDICES));
  CHECK(LIST_IS(in->scatter.update_window_dims, 1, 2));
  CHECK(LIST_IS(in->scatter.scatter_dims_to_operand_dims, 0));
  CHECK(in->scatter.index_vector_dim == 1 && !in->indices_are_sorted && in->unique_indices);
  CHECK(in->ncalled == 1 && strcmp(in->called[0]->name, "add_f32") == 0);

  in = find(m, "cmp");
  CHECK(in->attrs == A_COMPARE && in->cmp_dir == CMP_LE && in->cmp_type == CMPT_TOTALORDER);
  CHECK(find(m, "r")->cmp_dir == CMP_GE && find(m, "r")->cmp_type == CMPT_DEFAULT);
  in = find(m, "io");
  CHECK(in->attrs == A_IOTA_DIM && in->index == 1);
  in = find(m, "rp");
  CHECK(in->exponent_bits == 5 && in->mantissa_bits == 10);
  in = find(m, "ff");
  CHECK(in->fft_type == FFT_RFFT && LIST_IS(in->fft_length, 8));
  CHECK(find(m, "rn")->rng_dist == RNG_NORMAL);
  CHECK(find(m, "rbg")->rng_alg == RNGA_PHILOX && (find(m, "rbg")->attrs & A_RNG));

  in = find(m, "cc");
  CHECK(in->attrs == A_CUSTOM_CALL && strcmp(in->custom_call_target, "my\"target\n") == 0);
  CHECK(in->nraw == 2 && strcmp(in->raw[0].value, "API_VERSION_TYPED_FFI") == 0 &&
        strcmp(in->raw[1].value, "{a = 1 : ui8}") == 0);

  in = find(m, "so");
  CHECK(in->is_stable && LIST_IS(in->dimensions, 0) && strcmp(in->called[0]->name, "ge") == 0);
  in = find(m, "ts");
  CHECK(in->attrs == A_TRIANGULAR && in->tri_left_side && in->tri_lower && !in->tri_unit_diagonal &&
        in->tri_transpose == TRI_ADJOINT);
  in = find(m, "ch");
  CHECK(in->attrs == A_CHOLESKY && in->chol_lower);
  in = find(m, "fu");
  CHECK(in->fusion_kind == FUSION_LOOP && in->ncalled == 1 && in->called[0]->is_fusion);
  CHECK(!module_find_computation(m, "add_f32")->is_fusion);
  in = find(m, "tk");
  CHECK(in->topk_k == 2 && !in->topk_largest);

  /* Called computations in ir.h's order, whatever the source order. */
  in = find(m, "wh");
  CHECK(in->ncalled == 2 && strcmp(in->called[0]->name, "cond") == 0 &&
        strcmp(in->called[1]->name, "body") == 0);
  in = find(m, "cd");
  CHECK(in->ncalled == 2 && in->called[0] == in->called[1]);
  in = find(m, "cd2");
  CHECK(in->ncalled == 3 && strcmp(in->called[2]->name, "fused") == 0);
  in = find(m, "ss");
  CHECK(in->ncalled == 2 && strcmp(in->called[0]->name, "ge") == 0 &&
        strcmp(in->called[1]->name, "add_f32") == 0);
  CHECK(in->nwindow == 1 && in->window[0].size == 2 && in->window[0].stride == 1);
  in = find(m, "ds");
  CHECK(in->attrs == A_DYN_SLICE_SIZES && LIST_IS(in->slice_sizes, 2, 8));

  in = find(m, "cp");
  CHECK(in->ncontrol_preds == 2 && in->control_preds[0] == find(m, "rn") &&
        in->control_preds[1] == find(m, "so"));
  CHECK(in->nraw == 2 && strcmp(instr_raw(in, "metadata"), "{op_name=\"a, b {c}\" source_line=3}") == 0);
  CHECK(in->nraw == 2 && strcmp(instr_raw(in, "sharding"), "{devices=[2,1]0,1}") == 0);
  module_destroy(m);
}

/* The printer writes each attribute as XLA does, and printing then parsing
 * again gives the same text. */
TEST(printed_attributes) {
  HloModule *m = parse(attrs_module);
  if (!m) return;
  char *t = NULL, *t2 = NULL;
  CHECK_OK(cxla_module_print(m, &t));
  module_destroy(m);
  if (!t) return;
  static const char *const expect[] = {
      "HloModule attrs, is_scheduled=true, entry_computation_layout={(f32[4]{0})->f32[4]{0}}\n",
      "%bc = f32[2,4,3] broadcast(%x), dimensions={1}\n",
      "%gte = f32[4] get-tuple-element(%tup), index=1\n",
      "%sl = f32[2,2] slice(%m), slice={[0:4:2], [1:3:1]}\n",
      "%pd = f32[5,12] pad(%m, %zero), padding=0_1x2_-3_1\n",
      "convolution(%img, %ker), window={size=3x2 stride=2x1 pad=0_1x1_0 lhs_dilate=1x2 "
      "rhs_dilate=2x1 rhs_reversal=0x1}, dim_labels=b01f_01io->b01f, feature_group_count=2\n",
      "convolution(%img, %ker), window={size=3x2}, dim_labels=bf10_o01i->f10b\n",
      "dot(%m, %m), lhs_contracting_dims={1}, rhs_contracting_dims={1}, "
      "operand_precision={highest,default}\n",
      "gather(%m, %idx), offset_dims={1,2}, collapsed_slice_dims={}, start_index_map={0}, "
      "index_vector_dim=1, slice_sizes={1,8}, indices_are_sorted=true\n",
      "scatter(%m, %idx, %ga), update_window_dims={1,2}, inserted_window_dims={}, "
      "scatter_dims_to_operand_dims={0}, index_vector_dim=1, indices_are_sorted=false, "
      "unique_indices=true, to_apply=%add_f32\n",
      "compare(%x, %x), direction=LE, type=TOTALORDER\n",
      "%io = s32[4,3] iota(), iota_dimension=1\n",
      "reduce-precision(%x), exponent_bits=5, mantissa_bits=10\n",
      "fft(%m), fft_type=RFFT, fft_length={8}\n",
      "rng(%zero, %zero), distribution=rng_normal\n",
      "rng-bit-generator(%st), algorithm=rng_philox\n",
      "custom-call(%x), custom_call_target=\"my\\\"target\\n\", api_version=API_VERSION_TYPED_FFI, "
      "backend_config={a = 1 : ui8}\n",
      "sort(%x), dimensions={0}, is_stable=true, to_apply=%ge\n",
      "triangular-solve(%sq, %sq), left_side=true, lower=true, transpose_a=ADJOINT\n",
      "cholesky(%sq), lower=true\n",
      "fusion(%x), kind=kLoop, calls=%fused\n",
      "topk(%x), k=2, largest=false\n",
      "while(%tup), condition=%cond, body=%body\n",
      "conditional(%pr, %x, %x), true_computation=%fused, false_computation=%fused\n",
      "conditional(%bi, %x, %x, %x), branch_computations={%fused, %fused, %fused}\n",
      "select-and-scatter(%x, %x, %zero), window={size=2}, select=%ge, scatter=%add_f32\n",
      "dynamic-slice(%m, %bi, %bi), dynamic_slice_sizes={2,8}\n",
      "copy(%x), control-predecessors={%rn, %so}, metadata={op_name=\"a, b {c}\" source_line=3}, "
      "sharding={devices=[2,1]0,1}\n",
      "ENTRY %main (x: f32[4], img: f32[1,5,5,2], ker: f32[3,2,2,4], m: f32[4,8], idx: s32[3,1], "
      "tup: (s32[], f32[4]), st: u64[2], sq: f32[4,4], pr: pred[], bi: s32[]) -> f32[4] {\n",
  };
  for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++) {
    if (!strstr(t, expect[i])) {
      fprintf(stderr, "printed text lacks: %s", expect[i]);
      harness_failed_checks++;
    }
  }
  HloModule *m2 = parse(t);
  if (m2) CHECK_OK(cxla_module_print(m2, &t2));
  CHECK(t2 && strcmp(t, t2) == 0);
  module_destroy(m2);
  cxla_free_string(t);
  cxla_free_string(t2);
}

/* A scalar pad has no padding dimensions: XLA prints `padding=` with an
 * empty value, and the reader takes it back (only for rank 0). */
TEST(scalar_pad_empty_padding) {
  static const char text[] =
      "HloModule p\n"
      "ENTRY %main (a: f32[], b: f32[]) -> f32[] {\n"
      "  %a = f32[] parameter(0)\n"
      "  %b = f32[] parameter(1)\n"
      "  ROOT %pd = f32[] pad(%a, %b), padding=\n"
      "}\n";
  HloModule *m = parse(text);
  if (!m) return;
  Instr *in = find(m, "pd");
  CHECK(in && in->op == OP_PAD && (in->attrs & A_PADDING));
  char *t = NULL;
  CHECK_OK(cxla_module_print(m, &t));
  CHECK(t && strstr(t, "ROOT %pd = f32[] pad(%a, %b), padding=\n"));
  module_destroy(m);
  HloModule *m2 = t ? parse(t) : NULL;
  CHECK(m2 != NULL);
  if (m2) module_destroy(m2);
  cxla_free_string(t);
  static const char with_attr[] =
      "HloModule p\n"
      "ENTRY %main (a: f32[], b: f32[]) -> f32[] {\n"
      "  %a = f32[] parameter(0)\n"
      "  %b = f32[] parameter(1)\n"
      "  ROOT %pd = f32[] pad(%a, %b), padding=, metadata={op_name=\"x\"}\n"
      "}\n";
  m = parse(with_attr);
  CHECK(m != NULL);
  if (m) module_destroy(m);
  /* A ranked pad still needs its padding. */
  PARSE_ERR("HloModule p\n"
            "ENTRY %main (a: f32[2], b: f32[]) -> f32[2] {\n"
            "  %a = f32[2] parameter(0)\n"
            "  %b = f32[] parameter(1)\n"
            "  ROOT %pd = f32[2] pad(%a, %b), padding=\n"
            "}\n",
            "expected an attribute value", NULL);
}

/* Strings: escapes decoded, valid UTF-8 kept, stray bytes re-escaped. */
TEST(string_escapes) {
  HloModule *m = parse("HloModule m\nENTRY e {\n  ROOT x = f32[] custom-call(), "
                       "custom_call_target=\"\\x41\\101\\t\\xff\u00e9\\\\\"\n}\n");
  if (!m) return;
  const char *t = m->entry->root->custom_call_target;
  CHECK(t && strcmp(t, "AA\t\xff\xc3\xa9\\") == 0);
  char *out = NULL;
  CHECK_OK(cxla_module_print(m, &out));
  CHECK(out && strstr(out, "custom_call_target=\"AA\\t\\377\xc3\xa9\\\\\""));
  cxla_free_string(out);
  module_destroy(m);
}

/* Typed names on opcodes that do not take them stay verbatim. */
TEST(typed_names_on_other_opcodes_stay_raw) {
  HloModule *m = parse(
      "HloModule m\nENTRY e {\n  x = f32[4] parameter(0)\n"
      "  ROOT y = f32[4] negate(x), index=3, kind=kLoop, type=whatever\n}\n");
  if (!m) return;
  Instr *y = find(m, "y");
  CHECK(y->attrs == 0 && y->nraw == 3);
  CHECK(strcmp(instr_raw(y, "index"), "3") == 0 && strcmp(instr_raw(y, "type"), "whatever") == 0);
  module_destroy(m);
}

/* ---- constants ------------------------------------------------------------------ */

static Literal *const_of(HloModule *m, const char *name) {
  Instr *in = find(m, name);
  CHECK(in && in->op == OP_CONSTANT && in->literal);
  return in ? in->literal : NULL;
}
static uint64_t bits_at(const Literal *l, int64_t i) {
  uint64_t v = 0;
  memcpy(&v, (const char *)l->data + i * cxla_type_size(l->type), (size_t)cxla_type_size(l->type));
  return v;
}

/* Names that spell a type are names wherever XLA's parser reads a name: a
 * type starts a shape only when '[' follows it. */
TEST(names_that_spell_types) {
  const char *text =
      "HloModule m\n\n"
      "f16 {\n  s4 = f32[] parameter(0)\n  token = f32[] parameter(1)\n"
      "  ROOT u2 = f32[] add(s4, token)\n}\n\n"
      "ENTRY main (s2: f32[3], c64: f32[3]) -> (f32[3], f32[]) {\n"
      "  s2 = f32[3]{0} parameter(0)\n"
      "  c64 = f32[3]{0} parameter(1)\n"
      "  u4 = f32[3]{0} add(s2, c64)\n"
      "  f8e4m3fn = f32[3]{0} multiply(f32[3]{0} u4, %c64)\n"
      "  b64 = f32[] constant(0)\n"
      "  pred = f32[] reduce(f8e4m3fn, b64), dimensions={0}, to_apply=f16\n"
      "  f32 = f32[3]{0} negate(f8e4m3fn), control-predecessors={pred}\n"
      "  ROOT token = (f32[3]{0}, f32[]) tuple(f32, pred)\n"
      "}\n";
  HloModule *m = parse(text);
  if (!m) return;
  CHECK(m->entry->ninstrs == 8);
  Instr *mul = find(m, "f8e4m3fn"), *neg = find(m, "f32"), *red = find(m, "pred");
  CHECK(mul && mul->op == OP_MULTIPLY && mul->noperands == 2 &&
        strcmp(mul->operands[0]->name, "u4") == 0 && strcmp(mul->operands[1]->name, "c64") == 0);
  CHECK(neg && neg->op == OP_NEGATE && neg->ncontrol_preds == 1 && neg->control_preds[0] == red);
  CHECK(red && red->op == OP_REDUCE && red->ncalled == 1 &&
        strcmp(red->called[0]->name, "f16") == 0);
  CHECK(strcmp(m->entry->root->name, "token") == 0 && m->entry->root->noperands == 2);
  CHECK_OK(cxla_module_verify(m));
  /* printed and read back: the same text */
  char *a = NULL, *b = NULL;
  CHECK_OK(cxla_module_print(m, &a));
  HloModule *m2 = a ? parse(a) : NULL;
  if (m2) CHECK_OK(cxla_module_print(m2, &b));
  CHECK(a && b && strcmp(a, b) == 0);
  cxla_free_string(a);
  cxla_free_string(b);
  module_destroy(m2);
  module_destroy(m);
  /* a type name followed by '[' is still a shape, and a missing '[' after
   * the instruction's type is still an error */
  PARSE_ERR("HloModule m\nENTRY e {\n  x = f32 parameter(0)\n}\n", "t.hlo:3:11:",
            "expected '[' after the element type");
}

TEST(constants_of_every_type) {
  HloModule *m = parse(
      "HloModule c\nENTRY e {\n"
      "  bf = bf16[] constant(1.5)\n"
      "  h = f16[] constant(-0)\n"
      "  hmax = f16[] constant(65504)\n"
      "  f8 = f8e4m3fn[] constant(448)\n"
      "  f8b = f8e5m2[2] constant({inf, -0.5})\n"
      "  f8c = f8e4m3fnuz[] constant(-2)\n"
      "  f4 = f4e2m1fn[2] constant({6, -0.5})\n"
      "  e8 = f8e8m0fnu[] constant(0.25)\n"
      "  n = f32[6] constant({nan, -nan, inf, -inf, -0, 1e-45})\n"
      "  np = f32[] constant(nan(0x8000000000))\n"
      "  d = f64[3] constant({-0, 0.1, 1.7976931348623157e308})\n"
      "  dn = f64[] constant(-nan(0x1))\n"
      "  u = u64[] constant(18446744073709551615)\n"
      "  s = s64[] constant(-9223372036854775808)\n"
      "  s8 = s8[2] constant({-128, 127})\n"
      "  s4 = s4[2] constant({-8, 7})\n"
      "  u4 = u4[] constant(15)\n"
      "  u2 = u2[] constant(3)\n"
      "  s16 = s16[] constant(-32768)\n"
      "  u32 = u32[] constant(4294967295)\n"
      "  p = pred[3] constant({true, false, 1})\n"
      "  c = c64[] constant((1, -2.5))\n"
      "  z = c128[2] constant({(0.1, 0), (inf, nan)})\n"
      "  a = s32[2,3] constant({ { 1, 2, 3 }, { 4, 5, 6 } })\n"
      "  e0 = f32[0] constant({})\n"
      "  e1 = f32[2,0] constant({ {}, {} })\n"
      "  el = f32[1000,1000] constant({...})\n"
      "  t = (f32[], (s32[2], pred[])) constant((1, ({2, 3}, true)))\n"
      "  ROOT r = f32[] constant(0.1)\n"
      "}\n");
  if (!m) return;
  CHECK(bits_at(const_of(m, "bf"), 0) == 0x3FC0);
  CHECK(bits_at(const_of(m, "h"), 0) == 0x8000);
  CHECK(bits_at(const_of(m, "hmax"), 0) == 0x7BFF);
  CHECK(bits_at(const_of(m, "f8"), 0) == 0x7E);
  /* f8e5m2: inf = 0 11111 00 = 0x7C; -0.5 = 1 01110 00 = 0xB8 */
  CHECK(bits_at(const_of(m, "f8b"), 0) == 0x7C && bits_at(const_of(m, "f8b"), 1) == 0xB8);
  /* f8e4m3fnuz (bias 8): -2 = 1 1001 000 = 0xC8 */
  CHECK(bits_at(const_of(m, "f8c"), 0) == 0xC8);
  /* f4e2m1fn: 6 = 0 11 1 = 0x7; -0.5 = 1 00 1 = 0x9 */
  CHECK(bits_at(const_of(m, "f4"), 0) == 0x7 && bits_at(const_of(m, "f4"), 1) == 0x9);
  /* f8e8m0fnu: 0.25 = 2^-2 -> exponent 125 */
  CHECK(bits_at(const_of(m, "e8"), 0) == 125);
  Literal *n = const_of(m, "n");
  CHECK(bits_at(n, 0) == 0x7FC00000 && bits_at(n, 1) == 0xFFC00000);
  CHECK(bits_at(n, 2) == 0x7F800000 && bits_at(n, 3) == 0xFF800000);
  CHECK(bits_at(n, 4) == 0x80000000 && bits_at(n, 5) == 0x00000001);
  /* payload 0x8000000000 = 2^39 in double's mantissa -> 2^10 in f32's */
  CHECK(bits_at(const_of(m, "np"), 0) == 0x7F800400);
  Literal *d = const_of(m, "d");
  CHECK(bits_at(d, 0) == 0x8000000000000000ull && bits_at(d, 1) == 0x3FB999999999999Aull);
  CHECK(bits_at(d, 2) == 0x7FEFFFFFFFFFFFFFull);
  CHECK(bits_at(const_of(m, "dn"), 0) == 0xFFF0000000000001ull);
  CHECK(bits_at(const_of(m, "u"), 0) == UINT64_MAX);
  CHECK(bits_at(const_of(m, "s"), 0) == 0x8000000000000000ull);
  Literal *s8 = const_of(m, "s8");
  CHECK(((int8_t *)s8->data)[0] == -128 && ((int8_t *)s8->data)[1] == 127);
  Literal *s4 = const_of(m, "s4");
  CHECK(((int8_t *)s4->data)[0] == -8 && ((int8_t *)s4->data)[1] == 7);
  CHECK(bits_at(const_of(m, "u4"), 0) == 15 && bits_at(const_of(m, "u2"), 0) == 3);
  CHECK(bits_at(const_of(m, "s16"), 0) == 0x8000 && bits_at(const_of(m, "u32"), 0) == 0xFFFFFFFF);
  Literal *p = const_of(m, "p");
  CHECK(((uint8_t *)p->data)[0] == 1 && ((uint8_t *)p->data)[1] == 0 && ((uint8_t *)p->data)[2] == 1);
  Literal *c = const_of(m, "c");
  CHECK(((float *)c->data)[0] == 1.0f && ((float *)c->data)[1] == -2.5f);
  Literal *z = const_of(m, "z");
  CHECK(((double *)z->data)[0] == 0.1 && ((double *)z->data)[1] == 0);
  CHECK(isinf(((double *)z->data)[2]) && isnan(((double *)z->data)[3]));
  Literal *a = const_of(m, "a");
  CHECK(a->rank == 2 && a->dims[0] == 2 && a->dims[1] == 3 && a->nelems == 6);
  for (int i = 0; i < 6; i++) CHECK(((int32_t *)a->data)[i] == i + 1);
  CHECK(const_of(m, "e0")->nelems == 0 && const_of(m, "e1")->nelems == 0);
  Literal *el = const_of(m, "el");
  CHECK(el->unknown && el->data == NULL && el->nelems == 1000000);
  Literal *t = const_of(m, "t");
  CHECK(t->type == CXLA_TUPLE && t->ntuple == 2 && t->tuple[1]->ntuple == 2);
  CHECK(((int32_t *)t->tuple[1]->tuple[0]->data)[1] == 3 && *(uint8_t *)t->tuple[1]->tuple[1]->data == 1);
  CHECK(bits_at(const_of(m, "r"), 0) == 0x3DCCCCCD);
  CHECK(m->nliterals == 29);
  module_destroy(m);
}

/* The printer writes floats in the shortest form that reads back exactly. */
TEST(printed_constants) {
  HloModule *m = parse(
      "HloModule c\nENTRY e {\n"
      "  a = f32[4] constant({0.1, -0, 1e+10, 3.40282347e+38})\n"
      "  b = bf16[2] constant({1.5, -nan})\n"
      "  c = f64[2] constant({0.1, nan(0x1)})\n"
      "  d = c64[] constant((1, 2))\n"
      "  e = s32[2,2] constant({ {1, 2}, {3, 4} })\n"
      "  f = u64[] constant(18446744073709551615)\n"
      "  ROOT g = f32[8] constant({...})\n"
      "}\n");
  if (!m) return;
  char *t = NULL;
  CHECK_OK(cxla_module_print(m, &t));
  if (t) {
    CHECK(strstr(t, "constant({0.1, -0, 1e+10, 3.4028235e+38})"));
    CHECK(strstr(t, "constant({1.5, -nan})"));
    CHECK(strstr(t, "constant({0.1, nan(0x1)})"));
    CHECK(strstr(t, "constant((1, 2))"));
    CHECK(strstr(t, "constant({ { 1, 2 }, { 3, 4 } })"));
    CHECK(strstr(t, "constant(18446744073709551615)"));
    CHECK(strstr(t, "ROOT %g = f32[8] constant({...})"));
  }
  cxla_free_string(t);
  module_destroy(m);
}

/* ---- structure -------------------------------------------------------------------- */

TEST(structure_and_ordering) {
  /* Bare and %-names, forward references, ROOT before its operands, no ROOT
   * in main (the last instruction written is the root), no ENTRY (last computation is the entry), operand shapes and
   * comments ignored. */
  HloModule *m = parse(
      "HloModule s\n"
      "%helper (a: f32[], b: f32[]) -> f32[] {\n"
      "  ROOT %sum = f32[] add(f32[] %a, f32[] b)\n"
      "  %b = f32[] parameter(1)\n"
      "  a = f32[] parameter(0) /* comment */\n"
      "}\n"
      "main {\n"
      "  y = f32[] call(x, /*index=1*/ x), to_apply=%helper\n"
      "  x = f32[] parameter(0)\n"
      "  z = f32[] negate(y)\n"
      "}\n");
  if (!m) return;
  CHECK(m->ncomps == 2 && m->entry == m->comps[1] && m->entry->is_entry);
  CHECK(strcmp(m->entry->name, "main") == 0 && !m->comps[0]->is_entry);
  Computation *h = m->comps[0];
  CHECK(h->ninstrs == 3 && strcmp(h->root->name, "sum") == 0);
  CHECK(strcmp(h->instrs[0]->name, "b") == 0 && strcmp(h->instrs[1]->name, "a") == 0 &&
        h->instrs[2] == h->root);
  CHECK(h->nparams == 2 && strcmp(h->params[0]->name, "a") == 0 && strcmp(h->params[1]->name, "b") == 0);
  for (int i = 0; i < h->ninstrs; i++) CHECK(h->instrs[i]->id == i);
  Computation *e = m->entry;
  CHECK(strcmp(e->instrs[0]->name, "x") == 0 && strcmp(e->instrs[1]->name, "y") == 0);
  CHECK(strcmp(e->root->name, "z") == 0);
  CHECK(e->instrs[1]->noperands == 2 && e->instrs[1]->operands[1] == e->instrs[0]);
  module_destroy(m);

  /* Callees defined after their callers are moved before them. */
  m = parse("HloModule s\nENTRY main {\n  x = f32[] parameter(0)\n"
            "  ROOT y = f32[] call(x), to_apply=late\n}\n"
            "late {\n  ROOT p = f32[] parameter(0)\n}\n");
  if (!m) return;
  CHECK(m->ncomps == 2 && strcmp(m->comps[0]->name, "late") == 0 && m->comps[1] == m->entry);
  module_destroy(m);
}

TEST(shapes) {
  HloModule *m = parse(
      "HloModule s\nENTRY e {\n"
      "  a = f32[2,<=5]{0,1:T(8,128)S(1)} parameter(0)\n"
      "  b = (f32[], (s32[2]{0}, pred[]), token[]) parameter(1)\n"
      "  c = bf16[3]{0} parameter(2)\n"
      "  ROOT d = u8[0,100000000000] parameter(3)\n"
      "}\n");
  if (!m) return;
  Shape *a = find(m, "a")->shape;
  CHECK(a->rank == 2 && a->dims[1] == 5 && a->dynamic && !a->dynamic[0] && a->dynamic[1]);
  CHECK(a->has_layout && a->minor_to_major[0] == 0 && a->minor_to_major[1] == 1);
  CHECK(a->layout_tail && strcmp(a->layout_tail, "T(8,128)S(1)") == 0);
  Shape *b = find(m, "b")->shape;
  CHECK(b->type == CXLA_TUPLE && b->ntuple == 3 && b->tuple[1]->ntuple == 2);
  CHECK(b->tuple[1]->tuple[0]->has_layout && b->tuple[2]->type == CXLA_TOKEN);
  CHECK(find(m, "d")->shape->dims[1] == 100000000000LL);
  char *t = NULL;
  CHECK_OK(cxla_module_print(m, &t));
  if (t) {
    CHECK(strstr(t, "%a = f32[2,<=5]{0,1:T(8,128)S(1)} parameter(0)"));
    CHECK(strstr(t, "%b = (f32[], (s32[2]{0}, pred[]), token[]) parameter(1)"));
    CHECK(strstr(t, "ENTRY %e (a: f32[2,<=5], b: (f32[], (s32[2], pred[]), token[]), c: bf16[3], "
                    "d: u8[0,100000000000]) -> u8[0,100000000000] {"));
  }
  cxla_free_string(t);
  module_destroy(m);
}

TEST(every_opcode_is_accepted) {
  for (int op = 0; op < OP_COUNT; op++) {
    const OpInfo *info = op_info((Opcode)op);
    if (op == OP_PARAMETER || op == OP_CONSTANT) continue;
    int n = info->arity < 0 ? 2 : info->arity;
    char text[512], ops[64] = "";
    for (int i = 0; i < n; i++) strcat(ops, i ? ", x" : "x");
    snprintf(text, sizeof text, "HloModule m\nENTRY e {\n  x = f32[] parameter(0)\n"
             "  ROOT y = f32[] %s(%s)\n}\n", info->name, ops);
    HloModule *m = parse(text);
    if (!m) {
      fprintf(stderr, "  (opcode %s)\n", info->name);
      continue;
    }
    CHECK(m->entry->root->op == (Opcode)op && m->entry->root->noperands == n);
    module_destroy(m);
  }
}

/* ---- errors ------------------------------------------------------------------------- */

TEST(error_format_with_caret) {
  const char *text = "HloModule m\nENTRY e {\n  x = f32[] foo()\n}\n";
  HloModule *m = NULL;
  cxla_status s = cxla_module_parse(text, strlen(text), "t.hlo", &m);
  CHECK(s && cxla_status_code_of(s) == CXLA_INVALID_ARGUMENT);
  if (s)
    CHECK(strcmp(cxla_status_message(s),
                 "t.hlo:3:13: error: unknown opcode 'foo'\n  x = f32[] foo()\n            ^") == 0);
  cxla_status_free(s);
}

TEST(error_cases) {
  /* truncated: the error is at the end of the input */
  PARSE_ERR("HloModule m\nENTRY e {\n  x = f32[] parameter(0)\n", "t.hlo:4:1:",
            "expected '}' at the end of the computation, found end of input");
  PARSE_ERR("HloModule m\nENTRY e {\n  x = f32[", "t.hlo:3:11:", "found end of input");
  PARSE_ERR("", "t.hlo:1:1:", "expected 'HloModule'");
  PARSE_ERR("HloModule m\n", "t.hlo:2:1:", "expected a computation name");
  PARSE_ERR("HloModule m\nENTRY e {\n  ROOT x = f32[] constant({1,", "t.hlo:3:", "constant");
  PARSE_ERR("HloModule m\nENTRY e {\n  x = f32[2] add(p)\n", "t.hlo:3:14:",
            "'add' takes 2 operands, but 1 was given");
  PARSE_ERR("HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n  y = f32[2] negate(x, x)\n}\n",
            "t.hlo:4:14:", "'negate' takes 1 operand, but 2 were given");
  PARSE_ERR("HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n  y = f32[2] negate(q)\n}\n",
            "t.hlo:4:21:", "use of undefined instruction 'q'");
  PARSE_ERR("HloModule m\nENTRY e {\n  x = f32[] parameter(0)\n  x = f32[] negate(x)\n}\n",
            "t.hlo:4:3:", "duplicate instruction name 'x'");
  PARSE_ERR("HloModule m\nc {\n  ROOT x = f32[] parameter(0)\n}\n"
            "c {\n  ROOT x = f32[] parameter(0)\n}\n",
            "t.hlo:5:1:", "duplicate computation name 'c'");
  PARSE_ERR("HloModule m\nENTRY e {\n  x = f32[] custom-call(), custom_call_target=\"a\\qb\"\n}\n",
            "t.hlo:3:49:", "invalid escape sequence");
  PARSE_ERR("HloModule m\nENTRY e {\n  x = f32[] parameter(0)\n  a = f32[] add(x, b)\n"
            "  b = f32[] negate(a)\n}\n",
            "t.hlo:4:3:", "instruction 'a' depends on itself (cycle)");
  PARSE_ERR("HloModule m\nENTRY e {\n  x = f32[] parameter(0)\n"
            "  y = f32[] call(x), to_apply=%nope\n}\n",
            "t.hlo:4:31:", "unknown computation 'nope'");
  PARSE_ERR("HloModule m\nENTRY e {\n  x = f32[] parameter(0)\n"
            "  y = pred[] compare(x, x), direction=XX\n}\n",
            "t.hlo:4:39:", "expected a comparison direction");
  PARSE_ERR("HloModule m\nENTRY e {\n  x = f32[2,2] parameter(0)\n"
            "  y = f32[2,2] reduce-window(x, x), window={size=3x3 stride=2}\n}\n",
            "t.hlo:4:54:", "window field 'stride' has 1 dimensions, expected 2");
  PARSE_ERR("HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n"
            "  y = f32[2] broadcast(x), dimensions={1,,2}\n}\n",
            "t.hlo:4:42:", "expected an integer in the value of 'dimensions'");
  PARSE_ERR("HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n"
            "  y = f32[2] broadcast(x), dimensions={99999999999999999999}\n}\n",
            "t.hlo:4:40:", "integer too large");
  PARSE_ERR("HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n"
            "  y = f32[2] negate(x), metadata={op_name=\"x}\n}\n",
            "t.hlo:4:", "unterminated");
  PARSE_ERR("HloModule m\nENTRY e {\n  ROOT c = f32[1000000000000000] constant({1})\n}\n",
            "t.hlo:3:43:", "larger than cxla's limit");
  PARSE_ERR("HloModule m\nENTRY e {\n  ROOT c = f32[4294967296,4294967296] constant({...})\n}\n",
            "t.hlo:3:", "more elements than fit");
  PARSE_ERR("HloModule m\nENTRY e {\n  ROOT c = f32[99999999999999999999] parameter(0)\n}\n",
            "t.hlo:3:16:", "too large");
  PARSE_ERR("HloModule m\nENTRY e {\n  ROOT c = s32[] constant(2147483648)\n}\n", "t.hlo:3:27:",
            "value 2147483648 out of range for s32");
  PARSE_ERR("HloModule m\nENTRY e {\n  ROOT c = u8[] constant(-1)\n}\n", "t.hlo:3:26:",
            "out of range for u8");
  PARSE_ERR("HloModule m\nENTRY e {\n  ROOT c = s64[] constant(99999999999999999999)\n}\n",
            "t.hlo:3:27:", "integer literal too large");
  PARSE_ERR("HloModule m\nENTRY e {\n  ROOT c = f16[] constant(70000)\n}\n", "t.hlo:3:27:",
            "value out of range for f16");
  PARSE_ERR("HloModule m\nENTRY e {\n  ROOT c = s32[] constant(1.5)\n}\n", "t.hlo:3:27:",
            "expected an integer value for s32");
  PARSE_ERR("HloModule m\nENTRY e {\n  ROOT c = f32[2,2] constant({1, 2})\n}\n", "t.hlo:3:31:",
            "'{' (the array has more dimensions)");
  PARSE_ERR("HloModule m\nENTRY e {\n  ROOT c = f32[2] constant({1, 2, 3})\n}\n", "t.hlo:3:35:",
            "too many entries in dimension 0");
  PARSE_ERR("HloModule m\nENTRY e {\n  ROOT c = f32[3] constant({1, 2})\n}\n", "t.hlo:3:33:",
            "expected 3 entries in dimension 0, found 2");
  PARSE_ERR("HloModule m\nENTRY e {\n  x = f32[] parameter(1)\n}\n", "t.hlo:3:3:",
            "parameter number 1 out of range");
  PARSE_ERR("HloModule m\nENTRY e {\n  x = f32[] parameter(0)\n  y = f32[] parameter(0)\n}\n",
            "t.hlo:4:3:", "duplicate parameter number 0");
  PARSE_ERR("HloModule m\nENTRY e {\n  ROOT x = f32[] parameter(0)\n  ROOT y = f32[] negate(x)\n}\n",
            "t.hlo:4:3:", "more than one ROOT");
  PARSE_ERR("HloModule m\nENTRY e {\n  ROOT x = f32[] parameter(0), metadata={a=1}, metadata={}\n}\n",
            "t.hlo:3:48:", "attribute 'metadata' given twice");
  PARSE_ERR("HloModule m\nENTRY e {\n  ROOT x = f32[2] broadcast(x), dimensions={0}, dimensions={0}\n}\n",
            "t.hlo:3:49:", "attribute 'dimensions' given twice");
  PARSE_ERR("HloModule m\nENTRY e {\n  ROOT x = f32[2]{0,0} parameter(0)\n}\n", "t.hlo:3:",
            "layout");
  PARSE_ERR("HloModule m\nENTRY e {\n  ROOT x = f32[2] parameter(0)\n}\nENTRY f {\n"
            "  ROOT x = f32[2] parameter(0)\n}\n",
            "t.hlo:5:1:", "more than one ENTRY");
  PARSE_ERR("HloModule m\nc {\n  ROOT x = f32[] call(), to_apply=c\n}\n"
            "ENTRY e {\n  ROOT x = f32[] call(), to_apply=c\n}\n",
            "t.hlo:2:1:", "computation 'c' calls itself");
  {
    char text[2048] = "HloModule m\nENTRY e {\n  ROOT x = f32[";
    for (int i = 0; i < 300; i++) strcat(text, "1,");
    strcat(text, "1] parameter(0)\n}\n");
    /* "  ROOT x = f32[" is 15 characters; dimension 257 starts 2*256 later */
    parse_err(text, strlen(text), "t.hlo:3:528:", "more than 256 dimensions");
  }
  /* bytes that are not text */
  parse_err("HloModule m\xff\n", 12, "t.hlo:1:12:", "invalid UTF-8");
  parse_err("HloModule m\0\n", 13, "t.hlo:1:12:", "NUL byte");
  PARSE_ERR("HloModule m\x01\n", "t.hlo:1:12:", "control character");
  PARSE_ERR("HloModule m /* open comment\n", "t.hlo:1:13:", "unterminated comment");
  PARSE_ERR("HloModule m\nENTRY e {\n  x = f32[] parameter(0) $\n}\n", "t.hlo:3:26:",
            "unexpected character");
}

TEST(deep_nesting_is_refused) {
  size_t depth = 100000;
  char *text = malloc(depth * 2 + 200);
  strcpy(text, "HloModule m\nENTRY e {\n  ROOT x = ");
  size_t n = strlen(text);
  for (size_t i = 0; i < depth; i++) text[n++] = '(';
  text[n] = 0;
  strcat(text, "f32[]");
  n = strlen(text);
  for (size_t i = 0; i < depth; i++) text[n++] = ')';
  strcpy(text + n, " parameter(0)\n}\n");
  parse_err(text, strlen(text), "t.hlo:3:", "nested too deeply");
  /* A 400-deep tuple is fine. */
  strcpy(text, "HloModule m\nENTRY e {\n  ROOT x = ");
  n = strlen(text);
  for (size_t i = 0; i < 400; i++) text[n++] = '(';
  text[n] = 0;
  strcat(text, "f32[]");
  n = strlen(text);
  for (size_t i = 0; i < 400; i++) text[n++] = ')';
  strcpy(text + n, " parameter(0)\n}\n");
  HloModule *m = parse(text);
  module_destroy(m);
  free(text);
}

TEST(missing_file) {
  cxla_module *m = NULL;
  cxla_status s = cxla_module_parse_file("/nonexistent/dir/x.hlo", &m);
  CHECK(cxla_status_code_of(s) == CXLA_NOT_FOUND);
  CHECK(s && strstr(cxla_status_message(s), "/nonexistent/dir/x.hlo"));
  CHECK(m == NULL);
  cxla_status_free(s);
}

/* Every allocation failure is reported as OOM and leaks nothing (checked
 * under SAN=1). */
TEST(out_of_memory_paths) {
  const char *text = attrs_module;
  long total;
  cxla_fail_alloc_at(0);
  HloModule *m = NULL;
  cxla_status s = cxla_module_parse(text, strlen(text), "t.hlo", &m);
  total = cxla_fail_alloc_at(0);
  CHECK_OK(s);
  module_destroy(m);
  int failures = 0;
  for (long i = 1; i <= total; i++) {
    m = NULL;
    cxla_fail_alloc_at(i);
    s = cxla_module_parse(text, strlen(text), "t.hlo", &m);
    cxla_fail_alloc_at(0);
    if (!s || cxla_status_code_of(s) != CXLA_RESOURCE_EXHAUSTED) failures++;
    cxla_status_free(s);
    module_destroy(m);
  }
  CHECK(failures == 0);
}

/* A 5 MB module parses quickly (no quadratic name lookups). */
TEST(large_module_speed) {
  int n = 80000;
  size_t cap = (size_t)n * 80 + 256;
  char *text = malloc(cap);
  size_t len = (size_t)sprintf(text, "HloModule big\nENTRY e {\n  v0 = f32[16]{0} parameter(0)\n");
  for (int i = 1; i < n; i++)
    len += (size_t)sprintf(text + len, "  v%d = f32[16]{0} add(v%d, v%d), metadata={op_name=\"x\"}\n",
                           i, i - 1, i / 2);
  len += (size_t)sprintf(text + len, "}\n");
  clock_t t0 = clock();
  HloModule *m = parse(text);
  double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
  printf("parsed %.1f MB, %d instructions in %.3f s\n", (double)len / 1e6, n, secs);
  CHECK(m && m->entry->ninstrs == n);
  CHECK(secs < 5.0);
  module_destroy(m);
  free(text);
}

/* Inputs shaped to expose quadratic behaviour: many attributes on one
 * instruction, many small computations after a huge one, a huge constant. */
TEST(pathological_inputs_stay_fast) {
  size_t cap = 64u << 20, len = 0;
  char *text = malloc(cap);
  len += (size_t)sprintf(text + len, "HloModule p, h0=1");
  for (int i = 1; i < 100000; i++) len += (size_t)sprintf(text + len, ", h%d=%d", i, i);
  len += (size_t)sprintf(text + len, "\nbig {\n  v0 = f32[] parameter(0), a0=0");
  for (int i = 1; i < 100000; i++) len += (size_t)sprintf(text + len, ", a%d=0", i);
  len += (size_t)sprintf(text + len, "\n");
  for (int i = 1; i < 50000; i++) len += (size_t)sprintf(text + len, "  v%d = f32[] negate(v%d)\n", i, i - 1);
  len += (size_t)sprintf(text + len, "}\n");
  for (int i = 0; i < 20000; i++)
    len += (size_t)sprintf(text + len, "c%d {\n  ROOT x = f32[] parameter(0)\n}\n", i);
  len += (size_t)sprintf(text + len, "ENTRY e {\n  ROOT k = f32[1000000] constant({");
  for (int i = 0; i < 1000000; i++) len += (size_t)sprintf(text + len, i ? ", %d.%d" : "%d.%d", i % 977, i % 13);
  len += (size_t)sprintf(text + len, "})\n}\n");
  clock_t t0 = clock();
  HloModule *m = parse(text);
  char *out = NULL;
  if (m) CHECK_OK(cxla_module_print(m, &out));
  double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
  printf("pathological %.1f MB: parsed and printed in %.3f s\n", (double)len / 1e6, secs);
  CHECK(m && m->nraw == 100000 && m->ncomps == 20002);
  CHECK(m && module_find_computation(m, "big")->instrs[0]->nraw == 100000);
  CHECK(out && strstr(out, "constant({0, 1.1, 2.2, "));
  CHECK(secs < 30.0); /* generous: sanitizer builds and a shared machine */
  cxla_free_string(out);
  module_destroy(m);
  free(text);
}

int main(void) {
  RUN(attribute_values);
  RUN(printed_attributes);
  RUN(scalar_pad_empty_padding);
  RUN(string_escapes);
  RUN(typed_names_on_other_opcodes_stay_raw);
  RUN(names_that_spell_types);
  RUN(constants_of_every_type);
  RUN(printed_constants);
  RUN(structure_and_ordering);
  RUN(shapes);
  RUN(every_opcode_is_accepted);
  RUN(error_format_with_caret);
  RUN(error_cases);
  RUN(deep_nesting_is_refused);
  RUN(missing_file);
  RUN(out_of_memory_paths);
  RUN(large_module_speed);
  RUN(pathological_inputs_stay_fast);
  return test_summary(__FILE__);
}
