/* The module header's typed attributes (entry_computation_layout,
 * input_output_alias) and the custom-call side-effect flag: read into
 * EntryLayout / IoAlias / Instr.has_side_effect, printed back exactly,
 * checked by the verifier, used by layout and buffer assignment; and no
 * fixed limit on counts: 5,000 entry parameters and a 5,000-element result
 * tuple parse, verify, optimize and run. */
#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "ir/ir.h"
#include "passes/pass.h"

static HloModule *parse(const char *text) {
  HloModule *m = NULL;
  cxla_status s = cxla_module_parse(text, strlen(text), "t.hlo", &m);
  if (s) {
    fprintf(stderr, "%s: unexpected parse error:\n%s\n", harness_current, cxla_status_message(s));
    harness_failed_checks++;
    cxla_status_free(s);
  }
  return m;
}

static cxla_status parse_status(const char *text) {
  HloModule *m = NULL;
  cxla_status s = cxla_module_parse(text, strlen(text), "t.hlo", &m);
  module_destroy(m);
  return s;
}

static cxla_status verify_text(const char *text) {
  HloModule *m = NULL;
  cxla_status s = cxla_module_parse(text, strlen(text), "t.hlo", &m);
  if (!s) s = cxla_module_verify(m);
  module_destroy(m);
  return s;
}

static char *print(const HloModule *m) {
  char *t = NULL;
  CHECK_OK(cxla_module_print(m, &t));
  return t;
}

/* The header line of printed text. */
static bool header_is(const char *printed, const char *want) {
  size_t n = strlen(want);
  return printed && strncmp(printed, want, n) == 0 && printed[n] == '\n';
}

static const char *body =
    "\n\nENTRY main {\n"
    "  p0 = f32[2,3]{0,1} parameter(0)\n"
    "  p1 = (s32[], f32[4]{0}) parameter(1)\n"
    "  n = f32[2,3]{0,1} negate(p0)\n"
    "  g = f32[4]{0} get-tuple-element(p1), index=1\n"
    "  ROOT t = (f32[2,3]{0,1}, f32[4]{0}) tuple(n, g)\n"
    "}\n";

static char *with_header(const char *header) {
  size_t n = strlen(header) + strlen(body) + 1;
  char *s = malloc(n);
  snprintf(s, n, "%s%s", header, body);
  return s;
}

TEST(typed_fields) {
  const char *hdr =
      "HloModule m, is_scheduled=true, input_output_alias={ {0}: (0, {}, may-alias), {1}: (1, "
      "{1}, must-alias) }, alias_passthrough_params=true, entry_computation_layout={(f32[2,3]{0,1}, "
      "(s32[], f32[4]{0}))->(f32[2,3]{0,1}, f32[4]{0})}, allow_spmd_sharding_propagation_to_output={true}";
  char *text = with_header(hdr);
  HloModule *m = parse(text);
  if (m) {
    const EntryLayout *el = m->entry_layout;
    CHECK(el && el->nparams == 2);
    if (el && el->nparams == 2) {
      CHECK(el->params[0]->type == T_F32 && el->params[0]->rank == 2 &&
            el->params[0]->has_layout && el->params[0]->minor_to_major[0] == 0 &&
            el->params[0]->minor_to_major[1] == 1);
      CHECK(el->params[1]->type == T_TUPLE && el->params[1]->ntuple == 2 &&
            el->params[1]->tuple[0]->type == T_S32);
      CHECK(el->result->type == T_TUPLE && el->result->ntuple == 2);
    }
    CHECK(m->has_io_alias && m->nio_alias == 2);
    if (m->nio_alias == 2) {
      const IoAlias *a = m->io_alias;
      CHECK(a[0].output_index.n == 1 && a[0].output_index.v[0] == 0 && a[0].param_number == 0 &&
            a[0].param_index.n == 0 && a[0].kind == ALIAS_MAY);
      CHECK(a[1].output_index.n == 1 && a[1].output_index.v[0] == 1 && a[1].param_number == 1 &&
            a[1].param_index.n == 1 && a[1].param_index.v[0] == 1 && a[1].kind == ALIAS_MUST);
    }
    /* only the attributes cxla does not interpret stay verbatim */
    CHECK(m->nraw == 3 && strcmp(m->raw[0].name, "is_scheduled") == 0 &&
          strcmp(m->raw[1].name, "alias_passthrough_params") == 0 &&
          strcmp(m->raw[2].name, "allow_spmd_sharding_propagation_to_output") == 0);
    CHECK_OK(cxla_module_verify(m));
    char *out = print(m);
    CHECK(header_is(out, hdr)); /* XLA's spelling and order, exactly */
    cxla_free_string(out);
    module_destroy(m);
  }
  free(text);
}

