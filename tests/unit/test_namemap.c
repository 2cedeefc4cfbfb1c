/* NameMap (src/base/namemap.c), the name index every pass and the
 * verifier build over a computation's instructions: lookups by a prefix of
 * a longer string, many keys that share a prefix and a hash table that
 * grows under them (the kept hashes move them), namemap_put_first (the
 * first value kept, a repeat reported), namemap_reserve (no growth after
 * it), namemap_set (a NULL value reads as absent) and namemap_clear; and
 * out of memory where the table grows. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "base/base.h"

#define NKEYS 20000

static char keys[NKEYS][24];
static int vals[NKEYS];

static void make_keys(void) {
  for (int i = 0; i < NKEYS; i++) {
    snprintf(keys[i], sizeof keys[i], i % 3 ? "fusion.%d" : "get-tuple-element.%d", i);
    vals[i] = i;
  }
}

static bool all_found(const NameMap *m, int n) {
  for (int i = 0; i < n; i++)
    if (namemap_get(m, keys[i], strlen(keys[i])) != &vals[i]) return false;
  return true;
}

TEST(grows_and_finds_every_key) {
  make_keys();
  NameMap m = {0};
  for (int i = 0; i < NKEYS; i++) CHECK(namemap_put(&m, keys[i], &vals[i]));
  CHECK(m.n == NKEYS && m.cap >= 2 * NKEYS);
  CHECK(all_found(&m, NKEYS));
  /* absent names, and a key looked up by a prefix of a longer string */
  CHECK(namemap_get(&m, "fusion.20000", 12) == NULL);
  CHECK(namemap_get(&m, "fusion", 6) == NULL);
  CHECK(namemap_get(&m, "fusion.13x", 9) == &vals[13]); /* "fusion.13" */
  CHECK(namemap_get(&m, "fusion.1", 7) == NULL);
  namemap_free(&m);
  CHECK(m.cap == 0 && m.n == 0);
  CHECK(namemap_get(&m, "fusion.1", 8) == NULL);
}

TEST(put_first_keeps_the_first_value) {
  make_keys();
  NameMap m = {0};
  bool found = true;
  for (int i = 0; i < NKEYS; i++) {
    CHECK(namemap_put_first(&m, keys[i], &vals[i], &found));
    CHECK(!found);
  }
  int other = 7;
  for (int i = 0; i < NKEYS; i += 97) {
    CHECK(namemap_put_first(&m, keys[i], &other, &found));
    CHECK(found);
  }
  CHECK(m.n == NKEYS && all_found(&m, NKEYS));
  namemap_free(&m);
}

TEST(reserve_leaves_no_growth) {
  make_keys();
  NameMap m = {0};
  CHECK(namemap_reserve(&m, NKEYS));
  size_t cap = m.cap;
  CHECK(cap >= 2 * NKEYS);
  for (int i = 0; i < NKEYS; i++) CHECK(namemap_put(&m, keys[i], &vals[i]));
  CHECK(m.cap == cap && all_found(&m, NKEYS));
  /* reserving less than is there changes nothing; more grows, keys kept */
  CHECK(namemap_reserve(&m, 10) && m.cap == cap);
  CHECK(namemap_reserve(&m, 4 * NKEYS) && m.cap > cap && all_found(&m, NKEYS));
  namemap_free(&m);
}

TEST(set_and_clear) {
  make_keys();
  NameMap m = {0};
  for (int i = 0; i < 500; i++) CHECK(namemap_set(&m, keys[i], &vals[i]));
  CHECK(m.n == 500 && all_found(&m, 500));
  int other = 7;
  CHECK(namemap_set(&m, keys[3], &other) && m.n == 500);
  CHECK(namemap_get(&m, keys[3], strlen(keys[3])) == &other);
  CHECK(namemap_set(&m, keys[4], NULL) && namemap_get(&m, keys[4], strlen(keys[4])) == NULL);
  namemap_clear(&m); /* a table over 1024 slots is dropped */
  CHECK(m.n == 0 && namemap_get(&m, keys[0], strlen(keys[0])) == NULL);
  for (int i = 0; i < 100; i++) CHECK(namemap_put(&m, keys[i], &vals[i]));
  size_t cap = m.cap;
  namemap_clear(&m); /* a small one is wiped and kept */
  CHECK(m.n == 0 && m.cap == cap && namemap_get(&m, keys[5], strlen(keys[5])) == NULL);
  for (int i = 0; i < 100; i++) CHECK(namemap_put(&m, keys[i], &vals[i]));
  CHECK(all_found(&m, 100));
  namemap_free(&m);
}

/* Every allocation of growth failing in turn: false returned, the table
 * as it was (every key still found). */
TEST(out_of_memory_while_growing) {
  make_keys();
  NameMap m = {0};
  for (int i = 0; i < 32; i++) CHECK(namemap_put(&m, keys[i], &vals[i])); /* 64 slots: full at 32 */
  for (long k = 1; k <= 3; k++) {
    cxla_fail_alloc_at(k);
    bool found;
    CHECK(!namemap_put_first(&m, keys[32], &vals[32], &found));
    cxla_fail_alloc_at(0);
    CHECK(m.n == 32 && m.cap == 64 && all_found(&m, 32));
    CHECK(namemap_get(&m, keys[32], strlen(keys[32])) == NULL);
  }
  cxla_fail_alloc_at(1);
  CHECK(!namemap_reserve(&m, 1000));
  cxla_fail_alloc_at(0);
  CHECK(m.cap == 64 && all_found(&m, 32));
  namemap_free(&m);
}

int main(void) {
  RUN(grows_and_finds_every_key);
  RUN(put_first_keeps_the_first_value);
  RUN(reserve_leaves_no_growth);
  RUN(set_and_clear);
  RUN(out_of_memory_while_growing);
  return test_summary(__FILE__);
}
