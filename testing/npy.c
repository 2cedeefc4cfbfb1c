/* .npy files <-> literals (cxla_npy_read / cxla_npy_write, see cxla.h).
 *
 * The format (numpy's NEP 1): the magic "\x93NUMPY", a major and a minor
 * version byte, the header length (2 bytes little-endian in version 1.x, 4
 * bytes in 2.x and 3.x), then the header: a Python dict literal such as
 *   {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
 * padded with spaces and a final '\n', then the raw element data.
 *
 * Reading accepts every simple dtype whose element cxla has (booleans,
 * integers, floats, complex), in either byte order and either memory order,
 * and converts to a cxla literal (host byte order, row-major). Nothing in a
 * file is trusted: header, shape and data length are all checked against the
 * file's real size before anything is allocated.
 *
 * Types numpy lacks (bf16, the f8 family, f4e2m1fn) follow the corpus
 * convention: they are stored as unsigned integers of the same width holding
 * the raw bits; s2/s4/u2/u4 are stored as 8-bit integers holding the value. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "ir/ir.h"
#include "testing/npy.h"

#define NPY_MAGIC "\x93NUMPY"
#define NPY_MAGIC_LEN 6
#define NPY_MAX_RANK 32
/* Real headers are a few hundred bytes; anything far larger is malformed. */
#define NPY_MAX_HEADER (1 << 20)

/* ---- byte order --------------------------------------------------------------- */

static bool host_is_little(void) {
  const uint16_t one = 1;
  unsigned char b;
  memcpy(&b, &one, 1);
  return b == 1;
}

/* Reverses each `unit`-byte group of buf in place. */
static void swap_units(unsigned char *buf, size_t nbytes, int unit) {
  if (unit <= 1) return;
  for (size_t off = 0; off + (size_t)unit <= nbytes; off += (size_t)unit)
    for (int i = 0, j = unit - 1; i < j; i++, j--) {
      unsigned char t = buf[off + i];
      buf[off + i] = buf[off + j];
      buf[off + j] = t;
    }
}

/* The byte-swap unit of a cxla element type: complex numbers swap each part. */
static int swap_unit(ElemType t) {
  return type_is_complex(t) ? type_bytes(t) / 2 : type_bytes(t);
}

/* ---- dtype strings -------------------------------------------------------- */