TEST(no_header_attributes) {
  char *text = with_header("HloModule m");
  HloModule *m = parse(text);
  if (m) {
    CHECK(!m->entry_layout && !m->has_io_alias && m->nio_alias == 0 && m->nraw == 0);
    char *out = print(m);
    CHECK(header_is(out, "HloModule m"));
    cxla_free_string(out);
    module_destroy(m);
  }
  free(text);
  /* an empty alias list is kept as given */
  text = with_header("HloModule m, input_output_alias={  }");
  m = parse(text);
  if (m) {
    CHECK(m->has_io_alias && m->nio_alias == 0);
    char *out = print(m);
    CHECK(header_is(out, "HloModule m, input_output_alias={  }"));
    cxla_free_string(out);
    module_destroy(m);
  }
  free(text);
}

/* The printer writes the index comment every five shapes, as XLA; reading
 * skips it. */
TEST(index_comments_round_trip) {
  const char *hdr =
      "HloModule m, entry_computation_layout={(f32[], f32[], f32[], f32[], f32[], "
      "/*index=5*/f32[])->(f32[], f32[], f32[], f32[], f32[], /*index=5*/f32[])}";
  char text[2048];
  snprintf(text, sizeof text,
           "%s\n\nENTRY e {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
           "  c = f32[] parameter(2)\n  d = f32[] parameter(3)\n  e = f32[] parameter(4)\n"
           "  f = f32[] parameter(5)\n  ROOT t = (f32[], f32[], f32[], f32[], f32[], f32[]) "
           "tuple(a, b, c, d, e, f)\n}\n",
           hdr);
  HloModule *m = parse(text);
  if (!m) return;
  CHECK(m->entry_layout && m->entry_layout->nparams == 6);
  CHECK_OK(cxla_module_verify(m));
  char *out = print(m);
  CHECK(header_is(out, hdr));
  cxla_free_string(out);
  module_destroy(m);
}

TEST(parse_errors_are_located) {
  char *t;
  t = with_header("HloModule m, entry_computation_layout={(f32[2,3], ->f32[]}");
  CHECK_ERR(parse_status(t), "t.hlo:1:51: error: expected a shape");
  free(t);
  t = with_header("HloModule m, entry_computation_layout={(f32[2,3])}");
  CHECK_ERR(parse_status(t), "expected '->' after the entry parameter shapes");
  free(t);
  t = with_header("HloModule m, input_output_alias={ {0}: (x, {}) }");
  CHECK_ERR(parse_status(t), "expected a parameter number");
  free(t);
  t = with_header("HloModule m, input_output_alias={ {0}: (0, {}, sometimes) }");
  CHECK_ERR(parse_status(t), "expected 'may-alias' or 'must-alias'");
  free(t);
  t = with_header("HloModule m, input_output_alias={ {-1}: (0, {}) }");
  CHECK_ERR(parse_status(t), "shape index");
  free(t);
  t = with_header(
      "HloModule m, entry_computation_layout={()->f32[]}, entry_computation_layout={()->f32[]}");
  CHECK_ERR(parse_status(t), "duplicate module attribute 'entry_computation_layout'");
  free(t);
}

TEST(verifier_checks_typed_fields) {
  char *t;
  /* kind omitted: may-alias */
  t = with_header("HloModule m, input_output_alias={ {1}: (1, {1}) }");
  CHECK_OK(verify_text(t));
  free(t);
  t = with_header("HloModule m, entry_computation_layout={(f32[2,3])->(f32[2,3], f32[4])}");
  CHECK_ERR(verify_text(t), "entry_computation_layout has 1 parameters, entry computation %main "
                            "has 2");
  free(t);
  t = with_header("HloModule m, entry_computation_layout={(f32[2,3], (s32[], f32[5]))->"
                  "(f32[2,3], f32[4])}");
  CHECK_ERR(verify_text(t), "gives parameter 1 as (s32[], f32[5])");
  free(t);
  t = with_header("HloModule m, entry_computation_layout={(f32[2,3], (s32[], f32[4]))->f32[]}");
  CHECK_ERR(verify_text(t), "gives the result as f32[]");
  free(t);
  t = with_header("HloModule m, input_output_alias={ {0}: (2, {}) }");
  CHECK_ERR(verify_text(t), "names parameter 2, entry computation %main has 2");
  free(t);
  t = with_header("HloModule m, input_output_alias={ {2}: (0, {}) }");
  CHECK_ERR(verify_text(t), "no such output index");
  free(t);
  t = with_header("HloModule m, input_output_alias={ {0}: (1, {0}) }");
  CHECK_ERR(verify_text(t), "aliases f32[2,3] with s32[]");
  free(t);
  t = with_header("HloModule m, input_output_alias={ {1}: (1, {1}), {1}: (1, {1}) }");
  CHECK_ERR(verify_text(t), "names the output index {1} twice");
  free(t);
}

