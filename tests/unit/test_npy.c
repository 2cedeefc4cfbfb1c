/* .npy reading and writing: round trips of every dtype, hand-made files
 * (big-endian, Fortran order, format versions 2 and 3, the raw-bits
 * convention for bf16/f8) and malformed files. Expected bytes and values are
 * worked out by hand from the format description (numpy's NEP 1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "ir/ir.h"
#include "testing/npy.h"

static char tmpdir[64];
static char pathbuf[128];

static const char *tmp_path(const char *name) {
  snprintf(pathbuf, sizeof pathbuf, "%s/%s", tmpdir, name);
  return pathbuf;
}

static void write_bytes(const char *path, const void *p, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) return;
  fwrite(p, 1, n, f);
  fclose(f);
}

/* Writes a file: magic, version, header length (2 or 4 bytes), the dict
 * padded with spaces + '\n' to a multiple of 64, then data. */
static const char *make_npy(const char *name, int major, const char *dict, const void *data,
                            size_t dlen) {
  unsigned char buf[4096];
  size_t prefix = major == 1 ? 10 : 12;
  size_t hlen = strlen(dict) + 1;
  while ((prefix + hlen) % 64) hlen++;
  memcpy(buf, "\x93NUMPY", 6);
  buf[6] = (unsigned char)major;
  buf[7] = 0;
  for (size_t i = 0; i < prefix - 8; i++) buf[8 + i] = (unsigned char)(hlen >> (8 * i));
  memset(buf + prefix, ' ', hlen);
  memcpy(buf + prefix, dict, strlen(dict));
  buf[prefix + hlen - 1] = '\n';
  memcpy(buf + prefix + hlen, data, dlen);
  const char *path = tmp_path(name);
  write_bytes(path, buf, prefix + hlen + dlen);
  return path;
}

static cxla_literal *read_ok(const char *path, cxla_type as) {
  cxla_literal *l = NULL;
  CHECK_OK(cxla_npy_read(path, as, &l));
  return l;
}

/* ---- round trips -------------------------------------------------------------- */

/* Every writable type: fill bytes with a pattern valid for the type, write,
 * read back as the same type, compare bytes. */
TEST(round_trip_every_dtype) {
  for (int t = 0; t < CXLA_TYPE_COUNT; t++) {
    if (t == CXLA_TUPLE || t == CXLA_TOKEN || t == CXLA_OPAQUE) continue;
    int64_t dims[2] = {3, 5};
    cxla_literal *l = NULL;
    CHECK_OK(cxla_literal_create((cxla_type)t, 2, dims, &l));
    if (!l) continue;
    unsigned char *d = cxla_literal_data(l);
    int sz = cxla_type_size((cxla_type)t);
    for (int i = 0; i < 15 * sz; i++) d[i] = (unsigned char)(i * 37 + 11);
    /* Keep values canonical where storage has invariants. */
    for (int i = 0; i < 15; i++) {
      if (t == CXLA_PRED) d[i] &= 1;
      if (t == CXLA_S4) d[i] = (unsigned char)(int8_t)((i % 16) - 8);
      if (t == CXLA_S2) d[i] = (unsigned char)(int8_t)((i % 4) - 2);
      if (t == CXLA_U4 || t == CXLA_F4E2M1FN) d[i] = (unsigned char)(i % 16);
      if (t == CXLA_U2) d[i] = (unsigned char)(i % 4);
    }
    const char *path = tmp_path("rt.npy");
    CHECK_OK(cxla_npy_write(path, l));
    cxla_literal *back = read_ok(path, (cxla_type)t);
    if (back) {
      CHECK(cxla_literal_type(back) == (cxla_type)t);
      CHECK(cxla_literal_rank(back) == 2 && cxla_literal_dims(back)[0] == 3 &&
            cxla_literal_dims(back)[1] == 5);
      if (memcmp(cxla_literal_data(back), d, (size_t)(15 * sz)) != 0) {
        fprintf(stderr, "round trip of %s changed the data\n", cxla_type_name((cxla_type)t));
        CHECK(0);
      }
    }
    cxla_literal_destroy(back);
    cxla_literal_destroy(l);
  }
}

