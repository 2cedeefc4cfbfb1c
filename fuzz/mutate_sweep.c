/* mutate_sweep: a quick, deterministic complement to libFuzzer. For each
 * corpus module (module.hlo and optimized.hlo of every case directory, or
 * every *.hlo file of a flat directory of seeds), it
 * replaces one number at a time (dimensions, indices, window sizes, slice
 * bounds, index_vector_dim, dimension lists, ... anything written as a bare
 * integer outside names, floats and metadata) by boundary values (0, 1, n-1,
 * n+1, 2n, -1, 2^31, 2^63-1, ...) and sends the result through the fuzzer's
 * pipeline (fuzz/run_guard.h: parse -> verify -> interpret if small). Build
 * it with sanitizers (`make sweep`) so that a crash, UB or leak stops it;
 * the input being run is always in the file named by -o (default
 * sweep-current.hlo), to be kept as a regression.
 *
 *   build-san/mutate_sweep [-n max-mutations-per-file] [-o current-file] [-v] corpus-dir
 *
 * -v prints the message of every run error (a verified module the
 * interpreter refused: look for verifier gaps there).
 * Prints the count of each outcome and exits non-zero if an invariant broke. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_guard.h"

typedef struct Site {
  size_t start, end; /* the digits [start, end), a '-' before start included */
  long long value;
} Site;

static char *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0, r;
  char *buf = malloc(cap + 1);
  while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
    n += r;
    if (n == cap) {
      char *nb = realloc(buf, (cap *= 2) + 1);
      if (!nb) free(buf);
      buf = nb;
    }
  }
  fclose(f);
  if (buf) buf[n] = 0;
  *len = n;
  return buf;
}

static bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z' && c != 'x') || (c >= 'A' && c <= 'Z') || c == '.' || c == '%';
}

/* Bare integers worth mutating: not part of a name (region_0.1 ends in
 * '.'), a float (0.5), or metadata. 'x' and '_' may precede one (window
 * size=3x3, pad=0_1). */
static int find_sites(const char *t, size_t n, Site **out) {
  int cap = 256, ns = 0;
  Site *s = malloc((size_t)cap * sizeof *s);
  size_t line_meta = (size_t)-1; /* offset where metadata= began on this line */
  for (size_t i = 0; s && i < n; i++) {
    if (t[i] == '\n') line_meta = (size_t)-1;
    if (line_meta == (size_t)-1 && i + 9 <= n && memcmp(t + i, "metadata=", 9) == 0) line_meta = i;
    if (line_meta != (size_t)-1) continue;
    if (t[i] < '0' || t[i] > '9') continue;
    size_t j = i;
    while (j < n && t[j] >= '0' && t[j] <= '9') j++;
    char before = i ? t[i - 1] : ' ';
    char after = j < n ? t[j] : ' ';
    bool ok = !is_name_char(before) && !(before >= '0' && before <= '9') && after != '.' &&
              after != 'e' && j - i <= 18;
    if (ok && before == '_' && i >= 2 && !(t[i - 2] >= '0' && t[i - 2] <= '9')) ok = false;
    if (ok) {
      if (ns == cap) {
        Site *ns2 = realloc(s, (size_t)(cap *= 2) * sizeof *s);
        if (!ns2) break;
        s = ns2;
      }
      size_t start = (before == '-') ? i - 1 : i;
      long long v = strtoll(t + i, NULL, 10);
      s[ns++] = (Site){start, j, before == '-' ? -v : v};
    }
    i = j - 1;
  }
  *out = s;
  return s ? ns : 0;
}

enum { NVALUES = 16 };

static long long value_for(long long v, int k) {
  switch (k) {
  case 0: return 0;
  case 1: return 1;
  case 2: return 2;
  case 3: return v - 1;
  case 4: return v + 1;
  case 5: return v * 2;
  case 6: return -1;
  case 7: return 3;
  case 8: return 64;
  case 9: return 1000;
  case 10: return 65537;
  case 11: return 2147483647LL;
  case 12: return 2147483648LL;
  case 13: return 4294967296LL;
  case 14: return 9223372036854775807LL;
  default: return -9223372036854775807LL - 1;
  }
}