/* The cxla type numpy's type character + size describe, or false. */
static bool type_of_descr(char kind, int size, ElemType *out) {
  static const struct {
    char kind;
    int size;
    ElemType type;
  } table[] = {
      {'b', 1, T_PRED}, {'i', 1, T_S8},  {'i', 2, T_S16}, {'i', 4, T_S32},
      {'i', 8, T_S64},  {'u', 1, T_U8},  {'u', 2, T_U16}, {'u', 4, T_U32},
      {'u', 8, T_U64},  {'f', 2, T_F16}, {'f', 4, T_F32}, {'f', 8, T_F64},
      {'c', 8, T_C64},  {'c', 16, T_C128},
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (table[i].kind == kind && table[i].size == size) {
      *out = table[i].type;
      return true;
    }
  return false;
}

/* The type a literal of type t is written as (the storage convention above),
 * and its numpy type character; false for types that cannot be written. */
static bool storage_of(ElemType t, ElemType *store, char *kind) {
  switch (t) {
  case T_PRED: *store = t; *kind = 'b'; return true;
  case T_S2: case T_S4: *store = T_S8; *kind = 'i'; return true;
  case T_U2: case T_U4: *store = T_U8; *kind = 'u'; return true;
  case T_S8: case T_S16: case T_S32: case T_S64: *store = t; *kind = 'i'; return true;
  case T_U8: case T_U16: case T_U32: case T_U64: *store = t; *kind = 'u'; return true;
  case T_F16: case T_F32: case T_F64: *store = t; *kind = 'f'; return true;
  case T_BF16: *store = T_U16; *kind = 'u'; return true;
  case T_C64: case T_C128: *store = t; *kind = 'c'; return true;
  default:
    if (type_is_float(t) && type_bytes(t) == 1) { /* f8 and f4 types: raw bits */
      *store = T_U8;
      *kind = 'u';
      return true;
    }
    return false;
  }
}

/* ---- the header dict ---------------------------------------------------------- */

typedef struct Header {
  char byteorder;  /* '<', '>', '|' or '=' */
  char kind;       /* 'b', 'i', 'u', 'f', 'c' */
  int size;        /* bytes per element */
  bool fortran;
  int rank;
  int64_t dims[NPY_MAX_RANK];
  bool have_descr, have_fortran, have_shape;
} Header;

typedef struct Cursor {
  const char *p, *end;
  const char *path;
} Cursor;

static void skip_ws(Cursor *c) {
  while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
    c->p++;
}

static bool eat(Cursor *c, char ch) {
  skip_ws(c);
  if (c->p < c->end && *c->p == ch) {
    c->p++;
    return true;
  }
  return false;
}

static cxla_status bad_header(const Cursor *c, const char *what) {
  return ERR(INVALID_ARGUMENT, "%s: malformed .npy header: %s", c->path, what);
}

/* A Python string literal in single or double quotes, without escapes (numpy
 * never writes any in the keys and values we accept). */
static cxla_status parse_pystr(Cursor *c, const char **s, size_t *n) {
  skip_ws(c);
  if (c->p >= c->end || (*c->p != '\'' && *c->p != '"')) return bad_header(c, "expected a string");
  char q = *c->p++;
  const char *start = c->p;
  while (c->p < c->end && *c->p != q) {
    if (*c->p == '\\') return bad_header(c, "escapes in strings are not supported");
    c->p++;
  }
  if (c->p >= c->end) return bad_header(c, "unterminated string");
  *s = start;
  *n = (size_t)(c->p - start);
  c->p++;
  return NULL;
}

static cxla_status parse_descr(Cursor *c, Header *h) {
  skip_ws(c);
  if (c->p < c->end && *c->p == '[')
    return ERR(UNIMPLEMENTED, "%s: structured .npy dtypes are not supported", c->path);
  const char *s;
  size_t n;
  TRY(parse_pystr(c, &s, &n));
  if (n < 3 || n > 4 || !strchr("<>|=", s[0]))
    return ERR(UNIMPLEMENTED, "%s: unsupported .npy dtype '%.*s'", c->path, (int)(n > 32 ? 32 : n), s);
  int size = 0;
  for (size_t i = 2; i < n; i++) {
    if (s[i] < '0' || s[i] > '9')
      return ERR(UNIMPLEMENTED, "%s: unsupported .npy dtype '%.*s'", c->path, (int)n, s);
    size = size * 10 + (s[i] - '0');
  }
  ElemType t;
  if (!type_of_descr(s[1], size, &t))
    return ERR(UNIMPLEMENTED, "%s: unsupported .npy dtype '%.*s'", c->path, (int)n, s);
  h->byteorder = s[0];
  h->kind = s[1];
  h->size = size;
  h->have_descr = true;
  return NULL;
}

static cxla_status parse_bool(Cursor *c, bool *out) {
  skip_ws(c);
  size_t left = (size_t)(c->end - c->p);
  if (left >= 4 && memcmp(c->p, "True", 4) == 0) {
    c->p += 4;
    *out = true;
  } else if (left >= 5 && memcmp(c->p, "False", 5) == 0) {
    c->p += 5;
    *out = false;
  } else {
    return bad_header(c, "fortran_order must be True or False");
  }
  return NULL;
}

/* A shape tuple: (), (3,), (3, 4), with an optional trailing comma. Python 2
 * era files may carry an 'L' suffix on the numbers. */
static cxla_status parse_shape(Cursor *c, Header *h) {
  if (!eat(c, '(')) return bad_header(c, "shape must be a tuple");
  h->rank = 0;
  for (;;) {
    if (eat(c, ')')) break;
    skip_ws(c);
    if (c->p >= c->end || *c->p < '0' || *c->p > '9')
      return bad_header(c, "shape entries must be non-negative integers");
    int64_t v = 0;
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
      if (!mul_i64(v, 10, &v) || !add_i64(v, *c->p - '0', &v))
        return ERR(RESOURCE_EXHAUSTED, "%s: .npy shape entry is too large", c->path);
      c->p++;
    }
    if (c->p < c->end && *c->p == 'L') c->p++;
    if (h->rank == NPY_MAX_RANK)
      return ERR(UNIMPLEMENTED, "%s: .npy rank above %d", c->path, NPY_MAX_RANK);
    h->dims[h->rank++] = v;
    if (eat(c, ',')) continue;
    if (eat(c, ')')) break;
    return bad_header(c, "expected ',' or ')' in shape");
  }
  h->have_shape = true;
  return NULL;
}