/* The exact bytes numpy writes for np.save(np.array([[1,2,3],[4,5,6]], '<f4')). */
TEST(write_header_bytes) {
  int64_t dims[2] = {2, 3};
  cxla_literal *l = NULL;
  CHECK_OK(cxla_literal_create(CXLA_F32, 2, dims, &l));
  float *f = cxla_literal_data(l);
  for (int i = 0; i < 6; i++) f[i] = (float)(i + 1);
  const char *path = tmp_path("hdr.npy");
  CHECK_OK(cxla_npy_write(path, l));
  cxla_literal_destroy(l);
  unsigned char buf[256];
  FILE *fp = fopen(path, "rb");
  size_t n = fp ? fread(buf, 1, sizeof buf, fp) : 0;
  if (fp) fclose(fp);
  /* 10-byte prefix + 118-byte header = 128, then 24 bytes of data. */
  CHECK(n == 128 + 24);
  CHECK(memcmp(buf, "\x93NUMPY\x01\x00\x76\x00", 10) == 0);
  const char *dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  CHECK(memcmp(buf + 10, dict, strlen(dict)) == 0);
  CHECK(buf[127] == '\n' && buf[126] == ' ');
  const unsigned char one[4] = {0x00, 0x00, 0x80, 0x3f}; /* 1.0f little-endian */
  CHECK(memcmp(buf + 128, one, 4) == 0);
}

TEST(write_shapes_rank0_rank1) {
  cxla_literal *l = NULL;
  CHECK_OK(cxla_literal_create(CXLA_S32, 0, NULL, &l));
  const char *path = tmp_path("r0.npy");
  CHECK_OK(cxla_npy_write(path, l));
  cxla_literal_destroy(l);
  char buf[128] = {0};
  FILE *fp = fopen(path, "rb");
  if (fp) {
    CHECK(fread(buf, 1, 127, fp) > 64);
    fclose(fp);
  }
  CHECK(strstr(buf + 10, "'shape': (), }") != NULL);

  int64_t d1 = 4;
  CHECK_OK(cxla_literal_create(CXLA_S32, 1, &d1, &l));
  CHECK_OK(cxla_npy_write(path, l));
  cxla_literal_destroy(l);
  fp = fopen(path, "rb");
  if (fp) {
    CHECK(fread(buf, 1, 127, fp) > 64);
    fclose(fp);
  }
  CHECK(strstr(buf + 10, "'descr': '<i4'") != NULL);
  CHECK(strstr(buf + 10, "'shape': (4,), }") != NULL);
}

/* bf16 and f8 are written as unsigned ints of their width (raw bits); s4 as
 * int8 holding the value. */
TEST(write_raw_bits_convention) {
  int64_t d = 2;
  cxla_literal *l = NULL;
  CHECK_OK(cxla_literal_create(CXLA_BF16, 1, &d, &l));
  uint16_t *h = cxla_literal_data(l);
  h[0] = 0x3f80; /* 1.0 */
  h[1] = 0xc000; /* -2.0 */
  const char *path = tmp_path("bf.npy");
  CHECK_OK(cxla_npy_write(path, l));
  cxla_literal_destroy(l);
  cxla_literal *raw = read_ok(path, CXLA_TYPE_COUNT);
  if (raw) {
    CHECK(cxla_literal_type(raw) == CXLA_U16);
    CHECK(((uint16_t *)cxla_literal_data(raw))[0] == 0x3f80);
    CHECK(((uint16_t *)cxla_literal_data(raw))[1] == 0xc000);
  }
  cxla_literal_destroy(raw);

  CHECK_OK(cxla_literal_create(CXLA_F8E5M2, 1, &d, &l));
  ((uint8_t *)cxla_literal_data(l))[0] = 0x3c; /* 1.0 in e5m2 */
  CHECK_OK(cxla_npy_write(path, l));
  cxla_literal_destroy(l);
  raw = read_ok(path, CXLA_TYPE_COUNT);
  if (raw) CHECK(cxla_literal_type(raw) == CXLA_U8 && ((uint8_t *)cxla_literal_data(raw))[0] == 0x3c);
  cxla_literal_destroy(raw);

  CHECK_OK(cxla_literal_create(CXLA_S4, 1, &d, &l));
  ((int8_t *)cxla_literal_data(l))[0] = -8;
  ((int8_t *)cxla_literal_data(l))[1] = 7;
  CHECK_OK(cxla_npy_write(path, l));
  cxla_literal_destroy(l);
  raw = read_ok(path, CXLA_TYPE_COUNT);
  if (raw) {
    CHECK(cxla_literal_type(raw) == CXLA_S8);
    CHECK(((int8_t *)cxla_literal_data(raw))[0] == -8 && ((int8_t *)cxla_literal_data(raw))[1] == 7);
  }
  cxla_literal_destroy(raw);
}

