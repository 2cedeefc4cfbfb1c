/* Printing results for `cxla run`: a one-line summary or every value. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ir/ir.h"
#include "run_support.h"
#include "testing/compare.h"

enum { FIRST_VALUES = 6 };

/* Summaries show floats with 6 significant digits (--print shows them
 * exactly); integers and pred as they are. */
static void format_compact(const Literal *l, int64_t i, char *buf, size_t n) {
  if (type_is_complex(l->type)) {
    const unsigned char *p = (const unsigned char *)l->data + i * type_bytes(l->type);
    double re, im;
    if (l->type == T_C64) {
      float f[2];
      memcpy(f, p, sizeof f);
      re = f[0], im = f[1];
    } else {
      double d[2];
      memcpy(d, p, sizeof d);
      re = d[0], im = d[1];
    }
    snprintf(buf, n, "(%.6g, %.6g)", re, im);
  } else if (type_is_float(l->type)) {
    snprintf(buf, n, "%.6g", literal_get_f64(l, i));
  } else {
    literal_format_element(l, i, buf, n);
  }
}

static void print_first_values(FILE *f, const Literal *l) {
  char buf[96];
  fputc('[', f);
  int64_t n = l->nelems < FIRST_VALUES ? l->nelems : FIRST_VALUES;
  for (int64_t i = 0; i < n; i++) {
    format_compact(l, i, buf, sizeof buf);
    fprintf(f, "%s%s", i ? ", " : "", buf);
  }
  fputs(l->nelems > n ? ", ...]" : "]", f);
}

/* min/max/mean over the non-NaN values (real parts for complex numbers). */
static void print_stats(FILE *f, const Literal *l) {
  char lo[64], hi[64];
  int64_t nan = 0, count = 0, imin = -1, imax = -1;
  double sum = 0, vmin = 0, vmax = 0;
  bool is_int = type_is_int(l->type);
  for (int64_t i = 0; i < l->nelems; i++) {
    double v = literal_get_f64(l, i);
    if (isnan(v)) {
      nan++;
      continue;
    }
    if (count == 0 || v < vmin) vmin = v, imin = i;
    if (count == 0 || v > vmax) vmax = v, imax = i;
    sum += v;
    count++;
  }
  if (count) {
    if (is_int || !type_is_complex(l->type)) {
      format_compact(l, imin, lo, sizeof lo); /* exact for ints */
      format_compact(l, imax, hi, sizeof hi);
    } else {
      snprintf(lo, sizeof lo, "%.6g", vmin);
      snprintf(hi, sizeof hi, "%.6g", vmax);
    }
    fprintf(f, " min=%s max=%s mean=%.6g", lo, hi, sum / (double)count);
  }
  if (nan) fprintf(f, " nan=%lld", (long long)nan);
  if (type_is_complex(l->type)) fputs(" (real parts)", f);
}

void print_summary(FILE *f, cxla_literal *l) {
  char shape[256];
  format_shape(l->type, l->rank, l->dims, shape, sizeof shape);
  fputs(shape, f);
  if (type_is_array(l->type) && l->nelems == 0) {
    fputs(" (empty)\n", f);
    return;
  }
  if (!type_is_array(l->type) || !l->data) {
    fputc('\n', f);
    return;
  }
  if (l->type == T_PRED) {
    int64_t t = 0;
    for (int64_t i = 0; i < l->nelems; i++) t += ((unsigned char *)l->data)[i] != 0;
    fprintf(f, " true=%lld", (long long)t);
  } else if (l->nelems > 1) {
    print_stats(f, l);
  }
  fputc(' ', f);
  print_first_values(f, l);
  fputc('\n', f);
}

/* Elements [offset, offset + prod(dims[d..])) as nested lists. */
static void print_nested(FILE *f, const Literal *l, int d, int64_t offset, int64_t stride,
                         int indent) {
  char buf[96];
  if (d == l->rank) {
    literal_format_element(l, offset, buf, sizeof buf);
    fputs(buf, f);
    return;
  }
  int64_t inner = stride / (l->dims[d] ? l->dims[d] : 1);
  fputc('[', f);
  for (int64_t i = 0; i < l->dims[d]; i++) {
    if (i) {
      if (d == l->rank - 1) {
        fputs(", ", f);
      } else { /* one row per line, aligned under the opening bracket */
        fputs(",\n", f);
        for (int k = 0; k <= indent; k++) fputc(' ', f);
      }
    }
    print_nested(f, l, d + 1, offset + i * inner, inner, indent + 1);
  }
  fputc(']', f);
}

void print_values(FILE *f, cxla_literal *l) {
  char shape[256];
  format_shape(l->type, l->rank, l->dims, shape, sizeof shape);
  fprintf(f, "%s\n", shape);
  if (!type_is_array(l->type) || (!l->data && l->nelems)) return;
  print_nested(f, l, 0, 0, l->nelems, 0);
  fputc('\n', f);
}
