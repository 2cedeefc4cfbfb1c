/* The randomized differential test of the optimizer: for each seed, a
 * random valid module (tests/gen/random_hlo.c) runs on the interpreter
 * before and after the default pipeline (verifying after every pass), and
 * the results must agree bit for bit (NaN payloads aside, and subnormals
 * against zeros of the same sign: see same_bits). The optimized module
 * must also print and parse back.
 *
 *   test_random_diff [DIR]           the fixed seeds 1..kSeeds and one seed
 *                                    from the clock (printed); DIR (the
 *                                    corpus, which tests/run.sh passes every
 *                                    unit test) is ignored
 *   test_random_diff [--seed] SEED   that seed only, printing the module
 *                                    before and after
 *   test_random_diff --from S --count N   seeds S..S+N-1 (bulk runs)
 *
 * A failure prints the seed, what differed, and which registered passes,
 * run alone, already change the result. */
#include <stdlib.h>
#include <time.h>

#include "harness.h"
#include "../gen/random_hlo.c"
#include "passes/pass.h"
#include "verify/verify.h"

enum { kSeeds = 1000 };

typedef struct Tally {
  int ran, skipped, failed;
} Tally;

static HloModule *parse_text(const char *text, cxla_status *st) {
  cxla_module *m = NULL;
  *st = cxla_module_parse(text, strlen(text), "random", &m);
  return m;
}

static cxla_status run_interp(const HloModule *m, Literal **args, int n, Literal **out) {
  return cxla_interp_run(m, args, n, out);
}

static void print_module(const char *label, const HloModule *m) {
  char *t = NULL;
  cxla_status st = cxla_module_print(m, &t);
  printf("---- %s ----\n%s\n", label, st ? cxla_status_message(st) : t);
  cxla_status_free(st);
  cxla_free(t);
}

/* The optimized module prints, parses back and verifies. */
static cxla_status round_trip(const HloModule *m) {
  char *t = NULL;
  TRY(cxla_module_print(m, &t));
  cxla_module *again = NULL;
  cxla_status st = cxla_module_parse(t, strlen(t), "optimized", &again);
  if (!st) st = verify_module(again);
  module_destroy(again);
  cxla_free(t);
  return st;
}

/* Which registered passes, each run alone, change the result or fail. */
static void blame(const char *text, Literal **args, int nargs, const Literal *expect) {
  int np;
  const Pass *passes = pass_registry(&np);
  for (int i = 0; i < np; i++) {
    cxla_status st;
    HloModule *m = parse_text(text, &st);
    if (!m) {
      cxla_status_free(st);
      return;
    }
    const char *names[1] = {passes[i].name};
    PipelineOptions o = {.verify = true, .module_number = 1};
    st = pipeline_run_exact(m, names, 1, &o);
    Literal *got = NULL;
    if (!st) st = run_interp(m, args, nargs, &got);
    char why[256] = "";
    if (st) printf("    pass %s alone: %s\n", passes[i].name, cxla_status_message(st));
    else if (!same_bits(expect, got, why, sizeof why))
      printf("    pass %s alone changes the result: %s\n", passes[i].name, why);
    cxla_status_free(st);
    literal_free(got);
    module_destroy(m);
  }
}