TEST(write_refuses_tuples_and_tokens) {
  cxla_literal *tok = NULL;
  CHECK_OK(cxla_literal_create(CXLA_TOKEN, 0, NULL, &tok));
  if (tok) CHECK_ERR(cxla_npy_write(tmp_path("tok.npy"), tok), "token");
  cxla_literal_destroy(tok);
  Literal *tup = NULL;
  CHECK_OK(literal_create_tuple(0, NULL, &tup));
  if (tup) CHECK_ERR(cxla_npy_write(tmp_path("tup.npy"), tup), "tuple");
  literal_free(tup);
  CHECK(access(tmp_path("tup.npy"), F_OK) != 0);
  int64_t d = 1;
  cxla_literal *l = NULL;
  CHECK_OK(cxla_literal_create(CXLA_F32, 1, &d, &l));
  CHECK_ERR(cxla_npy_write("/nonexistent-dir/x.npy", l), "/nonexistent-dir/x.npy");
  cxla_literal_destroy(l);
}

/* ---- hand-made files -------------------------------------------------------------- */

TEST(read_little_endian_f4) {
  float v[6] = {1, 2, 3, 4, 5, 6.5f};
  const char *p = make_npy("f4.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
                           v, sizeof v);
  cxla_literal *l = read_ok(p, CXLA_TYPE_COUNT);
  if (!l) return;
  CHECK(cxla_literal_type(l) == CXLA_F32);
  CHECK(cxla_literal_rank(l) == 2 && cxla_literal_dims(l)[0] == 2 && cxla_literal_dims(l)[1] == 3);
  CHECK(((float *)cxla_literal_data(l))[5] == 6.5f);
  cxla_literal_destroy(l);
}

TEST(read_big_endian) {
  /* >f4: 1.0 = 3f800000, 2.0 = 40000000 */
  const unsigned char f4[8] = {0x3f, 0x80, 0, 0, 0x40, 0, 0, 0};
  const char *p = make_npy("bef4.npy", 1, "{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }",
                           f4, sizeof f4);
  cxla_literal *l = read_ok(p, CXLA_F32);
  if (l) {
    CHECK(((float *)cxla_literal_data(l))[0] == 1.0f);
    CHECK(((float *)cxla_literal_data(l))[1] == 2.0f);
  }
  cxla_literal_destroy(l);
  /* >i2: 0x0102 = 258, 0xfffe = -2 */
  const unsigned char i2[4] = {0x01, 0x02, 0xff, 0xfe};
  p = make_npy("bei2.npy", 1, "{'descr': '>i2', 'fortran_order': False, 'shape': (2,), }", i2, 4);
  l = read_ok(p, CXLA_TYPE_COUNT);
  if (l) {
    CHECK(cxla_literal_type(l) == CXLA_S16);
    CHECK(((int16_t *)cxla_literal_data(l))[0] == 258);
    CHECK(((int16_t *)cxla_literal_data(l))[1] == -2);
  }
  cxla_literal_destroy(l);
  /* >c8: each part swapped separately: (1.0, -2.0) */
  const unsigned char c8[8] = {0x3f, 0x80, 0, 0, 0xc0, 0, 0, 0};
  p = make_npy("bec8.npy", 1, "{'descr': '>c8', 'fortran_order': False, 'shape': (), }", c8, 8);
  l = read_ok(p, CXLA_C64);
  if (l) {
    CHECK(cxla_literal_rank(l) == 0);
    CHECK(((float *)cxla_literal_data(l))[0] == 1.0f && ((float *)cxla_literal_data(l))[1] == -2.0f);
  }
  cxla_literal_destroy(l);
  /* >u8: 0x0000000000000100 = 256 */
  const unsigned char u8[8] = {0, 0, 0, 0, 0, 0, 1, 0};
  p = make_npy("beu8.npy", 1, "{'descr': '>u8', 'fortran_order': False, 'shape': (1,), }", u8, 8);
  l = read_ok(p, CXLA_U64);
  if (l) CHECK(((uint64_t *)cxla_literal_data(l))[0] == 256);
  cxla_literal_destroy(l);
}

