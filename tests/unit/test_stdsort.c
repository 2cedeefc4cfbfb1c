/* base/stdsort_impl.h against libstdc++'s std::sort.
 *
 * XLA:CPU sorts with is_stable=false through std::sort, and the order it
 * leaves equal keys in is what JAX and TensorFlow users get (approx_top_k's
 * indices, lax.sort(is_stable=False) over several operands, TensorFlow's
 * Unique). The expected permutations below were made by g++ 12's
 * libstdc++ (std::sort and std::partial_sort over positions, compared by
 * key; the program is at the end of this file), from keys drawn by the
 * same generator as keys_mod here: a position's key is keys[pos], so each
 * permutation shows where std::sort leaves every run of equal keys. Long
 * ones are checked by an FNV-1a hash of the permutation. killer600 are
 * keys from McIlroy's adversary against std::sort, halved (ties in pairs):
 * they drive the introsort past its depth limit into heapsort. */
#include <stdint.h>

#include "harness.h"

static bool key_less(const void *ctx, int64_t a, int64_t b) {
  const int64_t *k = ctx;
  return k[a] < k[b];
}

#define STDSORT_NAME sort_by_key
#define STDSORT_T int64_t
#define STDSORT_LESS(ctx, x, y) key_less(ctx, x, y)
#include "base/stdsort_impl.h"

/* The generator of ref.cpp: n keys in [0, m). */
static void keys_mod(uint64_t seed, int64_t *k, int n, int m) {
  uint64_t s = seed * 2654435761u + 88172645463325252ull;
  for (int i = 0; i < n; i++) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    k[i] = (int64_t)((s >> 16) % (uint64_t)m);
  }
}

static uint64_t fnv(const int64_t *p, int n) {
  uint64_t h = 1469598103934665603ull;
  for (int i = 0; i < n; i++) h = (h ^ (uint64_t)p[i]) * 1099511628211ull;
  return h;
}

/* perm = 0..n-1 sorted by keys (heap: the heapsort alone, as
 * std::partial_sort(first, last, last) does it) */
static void sorted_positions(const int64_t *keys, int64_t *perm, int n, bool heap) {
  for (int i = 0; i < n; i++) perm[i] = i;
  if (heap) sort_by_key_heapsort(perm, n, (void *)keys);
  else sort_by_key(perm, n, (void *)keys);
}

static bool same(const int64_t *got, const int64_t *want, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (got[i] != want[i]) {
      fprintf(stderr, "%s: position %d: got %lld, want %lld\n", name, i, (long long)got[i], (long long)want[i]);
      return false;
    }
  return true;
}

static const int64_t want_ties40[40] = {
  10, 21, 23, 25, 26, 29, 31, 32, 9, 34, 7, 6, 36, 37, 1, 39, 33, 35, 24, 0,
  22, 2, 18, 17, 16, 3, 4, 14, 5, 8, 30, 38, 11, 12, 13, 20, 28, 27, 15, 19,
};

static const int64_t want_ties17[17] = {
  16, 13, 5, 6, 11, 10, 8, 15, 14, 12, 9, 0, 7, 4, 3, 2, 1,
};

static const int64_t want_ties100[100] = {
  67, 23, 24, 61, 65, 12, 9, 74, 80, 6, 85, 87, 92, 96, 99, 73, 1, 58, 57, 54,
  38, 25, 2, 19, 26, 52, 49, 91, 86, 82, 79, 8, 75, 37, 51, 64, 69, 43, 78, 35,
  84, 90, 95, 21, 77, 76, 0, 72, 68, 59, 17, 94, 7, 20, 45, 70, 50, 63, 60, 33,
  5, 31, 56, 30, 22, 3, 34, 18, 41, 93, 16, 15, 48, 97, 13, 11, 98, 89, 28, 62,
  46, 27, 29, 42, 71, 81, 4, 32, 14, 36, 66, 10, 39, 88, 83, 40, 44, 47, 55, 53,
};

