/* Tests of the StableHLO portable-artifact reader (src/stablehlo/bytecode.c,
 * vhlo_attrs.c, vhlo_to_mlir.c): corpus artifacts (module.mlirbc, written by
 * jax.export) read into the trees their module.mlir text describes; malformed
 * inputs (wrong magic, newer bytecode or VHLO versions, unknown ops, every
 * truncation and many single-byte corruptions of a real artifact) are refused
 * with the byte offset and section; fuzz regressions
 * (tests/fuzz-regressions/bc-*.mlirbc) are replayed through the fuzzer's
 * checks. argv[1]: the corpus directory. */
#include <dirent.h>
#include <stdlib.h>
#include <unistd.h>

#include "harness.h"
#include "../../fuzz/bc_checks.h"
#include "stablehlo/bytecode.h"

static const char *corpus = "tests/corpus";

static uint8_t *read_case(const char *name, size_t *len) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s/module.mlirbc", corpus, name);
  char *buf;
  cxla_status s = cxla_read_file(path, 1 << 26, &buf, len);
  if (s) {
    fprintf(stderr, "%s\n", cxla_status_message(s));
    cxla_status_free(s);
    return NULL;
  }
  return (uint8_t *)buf;
}

static MlirOp *main_func(MlirModule *m) {
  MlirBlock *top = m->op->regions[0].blocks[0];
  for (int i = 0; i < top->nops; i++) {
    MlirAttr *n = mlir_op_attr(top->ops[i], "sym_name");
    if (!strcmp(top->ops[i]->name, "func.func") && n && !strcmp(n->str, "main")) return top->ops[i];
  }
  return NULL;
}

static MlirOp *first_op(MlirOp *func, const char *name) {
  MlirBlock *b = func->regions[0].blocks[0];
  for (int i = 0; i < b->nops; i++)
    if (!strcmp(b->ops[i]->name, name)) return b->ops[i];
  return NULL;
}

/* module.mlir:
 *   module @jit_classic_sin_squared attributes {mhlo.num_partitions = 1 : i32, ...}
 *   func.func public @main(%arg0: tensor<1000xf32>) -> (tensor<1000xf32> {jax.result_info = "result"})
 *     %0 = stablehlo.sine %arg0; %1 = stablehlo.multiply %0, %0; return %1 */
TEST(sin_squared_tree) {
  size_t len;
  uint8_t *data = read_case("classic_sin_squared", &len);
  CHECK(data != NULL);
  if (!data) return;
  MlirModule *m = NULL;
  CHECK_OK(mlir_parse_bytecode(data, len, "sin.mlirbc", &m));
  if (m) {
    CHECK(!strcmp(m->op->name, "builtin.module"));
    MlirAttr *a = mlir_op_attr(m->op, "sym_name");
    CHECK(a && a->kind == MA_STRING && !strcmp(a->str, "jit_classic_sin_squared"));
    a = mlir_op_attr(m->op, "mhlo.num_partitions");
    CHECK(a && a->kind == MA_INT && a->i == 1 && a->type->elem == CXLA_S32);
    MlirOp *f = main_func(m);
    CHECK(f != NULL);
    if (f) {
      a = mlir_op_attr(f, "function_type");
      CHECK(a && a->kind == MA_TYPE && a->type->kind == MLT_FUNCTION && a->type->n == 1 && a->type->nresults == 1);
      MlirBlock *b = f->regions[0].blocks[0];
      CHECK(b->nargs == 1 && b->args[0].type->kind == MLT_TENSOR && b->args[0].type->rank == 1 &&
            b->args[0].type->dims[0] == 1000 && b->args[0].type->element->elem == CXLA_F32);
      CHECK(b->nops == 3);
      if (b->nops == 3) {
        CHECK(!strcmp(b->ops[0]->name, "stablehlo.sine") && b->ops[0]->operands[0] == &b->args[0]);
        CHECK(!strcmp(b->ops[1]->name, "stablehlo.multiply") && b->ops[1]->noperands == 2 &&
              b->ops[1]->operands[0] == &b->ops[0]->results[0] && b->ops[1]->operands[1] == &b->ops[0]->results[0]);
        CHECK(!strcmp(b->ops[2]->name, "func.return") && b->ops[2]->operands[0] == &b->ops[1]->results[0]);
        /* sine_v2's result_accuracy is the default: dropped. */
        CHECK(b->ops[0]->nattrs == 0);
      }
      a = mlir_op_attr(f, "res_attrs");
      CHECK(a && a->kind == MA_ARRAY && a->n == 1 && a->elems[0]->kind == MA_DICT);
      MlirAttr *ri = a && a->n == 1 ? mlir_dict_get(a->elems[0], "jax.result_info") : NULL;
      CHECK(ri && ri->kind == MA_STRING && !strcmp(ri->str, "result"));
      CHECK(mlir_op_attr(f, "arg_attrs") == NULL); /* all empty: absent */
    }
    mlir_module_free(m);
  }
  /* The raw VHLO view: versioned op names and the producer. */
  BcModule *bc = NULL;
  CHECK_OK(bc_read(data, len, "sin.mlirbc", &bc));
  if (bc) {
    CHECK(bc->version == 6);
    CHECK(!strncmp(bc->producer, "StableHLO_v1.", 13));
    StrBuf o;
    sb_init(&o);
    bc_dump(bc, &o);
    CHECK(o.data && strstr(o.data, "vhlo.sine_v") && strstr(o.data, "vhlo.func_v1"));
    sb_free(&o);
    bc_module_free(bc);
  }
  free(data);
}

