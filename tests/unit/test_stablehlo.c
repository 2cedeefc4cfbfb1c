/* The StableHLO text reader and importer (src/stablehlo):
 *  - error messages: located (file:line:col), saying what was expected;
 *  - pretty vs generic forms: every tests/stablehlo/generic/CASE.mlir (the
 *    MLIR generic form jaxlib printed for tests/corpus/CASE/module.mlir,
 *    tools/corpus/mlir_generic.py) must give the same tree as the pretty
 *    text JAX printed; plus hand-written pairs for forms not in the corpus;
 *  - locations skipped (tests/stablehlo/locations_*.mlir: one program printed
 *    with and without debug info), the implicit module;
 *  - constants: hex blobs, dense_resource blobs, splats, i1, complex;
 *  - the importer end to end on small programs (values worked out by hand);
 *  - fuzz regressions: tests/fuzz-regressions/mlir-*.mlir parse or fail
 *    cleanly with a location.
 * argv[1] is the corpus directory (tests/corpus). */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "ir/ir.h"
#include "stablehlo/mlir.h"

static const char *corpus = "tests/corpus";

static char *generic_of(const char *text, size_t len, const char *name) {
  MlirModule *m = NULL;
  cxla_status s = mlir_parse_text(text, len, name, &m);
  if (s) {
    fprintf(stderr, "%s: %s\n", name, cxla_status_message(s));
    cxla_status_free(s);
    return NULL;
  }
  char *out = NULL;
  CHECK_OK(mlir_print_generic(m, &out));
  mlir_module_free(m);
  return out;
}

static char *generic_of_file(const char *path) {
  char *text;
  size_t len;
  cxla_status s = cxla_read_file(path, (int64_t)1 << 30, &text, &len);
  if (s) {
    fprintf(stderr, "%s\n", cxla_status_message(s));
    cxla_status_free(s);
    return NULL;
  }
  char *g = generic_of(text, len, path);
  cxla_free(text);
  return g;
}

static cxla_status parse_str(const char *text, MlirModule **m) {
  return mlir_parse_text(text, strlen(text), "t.mlir", m);
}

/* ---- errors -------------------------------------------------------------- */

#define FN_HEAD "module { func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> { "