static cxla_status parse_header(const char *text, size_t len, const char *path, Header *h) {
  memset(h, 0, sizeof *h);
  Cursor c = {text, text + len, path};
  if (!eat(&c, '{')) return bad_header(&c, "expected '{'");
  for (;;) {
    if (eat(&c, '}')) break;
    const char *key;
    size_t n;
    TRY(parse_pystr(&c, &key, &n));
    if (!eat(&c, ':')) return bad_header(&c, "expected ':' after a key");
    if (n == 5 && memcmp(key, "descr", 5) == 0 && !h->have_descr) {
      TRY(parse_descr(&c, h));
    } else if (n == 13 && memcmp(key, "fortran_order", 13) == 0 && !h->have_fortran) {
      TRY(parse_bool(&c, &h->fortran));
      h->have_fortran = true;
    } else if (n == 5 && memcmp(key, "shape", 5) == 0 && !h->have_shape) {
      TRY(parse_shape(&c, h));
    } else {
      return bad_header(&c, "unexpected or repeated key");
    }
    if (eat(&c, ',')) continue;
    if (eat(&c, '}')) break;
    return bad_header(&c, "expected ',' or '}'");
  }
  skip_ws(&c);
  if (c.p != c.end) return bad_header(&c, "trailing characters after the dict");
  if (!h->have_descr || !h->have_fortran || !h->have_shape)
    return bad_header(&c, "missing 'descr', 'fortran_order' or 'shape'");
  return NULL;
}

/* ---- reading ------------------------------------------------------------------- */

/* Reads exactly n bytes or fails. */
static cxla_status read_exact(FILE *f, void *buf, size_t n, const char *path, const char *what) {
  if (n && fread(buf, 1, n, f) != n)
    return ERR(INVALID_ARGUMENT, "%s: truncated .npy file (%s)", path, what);
  return NULL;
}

/* Reorders column-major `src` into the row-major data of l. */
static void fortran_to_row_major(const unsigned char *src, Literal *l) {
  int64_t esz = type_bytes(l->type);
  int64_t idx[NPY_MAX_RANK] = {0};
  int64_t colstride[NPY_MAX_RANK];
  int64_t s = 1;
  for (int d = 0; d < l->rank; d++) {
    colstride[d] = s;
    s *= l->dims[d];
  }
  unsigned char *dst = l->data;
  for (int64_t i = 0; i < l->nelems; i++) {
    int64_t off = 0;
    for (int d = 0; d < l->rank; d++) off += idx[d] * colstride[d];
    memcpy(dst + i * esz, src + off * esz, (size_t)esz);
    for (int d = l->rank - 1; d >= 0; d--) { /* row-major odometer */
      if (++idx[d] < l->dims[d]) break;
      idx[d] = 0;
    }
  }
}

