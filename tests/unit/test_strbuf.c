/* StrBuf (src/base/arena.c), the buffer the HLO printer writes into:
 * sb_put_i64 writes what printf's %lld does (zero, signs, both extremes,
 * every length of digits) after what the buffer holds, and sb_printf and
 * the plain appends interleave with it across growth. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "base/base.h"

static bool put_matches(int64_t v) {
  StrBuf b;
  sb_init(&b);
  sb_puts(&b, "x=");
  sb_put_i64(&b, v);
  char want[48];
  snprintf(want, sizeof want, "x=%lld", (long long)v);
  bool ok = !b.oom && b.len == strlen(want) && strcmp(b.data, want) == 0;
  sb_free(&b);
  return ok;
}

TEST(put_i64_writes_what_printf_writes) {
  const int64_t fixed[] = {0, 1, -1, 9, 10, -10, 99, 100, 12345, -12345, INT32_MAX, INT32_MIN,
                           (int64_t)INT32_MAX + 1, INT64_MAX, INT64_MIN, INT64_MIN + 1};
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) CHECK(put_matches(fixed[i]));
  /* every power of ten and its neighbours, both signs */
  int bad = 0;
  for (int64_t p = 1; p <= INT64_MAX / 10; p *= 10)
    for (int64_t d = -1; d <= 1; d++) bad += !put_matches(p + d) + !put_matches(-(p + d));
  /* a spread of values (an LCG) */
  uint64_t x = 88172645463325252ull;
  for (int i = 0; i < 100000; i++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    bad += !put_matches((int64_t)(x >> (i % 60)) * (i & 1 ? -1 : 1));
  }
  CHECK(bad == 0);
}

TEST(appends_interleave_across_growth) {
  StrBuf b;
  sb_init(&b);
  char want[200000];
  size_t n = 0;
  for (int i = 0; i < 10000 && n + 64 < sizeof want; i++) {
    sb_put_i64(&b, -i);
    sb_putc(&b, ',');
    sb_printf(&b, "%d;", i);
    n += (size_t)snprintf(want + n, sizeof want - n, "%d,%d;", -i, i);
  }
  CHECK(!b.oom && b.len == n && memcmp(b.data, want, n) == 0 && b.data[n] == 0);
  sb_free(&b);
}

int main(void) {
  RUN(put_i64_writes_what_printf_writes);
  RUN(appends_interleave_across_growth);
  return test_summary(__FILE__);
}