TEST(errors_are_located) {
  static const struct {
    const char *text, *want;
  } cases[] = {
      {"", "t.mlir:1:1: empty input: expected a module"},
      {"module {", "t.mlir:1:9: expected '}' closing a region"},
      {FN_HEAD "return %b : tensor<2xf32> } }", "t.mlir:1:71: use of undefined value '%b'"},
      {FN_HEAD "%0 = stablehlo.frob %a : tensor<2xf32>\n return %0 : tensor<2xf32> } }",
       "t.mlir:1:69: unknown operation 'stablehlo.frob'"},
      {"module { func.func @main(%a: tensor<2xf33>) -> tensor<2xf32> { return %a : tensor<2xf32> } }",
       "t.mlir:1:39: unknown type 'f33'"},
      {FN_HEAD "%0 = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<2xf32>\n return %0 : tensor<2xf32> } }",
       "dense literal has 3 elements; the type has 2"},
      {FN_HEAD "%0 = stablehlo.compare XX, %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>\n"
               " return %a : tensor<2xf32> } }",
       "t.mlir:1:87: unknown comparison_direction 'XX'"},
      {FN_HEAD "%0 = stablehlo.add %a, %a : tensor<2xf32>\n %0 = stablehlo.add %a, %a : tensor<2xf32>\n"
               " return %0 : tensor<2xf32> } }",
       "t.mlir:2:2: redefinition of SSA value '%0'"},
      {FN_HEAD "%0 = stablehlo.constant dense_resource<blob> : tensor<2xf32>\n return %0 : tensor<2xf32> } }",
       "dense_resource 'blob' is not in the file's dialect_resources section"},
      {FN_HEAD "%0 = \"stablehlo.add\"(%a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>\n"
               " return %0 : tensor<2xf32> } }",
       "the type lists 2 operand(s); the op has 1"},
      {FN_HEAD "%0 = stablehlo.add %a, %a : tensor<2xf32> \"x", "unterminated string"},
      {FN_HEAD "%0 = stablehlo.add %a %a : tensor<2xf32>\n return %0 : tensor<2xf32> } }",
       "t.mlir:1:86: expected ':' before the op's type, found '%a'"},
      {FN_HEAD "%0 = stablehlo.slice %a [0:1 : (tensor<2xf32>) -> tensor<1xf32>\n } }",
       "t.mlir:1:95: expected an integer, found '('"},
      {FN_HEAD "%0 = stablehlo.add %a, %a : tensor<2x>\n } }", "expected a type"},
      {"module { func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> { return %a : tensor<2xf32> } } }",
       "t.mlir:1:94: expected an operation, found '}'"},
      {"#x = \n", "t.mlir:2:1: expected an attribute, found end of input"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    MlirModule *m = NULL;
    cxla_status s = parse_str(cases[k].text, &m);
    if (!s) mlir_module_free(m);
    CHECK_ERR(s, cases[k].want);
  }
}

/* Importer errors point at the op. */
TEST(import_errors_are_located) {
  static const struct {
    const char *text, *want;
  } cases[] = {
      {"module { func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> { return %a : tensor<?xf32> } }",
       "t.mlir:1:10: 'func.func': parameter 0 has dynamic dimensions"},
      {FN_HEAD "%0 = \"stablehlo.frobnicate\"(%a) : (tensor<2xf32>) -> tensor<2xf32>\n"
               " return %0 : tensor<2xf32> } }",
       "t.mlir:1:69: 'stablehlo.frobnicate': operation not supported by the importer"},
      {FN_HEAD "%0 = func.call @nope(%a) : (tensor<2xf32>) -> tensor<2xf32>\n"
               " return %0 : tensor<2xf32> } }",
       "'func.call': no function '@nope'"},
      {"module { func.func private @f() { return } }", "no public function (main)"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    MlirModule *m = NULL;
    CHECK_OK(parse_str(cases[k].text, &m));
    if (!m) continue;
    HloModule *h = NULL;
    cxla_status s = shlo_import(m, &h);
    if (!s) module_destroy(h);
    CHECK_ERR(s, cases[k].want);
    mlir_module_free(m);
  }
}

/* ---- pretty vs generic --------------------------------------------------------- */

TEST(corpus_pretty_equals_generic) {
  const char *dir = "tests/stablehlo/generic";
  DIR *d = opendir(dir);
  CHECK(d != NULL);
  if (!d) return;
  int compared = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t n = strlen(e->d_name);
    if (e->d_name[0] == '.' || n < 6 || strcmp(e->d_name + n - 5, ".mlir")) continue;
    char gpath[4096], ppath[4096];
    snprintf(gpath, sizeof gpath, "%s/%s", dir, e->d_name);
    snprintf(ppath, sizeof ppath, "%s/%.*s/module.mlir", corpus, (int)(n - 5), e->d_name);
    char *g = generic_of_file(gpath), *p = generic_of_file(ppath);
    CHECK(g && p);
    if (g && p && strcmp(g, p) != 0) {
      fprintf(stderr, "%s: the pretty and generic forms give different trees\n", e->d_name);
      CHECK(!"same tree");
    }
    compared++;
    cxla_free(g);
    cxla_free(p);
  }
  closedir(d);
  printf("compared %d pretty/generic pairs\n", compared);
  CHECK(compared >= 50);
}

static void same_tree(const char *a, const char *b) {
  char *ga = generic_of(a, strlen(a), "pretty"), *gb = generic_of(b, strlen(b), "generic");
  CHECK(ga && gb);
  if (ga && gb && strcmp(ga, gb)) {
    fprintf(stderr, "pretty:\n%s\ngeneric:\n%s\n", ga, gb);
    CHECK(!"same tree");
  }
  cxla_free(ga);
  cxla_free(gb);
}

#define WRAP(body)                                                                     \
  "module { func.func @main(%a: tensor<4xf32>, %i: tensor<i32>, %p: tensor<i1>) -> "  \
  "tensor<4xf32> {\n" body "\n} }"

TEST(hand_written_forms) {
  /* multi-input reduce with the reducer(...) form */
  same_tree(WRAP("%c = stablehlo.constant dense<0.0> : tensor<f32>\n"
                 "%r:2 = stablehlo.reduce(%a init: %c), (%a init: %c) across dimensions = [0] : "
                 "(tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)\n"
                 " reducer(%x: tensor<f32>, %y: tensor<f32>) (%z: tensor<f32>, %w: tensor<f32>) {\n"
                 "  %s = stablehlo.add %x, %y : tensor<f32>\n"
                 "  %t = stablehlo.maximum %z, %w : tensor<f32>\n"
                 "  stablehlo.return %s, %t : tensor<f32>, tensor<f32>\n }\n"
                 "return %a : tensor<4xf32>"),
            WRAP("%c = \"stablehlo.constant\"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>\n"
                 "%r:2 = \"stablehlo.reduce\"(%a, %a, %c, %c) <{dimensions = array<i64: 0>}> ({\n"
                 " ^bb0(%x: tensor<f32>, %z: tensor<f32>, %y: tensor<f32>, %w: tensor<f32>):\n"
                 "  %s = \"stablehlo.add\"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n"
                 "  %t = \"stablehlo.maximum\"(%z, %w) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n"
                 "  \"stablehlo.return\"(%s, %t) : (tensor<f32>, tensor<f32>) -> ()\n })"
                 " : (tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)\n"
                 "\"func.return\"(%a) : (tensor<4xf32>) -> ()"));
  /* dot_general with batching dims, precision and get_tuple_element/tuple */
  same_tree(WRAP("%d = stablehlo.dot_general %a, %a, contracting_dims = [0] x [0], precision = "
                 "[HIGHEST, DEFAULT] : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>\n"
                 "%t = stablehlo.tuple %d, %a : tuple<tensor<f32>, tensor<4xf32>>\n"
                 "%g = stablehlo.get_tuple_element %t[1] : (tuple<tensor<f32>, tensor<4xf32>>) -> tensor<4xf32>\n"
                 "return %g : tensor<4xf32>"),
            WRAP("%d = \"stablehlo.dot_general\"(%a, %a) <{dot_dimension_numbers = #stablehlo.dot<"
                 "lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>, precision_config = "
                 "[#stablehlo<precision HIGHEST>, #stablehlo<precision DEFAULT>]}> : (tensor<4xf32>, "
                 "tensor<4xf32>) -> tensor<f32>\n"
                 "%t = \"stablehlo.tuple\"(%d, %a) : (tensor<f32>, tensor<4xf32>) -> tuple<tensor<f32>, tensor<4xf32>>\n"
                 "%g = \"stablehlo.get_tuple_element\"(%t) <{index = 1 : i32}> : "
                 "(tuple<tensor<f32>, tensor<4xf32>>) -> tensor<4xf32>\n"
                 "\"func.return\"(%g) : (tensor<4xf32>) -> ()"));
  /* iota, compare without a type, select, reverse, transpose, pad */
  same_tree(WRAP("%0 = stablehlo.iota dim = 0 : tensor<4xf32>\n"
                 "%1 = stablehlo.compare GE, %0, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>\n"
                 "%2 = stablehlo.select %1, %0, %a : tensor<4xi1>, tensor<4xf32>\n"
                 "%3 = stablehlo.reverse %2, dims = [0] : tensor<4xf32>\n"
                 "%c = stablehlo.constant dense<0.0> : tensor<f32>\n"
                 "%4 = stablehlo.pad %3, %c, low = [1], high = [-1], interior = [0] : "
                 "(tensor<4xf32>, tensor<f32>) -> tensor<4xf32>\n"
                 "return %4 : tensor<4xf32>"),
            WRAP("%0 = \"stablehlo.iota\"() <{iota_dimension = 0 : i64}> : () -> tensor<4xf32>\n"
                 "%1 = \"stablehlo.compare\"(%0, %a) <{comparison_direction = #stablehlo<comparison_direction GE>}>"
                 " : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>\n"
                 "%2 = \"stablehlo.select\"(%1, %0, %a) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
                 "%3 = \"stablehlo.reverse\"(%2) <{dimensions = array<i64: 0>}> : (tensor<4xf32>) -> tensor<4xf32>\n"
                 "%c = \"stablehlo.constant\"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>\n"
                 "%4 = \"stablehlo.pad\"(%3, %c) <{edge_padding_high = array<i64: -1>, edge_padding_low = "
                 "array<i64: 1>, interior_padding = array<i64: 0>}> : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>\n"
                 "\"func.return\"(%4) : (tensor<4xf32>) -> ()"));
}

/* Locations (as_text(debug_info=True): #loc aliases, loc(...) after ops,
 * arguments and block arguments) are skipped: the same tree as without. */
TEST(locations_are_skipped) {
  char *a = generic_of_file("tests/stablehlo/locations_plain.mlir");
  char *b = generic_of_file("tests/stablehlo/locations_debug_info.mlir");
  CHECK(a && b && strcmp(a, b) == 0);
  cxla_free(a);
  cxla_free(b);
}

/* Ops at the top level without "module { }" are wrapped in one. */
TEST(implicit_module) {
  same_tree("func.func public @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
            "  return %a : tensor<2xf32>\n}\n",
            "module {\n  func.func public @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
            "    return %a : tensor<2xf32>\n  }\n}\n");
}

/* ---- constants --------------------------------------------------------------------- */

static const MlirAttr *first_constant(MlirModule *m) {
  const MlirBlock *top = m->op->regions[0].blocks[0];
  const MlirOp *f = top->ops[0];
  const MlirOp *c = f->regions[0].blocks[0]->ops[0];
  return mlir_op_attr(c, "value");
}

static void check_constant(const char *value_and_type, const uint8_t *want, size_t n, bool splat,
                           const char *resources) {
  char text[2048];
  snprintf(text, sizeof text,
           "module { func.func @main() { %%0 = stablehlo.constant %s\n return } }\n%s",
           value_and_type, resources ? resources : "");
  MlirModule *m = NULL;
  CHECK_OK(parse_str(text, &m));
  if (!m) return;
  const MlirAttr *v = first_constant(m);
  CHECK(v && v->kind == MA_DENSE);
  if (v && v->kind == MA_DENSE) {
    CHECK(v->splat == splat);
    CHECK(v->nbytes == n);
    if (v->nbytes == n) CHECK(memcmp(v->data, want, n) == 0);
  }
  mlir_module_free(m);
}

TEST(constants) {
  /* 1.0f, 2.0f little endian, from decimal and from a hex blob */
  static const uint8_t two_f32[8] = {0, 0, 0x80, 0x3F, 0, 0, 0, 0x40};
  check_constant("dense<[1.0, 2.0]> : tensor<2xf32>", two_f32, 8, false, NULL);
  check_constant("dense<\"0x0000803F00000040\"> : tensor<2xf32>", two_f32, 8, false, NULL);
  /* dense_resource: 4 alignment bytes, then the data */
  check_constant("dense_resource<blob1> : tensor<2xf32>", two_f32, 8, false,
                 "{-#\n  dialect_resources: {\n    builtin: {\n"
                 "      blob1: \"0x040000000000803F00000040\"\n    }\n  }\n#-}\n");
  /* a splat stores one element, whether written once or repeated */
  static const uint8_t one_f32[4] = {0, 0, 0x80, 0x3F};
  check_constant("dense<1.0> : tensor<3x2xf32>", one_f32, 4, true, NULL);
  check_constant("dense<[1.0, 1.0]> : tensor<2xf32>", one_f32, 4, true, NULL);
  check_constant("dense<\"0x0000803F0000803F\"> : tensor<2xf32>", one_f32, 4, true, NULL);
  check_constant("dense<[1.0]> : tensor<1xf32>", one_f32, 4, false, NULL);
  /* bf16 rounds to nearest even: 1.00390625 is halfway between 1 and 1.0078125,
   * 1.01171875 between 1.0078125 and 1.015625 */
  static const uint8_t bf[4] = {0x80, 0x3F, 0x82, 0x3F}; /* both ties go to even */
  check_constant("dense<[1.00390625, 1.01171875]> : tensor<2xbf16>", bf, 4, false, NULL);
  /* i1 one byte per element; i8 negative; ui8 bit pattern */
  static const uint8_t bools[3] = {1, 0, 1};
  check_constant("dense<[true, false, true]> : tensor<3xi1>", bools, 3, false, NULL);
  static const uint8_t i8[2] = {0xFF, 0x7F};
  check_constant("dense<[-1, 127]> : tensor<2xi8>", i8, 2, false, NULL);
  /* complex<f32>: (re, im) */
  static const uint8_t c64[8] = {0, 0, 0x80, 0x3F, 0, 0, 0, 0xC0};
  check_constant("dense<(1.0, -2.0)> : tensor<complex<f32>>", c64, 8, false, NULL);
  /* nested lists in row-major order */
  static const uint8_t m22[4] = {1, 2, 3, 4};
  check_constant("dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>", m22, 4, false, NULL);
}

/* ---- import and run ------------------------------------------------------------------ */

/* Verifies and runs m on the interpreter; destroys m. */
static Literal *run_module(cxla_module *m, Literal **args, int nargs) {
  if (!m) return NULL;
  CHECK_OK(cxla_module_verify(m));
  Literal *r = NULL;
  CHECK_OK(cxla_interp_run(m, args, nargs, &r));
  cxla_module_destroy(m);
  return r;
}

static Literal *run_text(const char *text, Literal **args, int nargs) {
  cxla_module *m = NULL;
  CHECK_OK(cxla_module_parse(text, strlen(text), "t.mlir", &m));
  return run_module(m, args, nargs);
}

static Literal *f32_vec(int n, const float *v) {
  Literal *l = NULL;
  int64_t d = n;
  CHECK_OK(literal_create(T_F32, 1, &d, &l));
  if (l) memcpy(l->data, v, (size_t)n * 4);
  return l;
}

/* Function names outside HLO's [A-Za-z0-9_.-] are made HLO names, and
 * two that become one name ("f<1>" and "f(1)": "f_1_") get the least free
 * ".N" suffix: two computations, each call to its own. x * 2 + (x + 1). */
TEST(run_renamed_functions) {
  const char *text =
      "module @m {\n"
      "  func.func private @\"f<1>\"(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
      "    %0 = stablehlo.add %a, %a : tensor<2xf32>\n"
      "    return %0 : tensor<2xf32>\n"
      "  }\n"
      "  func.func private @\"f(1)\"(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
      "    %c = stablehlo.constant dense<1.0> : tensor<2xf32>\n"
      "    %0 = stablehlo.add %a, %c : tensor<2xf32>\n"
      "    return %0 : tensor<2xf32>\n"
      "  }\n"
      "  func.func public @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
      "    %0 = func.call @\"f<1>\"(%x) : (tensor<2xf32>) -> tensor<2xf32>\n"
      "    %1 = func.call @\"f(1)\"(%x) : (tensor<2xf32>) -> tensor<2xf32>\n"
      "    %2 = stablehlo.add %0, %1 : tensor<2xf32>\n"
      "    return %2 : tensor<2xf32>\n"
      "  }\n"
      "}\n";
  cxla_module *m = NULL;
  CHECK_OK(cxla_module_parse(text, strlen(text), "t.mlir", &m));
  if (!m) return;
  int named = 0;
  for (int i = 0; i < m->ncomps; i++)
    named += strcmp(m->comps[i]->name, "f_1_") == 0 || strcmp(m->comps[i]->name, "f_1_.1") == 0;
  CHECK(named == 2);
  float x[2] = {1, 5};
  Literal *a = f32_vec(2, x);
  Literal *r = run_module(m, &a, 1);
  CHECK(r && r->type == T_F32 && r->nelems == 2);
  if (r && r->nelems == 2) CHECK(((const float *)r->data)[0] == 4 && ((const float *)r->data)[1] == 16);
  literal_free(r);
  literal_free(a);
}

TEST(run_while_with_capture_and_case) {
  /* while i < 3: x = x * k (k captured from outside the loop); then case on
   * an index: branch 1 adds k. x0 = [1,2,3,4], k = 2 -> [8,16,24,32] + 2. */
  const char *text =
      "module @m {\n"
      "  func.func public @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
      "    %k = stablehlo.constant dense<2.0> : tensor<4xf32>\n"
      "    %i0 = stablehlo.constant dense<0> : tensor<i32>\n"
      "    %w:2 = stablehlo.while(%i = %i0, %v = %x) : tensor<i32>, tensor<4xf32>\n"
      "    cond {\n"
      "      %n = stablehlo.constant dense<3> : tensor<i32>\n"
      "      %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
      "      stablehlo.return %lt : tensor<i1>\n"
      "    } do {\n"
      "      %one = stablehlo.constant dense<1> : tensor<i32>\n"
      "      %i2 = stablehlo.add %i, %one : tensor<i32>\n"
      "      %v2 = stablehlo.multiply %v, %k : tensor<4xf32>\n"
      "      stablehlo.return %i2, %v2 : tensor<i32>, tensor<4xf32>\n"
      "    }\n"
      "    %b = stablehlo.constant dense<1> : tensor<i32>\n"
      "    %r = \"stablehlo.case\"(%b) ({\n"
      "      stablehlo.return %w#1 : tensor<4xf32>\n"
      "    }, {\n"
      "      %s = stablehlo.add %w#1, %k : tensor<4xf32>\n"
      "      stablehlo.return %s : tensor<4xf32>\n"
      "    }) : (tensor<i32>) -> tensor<4xf32>\n"
      "    return %r : tensor<4xf32>\n"
      "  }\n"
      "}\n";
  float x[4] = {1, 2, 3, 4};
  Literal *a = f32_vec(4, x);
  Literal *r = run_text(text, &a, 1);
  CHECK(r && r->type == T_F32 && r->nelems == 4);
  if (r && r->nelems == 4) {
    const float *o = r->data;
    CHECK(o[0] == 10 && o[1] == 18 && o[2] == 26 && o[3] == 34);
  }
  literal_free(r);
  literal_free(a);
}

TEST(run_chlo_next_after_and_erf_inv) {
  const char *text =
      "module @m {\n"
      "  func.func public @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {\n"
      "    %0 = chlo.next_after %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>\n"
      "    %1 = chlo.erf_inv %x : tensor<4xf32> -> tensor<4xf32>\n"
      "    return %0, %1 : tensor<4xf32>, tensor<4xf32>\n"
      "  }\n"
      "}\n";
  float x[4] = {1.0f, 0.0f, -1.0f, 0.5f}, y[4] = {2.0f, -1.0f, -1.0f, 0.0f};
  Literal *args[2] = {f32_vec(4, x), f32_vec(4, y)};
  Literal *r = run_text(text, args, 2);
  CHECK(r && r->type == T_TUPLE && r->ntuple == 2);
  if (r && r->ntuple == 2) {
    const uint32_t *na = r->tuple[0]->data;
    CHECK(na[0] == 0x3F800001u); /* next float above 1 */
    CHECK(na[1] == 0x80000001u); /* from 0 towards -1: the smallest negative subnormal */
    CHECK(na[2] == 0xBF800000u); /* equal: y */
    CHECK(na[3] == 0x3EFFFFFFu); /* just below 0.5 */
    const float *ei = r->tuple[1]->data;
    CHECK(isinf(ei[0]) && ei[0] > 0);
    CHECK(ei[1] == 0.0f);
    CHECK(isinf(ei[2]) && ei[2] < 0);
    CHECK(fabsf(ei[3] - 0.47693628f) < 2e-6f); /* erfinv(0.5) */
  }
  literal_free(r);
  /* is_inf / is_pos_inf / is_neg_inf on [inf, -inf, nan, 1] */
  const char *inf_text =
      "module @m {\n"
      "  func.func public @main(%x: tensor<4xf32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {\n"
      "    %0 = chlo.is_inf %x : tensor<4xf32> -> tensor<4xi1>\n"
      "    %1 = chlo.is_pos_inf %x : tensor<4xf32> -> tensor<4xi1>\n"
      "    %2 = chlo.is_neg_inf %x : tensor<4xf32> -> tensor<4xi1>\n"
      "    return %0, %1, %2 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>\n"
      "  }\n"
      "}\n";
  float v[4] = {INFINITY, -INFINITY, NAN, 1.0f};
  Literal *in = f32_vec(4, v);
  r = run_text(inf_text, &in, 1);
  CHECK(r && r->type == T_TUPLE && r->ntuple == 3);
  if (r && r->ntuple == 3) {
    const uint8_t *a = r->tuple[0]->data, *b = r->tuple[1]->data, *c = r->tuple[2]->data;
    CHECK(a[0] && a[1] && !a[2] && !a[3]);
    CHECK(b[0] && !b[1] && !b[2] && !b[3]);
    CHECK(!c[0] && c[1] && !c[2] && !c[3]);
  }
  literal_free(in);
  literal_free(r);
  literal_free(args[0]);
  literal_free(args[1]);
}

/* chlo.mulhi (jax.lax.mulhi: the high half of the double-width product,
 * signed or unsigned by the type) becomes HLO's mulhi: s32 0x7fffffff *
 * 0x7fffffff = 0x3fffffff00000001 -> 0x3fffffff; -1 * 1 -> -1 (high half
 * of the sign extension); -2^31 * -2^31 = 2^62 -> 0x40000000; 3 * 5 -> 0;
 * u32 0xffffffff * 0xffffffff = 0xfffffffe00000001 -> 0xfffffffe. */
TEST(run_chlo_mulhi) {
  const char *text =
      "module @m {\n"
      "  func.func public @main(%x: tensor<4xi32>, %y: tensor<4xi32>, %u: tensor<1xui32>) -> (tensor<4xi32>, tensor<1xui32>) {\n"
      "    %0 = chlo.mulhi %x, %y : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>\n"
      "    %1 = chlo.mulhi %u, %u : tensor<1xui32>, tensor<1xui32> -> tensor<1xui32>\n"
      "    return %0, %1 : tensor<4xi32>, tensor<1xui32>\n"
      "  }\n"
      "}\n";
  int32_t x[4] = {INT32_MAX, -1, INT32_MIN, 3}, y[4] = {INT32_MAX, 1, INT32_MIN, 5};
  uint32_t u = 0xffffffffu;
  int64_t d4 = 4, d1 = 1;
  Literal *args[3] = {NULL, NULL, NULL};
  CHECK_OK(literal_create(T_S32, 1, &d4, &args[0]));
  CHECK_OK(literal_create(T_S32, 1, &d4, &args[1]));
  CHECK_OK(literal_create(T_U32, 1, &d1, &args[2]));
  if (!args[0] || !args[1] || !args[2]) return;
  memcpy(args[0]->data, x, sizeof x);
  memcpy(args[1]->data, y, sizeof y);
  memcpy(args[2]->data, &u, sizeof u);
  Literal *r = run_text(text, args, 3);
  CHECK(r && r->type == T_TUPLE && r->ntuple == 2);
  if (r && r->ntuple == 2) {
    const int32_t *h = r->tuple[0]->data;
    CHECK(h[0] == 0x3fffffff && h[1] == -1 && h[2] == 0x40000000 && h[3] == 0);
    CHECK(*(const uint32_t *)r->tuple[1]->data == 0xfffffffeu);
  }
  literal_free(r);
  for (int i = 0; i < 3; i++) literal_free(args[i]);
}

/* chlo.cosh / chlo.sinh on complex numbers expand as XLA expands them,
 * e^(z + log 1/2) +- e^(log 1/2 - z), so special values follow XLA's exp:
 * cosh(inf + inf i) is NaN + NaN i (C's ccosh: inf + NaN i). Finite values
 * from numpy: cosh(1+2i) = -0.64214814+1.0686073i, sinh(1+2i) =
 * -0.48905626+1.4031192i. */
TEST(run_chlo_complex_cosh_sinh) {
  const char *text =
      "module @m {\n"
      "  func.func public @main(%x: tensor<2xcomplex<f32>>) -> (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) {\n"
      "    %0 = chlo.cosh %x : tensor<2xcomplex<f32>> -> tensor<2xcomplex<f32>>\n"
      "    %1 = chlo.sinh %x : tensor<2xcomplex<f32>> -> tensor<2xcomplex<f32>>\n"
      "    return %0, %1 : tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>\n"
      "  }\n"
      "}\n";
  Literal *a = NULL;
  int64_t d = 2;
  CHECK_OK(literal_create(T_C64, 1, &d, &a));
  if (!a) return;
  const float v[4] = {1.0f, 2.0f, INFINITY, INFINITY};
  memcpy(a->data, v, sizeof v);
  Literal *r = run_text(text, &a, 1);
  CHECK(r && r->type == T_TUPLE && r->ntuple == 2);
  if (r && r->ntuple == 2) {
    const float *c = r->tuple[0]->data, *sh = r->tuple[1]->data;
    CHECK(fabsf(c[0] + 0.64214814f) < 1e-6f && fabsf(c[1] - 1.0686073f) < 1e-6f);
    CHECK(fabsf(sh[0] + 0.48905626f) < 1e-6f && fabsf(sh[1] - 1.4031192f) < 1e-6f);
    CHECK(isnan(c[2]) && isnan(c[3]));
    CHECK(isnan(sh[2]) && isnan(sh[3]));
  }
  literal_free(r);
  literal_free(a);
}

/* A reduce body that uses a constant from outside gets its own copy (as
 * XLA's converter sinks constants): sum(x * 2) over [1, 2, 3, 4] = 20. */
TEST(run_reduce_body_outer_constant) {
  const char *text =
      "module @m { func.func public @main(%a: tensor<4xf32>) -> tensor<f32> {\n"
      "  %c = stablehlo.constant dense<0.0> : tensor<f32>\n"
      "  %k = stablehlo.constant dense<2.0> : tensor<f32>\n"
      "  %r = stablehlo.reduce(%a init: %c) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>\n"
      "   reducer(%x: tensor<f32>, %y: tensor<f32>) {\n"
      "    %m = stablehlo.multiply %y, %k : tensor<f32>\n"
      "    %s = stablehlo.add %x, %m : tensor<f32>\n"
      "    stablehlo.return %s : tensor<f32>\n"
      "  }\n"
      "  return %r : tensor<f32>\n} }\n";
  float x[4] = {1, 2, 3, 4};
  Literal *a = f32_vec(4, x);
  Literal *r = run_text(text, &a, 1);
  CHECK(r && r->type == T_F32 && r->nelems == 1 && ((float *)r->data)[0] == 20.0f);
  literal_free(r);
  literal_free(a);
}

/* Bounded dynamic dimensions import as HLO's "<=N" dimensions. */
/* custom_call's has_side_effect comes through (the optimizer keeps such a
 * call though nothing reads it: JAX's unordered jax.debug.print), and
 * without it the call is pure. */
TEST(custom_call_side_effect) {
  static const char text[] =
      "func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {\n"
      "  stablehlo.custom_call @print(%x) {has_side_effect = true} : (tensor<3xf32>) -> ()\n"
      "  %p = stablehlo.custom_call @pure(%x) : (tensor<3xf32>) -> tensor<3xf32>\n"
      "  return %x : tensor<3xf32>\n"
      "}\n";
  cxla_module *m = NULL;
  CHECK_OK(cxla_module_parse(text, strlen(text), "t.mlir", &m));
  if (!m) return;
  int seen = 0;
  for (int i = 0; i < m->entry->ninstrs; i++) {
    const Instr *in = m->entry->instrs[i];
    if (in->op != OP_CUSTOM_CALL) continue;
    seen++;
    CHECK(in->has_side_effect == (strcmp(in->custom_call_target, "print") == 0));
  }
  CHECK(seen == 2);
  char *t = NULL;
  CHECK_OK(cxla_module_print(m, &t));
  CHECK(t && strstr(t, "custom_call_target=\"print\", custom_call_has_side_effect=true"));
  cxla_free_string(t);
  cxla_module_destroy(m);
}

/* Collectives on one device, as JAX's pmap over one device lowers them:
 * all_gather, reduce_scatter, all_to_all and a collective_permute that
 * sends device 0 to itself are the operand, one that sends nothing gives
 * zeros (XLA:CPU's results); a gather over a group of two is refused. */
TEST(run_collectives_on_one_device) {
  const char *text =
      "module @m {\n"
      "  func.func public @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {\n"
      "    %1 = \"stablehlo.all_gather\"(%x) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,"
      " replica_groups = dense<0> : tensor<1x1xi64>, use_global_device_ids}> : (tensor<4xf32>) -> tensor<4xf32>\n"
      "    %2 = \"stablehlo.reduce_scatter\"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,"
      " replica_groups = dense<0> : tensor<1x1xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({\n"
      "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
      "      %s = stablehlo.add %a, %b : tensor<f32>\n"
      "      stablehlo.return %s : tensor<f32>\n"
      "    }) : (tensor<4xf32>) -> tensor<4xf32>\n"
      "    %3 = \"stablehlo.all_to_all\"(%x) <{concat_dimension = 0 : i64, split_count = 1 : i64, split_dimension = 0 : i64,"
      " replica_groups = dense<0> : tensor<1x1xi64>}> : (tensor<4xf32>) -> tensor<4xf32>\n"
      "    %4 = \"stablehlo.collective_permute\"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,"
      " source_target_pairs = dense<0> : tensor<1x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>\n"
      "    %5 = \"stablehlo.collective_permute\"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,"
      " source_target_pairs = dense<> : tensor<0x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>\n"
      "    return %1, %2, %3, %4, %5 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>\n"
      "  }\n"
      "}\n";
  float x[4] = {1, 2, 3, 4};
  Literal *a = f32_vec(4, x);
  Literal *r = run_text(text, &a, 1);
  CHECK(r && r->type == T_TUPLE && r->ntuple == 5);
  for (int k = 0; r && r->type == T_TUPLE && k < r->ntuple; k++) {
    const Literal *e = r->tuple[k];
    CHECK(e->type == T_F32 && e->nelems == 4);
    if (e->nelems != 4) continue;
    const float *o = e->data;
    for (int i = 0; i < 4; i++) CHECK(o[i] == (k < 4 ? x[i] : 0.0f));
  }
  literal_free(r);
  literal_free(a);
  const char *two =
      "func.func @main(%x: tensor<4xf32>) -> tensor<8xf32> {\n"
      "  %1 = \"stablehlo.all_gather\"(%x) <{all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}>"
      " : (tensor<4xf32>) -> tensor<8xf32>\n"
      "  return %1 : tensor<8xf32>\n"
      "}\n";
  cxla_module *m = NULL;
  cxla_status s = cxla_module_parse(two, strlen(two), "t.mlir", &m);
  CHECK(s && cxla_status_code_of(s) == CXLA_UNIMPLEMENTED && strstr(cxla_status_message(s), "several devices"));
  cxla_status_free(s);
  cxla_module_destroy(m);
}

/* mhlo.memory_kind on the entry's arguments and results (JAX's shardings
 * with memory kinds): the entry layout's memory spaces, S(5) for
 * pinned_host and S(6) for unpinned_host, none for device; a kind cxla
 * does not have is an error. */
TEST(memory_kinds) {
  static const char text[] =
      "func.func @main(%x: tensor<3xf32> {mhlo.memory_kind = \"pinned_host\"}, %y: tensor<f32>)"
      " -> (tensor<3xf32> {mhlo.memory_kind = \"unpinned_host\"}, tensor<3xf32> {mhlo.memory_kind = \"device\"}) {\n"
      "  return %x, %x : tensor<3xf32>, tensor<3xf32>\n"
      "}\n";
  cxla_module *m = NULL;
  CHECK_OK(cxla_module_parse(text, strlen(text), "t.mlir", &m));
  if (!m) return;
  char *t = NULL;
  CHECK_OK(cxla_module_print(m, &t));
  CHECK(t && strstr(t, "entry_computation_layout={(f32[3]{0:S(5)}, f32[])->(f32[3]{0:S(6)}, f32[3]{0})}"));
  if (t && !strstr(t, "S(6)")) fprintf(stderr, "%s\n", t);
  cxla_free_string(t);
  cxla_module_destroy(m);
  /* one result: the root's own layout */
  static const char one[] =
      "func.func @main(%x: tensor<2x3xf32>) -> (tensor<2x3xf32> {mhlo.memory_kind = \"pinned_host\"}) {\n"
      "  return %x : tensor<2x3xf32>\n"
      "}\n";
  m = NULL;
  CHECK_OK(cxla_module_parse(one, strlen(one), "t.mlir", &m));
  t = NULL;
  if (m) CHECK_OK(cxla_module_print(m, &t));
  CHECK(t && strstr(t, "->f32[2,3]{1,0:S(5)}}"));
  cxla_free_string(t);
  cxla_module_destroy(m);
  static const char bad[] =
      "func.func @main(%x: tensor<3xf32> {mhlo.memory_kind = \"tpu_hbm\"}) -> tensor<3xf32> {\n"
      "  return %x : tensor<3xf32>\n"
      "}\n";
  m = NULL;
  cxla_status s = cxla_module_parse(bad, strlen(bad), "t.mlir", &m);
  CHECK(s && cxla_status_code_of(s) == CXLA_UNIMPLEMENTED && strstr(cxla_status_message(s), "tpu_hbm"));
  cxla_status_free(s);
  cxla_module_destroy(m);
}

TEST(bounded_dimensions) {
  const char *text =
      "module { func.func public @main(%a: tensor<?x4xf32, #stablehlo.bounds<8, ?>>) -> "
      "tensor<i32> {\n"
      "  %0 = stablehlo.get_dimension_size %a, dim = 0 : (tensor<?x4xf32, #stablehlo.bounds<8, ?>>) "
      "-> tensor<i32>\n"
      "  return %0 : tensor<i32>\n} }\n";
  MlirModule *m = NULL;
  CHECK_OK(parse_str(text, &m));
  if (!m) return;
  HloModule *h = NULL;
  CHECK_OK(shlo_import(m, &h));
  mlir_module_free(m);
  if (!h) return;
  const Shape *p = h->entry->params[0]->shape;
  CHECK(p->rank == 2 && p->dims[0] == 8 && p->dims[1] == 4);
  CHECK(p->dynamic && p->dynamic[0] && !p->dynamic[1]);
  CHECK(h->entry->root->op == OP_GET_DIMENSION_SIZE && h->entry->root->dimensions.n == 1 &&
        h->entry->root->dimensions.v[0] == 0);
  module_destroy(h);
}

/* ---- fuzz regressions -------------------------------------------------------------- */

TEST(fuzz_regressions) {
  const char *dir = "tests/fuzz-regressions";
  DIR *d = opendir(dir);
  CHECK(d != NULL);
  if (!d) return;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t l = strlen(e->d_name);
    if (strncmp(e->d_name, "mlir-", 5) || l < 6 || strcmp(e->d_name + l - 5, ".mlir")) continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    char *text;
    size_t len;
    CHECK_OK(cxla_read_file(path, (int64_t)1 << 30, &text, &len));
    MlirModule *m = NULL;
    cxla_status s = mlir_parse_text(text, len, "fuzz", &m);
    if (s) {
      bool located = cxla_status_code_of(s) != CXLA_INVALID_ARGUMENT ||
                     strncmp(cxla_status_message(s), "fuzz:", 5) == 0;
      if (!located) fprintf(stderr, "%s: error without location\n", path);
      CHECK(located);
      cxla_status_free(s);
    } else {
      HloModule *h = NULL;
      s = shlo_import(m, &h);
      if (!s) {
        cxla_status_free(cxla_module_verify(h));
        module_destroy(h);
      }
      cxla_status_free(s);
      mlir_module_free(m);
    }
    cxla_free(text);
    n++;
  }
  closedir(d);
  printf("replayed %d StableHLO fuzz regression inputs\n", n);
  CHECK(n > 0);
}