/* Layout assignment takes the entry's layouts from the typed field. */
TEST(layout_assignment_uses_entry_layout) {
  const char *text =
      "HloModule m, entry_computation_layout={(f32[2,3]{0,1})->f32[2,3]{0,1}}\n\n"
      "ENTRY e {\n  p = f32[2,3] parameter(0)\n  ROOT n = f32[2,3] negate(p)\n}\n";
  HloModule *m = parse(text);
  if (!m) return;
  const char *names[] = {"layout-assignment"};
  CHECK_OK(pipeline_run(m, names, 1, NULL));
  const Instr *p = m->entry->params[0], *r = m->entry->root;
  CHECK(p->shape->has_layout && p->shape->minor_to_major[0] == 0);
  CHECK(r->shape->has_layout && r->shape->minor_to_major[0] == 0);
  module_destroy(m);
}

/* custom_call_has_side_effect: a typed flag, printed where XLA prints it
 * (after operand_layout_constraints, before the other raw attributes), and
 * what keeps side-effecting custom-calls alive in dead-code removal. */
TEST(side_effect_flag) {
  const char *text =
      "HloModule m\n\n"
      "ENTRY %e (p: f32[2]) -> f32[2] {\n"
      "  %p = f32[2]{0} parameter(0)\n"
      "  %a = f32[2]{0} custom-call(%p), custom_call_target=\"log\", "
      "operand_layout_constraints={f32[2]{0}}, custom_call_has_side_effect=true, "
      "api_version=API_VERSION_TYPED_FFI\n"
      "  %b = f32[2]{0} custom-call(%p), custom_call_target=\"pure\", "
      "custom_call_has_side_effect=false\n"
      "  %c = f32[2]{0} custom-call(%p), custom_call_target=\"log2\", "
      "custom_call_has_side_effect=true\n"
      "  ROOT %n = f32[2]{0} negate(%p)\n"
      "}\n\n";
  HloModule *m = parse(text);
  if (!m) return;
  const Instr *a = comp_find_instr(m->entry, "a"), *b = comp_find_instr(m->entry, "b");
  CHECK(a && (a->attrs & A_SIDE_EFFECT) && a->has_side_effect && a->nraw == 2 &&
        !instr_raw(a, "custom_call_has_side_effect"));
  CHECK(b && (b->attrs & A_SIDE_EFFECT) && !b->has_side_effect && b->nraw == 0);
  char *out = print(m);
  CHECK(out && strcmp(out, text) == 0);
  cxla_free_string(out);
  const char *names[] = {"dce"};
  CHECK_OK(pipeline_run(m, names, 1, NULL));
  CHECK(comp_find_instr(m->entry, "a") && comp_find_instr(m->entry, "c"));
  CHECK(!comp_find_instr(m->entry, "b"));
  module_destroy(m);
}

/* Every corpus module's header line (JAX's and TensorFlow's, written by
 * XLA) is printed back exactly. */
static const char *corpus_dir = "tests/corpus";

static char *first_line(const char *t) {
  size_t n = strcspn(t, "\n");
  char *s = malloc(n + 1);
  if (s) {
    memcpy(s, t, n);
    s[n] = 0;
  }
  return s;
}

TEST(corpus_headers_print_exactly) {
  DIR *d = opendir(corpus_dir);
  if (!d) {
    SKIP("corpus directory %s not found", corpus_dir);
    return;
  }
  int n = 0, same = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    for (int k = 0; k < 2; k++) {
      char path[4096];
      snprintf(path, sizeof path, "%s/%s/%s", corpus_dir, e->d_name,
               k ? "optimized.hlo" : "module.hlo");
      FILE *f = fopen(path, "rb");
      if (!f) continue;
      char buf[1 << 16];
      size_t len = fread(buf, 1, sizeof buf - 1, f);
      fclose(f);
      buf[len] = 0;
      HloModule *m = NULL;
      cxla_status st = cxla_module_parse_file(path, &m);
      CHECK_OK(st);
      if (!m) continue;
      n++;
      char *out = print(m), *a = first_line(buf), *b = out ? first_line(out) : NULL;
      if (a && b && strcmp(a, b) == 0) same++;
      else fprintf(stderr, "%s: header printed differently:\n  %.300s\n  %.300s\n", path, a, b);
      free(a);
      free(b);
      cxla_free_string(out);
      module_destroy(m);
    }
  }
  closedir(d);
  printf("  corpus headers: %d/%d printed exactly\n", same, n);
  if (n == 0) SKIP("no modules under %s", corpus_dir);
  CHECK(same == n);
}

