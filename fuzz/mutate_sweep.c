/* mutate_sweep: a quick, deterministic complement to libFuzzer. For each
 * corpus module (module.hlo and optimized.hlo of every case directory, or
 * every *.hlo file of a flat directory of seeds), it
 * replaces one number at a time (dimensions, indices, window sizes, slice
 * bounds, index_vector_dim, dimension lists, ... anything written as a bare
 * integer outside names, floats and metadata) by boundary values (0, 1, n-1,
 * n+1, 2n, -1, 2^31, 2^63-1, ...), or one word by another of its class
 * (element types, comparison directions, enum attributes, booleans,
 * elementwise opcodes of the same arity), and sends the result through the fuzzer's
 * pipeline (fuzz/run_guard.h: parse -> verify -> interpret if small). Build
 * it with sanitizers (`make sweep`) so that a crash, UB or leak stops it;
 * the input being run is always in the file named by -o (default
 * sweep-current.hlo), to be kept as a regression.
 *
 *   build-san/mutate_sweep [-n max-mutations-per-file] [-o current-file] [-v] [-2]
 *                          [-s seed] corpus-dir
 *
 * -2 makes every mutant from two random replacements instead of one; -s
 * changes the sampling seed.
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

/* Words replaced by the other members of their class: element types
 * (before '['), comparison directions and types, enum attributes, booleans,
 * and elementwise opcodes of one arity (before '('). */
static const char *const kTypes[] = {
    "pred", "s2", "s4", "s8", "s16", "s32", "s64", "u2", "u4", "u8", "u16", "u32", "u64",
    "f16", "bf16", "f32", "f64", "f4e2m1fn", "f8e3m4", "f8e4m3", "f8e4m3fn", "f8e4m3fnuz",
    "f8e4m3b11fnuz", "f8e5m2", "f8e5m2fnuz", "f8e8m0fnu", "c64", "c128", NULL};
static const char *const kDirs[] = {"EQ", "NE", "LT", "LE", "GT", "GE", NULL};
static const char *const kCmpTypes[] = {"FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED", NULL};
static const char *const kFft[] = {"FFT", "IFFT", "RFFT", "IRFFT", NULL};
static const char *const kTrans[] = {"NO_TRANSPOSE", "TRANSPOSE", "ADJOINT", NULL};
static const char *const kRng[] = {"rng_default", "rng_three_fry", "rng_philox", NULL};
static const char *const kBool[] = {"true", "false", NULL};
static const char *const kUnary[] = {
    "abs", "negate", "exponential", "exponential-minus-one", "log", "log-plus-one", "sqrt",
    "rsqrt", "cbrt", "sine", "cosine", "tan", "tanh", "floor", "ceil", "round-nearest-afz",
    "round-nearest-even", "sign", "not", "popcnt", "count-leading-zeros", "is-finite", "real",
    "imag", "erf", "logistic", "copy", NULL};
static const char *const kBinary[] = {
    "add", "subtract", "multiply", "divide", "remainder", "power", "maximum", "minimum", "atan2",
    "and", "or", "xor", "shift-left", "shift-right-arithmetic", "shift-right-logical", "complex",
    NULL};

typedef struct WordClass {
  const char *const *words;
  char follow; /* the character that must follow the word, or 0 */
  const char *prefix; /* text that must precede it ("direction="), or NULL */
} WordClass;

static const WordClass kClasses[] = {
    {kTypes, '[', NULL},         {kDirs, 0, "direction="},   {kCmpTypes, 0, "type="},
    {kFft, 0, "fft_type="},      {kTrans, 0, "transpose_a="}, {kRng, 0, "algorithm="},
    {kBool, 0, "="},             {kUnary, '(', " "},          {kBinary, '(', " "},
};
enum { NCLASSES = sizeof kClasses / sizeof kClasses[0] };

typedef struct WordSite {
  size_t start, end;
  int cls;
} WordSite;

static int class_size(int c) {
  int n = 0;
  while (kClasses[c].words[n]) n++;
  return n;
}

static bool is_ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == '.';
}