static const int64_t want_heap50[50] = {
  8, 22, 33, 44, 5, 35, 42, 10, 49, 15, 40, 2, 4, 45, 25, 0, 29, 24, 11, 30,
  31, 16, 38, 19, 41, 1, 21, 23, 48, 20, 26, 47, 32, 34, 17, 36, 9, 39, 43, 12,
  14, 7, 3, 18, 37, 46, 27, 6, 13, 28,
};

TEST(equal_keys_as_std_sort) {
  int64_t k[100], p[100];
  keys_mod(1, k, 40, 3);
  sorted_positions(k, p, 40, false);
  CHECK(same(p, want_ties40, 40, "ties40"));
  /* 17: one element past the insertion-sort threshold */
  keys_mod(2, k, 17, 2);
  sorted_positions(k, p, 17, false);
  CHECK(same(p, want_ties17, 17, "ties17"));
  keys_mod(3, k, 100, 10);
  sorted_positions(k, p, 100, false);
  CHECK(same(p, want_ties100, 100, "ties100"));
}

TEST(long_row_as_std_sort) {
  static int64_t k[5000], p[5000];
  keys_mod(4, k, 5000, 7);
  sorted_positions(k, p, 5000, false);
  CHECK(fnv(p, 5000) == 0xf6c16c89b5ce0085ull);
  for (int i = 1; i < 5000; i++) CHECK(k[p[i - 1]] <= k[p[i]]);
}

TEST(heapsort_as_std_partial_sort) {
  int64_t k[50], p[50];
  keys_mod(5, k, 50, 4);
  sorted_positions(k, p, 50, true);
  CHECK(same(p, want_heap50, 50, "heap50"));
}

/* McIlroy's adversary's keys for std::sort at n = 600 (ref.cpp's killer) */
static const int64_t killer600[600] = {
  467, 1, 333, 3, 533, 5, 331, 7, 465, 9, 329, 11, 583, 13, 327, 15, 463, 17, 325, 19,
  531, 21, 323, 23, 461, 25, 321, 27, 565, 29, 319, 31, 459, 33, 36, 35, 598, 596, 594, 592,
  590, 588, 586, 584, 582, 580, 578, 576, 574, 572, 570, 568, 566, 564, 562, 560, 558, 556, 554, 552,
  550, 548, 546, 544, 542, 540, 538, 536, 534, 532, 530, 528, 526, 524, 522, 520, 518, 516, 514, 512,
  510, 508, 506, 504, 502, 500, 498, 496, 494, 492, 490, 488, 486, 484, 482, 480, 478, 476, 474, 472,
  470, 468, 466, 464, 462, 460, 458, 456, 454, 452, 450, 448, 446, 444, 442, 440, 438, 436, 434, 432,
  430, 428, 426, 424, 422, 420, 418, 416, 414, 412, 410, 408, 406, 404, 402, 400, 398, 396, 394, 392,
  390, 388, 386, 384, 382, 380, 378, 376, 374, 372, 370, 368, 366, 364, 362, 360, 358, 356, 354, 352,
  350, 348, 346, 344, 342, 340, 338, 336, 334, 332, 330, 328, 326, 324, 322, 320, 529, 457, 591, 455,
  527, 453, 563, 451, 525, 449, 581, 447, 523, 445, 561, 443, 521, 441, 595, 439, 519, 437, 559, 435,
  517, 433, 579, 431, 515, 429, 557, 427, 513, 425, 589, 423, 511, 421, 555, 419, 509, 417, 577, 415,
  507, 413, 553, 411, 505, 409, 597, 407, 503, 405, 551, 403, 501, 401, 575, 399, 499, 397, 549, 395,
  497, 393, 587, 391, 495, 389, 547, 387, 493, 385, 573, 383, 491, 381, 545, 379, 489, 377, 593, 375,
  487, 373, 543, 371, 485, 369, 571, 367, 483, 365, 541, 363, 481, 361, 585, 359, 479, 357, 539, 355,
  477, 353, 569, 351, 475, 349, 537, 347, 473, 345, 599, 343, 471, 341, 535, 339, 469, 337, 567, 335,
  0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 318, 315,
  316, 313, 314, 311, 312, 309, 310, 307, 308, 305, 306, 303, 304, 301, 302, 299, 300, 297, 298, 295,
  296, 293, 294, 291, 292, 289, 290, 287, 288, 285, 286, 283, 284, 281, 282, 279, 280, 277, 278, 275,
  276, 273, 274, 271, 272, 269, 270, 267, 268, 265, 266, 263, 264, 261, 262, 259, 260, 257, 258, 255,
  256, 253, 254, 251, 252, 249, 250, 247, 248, 245, 246, 243, 244, 241, 242, 239, 240, 237, 238, 235,
  236, 233, 234, 231, 232, 229, 230, 227, 228, 225, 226, 223, 224, 221, 222, 219, 220, 217, 218, 215,
  216, 213, 214, 211, 212, 209, 210, 207, 208, 205, 206, 203, 204, 201, 202, 199, 200, 197, 198, 195,
  196, 193, 194, 191, 192, 189, 190, 187, 188, 185, 186, 183, 184, 181, 182, 179, 180, 177, 178, 175,
  176, 173, 174, 171, 172, 169, 170, 167, 168, 165, 166, 163, 164, 161, 162, 159, 160, 157, 158, 155,
  156, 153, 154, 151, 152, 149, 150, 147, 148, 145, 146, 143, 144, 141, 142, 139, 140, 137, 138, 135,
  136, 133, 134, 131, 132, 129, 130, 127, 128, 125, 126, 123, 124, 121, 122, 119, 120, 117, 118, 115,
  116, 113, 114, 111, 112, 109, 110, 107, 108, 105, 106, 103, 104, 101, 102, 99, 100, 97, 98, 95,
  96, 93, 94, 91, 92, 89, 90, 87, 88, 85, 86, 83, 84, 81, 82, 79, 80, 77, 78, 75,
  76, 73, 74, 71, 72, 69, 70, 67, 68, 65, 66, 63, 64, 61, 62, 59, 60, 57, 58, 55,
  56, 53, 54, 51, 52, 49, 50, 47, 48, 45, 46, 43, 44, 41, 42, 39, 40, 37, 38, 317,
};