TEST(read_fortran_order) {
  /* A 2x3 matrix [[1,2,3],[4,5,6]] stored column by column. */
  int32_t colmajor[6] = {1, 4, 2, 5, 3, 6};
  const char *p = make_npy("fo.npy", 1, "{'descr': '<i4', 'fortran_order': True, 'shape': (2, 3), }",
                           colmajor, sizeof colmajor);
  cxla_literal *l = read_ok(p, CXLA_S32);
  if (l) {
    int32_t *d = cxla_literal_data(l);
    for (int i = 0; i < 6; i++) CHECK(d[i] == i + 1);
  }
  cxla_literal_destroy(l);
  /* 2x2x2: element (i,j,k) = 100i+10j+k lives at offset i + 2j + 4k. */
  int16_t cm[8];
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      for (int k = 0; k < 2; k++) cm[i + 2 * j + 4 * k] = (int16_t)(100 * i + 10 * j + k);
  p = make_npy("fo3.npy", 1, "{'descr': '<i2', 'fortran_order': True, 'shape': (2, 2, 2), }", cm,
               sizeof cm);
  l = read_ok(p, CXLA_S16);
  if (l) {
    const int16_t want[8] = {0, 1, 10, 11, 100, 101, 110, 111};
    CHECK(memcmp(cxla_literal_data(l), want, sizeof want) == 0);
  }
  cxla_literal_destroy(l);
}

TEST(read_versions_2_and_3) {
  double v[2] = {0.5, -0.25};
  const char *p = make_npy("v2.npy", 2, "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }",
                           v, sizeof v);
  cxla_literal *l = read_ok(p, CXLA_F64);
  if (l) CHECK(((double *)cxla_literal_data(l))[1] == -0.25);
  cxla_literal_destroy(l);
  p = make_npy("v3.npy", 3, "{\"descr\": \"<f8\", \"shape\": (2,), \"fortran_order\": False}", v,
               sizeof v);
  l = read_ok(p, CXLA_F64);
  if (l) CHECK(((double *)cxla_literal_data(l))[0] == 0.5);
  cxla_literal_destroy(l);
}

TEST(read_bool_and_raw_types) {
  const unsigned char b[3] = {0, 1, 2};
  const char *p = make_npy("b1.npy", 1, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }", b, 3);
  cxla_literal *l = read_ok(p, CXLA_PRED);
  if (l) {
    const unsigned char *d = cxla_literal_data(l);
    CHECK(d[0] == 0 && d[1] == 1 && d[2] == 1); /* normalised to 0/1 */
  }
  cxla_literal_destroy(l);
  /* bf16 as '<u2' raw bits: 0x3f80 = 1.0, 0xc0a0 = -5.0 */
  const uint16_t bf[2] = {0x3f80, 0xc0a0};
  p = make_npy("bf.npy", 1, "{'descr': '<u2', 'fortran_order': False, 'shape': (2,), }", bf, 4);
  l = read_ok(p, CXLA_BF16);
  if (l) {
    CHECK(cxla_literal_type(l) == CXLA_BF16);
    CHECK(literal_get_f64(l, 0) == 1.0 && literal_get_f64(l, 1) == -5.0);
  }
  cxla_literal_destroy(l);
  /* f8e4m3fn as '|u1': 0x38 = 1.0 (exponent 7 - bias 7), 0x7e = 448 (max) */
  const unsigned char f8[2] = {0x38, 0x7e};
  p = make_npy("f8.npy", 1, "{'descr': '|u1', 'fortran_order': False, 'shape': (2,), }", f8, 2);
  l = read_ok(p, CXLA_F8E4M3FN);
  if (l) CHECK(literal_get_f64(l, 0) == 1.0 && literal_get_f64(l, 1) == 448.0);
  cxla_literal_destroy(l);
  /* s4 from int8 values; 8 does not fit */
  const signed char s8[2] = {-8, 7};
  p = make_npy("s4.npy", 1, "{'descr': '|i1', 'fortran_order': False, 'shape': (2,), }", s8, 2);
  l = read_ok(p, CXLA_S4);
  if (l) CHECK(literal_get_i64(l, 0) == -8 && literal_get_i64(l, 1) == 7);
  cxla_literal_destroy(l);
  const signed char bad4[1] = {8};
  p = make_npy("s4bad.npy", 1, "{'descr': '|i1', 'fortran_order': False, 'shape': (1,), }", bad4, 1);
  CHECK_ERR(cxla_npy_read(p, CXLA_S4, &l), "does not fit in s4");
}