/* Words of the classes above, outside metadata. */
static int find_words(const char *t, size_t n, WordSite **out) {
  int cap = 256, ns = 0;
  WordSite *s = malloc((size_t)cap * sizeof *s);
  bool meta = false;
  for (size_t i = 0; s && i < n; i++) {
    if (t[i] == '\n') meta = false;
    if (!meta && i + 9 <= n && memcmp(t + i, "metadata=", 9) == 0) meta = true;
    if (meta || !is_ident_char(t[i]) || (i > 0 && is_ident_char(t[i - 1]))) continue;
    size_t j = i;
    while (j < n && is_ident_char(t[j])) j++;
    for (int c = 0; c < NCLASSES; c++) {
      const WordClass *wc = &kClasses[c];
      if (wc->follow && (j >= n || t[j] != wc->follow)) continue;
      if (wc->prefix) {
        size_t pl = strlen(wc->prefix);
        if (i < pl || memcmp(t + i - pl, wc->prefix, pl) != 0) continue;
      }
      bool member = false;
      for (int k = 0; wc->words[k] && !member; k++)
        member = strlen(wc->words[k]) == j - i && memcmp(wc->words[k], t + i, j - i) == 0;
      if (!member) continue;
      if (ns == cap) {
        WordSite *s2 = realloc(s, (size_t)(cap *= 2) * sizeof *s);
        if (!s2) break;
        s = s2;
      }
      s[ns++] = (WordSite){i, j, c};
      break;
    }
    i = j - 1;
  }
  *out = s;
  return s ? ns : 0;
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

/* buf = t with [start, end) replaced by rep; returns the new length. */
static size_t splice(char *buf, const char *t, size_t len, size_t start, size_t end,
                     const char *rep) {
  size_t rl = strlen(rep);
  memcpy(buf, t, start);
  memcpy(buf + start, rep, rl);
  memcpy(buf + start + rl, t + end, len - end);
  return start + rl + (len - end);
}

/* Mutation candidates of one file: NVALUES per number site, then every
 * other word of its class per word site. */
typedef struct Cands {
  const char *t;
  Site *sites;
  WordSite *words;
  int ns, nw;
  long nnum, total;
} Cands;

/* Candidate `pick` as "replace [*start, *end) by rep"; false if it would
 * not change the text. */
static bool cand(const Cands *c, long pick, size_t *start, size_t *end, char *rep, size_t cap) {
  if (pick < c->nnum) {
    const Site *s = &c->sites[pick / NVALUES];
    long long v = value_for(s->value, (int)(pick % NVALUES));
    snprintf(rep, cap, "%lld", v);
    *start = s->start, *end = s->end;
    return v != s->value;
  }
  long k = pick - c->nnum;
  int i = 0;
  while (k >= class_size(c->words[i].cls)) k -= class_size(c->words[i++].cls);
  const WordSite *w = &c->words[i];
  snprintf(rep, cap, "%s", kClasses[w->cls].words[k]);
  *start = w->start, *end = w->end;
  return !(strlen(rep) == w->end - w->start && memcmp(rep, c->t + w->start, w->end - w->start) == 0);
}

/* Runs max_mut mutants of the file (all candidates if fewer): single
 * replacements, or with `pairs` two at once (random pairs). */
static void sweep_file(const char *path, long max_mut, bool pairs) {
  size_t len;
  char *t = read_all(path, &len);
  if (!t) return;
  run_one(t, len, path);
  Cands c = {t, NULL, NULL, 0, 0, 0, 0};
  c.ns = find_sites(t, len, &c.sites);
  c.nw = find_words(t, len, &c.words);
  c.nnum = (long)c.ns * NVALUES;
  c.total = c.nnum;
  for (int i = 0; i < c.nw; i++) c.total += class_size(c.words[i].cls);
  char *buf = malloc(2 * len + 128), *tmp = malloc(2 * len + 128);
  bool all = !pairs && c.total <= max_mut;
  for (long m = 0; buf && tmp && c.total > 0 && m < (all ? c.total : max_mut); m++) {
    char what[4400], r1[32], r2[32];
    size_t s1, e1, s2, e2, blen;
    long p1 = all ? m : (long)(next_rand() % (uint64_t)c.total);
    if (!cand(&c, p1, &s1, &e1, r1, sizeof r1)) continue;
    if (!pairs) {
      blen = splice(buf, t, len, s1, e1, r1);
      snprintf(what, sizeof what, "%s @%zu %.*s->%s", path, s1, (int)(e1 - s1), t + s1, r1);
    } else {
      long p2 = (long)(next_rand() % (uint64_t)c.total);
      if (!cand(&c, p2, &s2, &e2, r2, sizeof r2)) continue;
      if (s2 < s1) { /* order them: 1 before 2 */
        size_t a = s1, b = e1;
        char r[32];
        s1 = s2, e1 = e2, s2 = a, e2 = b;
        memcpy(r, r1, sizeof r), memcpy(r1, r2, sizeof r), memcpy(r2, r, sizeof r);
      }
      if (e1 > s2) continue; /* overlapping */
      size_t tlen = splice(tmp, t, len, s2, e2, r2); /* the later one first */
      blen = splice(buf, tmp, tlen, s1, e1, r1);
      snprintf(what, sizeof what, "%s @%zu %.*s->%s @%zu %.*s->%s", path, s1, (int)(e1 - s1),
               t + s1, r1, s2, (int)(e2 - s2), t + s2, r2);
    }
    run_one(buf, blen, what);
  }
  free(buf);
  free(tmp);
  free(c.sites);
  free(c.words);
  free(t);
}

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv) {
  long max_mut = 150;
  bool pairs = false;
  const char *dir = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-n") && i + 1 < argc) max_mut = atol(argv[++i]);
    else if (!strcmp(argv[i], "-o") && i + 1 < argc) current = argv[++i];
    else if (!strcmp(argv[i], "-v")) verbose = true;
    else if (!strcmp(argv[i], "-2")) pairs = true;
    else if (!strcmp(argv[i], "-s") && i + 1 < argc) rng = strtoull(argv[++i], NULL, 0) | 1;
    else dir = argv[i];
  }
  if (!dir) {
    fprintf(stderr, "usage: mutate_sweep [-n N] [-o current-file] [-v] [-2] [-s seed] dir\n");
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
      sweep_file(path, max_mut, pairs);
    } else {
      static const char *const files[] = {"module.hlo", "optimized.hlo"};
      for (int k = 0; k < 2; k++) {
        snprintf(path, sizeof path, "%s/%s/%s", dir, names[i], files[k]);
        sweep_file(path, max_mut, pairs);
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