/* Converts the literal read as stored type to `as`, or explains why not. */
static cxla_status convert_as(Literal **lp, ElemType as, const char *path) {
  Literal *l = *lp;
  ElemType st = l->type;
  if (as == T_COUNT || as == st) return NULL;
  bool raw16 = (as == T_BF16 || as == T_F16) && (st == T_U16 || st == T_S16);
  bool raw8 = type_is_float(as) && type_bytes(as) == 1 && (st == T_U8 || st == T_S8);
  bool small_int = (as == T_S2 || as == T_S4 || as == T_U2 || as == T_U4) &&
                   (st == T_S8 || st == T_U8);
  if (!raw16 && !raw8 && !small_int)
    return ERR(INVALID_ARGUMENT, "%s: holds %s data, expected %s", path, type_name(st),
               type_name(as));
  if (raw16 || raw8) { /* same width: the bits are already the value */
    if (as == T_F4E2M1FN)
      for (int64_t i = 0; i < l->nelems; i++) ((unsigned char *)l->data)[i] &= 0x0f;
    l->type = as;
    return NULL;
  }
  /* s2/s4/u2/u4: one byte per element too; the value must fit the type. */
  int bits = type_bits(as);
  bool is_signed = type_kind(as) == TK_SINT;
  int64_t lo = is_signed ? -((int64_t)1 << (bits - 1)) : 0;
  int64_t hi = is_signed ? ((int64_t)1 << (bits - 1)) - 1 : ((int64_t)1 << bits) - 1;
  for (int64_t i = 0; i < l->nelems; i++) {
    int64_t v = literal_get_i64(l, i);
    if (v < lo || v > hi)
      return ERR(INVALID_ARGUMENT, "%s: element %lld (%lld) does not fit in %s", path,
                 (long long)i, (long long)v, type_name(as));
  }
  l->type = as;
  for (int64_t i = 0; i < l->nelems; i++) { /* re-store: s2/s4 sign-extended */
    unsigned char byte = ((unsigned char *)l->data)[i];
    literal_set_i64(l, i, st == T_S8 ? (int64_t)(int8_t)byte : (int64_t)byte);
  }
  return NULL;
}

/* Reads the magic, version and header dict; *data_at: where the data starts,
 * *fsize: the file's size. */
static cxla_status npy_read_header(FILE *f, const char *path, Header *h, int64_t *data_at,
                                   int64_t *fsize_out) {
  struct stat sb;
  if (fstat(fileno(f), &sb) != 0) return ERR(IO, "%s: %s", path, strerror(errno));
  if (!S_ISREG(sb.st_mode)) return ERR(INVALID_ARGUMENT, "%s: not a regular file", path);
  int64_t fsize = (int64_t)sb.st_size;

  unsigned char pre[12];
  TRY(read_exact(f, pre, 8, path, "no magic"));
  if (memcmp(pre, NPY_MAGIC, NPY_MAGIC_LEN) != 0)
    return ERR(INVALID_ARGUMENT, "%s: not a .npy file (bad magic)", path);
  int major = pre[6];
  int64_t hlen, prefix;
  if (major == 1) {
    TRY(read_exact(f, pre + 8, 2, path, "header length"));
    hlen = pre[8] | (pre[9] << 8);
    prefix = 10;
  } else if (major == 2 || major == 3) {
    TRY(read_exact(f, pre + 8, 4, path, "header length"));
    hlen = (int64_t)pre[8] | ((int64_t)pre[9] << 8) | ((int64_t)pre[10] << 16) |
           ((int64_t)pre[11] << 24);
    prefix = 12;
  } else {
    return ERR(UNIMPLEMENTED, "%s: .npy format version %d.%d is not supported", path, major,
               pre[7]);
  }
  if (hlen > NPY_MAX_HEADER || prefix + hlen > fsize)
    return ERR(INVALID_ARGUMENT, "%s: truncated .npy header (%lld bytes announced)", path,
               (long long)hlen);
  char *text = cxla_malloc((size_t)hlen + 1);
  if (!text) return cxla_oom();
  cxla_status st = read_exact(f, text, (size_t)hlen, path, "header");
  if (!st) {
    text[hlen] = 0;
    if (memchr(text, 0, (size_t)hlen)) st = ERR(INVALID_ARGUMENT, "%s: NUL byte in .npy header", path);
    else st = parse_header(text, (size_t)hlen, path, h);
  }
  cxla_free(text);
  *data_at = prefix + hlen;
  *fsize_out = fsize;
  return st;
}