TEST(depth_limit_as_std_sort) {
  int64_t k[600], p[600];
  for (int i = 0; i < 600; i++) k[i] = killer600[i];
  sorted_positions(k, p, 600, false);
  CHECK(fnv(p, 600) == 0x6321e92f0719687dull);
  for (int i = 0; i < 600; i++) k[i] = killer600[i] / 2;
  sorted_positions(k, p, 600, false);
  CHECK(fnv(p, 600) == 0xc25fd45ba5128d57ull);
}

/* Comparators std::sort is undefined for: each must still end, inside the
 * range, with a permutation. */
typedef struct Bad {
  int kind;
  uint64_t state;
  const int64_t *keys;
} Bad;

static bool bad_less(void *ctx, int64_t a, int64_t b) {
  Bad *c = ctx;
  switch (c->kind) {
  case 0: return true;                         /* everything less than everything */
  case 1: return c->keys[a] <= c->keys[b];     /* reflexive */
  case 2: return c->keys[a] > c->keys[b] || a == b; /* reflexive, reversed */
  default:                                     /* coin flips */
    c->state ^= c->state << 13, c->state ^= c->state >> 7, c->state ^= c->state << 17;
    return c->state & 1;
  }
}

#define STDSORT_NAME sort_bad
#define STDSORT_T int64_t
#define STDSORT_LESS(ctx, x, y) bad_less(ctx, x, y)
#include "base/stdsort_impl.h"