/* ---- shape refinement (programs with "?" dimensions) ---------------------------------- */

static cxla_status parse_refined(const char *text, int nargs, const cxla_arg_shape *shapes,
                                 cxla_module **m) {
  return cxla_module_parse_refined(text, strlen(text), "t.mlir", shapes, nargs, m);
}

static Literal *run_refined(const char *text, Literal **args, int nargs) {
  cxla_arg_shape sh[4];
  for (int i = 0; i < nargs && i < 4; i++) sh[i] = (cxla_arg_shape){args[i]->rank, args[i]->dims};
  cxla_module *m = NULL;
  CHECK_OK(parse_refined(text, nargs, sh, &m));
  return run_module(m, args, nargs);
}

/* As jax.export writes a program of x: f32[b, 2]: b from get_dimension_size
 * passed to the body as a scalar; the body's shapes built from it. */
static const char *poly_text =
    "module @m {\n"
    "  func.func public @main(%x: tensor<?x2xf32>) -> (tensor<?x2xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?x2xf32>, tensor<?xf32>) {\n"
    "    %d = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x2xf32>) -> tensor<i32>\n"
    "    %b = stablehlo.convert %d : (tensor<i32>) -> tensor<i64>\n"
    "    %one = stablehlo.constant dense<1> : tensor<i64>\n"
    "    %ok = stablehlo.compare GE, %b, %one, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
    "    stablehlo.custom_call @shape_assertion(%ok, %b) {error_message = \"b = {0} must be >= 1\", has_side_effect = true} : (tensor<i1>, tensor<i64>) -> ()\n"
    "    %r:4 = call @body(%b, %x) : (tensor<i64>, tensor<?x2xf32>) -> (tensor<?x2xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?x2xf32>)\n"
    "    %fl = stablehlo.reshape %x : (tensor<?x2xf32>) -> tensor<?xf32>\n"
    "    return %r#0, %r#1, %r#2, %r#3, %fl : tensor<?x2xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?x2xf32>, tensor<?xf32>\n"
    "  }\n"
    "  func.func private @body(%b: tensor<i64>, %x: tensor<?x2xf32>) -> (tensor<?x2xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?x2xf32>) {\n"
    "    %b32 = stablehlo.convert %b : (tensor<i64>) -> tensor<i32>\n"
    "    %b1 = stablehlo.reshape %b32 : (tensor<i32>) -> tensor<1xi32>\n"
    "    %two = stablehlo.constant dense<2> : tensor<1xi32>\n"
    "    %shape = stablehlo.concatenate %b1, %two, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>\n"
    /* iota over the rows, broadcast to [b, 2], added to x */
    "    %io = stablehlo.dynamic_iota %b1, dim = 0 : (tensor<1xi32>) -> tensor<?xf32>\n"
    "    %iob = stablehlo.dynamic_broadcast_in_dim %io, %shape, dims = [0] : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x2xf32>\n"
    "    %y = stablehlo.add %x, %iob : tensor<?x2xf32>\n"
    /* flattened to [2b] and sliced [1:2b:2] */
    "    %b2 = stablehlo.multiply %b1, %two : tensor<1xi32>\n"
    "    %flat = stablehlo.dynamic_reshape %y, %b2 : (tensor<?x2xf32>, tensor<1xi32>) -> tensor<?xf32>\n"
    "    %st = stablehlo.constant dense<1> : tensor<1xi32>\n"
    "    %odd = stablehlo.real_dynamic_slice %flat, %st, %b2, %two : (tensor<?xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?xf32>\n"
    /* padded by 1 low and b high with 0 */
    "    %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
    "    %zero = stablehlo.constant dense<0> : tensor<1xi32>\n"
    "    %pad = stablehlo.dynamic_pad %odd, %z, %st, %b1, %zero : (tensor<?xf32>, tensor<f32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?xf32>\n"
    /* a loop of b steps carrying b: y = y * 2 each step */
    "    %i0 = stablehlo.constant dense<0> : tensor<i64>\n"
    "    %w:3 = stablehlo.while(%i = %i0, %n = %b, %v = %y) : tensor<i64>, tensor<i64>, tensor<?x2xf32>\n"
    "    cond {\n"
    "      %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
    "      stablehlo.return %lt : tensor<i1>\n"
    "    } do {\n"
    "      %c1 = stablehlo.constant dense<1> : tensor<i64>\n"
    "      %i2 = stablehlo.add %i, %c1 : tensor<i64>\n"
    "      %n32 = stablehlo.convert %n : (tensor<i64>) -> tensor<i32>\n"
    "      %n1 = stablehlo.reshape %n32 : (tensor<i32>) -> tensor<1xi32>\n"
    "      %t2 = stablehlo.constant dense<2> : tensor<1xi32>\n"
    "      %sh = stablehlo.concatenate %n1, %t2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>\n"
    "      %f2 = stablehlo.constant dense<2.0> : tensor<f32>\n"
    "      %two2 = stablehlo.dynamic_broadcast_in_dim %f2, %sh, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x2xf32>\n"
    "      %v2 = stablehlo.multiply %v, %two2 : tensor<?x2xf32>\n"
    "      stablehlo.return %i2, %n, %v2 : tensor<i64>, tensor<i64>, tensor<?x2xf32>\n"
    "    }\n"
    "    return %y, %odd, %pad, %w#2 : tensor<?x2xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?x2xf32>\n"
    "  }\n"
    "}\n";