static cxla_status npy_read_file(FILE *f, const char *path, ElemType as, Literal **out) {
  Header h;
  int64_t data_at, fsize;
  TRY(npy_read_header(f, path, &h, &data_at, &fsize));

  ElemType t = T_U8;
  type_of_descr(h.kind, h.size, &t); /* known valid: parse_descr checked it */
  /* Size checks before allocating: the data must really be in the file. */
  int64_t n = 1, bytes;
  for (int i = 0; i < h.rank; i++)
    if (!mul_i64(n, h.dims[i], &n))
      return ERR(INVALID_ARGUMENT, "%s: .npy shape overflows", path);
  if (!mul_i64(n, h.size, &bytes))
    return ERR(INVALID_ARGUMENT, "%s: .npy shape overflows", path);
  if (bytes > fsize - data_at)
    return ERR(INVALID_ARGUMENT, "%s: .npy data is shorter than its shape says (%lld bytes "
               "expected, %lld present)", path, (long long)bytes, (long long)(fsize - data_at));

  Literal *l;
  TRY(literal_create(t, h.rank, h.dims, &l));
  unsigned char *buf = l->data;
  unsigned char *tmp = NULL;
  if (h.fortran && h.rank > 1 && bytes) {
    tmp = cxla_malloc((size_t)bytes);
    if (!tmp) {
      literal_free(l);
      return cxla_oom();
    }
    buf = tmp;
  }
  cxla_status st = read_exact(f, buf, (size_t)bytes, path, "data");
  if (!st) {
    bool file_little = h.byteorder != '>' && (h.byteorder != '=' || host_is_little());
    if (h.size > 1 && file_little != host_is_little())
      swap_units(buf, (size_t)bytes, swap_unit(t));
    if (tmp) fortran_to_row_major(tmp, l);
    if (t == T_PRED) /* numpy bools are 0/1, but do not trust the file */
      for (int64_t i = 0; i < n; i++) ((unsigned char *)l->data)[i] = ((unsigned char *)l->data)[i] != 0;
    st = convert_as(&l, as, path);
  }
  cxla_free(tmp);
  if (st) {
    literal_free(l);
    return st;
  }
  *out = l;
  return NULL;
}

cxla_status cxla_npy_read(const char *path, cxla_type as, cxla_literal **out) {
  *out = NULL;
  if ((unsigned)as > T_COUNT || (as != T_COUNT && !type_is_array(as)))
    return ERR(INVALID_ARGUMENT, "cxla_npy_read: bad target type");
  FILE *f = fopen(path, "rb");
  if (!f)
    return cxla_status_make(errno == ENOENT ? CXLA_NOT_FOUND : CXLA_IO, "%s: %s", path,
                            strerror(errno));
  cxla_status st = npy_read_file(f, path, as, out);
  fclose(f);
  return st;
}

cxla_status cxla_npy_read_shape(const char *path, int *rank, int64_t *dims, int max_rank) {
  *rank = 0;
  FILE *f = fopen(path, "rb");
  if (!f)
    return cxla_status_make(errno == ENOENT ? CXLA_NOT_FOUND : CXLA_IO, "%s: %s", path,
                            strerror(errno));
  Header h;
  int64_t data_at, fsize;
  cxla_status st = npy_read_header(f, path, &h, &data_at, &fsize);
  fclose(f);
  if (st) return st;
  if (h.rank > max_rank) return ERR(UNIMPLEMENTED, "%s: rank %d is too large", path, h.rank);
  *rank = h.rank;
  for (int i = 0; i < h.rank; i++) dims[i] = h.dims[i];
  return NULL;
}