/* Runs one seed; returns false on a failure (printed). */
static bool run_seed(uint64_t seed, bool verbose, Tally *t) {
  char *text = random_hlo_text(seed);
  if (!text) {
    printf("seed %llu: out of memory\n", (unsigned long long)seed);
    return false;
  }
  cxla_status st;
  HloModule *m = parse_text(text, &st);
  Literal **args = NULL, *before = NULL, *after = NULL;
  int nargs = 0;
  bool ok = true;
  if (!m || (st = verify_module(m))) {
    printf("seed %llu: the generator made an invalid module: %s\n%s\n", (unsigned long long)seed,
           cxla_status_message(st), text);
    ok = false;
    goto out;
  }
  if (verbose) print_module("before", m);
  if ((st = random_args(m, seed, &args, &nargs))) {
    printf("seed %llu: arguments: %s\n", (unsigned long long)seed, cxla_status_message(st));
    ok = false;
    goto out;
  }
  if ((st = run_interp(m, args, nargs, &before))) {
    if (cxla_status_code_of(st) == CXLA_UNIMPLEMENTED) {
      if (verbose) printf("seed %llu: skipped: %s\n", (unsigned long long)seed, cxla_status_message(st));
      t->skipped++;
    } else {
      printf("seed %llu: interpreter failed before optimizing: %s\n", (unsigned long long)seed,
             cxla_status_message(st));
      ok = false;
    }
    goto out;
  }
  /* exact: XLA's rewrites that round differently (x / C, dot strength
   * reduction, float scans) are checked against XLA's values in their own
   * tests (test_pass_algsimp, test_pass_reduce_window). */
  PipelineOptions o = {.verify = true, .module_number = 1};
  if ((st = pipeline_run_exact(m, NULL, 0, &o))) {
    printf("seed %llu: pipeline failed: %s\n", (unsigned long long)seed, cxla_status_message(st));
    ok = false;
    goto out;
  }
  if (verbose) print_module("after", m);
  if ((st = round_trip(m))) {
    printf("seed %llu: the optimized module does not print and parse back: %s\n",
           (unsigned long long)seed, cxla_status_message(st));
    ok = false;
    goto out;
  }
  if ((st = run_interp(m, args, nargs, &after))) {
    printf("seed %llu: interpreter failed after optimizing: %s\n", (unsigned long long)seed,
           cxla_status_message(st));
    ok = false;
    goto out;
  }
  char why[256] = "";
  if (!same_bits(before, after, why, sizeof why)) {
    printf("seed %llu: results differ after the pipeline: %s\n", (unsigned long long)seed, why);
    blame(text, args, nargs, before);
    ok = false;
  }
  t->ran++;
out:
  if (!ok) {
    t->failed++;
    printf("  reproduce: build/tests/test_random_diff %llu\n", (unsigned long long)seed);
  }
  cxla_status_free(st);
  literal_free(before);
  literal_free(after);
  random_args_free(args, nargs);
  module_destroy(m);
  cxla_free(text);
  return ok;
}

static Tally g_tally;
static uint64_t g_from = 1, g_count = kSeeds;

TEST(fixed_seeds) {
  for (uint64_t s = g_from; s < g_from + g_count; s++) CHECK(run_seed(s, false, &g_tally));
}

TEST(clock_seed) {
  uint64_t s = (uint64_t)time(NULL);
  printf("  clock seed: %llu\n", (unsigned long long)s);
  CHECK(run_seed(s, false, &g_tally));
}

/* The generator is deterministic and its modules are not all alike. */
TEST(generator_is_deterministic) {
  char *a = random_hlo_text(42), *b = random_hlo_text(42), *c = random_hlo_text(43);
  CHECK(a && b && c && strcmp(a, b) == 0 && strcmp(a, c) != 0);
  cxla_free(a);
  cxla_free(b);
  cxla_free(c);
}

/* Every generated op is one the interpreter runs. */
TEST(no_skips) { CHECK(g_tally.skipped == 0); }

/* A whole argument of decimal digits. */
static bool all_digits(const char *a) {
  if (!*a) return false;
  for (; *a; a++)
    if (*a < '0' || *a > '9') return false;
  return true;
}

int main(int argc, char **argv) {
  /* tests/run.sh passes every unit test the corpus directory: an argument
   * that is not a seed or an option is ignored (the full run happens). */
  const char *one = NULL;
  bool bulk = false;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
      one = argv[++i];
    } else if (all_digits(argv[i])) {
      one = argv[i];
    } else if (strcmp(argv[i], "--from") == 0 && i + 1 < argc) {
      g_from = strtoull(argv[++i], NULL, 10);
      bulk = true;
    } else if (strcmp(argv[i], "--count") == 0 && i + 1 < argc) {
      g_count = strtoull(argv[++i], NULL, 10);
      bulk = true;
    }
  }
  if (one) {
    Tally t = {0, 0, 0};
    bool ok = run_seed(strtoull(one, NULL, 10), true, &t);
    printf("seed %s: %s\n", one, ok ? (t.skipped ? "skipped" : "ok") : "FAILED");
    return !ok;
  }
  RUN(generator_is_deterministic);
  RUN(fixed_seeds);
  if (!bulk) RUN(clock_seed);
  printf("  random modules: %d compared, %d skipped (interpreter lacks an op), %d failed\n",
         g_tally.ran, g_tally.skipped, g_tally.failed);
  RUN(no_skips);
  return test_summary(__FILE__);
}