/* conv2d_nchw: dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1],
 * feature_group_count = 1; all window attributes at their defaults. */
TEST(conv_dimension_numbers) {
  size_t len;
  uint8_t *data = read_case("conv2d_nchw", &len);
  CHECK(data != NULL);
  if (!data) return;
  MlirModule *m = NULL;
  CHECK_OK(mlir_parse_bytecode(data, len, "conv.mlirbc", &m));
  MlirOp *f = m ? main_func(m) : NULL;
  MlirOp *c = f ? first_op(f, "stablehlo.convolution") : NULL;
  CHECK(c != NULL);
  if (c) {
    MlirAttr *d = mlir_op_attr(c, "dimension_numbers");
    CHECK(d && d->kind == MA_CONV);
    if (d && d->kind == MA_CONV) {
      CHECK(d->conv.in_batch == 0 && d->conv.in_feature == 1);
      CHECK(d->conv.in_spatial.n == 2 && d->conv.in_spatial.v[0] == 2 && d->conv.in_spatial.v[1] == 3);
      CHECK(d->conv.k_out_feature == 0 && d->conv.k_in_feature == 1);
      CHECK(d->conv.out_batch == 0 && d->conv.out_feature == 1);
    }
    MlirAttr *g = mlir_op_attr(c, "feature_group_count");
    CHECK(g && g->kind == MA_INT && g->i == 1);
    CHECK(mlir_op_attr(c, "window_strides") == NULL && mlir_op_attr(c, "padding") == NULL);
    MlirAttr *p = mlir_op_attr(c, "precision_config");
    CHECK(p && p->kind == MA_ARRAY && p->n == 2 && p->elems[0]->kind == MA_ENUM &&
          p->elems[0]->ekind == ME_PRECISION && !strcmp(p->elems[0]->str, "DEFAULT"));
  }
  mlir_module_free(m);
  free(data);
}

/* classic_matmul_256: dot_general contracting_dims = [1] x [0]. */
TEST(dot_dimension_numbers) {
  size_t len;
  uint8_t *data = read_case("classic_matmul_256", &len);
  CHECK(data != NULL);
  if (!data) return;
  MlirModule *m = NULL;
  CHECK_OK(mlir_parse_bytecode(data, len, "dot.mlirbc", &m));
  MlirOp *f = m ? main_func(m) : NULL;
  MlirOp *d = f ? first_op(f, "stablehlo.dot_general") : NULL;
  CHECK(d != NULL);
  MlirAttr *a = d ? mlir_op_attr(d, "dot_dimension_numbers") : NULL;
  CHECK(a && a->kind == MA_DOT);
  if (a && a->kind == MA_DOT) {
    CHECK(a->dot.lhs_batch.n == 0 && a->dot.rhs_batch.n == 0);
    CHECK(a->dot.lhs_contract.n == 1 && a->dot.lhs_contract.v[0] == 1);
    CHECK(a->dot.rhs_contract.n == 1 && a->dot.rhs_contract.v[0] == 0);
  }
  CHECK(d && mlir_op_attr(d, "algorithm") == NULL);
  mlir_module_free(m);
  free(data);
}

/* tests/stablehlo/unseen/sharding_constraint: VHLO mixed with sdy, whose
 * ops sit between builtin.unrealized_conversion_cast ops; module.mlir:
 *   %1 = stablehlo.multiply %arg0, %0
 *   %2 = sdy.sharding_constraint %1 <@empty_mesh, [{}]>
 *   return %2 */
