/* Helpers shared by the cxla subcommands; see common.h. */
#include "common.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ir/ir.h"
#include "testing/compare.h"

#define MAX_TEXT_FILE ((long long)1 << 30)

static void vprint(const char *prefix, const char *fmt, va_list ap) {
  fflush(stdout); /* keep stdout and stderr in order on a terminal */
  fprintf(stderr, "%s: ", prefix);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
}

void print_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vprint("error", fmt, ap);
  va_end(ap);
}

void print_warning(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vprint("warning", fmt, ap);
  va_end(ap);
}

/* Length of a "file:line:col" prefix ending at msg[end) ("x.hlo:6:28"), or
 * false if the text before `end` does not end in ":digits:digits". */
static bool ends_with_position(const char *msg, size_t end) {
  size_t i = end;
  for (int field = 0; field < 2; field++) {
    size_t digits = 0;
    while (i > 0 && msg[i - 1] >= '0' && msg[i - 1] <= '9') i--, digits++;
    if (!digits || i == 0 || msg[i - 1] != ':') return false;
    i--;
  }
  return i > 0;
}

char *tidy_message(const char *msg) {
  /* The parser writes "file:line:col: error: message" like a compiler; we
   * print "error: " ourselves, so drop the inner one. */
  const char *nl = strchr(msg, '\n');
  const char *hit = strstr(msg, ": error: ");
  if (hit && (!nl || hit < nl) && ends_with_position(msg, (size_t)(hit - msg)))
    return cxla_format("%.*s: %s", (int)(hit - msg), msg, hit + 9);
  return cxla_strdup(msg);
}

int fail_status(cxla_status s) {
  char *msg = tidy_message(cxla_status_message(s));
  print_error("%s", msg ? msg : cxla_status_message(s));
  cxla_free(msg);
  cxla_status_free(s);
  return EXIT_INPUT;
}

int usage_error(const char *cmd, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vprint("error", fmt, ap);
  va_end(ap);
  fprintf(stderr, "run 'cxla %s --help' for usage\n", cmd);
  return EXIT_USAGE;
}

bool is_flag(const char *arg, const char *name) {
  return arg[0] == '-' && arg[1] == '-' && strcmp(arg + 2, name) == 0;
}

bool is_help(const char *arg) { return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0; }

bool take_value(int argc, char **argv, int *i, const char *name, const char **value,
                bool *missing) {
  const char *a = argv[*i];
  size_t n = strlen(name);
  *missing = false;
  if (a[0] != '-' || a[1] != '-' || strncmp(a + 2, name, n) != 0) return false;
  if (a[2 + n] == '=') {
    *value = a + 3 + n;
    return true;
  }
  if (a[2 + n] != 0) return false;
  if (*i + 1 >= argc) {
    *missing = true;
    return true;
  }
  *value = argv[++*i];
  return true;
}

bool parse_u64(const char *s, unsigned long long *out) {
  if (!*s) return false;
  unsigned long long v = 0;
  for (const char *p = s; *p; p++) {
    if (*p < '0' || *p > '9') return false;
    unsigned d = (unsigned)(*p - '0');
    if (v > (~0ull - d) / 10) return false;
    v = v * 10 + d;
  }
  *out = v;
  return true;
}

cxla_status read_text_file(const char *path, char **out, size_t *len) {
  return cxla_read_file(path, MAX_TEXT_FILE, out, len);
}

cxla_status load_module(const char *path, bool verify, cxla_module **out) {
  return load_module_refined(path, verify, NULL, -1, out);
}

cxla_status load_module_refined(const char *path, bool verify, const cxla_arg_shape *args,
                                int nargs, cxla_module **out) {
  *out = NULL;
  char *text;
  size_t len;
  TRY(read_text_file(path, &text, &len));
  cxla_module *m;
  cxla_status s = nargs >= 0 ? cxla_module_parse_refined(text, len, path, args, nargs, &m)
                             : cxla_module_parse(text, len, path, &m);
  cxla_free(text);
  if (s) return s;
  if (verify && (s = cxla_module_verify(m))) {
    cxla_module_destroy(m);
    return cxla_status_annotate(s, "%s: verification failed", path);
  }
  *out = m;
  return NULL;
}

void describe_parameter(const cxla_module *m, int i, char *buf, size_t n) {
  cxla_type t;
  int rank;
  const int64_t *dims;
  cxla_status s = cxla_module_parameter(m, i, &t, &rank, &dims);
  if (s) {
    snprintf(buf, n, "?");
    cxla_status_free(s);
    return;
  }
  if (t == CXLA_TUPLE || t == CXLA_TOKEN || t == CXLA_OPAQUE) {
    snprintf(buf, n, "%s", cxla_type_name(t));
    return;
  }
  format_shape(t, rank, dims, buf, n);
}