TEST(refine_dynamic_ops) {
  /* x = [[0,1],[2,3],[4,5]]: b = 3 */
  float x[6] = {0, 1, 2, 3, 4, 5};
  Literal *a = NULL;
  int64_t d[2] = {3, 2};
  CHECK_OK(literal_create(T_F32, 2, d, &a));
  if (!a) return;
  memcpy(a->data, x, sizeof x);
  Literal *r = run_refined(poly_text, &a, 1);
  CHECK(r && r->ntuple == 5);
  if (r && r->ntuple == 5) {
    Literal *y = r->tuple[0], *odd = r->tuple[1], *pad = r->tuple[2], *w = r->tuple[3];
    static const float ye[6] = {0, 1, 3, 4, 6, 7};      /* x + row index */
    static const float oe[3] = {1, 4, 7};               /* y flat [1:6:2] */
    static const float pe[7] = {0, 1, 4, 7, 0, 0, 0};   /* 1 low, 3 high */
    CHECK(y->rank == 2 && y->dims[0] == 3 && y->dims[1] == 2 && !memcmp(y->data, ye, sizeof ye));
    CHECK(odd->rank == 1 && odd->dims[0] == 3 && !memcmp(odd->data, oe, sizeof oe));
    CHECK(pad->rank == 1 && pad->dims[0] == 7 && !memcmp(pad->data, pe, sizeof pe));
    CHECK(w->rank == 2 && w->dims[0] == 3 && w->dims[1] == 2);
    if (w->rank == 2 && w->dims[0] == 3)
      for (int i = 0; i < 6; i++) CHECK(((float *)w->data)[i] == ye[i] * 8); /* 2^b */
    Literal *fl = r->tuple[4]; /* a reshape to "?": the size from the count */
    CHECK(fl->rank == 1 && fl->dims[0] == 6 && !memcmp(fl->data, x, sizeof x));
  }
  literal_free(r);
  literal_free(a);
}