TEST(sdy_casts_disappear) {
  char *buf;
  size_t len;
  CHECK_OK(cxla_read_file("tests/stablehlo/unseen/sharding_constraint/module.mlirbc", 1 << 26, &buf, &len));
  if (!buf) return;
  MlirModule *m = NULL;
  CHECK_OK(mlir_parse_bytecode((const uint8_t *)buf, len, "sdy.mlirbc", &m));
  MlirOp *f = m ? main_func(m) : NULL;
  MlirOp *mul = f ? first_op(f, "stablehlo.multiply") : NULL;
  MlirOp *sc = f ? first_op(f, "sdy.sharding_constraint") : NULL;
  MlirOp *ret = f ? first_op(f, "func.return") : NULL;
  CHECK(mul && sc && ret);
  CHECK(f && !first_op(f, "builtin.unrealized_conversion_cast"));
  if (mul && sc && ret) {
    CHECK(sc->noperands == 1 && sc->operands[0] == &mul->results[0]);
    CHECK(ret->noperands == 1 && ret->operands[0] == &sc->results[0]);
  }
  mlir_module_free(m);
  cxla_free(buf);
}

static void expect_error(const uint8_t *data, size_t len, const char *needle) {
  MlirModule *m = NULL;
  CHECK_ERR(mlir_parse_bytecode(data, len, "bad.mlirbc", &m), needle);
  CHECK(m == NULL);
}

TEST(header_errors) {
  expect_error((const uint8_t *)"HloModule m", 11, "not MLIR bytecode");
  expect_error((const uint8_t *)"ML\xEFR", 4, "byte 4 (file header): unexpected end of data");
  /* Version 7 (varint 0x0F) is newer than the newest supported, 6. */
  expect_error((const uint8_t *)"ML\xEFR\x0Fx", 7, "bytecode version 7 is newer");
  static const uint8_t v2[] = "ML\xEFR\x0DStableHLO_v2.0.0";
  expect_error(v2, sizeof v2, "StableHLO_v2.0.0\": VHLO versions");
  static const uint8_t nosec[] = "ML\xEFR\x0DStableHLO_v1.5.0";
  expect_error(nosec, sizeof nosec, "missing string section");
  /* A section claiming more bytes than the file has. */
  static const uint8_t longsec[] = "ML\xEFR\x0DStableHLO_v1.5.0\0\x00\x41\x01";
  expect_error(longsec, sizeof longsec - 1, "(section table): 32 bytes expected, only 1 left");
  static const uint8_t badid[] = "ML\xEFR\x0DStableHLO_v1.5.0\0\x0B\x01";
  expect_error(badid, sizeof badid - 1, "unknown section id 11");
}

static uint8_t *find(uint8_t *data, size_t len, const char *s) {
  size_t n = strlen(s);
  for (size_t i = 0; i + n <= len; i++)
    if (!memcmp(data + i, s, n)) return data + i;
  return NULL;
}

TEST(unknown_op_and_dialect) {
  size_t len;
  uint8_t *data = read_case("classic_sin_squared", &len);
  CHECK(data != NULL);
  if (!data) return;
  uint8_t *p = find(data, len, "multiply_v1");
  CHECK(p != NULL);
  if (p) {
    memcpy(p, "multiplx", 8);
    expect_error(data, len, "unknown VHLO op vhlo.multiplx_v1");
    memcpy(p, "multiply", 8);
  }
  p = find(data, len, "vhlo");
  CHECK(p != NULL);
  if (p) {
    memcpy(p, "vhlx", 4);
    expect_error(data, len, "dialect vhlx");
  }
  free(data);
}

/* Every prefix of a real artifact is refused with a position; every
 * single-byte corruption is either read or refused with a position, and
 * never crashes (the sanitizer build checks memory). */
TEST(truncations_and_corruptions) {
  size_t len;
  uint8_t *data = read_case("classic_sin_squared", &len);
  CHECK(data != NULL);
  if (!data) return;
  int bad_prefix = 0, bad_flip = 0, refused = 0;
  for (size_t n = 0; n < len; n++) {
    uint8_t *copy = malloc(n ? n : 1);
    memcpy(copy, data, n);
    MlirModule *m = NULL;
    cxla_status s = mlir_parse_bytecode(copy, n, "t.mlirbc", &m);
    if (!s || !strstr(cxla_status_message(s), "byte ")) bad_prefix++;
    cxla_status_free(s);
    mlir_module_free(m);
    free(copy);
  }
  for (size_t i = 0; i < len; i++) {
    static const uint8_t deltas[] = {0x01, 0x80, 0xFF};
    for (int k = 0; k < 3; k++) {
      data[i] ^= deltas[k];
      const char *bug = check_stablehlo_bc(data, len);
      if (bug) {
        bad_flip++;
        fprintf(stderr, "byte %zu ^ 0x%02X: %s\n", i, deltas[k], bug);
      }
      MlirModule *m = NULL;
      cxla_status s = mlir_parse_bytecode(data, len, "t.mlirbc", &m);
      if (s) refused++;
      cxla_status_free(s);
      mlir_module_free(m);
      data[i] ^= deltas[k];
    }
  }
  CHECK(bad_prefix == 0);
  CHECK(bad_flip == 0);
  CHECK(refused > 0);
  free(data);
}

