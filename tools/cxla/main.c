/* cxla: the command-line tool. Dispatches to one subcommand per file
 * (cmd_*.c); see common.h for the exit-status conventions. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "common.h"

typedef struct Command {
  const char *name;
  int (*fn)(int argc, char **argv);
  const char *summary;
} Command;

static const Command commands[] = {
    {"run", cmd_run, "compile an HLO module for a backend and run it"},
    {"check", cmd_check, "parse and verify an HLO module"},
    {"fmt", cmd_fmt, "print an HLO module in canonical form"},
    {"conform", cmd_conform, "run conformance cases and compare with XLA's results"},
    {"opt", cmd_opt, "run the optimizer's passes and print the optimized module"},
    {"bench", cmd_bench, "time a module's parse, optimize, compile and run stages"},
};

static void print_usage(FILE *f) {
  fprintf(f,
          "usage: cxla COMMAND [ARGS...]\n"
          "\n"
          "cxla reads XLA's HLO text, verifies it and runs it.\n"
          "\n"
          "commands:\n");
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
  fprintf(f, "\nrun 'cxla COMMAND --help' for a command's options.\n");
}

/* OpenBLAS starts its worker threads when it loads, and they busy-wait
 * for about 0.1 s before they sleep: in a short run's first executions
 * they take cores from cxla's own threads (a 3x3 convolution measured
 * 4 -> 8 ms). cxla runs OpenBLAS on one thread (src/cpu/blas_threads.c),
 * so this process sets that count now and ends the workers at once,
 * through OpenBLAS's own shutdown entry (what it runs before a fork;
 * OpenBLAS starts them again if a later call wants them). In that order:
 * setting a count restarts stopped workers. Found by name: a BLAS
 * without these entries is left as it is. Called before any other thread
 * exists, so no call is inside OpenBLAS. */
static void stop_blas_workers(void) {
  void (*set_threads)(int) = NULL;
  int (*shutdown)(void) = NULL;
  *(void **)&set_threads = dlsym(RTLD_DEFAULT, "openblas_set_num_threads");
  *(void **)&shutdown = dlsym(RTLD_DEFAULT, "blas_thread_shutdown_");
  if (!set_threads || !shutdown) return;
  set_threads(1);
  shutdown();
}

int main(int argc, char **argv) {
  stop_blas_workers();
  if (argc < 2) {
    print_error("missing command");
    print_usage(stderr);
    return EXIT_USAGE;
  }
  const char *name = argv[1];
  if (is_help(name) || strcmp(name, "help") == 0) {
    if (argc > 2 && strcmp(name, "help") == 0) {
      /* "cxla help run" is "cxla run --help" */
      for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[2], commands[i].name) == 0) {
          char *help_argv[] = {argv[2], (char *)"--help", NULL};
          return commands[i].fn(2, help_argv);
        }
      return usage_error("--help", "unknown command '%s'", argv[2]);
    }
    print_usage(stdout);
    return EXIT_OK;
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (strcmp(name, commands[i].name) == 0) return commands[i].fn(argc - 1, argv + 1);
  print_error("unknown command '%s'", name);
  print_usage(stderr);
  return EXIT_USAGE;
}