TEST(refine_errors) {
  cxla_module *m = NULL;
  /* no shapes for a "?" parameter */
  cxla_status s = cxla_module_parse(poly_text, strlen(poly_text), "t.mlir", &m);
  CHECK(s && strstr(cxla_status_message(s), "dynamic dimensions") &&
        strstr(cxla_status_message(s), "t.mlir:2:"));
  cxla_status_free(s);
  CHECK(!m);
  /* a failed shape assertion: JAX's message with its {0} filled in */
  int64_t zero[2] = {0, 2};
  cxla_arg_shape sh = {2, zero};
  s = parse_refined(poly_text, 1, &sh, &m);
  CHECK(s && cxla_status_code_of(s) == CXLA_INVALID_ARGUMENT &&
        strstr(cxla_status_message(s), "b = 0 must be >= 1") &&
        strstr(cxla_status_message(s), "t.mlir:7:"));
  cxla_status_free(s);
  /* a static dimension that the argument contradicts; a wrong rank; a
   * wrong count */
  int64_t bad[2] = {3, 5};
  sh = (cxla_arg_shape){2, bad};
  s = parse_refined(poly_text, 1, &sh, &m);
  CHECK(s && strstr(cxla_status_message(s), "has size 5 in dimension 1, but the parameter has 2"));
  cxla_status_free(s);
  sh = (cxla_arg_shape){1, bad};
  s = parse_refined(poly_text, 1, &sh, &m);
  CHECK(s && strstr(cxla_status_message(s), "rank"));
  cxla_status_free(s);
  s = parse_refined(poly_text, 0, NULL, &m);
  CHECK(s && strstr(cxla_status_message(s), "0 argument shapes given for 1 parameters"));
  cxla_status_free(s);
  sh = (cxla_arg_shape){-1, NULL};
  s = parse_refined(poly_text, 1, &sh, &m);
  CHECK(s && cxla_status_code_of(s) == CXLA_INVALID_ARGUMENT);
  cxla_status_free(s);
  /* a size that depends on data: UNIMPLEMENTED, located */
  const char *data_dep =
      "module @m {\n"
      "  func.func public @main(%x: tensor<?xf32>, %n: tensor<1xi32>) -> tensor<?xf32> {\n"
      "    %y = stablehlo.dynamic_iota %n, dim = 0 : (tensor<1xi32>) -> tensor<?xf32>\n"
      "    return %y : tensor<?xf32>\n"
      "  }\n"
      "}\n";
  int64_t four = 4, one = 1;
  cxla_arg_shape two[2] = {{1, &four}, {1, &one}};
  s = parse_refined(data_dep, 2, two, &m);
  CHECK(s && cxla_status_code_of(s) == CXLA_UNIMPLEMENTED &&
        strstr(cxla_status_message(s), "t.mlir:3:") &&
        strstr(cxla_status_message(s), "not known when compiling"));
  cxla_status_free(s);
  CHECK(!m);
}

