/* common.h: helpers shared by the cxla subcommands.
 *
 * Conventions: every subcommand is `int cmd_X(int argc, char **argv)` with
 * argv[0] the subcommand's name; it returns the process exit status:
 *   0 success, EXIT_INPUT (1) bad input or a failed run, EXIT_USAGE (2) bad
 *   command line.
 * Messages for the user go to stderr as "error: ..." (warnings "warning:
 * ..."); results go to stdout. */
#ifndef CXLA_TOOL_COMMON_H
#define CXLA_TOOL_COMMON_H

#include <stdbool.h>
#include <stddef.h>

#include "cxla/cxla.h"

enum { EXIT_OK = 0, EXIT_INPUT = 1, EXIT_USAGE = 2 };

/* Prints "error: <message>" to stderr. */
void print_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void print_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A copy of a status message (cxla_malloc'd; NULL on OOM) without the
 * "error: " that the parser puts after "file:line:col: ". */
char *tidy_message(const char *msg);
/* Prints "error: <status message>", frees s, returns EXIT_INPUT. */
int fail_status(cxla_status s);
/* Prints "error: <message>" and a hint to run `cxla CMD --help`; returns
 * EXIT_USAGE. */
int usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Command-line scanning. Options may appear anywhere; "--" ends them.
 * is_flag: argv[*i] is exactly --name. take_value: argv[*i] is --name=V or
 * --name followed by V (then *i advances past V); *missing is set when the
 * value is absent. */
bool is_flag(const char *arg, const char *name);
bool is_help(const char *arg);
bool take_value(int argc, char **argv, int *i, const char *name, const char **value,
                bool *missing);
/* Parses a non-negative decimal integer (whole string); false if invalid. */
bool parse_u64(const char *s, unsigned long long *out);

/* Reads a whole file (up to 1 GiB) into a NUL-terminated cxla_malloc'd
 * buffer; errors name the path. */
cxla_status read_text_file(const char *path, char **out, size_t *len);
/* Reads and parses an HLO module; verifies it when `verify`. */
cxla_status load_module(const char *path, bool verify, cxla_module **out);
/* The same, for StableHLO with dynamic dimensions specialized to argument
 * shapes (nargs < 0: none; see cxla_module_parse_refined). */
cxla_status load_module_refined(const char *path, bool verify, const cxla_arg_shape *args,
                                int nargs, cxla_module **out);

/* "f32[2,3]" for the entry's parameter i (or "tuple"/"token"). */
void describe_parameter(const cxla_module *m, int i, char *buf, size_t n);

#endif