TEST(read_type_mismatch) {
  float v = 1;
  const char *p = make_npy("mm.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (), }", &v, 4);
  cxla_literal *l = NULL;
  CHECK_ERR(cxla_npy_read(p, CXLA_S32, &l), "holds f32 data, expected s32");
  CHECK(l == NULL);
  CHECK_ERR(cxla_npy_read(p, CXLA_BF16, &l), "expected bf16");
}

/* ---- malformed files --------------------------------------------------------------- */

TEST(malformed_files) {
  cxla_literal *l = NULL;
  cxla_status s = cxla_npy_read(tmp_path("missing.npy"), CXLA_TYPE_COUNT, &l);
  CHECK(cxla_status_code_of(s) == CXLA_NOT_FOUND);
  cxla_status_free(s);

  write_bytes(tmp_path("empty.npy"), "", 0);
  CHECK_ERR(cxla_npy_read(tmp_path("empty.npy"), CXLA_TYPE_COUNT, &l), "truncated");
  write_bytes(tmp_path("magic.npy"), "PK\x03\x04 not numpy at all", 22);
  CHECK_ERR(cxla_npy_read(tmp_path("magic.npy"), CXLA_TYPE_COUNT, &l), "bad magic");
  /* The header claims 118 bytes but the file ends after 20. */
  write_bytes(tmp_path("trunc.npy"), "\x93NUMPY\x01\x00\x76\x00{'descr': '<f4'", 26);
  CHECK_ERR(cxla_npy_read(tmp_path("trunc.npy"), CXLA_TYPE_COUNT, &l), "truncated .npy header");
  /* Version 2 with a 4 GiB header length. */
  write_bytes(tmp_path("hl.npy"), "\x93NUMPY\x02\x00\xff\xff\xff\xff{}", 14);
  CHECK_ERR(cxla_npy_read(tmp_path("hl.npy"), CXLA_TYPE_COUNT, &l), "truncated .npy header");
  write_bytes(tmp_path("v9.npy"), "\x93NUMPY\x09\x00\x00\x00", 10);
  CHECK_ERR(cxla_npy_read(tmp_path("v9.npy"), CXLA_TYPE_COUNT, &l), "version 9.0");

  float v[4] = {0};
  const char *p;
  p = make_npy("nodict.npy", 1, "'descr': '<f4'", v, 4);
  CHECK_ERR(cxla_npy_read(p, CXLA_TYPE_COUNT, &l), "expected '{'");
  p = make_npy("noshape.npy", 1, "{'descr': '<f4', 'fortran_order': False}", v, 4);
  CHECK_ERR(cxla_npy_read(p, CXLA_TYPE_COUNT, &l), "missing");
  p = make_npy("badkey.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (), 'x': 1}", v, 4);
  CHECK_ERR(cxla_npy_read(p, CXLA_TYPE_COUNT, &l), "unexpected or repeated key");
  p = make_npy("dup.npy", 1, "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': ()}", v, 4);
  CHECK_ERR(cxla_npy_read(p, CXLA_TYPE_COUNT, &l), "repeated");
  p = make_npy("str.npy", 1, "{'descr': '<U4', 'fortran_order': False, 'shape': (), }", v, 16);
  CHECK_ERR(cxla_npy_read(p, CXLA_TYPE_COUNT, &l), "unsupported .npy dtype '<U4'");
  p = make_npy("obj.npy", 1, "{'descr': '|O', 'fortran_order': False, 'shape': (), }", v, 8);
  CHECK_ERR(cxla_npy_read(p, CXLA_TYPE_COUNT, &l), "unsupported");
  p = make_npy("rec.npy", 1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (), }", v, 4);
  CHECK_ERR(cxla_npy_read(p, CXLA_TYPE_COUNT, &l), "structured");
  p = make_npy("neg.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }", v, 4);
  CHECK_ERR(cxla_npy_read(p, CXLA_TYPE_COUNT, &l), "non-negative");
  p = make_npy("fo.npy", 1, "{'descr': '<f4', 'fortran_order': 1, 'shape': (), }", v, 4);
  CHECK_ERR(cxla_npy_read(p, CXLA_TYPE_COUNT, &l), "True or False");
  p = make_npy("unterminated.npy", 1, "{'descr': '<f4", v, 4);
  CHECK_ERR(cxla_npy_read(p, CXLA_TYPE_COUNT, &l), "malformed");
  p = make_npy("trail.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': ()} x", v, 4);
  CHECK_ERR(cxla_npy_read(p, CXLA_TYPE_COUNT, &l), "trailing");
  /* Data shorter than the shape says: 3 floats announced, 2 present. */
  p = make_npy("short.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", v, 8);
  CHECK_ERR(cxla_npy_read(p, CXLA_TYPE_COUNT, &l), "shorter than its shape says");
  /* Absurd shapes must fail before allocating anything. */
  p = make_npy("huge.npy", 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (1000000, 1000000), }", v, 16);
  CHECK_ERR(cxla_npy_read(p, CXLA_TYPE_COUNT, &l), "shorter than its shape says");
  p = make_npy("ovf.npy", 1,
               "{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904, 8), }", v, 16);
  CHECK_ERR(cxla_npy_read(p, CXLA_TYPE_COUNT, &l), "overflows");
  p = make_npy("ovf2.npy", 1,
               "{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999,), }", v, 16);
  CHECK_ERR(cxla_npy_read(p, CXLA_TYPE_COUNT, &l), "too large");
  CHECK(l == NULL);
  /* A directory is not a file. */
  CHECK_ERR(cxla_npy_read(tmpdir, CXLA_TYPE_COUNT, &l), "not a regular file");
}