TEST(refine_static_programs_unchanged) {
  /* HLO text and static StableHLO ignore the shapes. */
  const char *hlo = "HloModule m\nENTRY e {\n  ROOT p = f32[2] parameter(0)\n}\n";
  int64_t seven = 7;
  cxla_arg_shape sh = {1, &seven};
  cxla_module *m = NULL;
  CHECK_OK(cxla_module_parse_refined(hlo, strlen(hlo), "t.hlo", &sh, 1, &m));
  cxla_type t;
  int rank = 0;
  const int64_t *dims = NULL;
  if (m) CHECK_OK(cxla_module_parameter(m, 0, &t, &rank, &dims));
  CHECK(m && rank == 1 && dims && dims[0] == 2);
  cxla_module_destroy(m);
  m = NULL;
  const char *shlo =
      "func.func public @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
      "  return %x : tensor<2xf32>\n"
      "}\n";
  CHECK_OK(parse_refined(shlo, 1, &sh, &m));
  rank = 0;
  if (m) CHECK_OK(cxla_module_parameter(m, 0, &t, &rank, &dims));
  CHECK(m && rank == 1 && dims && dims[0] == 2);
  cxla_module_destroy(m);
}

int main(int argc, char **argv) {
  if (argc > 1) corpus = argv[1];
  RUN(errors_are_located);
  RUN(import_errors_are_located);
  RUN(corpus_pretty_equals_generic);
  RUN(hand_written_forms);
  RUN(locations_are_skipped);
  RUN(implicit_module);
  RUN(constants);
  RUN(run_while_with_capture_and_case);
  RUN(run_renamed_functions);
  RUN(run_chlo_next_after_and_erf_inv);
  RUN(run_chlo_mulhi);
  RUN(run_chlo_complex_cosh_sinh);
  RUN(run_reduce_body_outer_constant);
  RUN(custom_call_side_effect);
  RUN(memory_kinds);
  RUN(run_collectives_on_one_device);
  RUN(bounded_dimensions);
  RUN(refine_dynamic_ops);
  RUN(refine_errors);
  RUN(refine_static_programs_unchanged);
  RUN(fuzz_regressions);
  return test_summary(__FILE__);
}