static const char *current = "sweep-current.hlo";
static long counts[RG_NOUTCOMES];
static int bugs;
static bool verbose; /* -v: print each run error */

static void run_one(const char *text, size_t len, const char *what) {
  FILE *f = fopen(current, "wb");
  if (f) {
    fwrite(text, 1, len, f);
    fclose(f);
  }
  const char *bug = NULL;
  RunOutcome r = run_guarded((const uint8_t *)text, len, &bug);
  counts[r]++;
  if (r == RG_RUN_ERROR && verbose) printf("run-error %s: %s\n", what, rg_last_error);
  if (r == RG_BUG) {
    bugs++;
    char path[4200];
    snprintf(path, sizeof path, "%s.bug%d", current, bugs);
    FILE *g = fopen(path, "wb");
    if (g) {
      fwrite(text, 1, len, g);
      fclose(g);
    }
    fprintf(stderr, "BUG %s: %s (saved as %s)\n", what, bug, path);
  }
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next_rand(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static void sweep_file(const char *path, long max_mut) {
  size_t len;
  char *t = read_all(path, &len);
  if (!t) return;
  run_one(t, len, path);
  Site *sites = NULL;
  int ns = find_sites(t, len, &sites);
  long total = (long)ns * NVALUES;
  char *buf = malloc(len + 64);
  for (long m = 0; buf && total > 0 && m < (total < max_mut ? total : max_mut); m++) {
    long pick = total <= max_mut ? m : (long)(next_rand() % (uint64_t)total);
    const Site *s = &sites[pick / NVALUES];
    long long v = value_for(s->value, (int)(pick % NVALUES));
    if (v == s->value) continue;
    char num[32];
    int nl = snprintf(num, sizeof num, "%lld", v);
    memcpy(buf, t, s->start);
    memcpy(buf + s->start, num, (size_t)nl);
    memcpy(buf + s->start + nl, t + s->end, len - s->end);
    size_t blen = s->start + (size_t)nl + (len - s->end);
    char what[4400];
    snprintf(what, sizeof what, "%s @%zu %lld->%lld", path, s->start, s->value, v);
    run_one(buf, blen, what);
  }
  free(buf);
  free(sites);
  free(t);
}

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv) {
  long max_mut = 150;
  const char *dir = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-n") && i + 1 < argc) max_mut = atol(argv[++i]);
    else if (!strcmp(argv[i], "-o") && i + 1 < argc) current = argv[++i];
    else if (!strcmp(argv[i], "-v")) verbose = true;
    else dir = argv[i];
  }
  if (!dir) {
    fprintf(stderr, "usage: mutate_sweep [-n N] [-o current-file] corpus-dir\n");
    return 2;
  }
  DIR *d = opendir(dir);
  if (!d) {
    perror(dir);
    return 2;
  }
  /* Sorted case names, so runs are reproducible. */
  char **names = NULL;
  int nn = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char **nn2 = realloc(names, (size_t)(nn + 1) * sizeof *names);
    if (!nn2) break;
    names = nn2;
    names[nn++] = strdup(e->d_name);
  }
  closedir(d);
  qsort(names, (size_t)nn, sizeof *names, cmp_names);
  for (int i = 0; i < nn; i++) {
    size_t l = strlen(names[i]);
    char path[4096];
    if (l > 4 && strcmp(names[i] + l - 4, ".hlo") == 0) {
      snprintf(path, sizeof path, "%s/%s", dir, names[i]); /* a flat seed */
      sweep_file(path, max_mut);
    } else {
      static const char *const files[] = {"module.hlo", "optimized.hlo"};
      for (int k = 0; k < 2; k++) {
        snprintf(path, sizeof path, "%s/%s/%s", dir, names[i], files[k]);
        sweep_file(path, max_mut);
      }
    }
    free(names[i]);
  }
  free(names);
  long all = 0;
  for (int i = 0; i < RG_NOUTCOMES; i++) all += counts[i];
  printf("%ld inputs:", all);
  for (int i = 0; i < RG_NOUTCOMES; i++) printf(" %s %ld", rg_outcome_names[i], counts[i]);
  printf("\n");
  return bugs != 0;
}