/* ---- no fixed limits ---- */

enum { kBig = 5000 };

/* HloModule with kBig f32[2] parameters, each negated, returned as a
 * kBig-element tuple; the entry layout lists them all, and the first and
 * last outputs alias their parameters. */
static char *big_module(void) {
  StrBuf b;
  sb_init(&b);
  sb_puts(&b, "HloModule big, entry_computation_layout={(");
  for (int i = 0; i < kBig; i++) sb_printf(&b, "%sf32[2]{0}", i ? ", " : "");
  sb_puts(&b, ")->(");
  for (int i = 0; i < kBig; i++) sb_printf(&b, "%sf32[2]{0}", i ? ", " : "");
  sb_printf(&b, ")}, input_output_alias={ {0}: (0, {}, may-alias), {%d}: (%d, {}, may-alias) }"
                "\n\nENTRY main {\n", kBig - 1, kBig - 1);
  for (int i = 0; i < kBig; i++) sb_printf(&b, "  p%d = f32[2]{0} parameter(%d)\n", i, i);
  for (int i = 0; i < kBig; i++) sb_printf(&b, "  n%d = f32[2]{0} negate(p%d)\n", i, i);
  sb_puts(&b, "  ROOT t = (");
  for (int i = 0; i < kBig; i++) sb_printf(&b, "%sf32[2]{0}", i ? ", " : "");
  sb_puts(&b, ") tuple(");
  for (int i = 0; i < kBig; i++) sb_printf(&b, "%sn%d", i ? ", " : "", i);
  sb_puts(&b, ")\n}\n");
  return sb_take(&b);
}

TEST(five_thousand_parameters_and_results) {
  char *text = big_module();
  HloModule *m = text ? parse(text) : NULL;
  if (!m) {
    free(text);
    CHECK(!"the big module parses");
    return;
  }
  CHECK(m->entry->nparams == kBig && m->entry->root->shape->ntuple == kBig);
  CHECK(m->entry_layout && m->entry_layout->nparams == kBig &&
        m->entry_layout->result->ntuple == kBig);
  CHECK(m->nio_alias == 2 && m->io_alias[1].param_number == kBig - 1);
  CHECK_OK(cxla_module_verify(m));
  /* printed back exactly (the header carries index comments) and reread */
  char *out = print(m);
  HloModule *m2 = out ? parse(out) : NULL;
  char *out2 = m2 ? print(m2) : NULL;
  CHECK(out && out2 && strcmp(out, out2) == 0);
  CHECK(out && strstr(out, "/*index=4995*/f32[2]{0}, f32[2]{0}, f32[2]{0}, f32[2]{0}, f32[2]{0})->("));
  cxla_free_string(out2);
  module_destroy(m2);

  /* optimize and run: result i is -arg i */
  CHECK_OK(pipeline_run(m, NULL, 0, NULL));
  CHECK_OK(cxla_module_verify(m));
  cxla_literal **args = calloc(kBig, sizeof *args);
  int64_t dim = 2;
  for (int i = 0; i < kBig && args; i++) {
    CHECK_OK(cxla_literal_create(CXLA_F32, 1, &dim, &args[i]));
    float *d = cxla_literal_data(args[i]);
    d[0] = (float)i;
    d[1] = -0.5f * (float)i;
  }
  cxla_literal *res = NULL;
  CHECK_OK(cxla_interp_run(m, args, kBig, &res));
  CHECK(res && cxla_literal_tuple_size(res) == kBig);
  if (res && cxla_literal_tuple_size(res) == kBig) {
    int bad = 0;
    for (int i = 0; i < kBig; i++) {
      const float *d = cxla_literal_data(cxla_literal_tuple_get(res, i));
      bad += d[0] != -(float)i || d[1] != 0.5f * (float)i;
    }
    CHECK(bad == 0);
  }
  cxla_literal_destroy(res);
  for (int i = 0; i < kBig && args; i++) cxla_literal_destroy(args[i]);
  free(args);
  cxla_free_string(out);
  free(text);
  module_destroy(m);
}

int main(int argc, char **argv) {
  if (argc > 1) corpus_dir = argv[1];
  RUN(typed_fields);
  RUN(no_header_attributes);
  RUN(index_comments_round_trip);
  RUN(parse_errors_are_located);
  RUN(verifier_checks_typed_fields);
  RUN(layout_assignment_uses_entry_layout);
  RUN(side_effect_flag);
  RUN(corpus_headers_print_exactly);
  RUN(five_thousand_parameters_and_results);
  return test_summary(__FILE__);
}