/* ---- writing ------------------------------------------------------------------- */

/* The header (without the 10/12-byte prefix), padded so that the data starts
 * at a multiple of 64 bytes as numpy does. */
static char *make_header(const Literal *l, char kind, int size, int *version, size_t *len) {
  StrBuf b;
  sb_init(&b);
  char order = size == 1 ? '|' : '<';
  sb_printf(&b, "{'descr': '%c%c%d', 'fortran_order': False, 'shape': (", order, kind, size);
  for (int i = 0; i < l->rank; i++)
    sb_printf(&b, "%s%lld", i ? ", " : "", (long long)l->dims[i]);
  sb_puts(&b, l->rank == 1 ? ",), }" : "), }");
  if (b.oom) {
    sb_free(&b);
    return NULL;
  }
  *version = b.len + 1 + 10 > 65535 ? 2 : 1;
  size_t prefix = *version == 1 ? 10 : 12;
  while ((prefix + b.len + 1) % 64 != 0) sb_putc(&b, ' ');
  sb_putc(&b, '\n');
  *len = b.len;
  return sb_take(&b);
}

static cxla_status write_all(FILE *f, const void *p, size_t n, const char *path) {
  if (n && fwrite(p, 1, n, f) != n) return ERR(IO, "%s: write failed: %s", path, strerror(errno));
  return NULL;
}

static cxla_status npy_write_file(FILE *f, const char *path, const Literal *l, ElemType store,
                                  char kind) {
  int size = type_bytes(store);
  int version;
  size_t hlen;
  char *header = make_header(l, kind, size, &version, &hlen);
  if (!header) return cxla_oom();
  unsigned char pre[12];
  memcpy(pre, NPY_MAGIC, NPY_MAGIC_LEN);
  pre[6] = (unsigned char)version;
  pre[7] = 0;
  size_t plen;
  if (version == 1) {
    pre[8] = (unsigned char)(hlen & 0xff);
    pre[9] = (unsigned char)(hlen >> 8);
    plen = 10;
  } else {
    for (int i = 0; i < 4; i++) pre[8 + i] = (unsigned char)(hlen >> (8 * i));
    plen = 12;
  }
  cxla_status st = write_all(f, pre, plen, path);
  if (!st) st = write_all(f, header, hlen, path);
  cxla_free(header);
  if (st) return st;
  size_t bytes = (size_t)(l->nelems * size);
  if (host_is_little() || size == 1) return write_all(f, l->data, bytes, path);
  /* A big-endian host writes a swapped copy: the file is always '<'. */
  unsigned char *copy = cxla_malloc(bytes ? bytes : 1);
  if (!copy) return cxla_oom();
  memcpy(copy, l->data, bytes);
  swap_units(copy, bytes, swap_unit(store));
  st = write_all(f, copy, bytes, path);
  cxla_free(copy);
  return st;
}

cxla_status cxla_npy_write(const char *path, const cxla_literal *l) {
  ElemType store;
  char kind;
  if (l->type == T_TUPLE)
    return ERR(INVALID_ARGUMENT, "%s: a tuple cannot be written as one .npy file", path);
  if (!storage_of(l->type, &store, &kind))
    return ERR(UNIMPLEMENTED, "%s: %s arrays cannot be written as .npy", path, type_name(l->type));
  if (l->unknown)
    return ERR(FAILED_PRECONDITION, "%s: the literal has no data (elided constant)", path);
  FILE *f = fopen(path, "wb");
  if (!f) return ERR(IO, "%s: %s", path, strerror(errno));
  cxla_status st = npy_write_file(f, path, l, store, kind);
  if (fclose(f) != 0 && !st) st = ERR(IO, "%s: %s", path, strerror(errno));
  if (st) remove(path);
  return st;
}