TEST(any_comparator_ends_with_a_permutation) {
  static int64_t k[3000], p[3000];
  static bool seen[3000];
  const int sizes[] = {0, 1, 2, 16, 17, 100, 3000};
  for (int kind = 0; kind < 4; kind++)
    for (int s = 0; s < 7; s++) {
      int n = sizes[s];
      keys_mod(9, k, n, 5);
      for (int i = 0; i < n; i++) p[i] = i, seen[i] = false;
      Bad c = {kind, 12345, k};
      sort_bad(p, n, &c);
      bool perm = true;
      for (int i = 0; i < n; i++) {
        if (p[i] < 0 || p[i] >= n || seen[p[i]]) perm = false;
        else seen[p[i]] = true;
      }
      CHECK(perm);
    }
}

int main(void) {
  RUN(equal_keys_as_std_sort);
  RUN(long_row_as_std_sort);
  RUN(heapsort_as_std_partial_sort);
  RUN(depth_limit_as_std_sort);
  RUN(any_comparator_ends_with_a_permutation);
  return test_summary(__FILE__);
}

/* ref.cpp, which made the expected values (g++ -O2 -std=c++17 ref.cpp):
// Reference permutations from libstdc++'s std::sort / std::partial_sort
// for tests/unit/test_stdsort.c. Inputs from the same xorshift as the test.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>
static uint64_t st;
static uint64_t rnd() { st ^= st << 13; st ^= st >> 7; st ^= st << 17; return st >> 16; }
static std::vector<int64_t> keys_mod(uint64_t seed, int n, int m) {
  st = seed * 2654435761u + 88172645463325252ull;
  std::vector<int64_t> k(n);
  for (auto &x : k) x = (int64_t)(rnd() % (uint64_t)m);
  return k;
}
static uint64_t fnv(const std::vector<int64_t> &p) {
  uint64_t h = 1469598103934665603ull;
  for (auto x : p) { h ^= (uint64_t)x; h *= 1099511628211ull; }
  return h;
}
static void out(const char *name, const std::vector<int64_t> &p, bool full) {
  printf("%s n=%zu hash=0x%016llxull\n", name, p.size(), (unsigned long long)fnv(p));
  if (full) { for (auto x : p) printf("%lld,", (long long)x); printf("\n"); }
}
static std::vector<int64_t> by_sort(const std::vector<int64_t> &k, bool partial) {
  std::vector<int64_t> p(k.size());
  for (size_t i = 0; i < p.size(); i++) p[i] = (int64_t)i;
  auto lt = [&](int64_t a, int64_t b) { return k[a] < k[b]; };
  if (partial) std::partial_sort(p.begin(), p.end(), p.end(), lt);
  else std::sort(p.begin(), p.end(), lt);
  return p;
}
// McIlroy's adversary against std::sort: keys that drive it to its depth limit
static std::vector<int64_t> killer(int n) {
  std::vector<int64_t> val(n, n - 1), p(n);
  int64_t gas = n - 1, nsolid = 0, cand = 0;
  for (int i = 0; i < n; i++) p[i] = i;
  std::sort(p.begin(), p.end(), [&](int64_t x, int64_t y) {
    if (val[x] == gas && val[y] == gas) { if (x == cand) val[x] = nsolid++; else val[y] = nsolid++; }
    if (val[x] == gas) cand = x; else if (val[y] == gas) cand = y;
    return val[x] < val[y];
  });
  return val;
}
int main() {
  out("ties40", by_sort(keys_mod(1, 40, 3), false), true);
  out("ties17", by_sort(keys_mod(2, 17, 2), false), true);
  out("ties100", by_sort(keys_mod(3, 100, 10), false), true);
  out("ties5000", by_sort(keys_mod(4, 5000, 7), false), false);
  out("heap50", by_sort(keys_mod(5, 50, 4), true), true);
  auto k = killer(600);
  int gas = 0; for (auto x : k) gas += x == 599;
  printf("killer gas=%d\n", gas);
  for (auto x : k) printf("%lld,", (long long)x); printf("\n");
  out("killer600", by_sort(k, false), false);
  for (auto &x : k) x /= 2;
  out("killer600_half", by_sort(k, false), false);
}
*/