/* Every prefix of a valid file is an error, never a crash. */
TEST(every_truncation_fails_cleanly) {
  int32_t v[3] = {1, 2, 3};
  const char *p = make_npy("full.npy", 1, "{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }",
                           v, sizeof v);
  unsigned char buf[256];
  FILE *f = fopen(p, "rb");
  size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
  if (f) fclose(f);
  CHECK(n == 128 + 12); /* 70 header bytes pad to 128 */
  for (size_t k = 0; k < n; k++) {
    write_bytes(tmp_path("cut.npy"), buf, k);
    cxla_literal *l = NULL;
    cxla_status s = cxla_npy_read(tmp_path("cut.npy"), CXLA_TYPE_COUNT, &l);
    CHECK(s != NULL && l == NULL);
    cxla_status_free(s);
  }
}

/* Out-of-memory at each allocation: an error status, no leak (ASan). */
TEST(allocation_failures) {
  float v[2] = {1, 2};
  const char *p = make_npy("oom.npy", 1, "{'descr': '<f4', 'fortran_order': True, 'shape': (1, 2), }",
                           v, sizeof v);
  for (long k = 1; k < 20; k++) {
    cxla_literal *l = NULL;
    cxla_fail_alloc_at(k);
    cxla_status s = cxla_npy_read(p, CXLA_TYPE_COUNT, &l);
    cxla_fail_alloc_at(0);
    CHECK((s == NULL) == (l != NULL));
    cxla_status_free(s);
    cxla_literal_destroy(l);
  }
}

int main(void) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/cxla_test_npy_XXXXXX");
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
  RUN(round_trip_every_dtype);
  RUN(write_header_bytes);
  RUN(write_shapes_rank0_rank1);
  RUN(write_raw_bits_convention);
  RUN(write_refuses_tuples_and_tokens);
  RUN(read_little_endian_f4);
  RUN(read_big_endian);
  RUN(read_fortran_order);
  RUN(read_versions_2_and_3);
  RUN(read_bool_and_raw_types);
  RUN(read_type_mismatch);
  RUN(malformed_files);
  RUN(every_truncation_fails_cleanly);
  RUN(allocation_failures);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmpdir);
  return test_summary("test_npy");
}