/* Fuzz regressions and every corpus artifact pass the fuzzer's checks. */
TEST(fuzz_replay_and_corpus) {
  int n = 0;
  DIR *d = opendir("tests/fuzz-regressions");
  struct dirent *e;
  while (d && (e = readdir(d))) {
    size_t l = strlen(e->d_name);
    if (strncmp(e->d_name, "bc-", 3) || l < 7 || strcmp(e->d_name + l - 7, ".mlirbc")) continue;
    char path[512];
    snprintf(path, sizeof path, "tests/fuzz-regressions/%s", e->d_name);
    char *buf;
    size_t len;
    CHECK_OK(cxla_read_file(path, 1 << 26, &buf, &len));
    const char *bug = check_stablehlo_bc((const uint8_t *)buf, len);
    if (bug) fprintf(stderr, "%s: %s\n", path, bug);
    CHECK(bug == NULL);
    cxla_free(buf);
    n++;
  }
  if (d) closedir(d);
  printf("replayed %d bytecode fuzz regressions\n", n);
  int ncorpus = 0;
  d = opendir(corpus);
  while (d && (e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char path[512];
    snprintf(path, sizeof path, "%s/%s/module.mlirbc", corpus, e->d_name);
    if (access(path, R_OK)) continue; /* e.g. the TensorFlow cases have none */
    size_t len;
    uint8_t *data = read_case(e->d_name, &len);
    if (!data) continue;
    MlirModule *m = NULL;
    cxla_status s = mlir_parse_bytecode(data, len, e->d_name, &m);
    if (s) fprintf(stderr, "%s: %s\n", e->d_name, cxla_status_message(s));
    CHECK(s == NULL);
    cxla_status_free(s);
    mlir_module_free(m);
    free(data);
    ncorpus++;
  }
  if (d) closedir(d);
  printf("read %d corpus artifacts\n", ncorpus);
  CHECK(ncorpus > 0);
}

/* tests/stablehlo/bool_constants.mlirbc (tests/gen/bool_constants.py):
 * boolean constants, which MLIR bytecode packs eight to a byte, an all-false
 * or all-true one as the single byte 0x00/0xFF. A mixed constant of up to 8
 * elements is one byte too: cxla read it as a splat (a jnp.where mask of 8
 * elements became all true). The results are the constants, in order. */
TEST(bool_constants) {
  static const char *want[] = {"1", "101", "11000111", "11111111", "011010011", "0110110110110110"};
  char *buf;
  size_t len;
  CHECK_OK(cxla_read_file("tests/stablehlo/bool_constants.mlirbc", 1 << 20, &buf, &len));
  if (!buf) return;
  cxla_module *m = NULL;
  CHECK_OK(cxla_module_parse(buf, len, "bool_constants.mlirbc", &m));
  cxla_free(buf);
  if (!m) return;
  cxla_literal *arg = NULL, *out = NULL;
  int64_t one = 1;
  CHECK_OK(cxla_literal_create(CXLA_F32, 1, &one, &arg));
  if (arg) CHECK_OK(cxla_interp_run(m, &arg, 1, &out));
  CHECK(out && cxla_literal_tuple_size(out) == 7);
  for (int k = 0; out && k < 6 && k < cxla_literal_tuple_size(out); k++) {
    cxla_literal *l = cxla_literal_tuple_get(out, k);
    const uint8_t *d = cxla_literal_data(l);
    size_t n = strlen(want[k]);
    CHECK(cxla_literal_type(l) == CXLA_PRED && cxla_literal_elements(l) == (int64_t)n);
    for (size_t i = 0; d && i < n && (int64_t)i < cxla_literal_elements(l); i++) {
      if (d[i] != (want[k][i] == '1')) fprintf(stderr, "  constant %d element %zu: %u\n", k, i, d[i]);
      CHECK(d[i] == (want[k][i] == '1'));
    }
  }
  cxla_literal_destroy(arg);
  cxla_literal_destroy(out);
  cxla_module_destroy(m);
}

int main(int argc, char **argv) {
  if (argc > 1) corpus = argv[1];
  RUN(sin_squared_tree);
  RUN(conv_dimension_numbers);
  RUN(dot_dimension_numbers);
  RUN(sdy_casts_disappear);
  RUN(header_errors);
  RUN(unknown_op_and_dialect);
  RUN(truncations_and_corruptions);
  RUN(fuzz_replay_and_corpus);
  RUN(bool_constants);
  return test_summary(__FILE__);
}
