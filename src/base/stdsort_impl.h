/* stdsort_impl.h: std::sort's order, step for step, as a C template.
 *
 * XLA:CPU runs a sort with is_stable=false through std::sort (its sort
 * thunk; jaxlib links libstdc++), so the elements its comparator cannot
 * tell apart (equal keys with different payloads: an iota beside the keys,
 * approx_top_k's indices, TensorFlow's Unique and NonMaxSuppression) come
 * out in the order libstdc++'s introsort leaves them. That order is a
 * function of the comparator's answers alone, so doing the same
 * comparisons and moves gives XLA's result exactly: the introsort loop
 * (ranges over 16 elements, a pivot by median of three moved to the
 * front, the unguarded Hoare partition, the right part first), heapsort
 * when the depth limit 2 * floor(log2 n) runs out, then one insertion sort
 * over the whole range.
 *
 * A comparator that is not a strict weak order makes libstdc++ read past
 * the range (undefined behaviour there); here each scan also stops at the
 * range's ends, so any comparator terminates within a[0, n) and every
 * comparator std::sort is defined for gives std::sort's result.
 *
 * Use: define STDSORT_NAME (the function's name), STDSORT_T (the element
 * type, copied by assignment) and STDSORT_LESS(ctx, x, y) (comp(x, y) on
 * two STDSORT_T values), then include this file. It defines
 *   static void STDSORT_NAME(STDSORT_T *a, int64_t n, void *ctx)
 * and helpers named STDSORT_NAME_*, and undefines the three macros. */
#include <stdint.h>

#if !defined(STDSORT_NAME) || !defined(STDSORT_T) || !defined(STDSORT_LESS)
#error "define STDSORT_NAME, STDSORT_T and STDSORT_LESS before including stdsort_impl.h"
#endif

#define STDSORT_CAT2_(a, b) a##_##b
#define STDSORT_CAT_(a, b) STDSORT_CAT2_(a, b)
#define STDSORT_F_(x) STDSORT_CAT_(STDSORT_NAME, x)

/* std::sort's _S_threshold */
#define STDSORT_THRESHOLD_ 16

static inline void STDSORT_F_(swap)(STDSORT_T *a, int64_t i, int64_t j) {
  STDSORT_T t = a[i];
  a[i] = a[j];
  a[j] = t;
}

/* __adjust_heap then __push_heap: the hole at `hole` of the heap a[0, len)
 * sinks to a leaf along the larger children, v rises back from there. */
static void STDSORT_F_(adjust)(STDSORT_T *a, int64_t hole, int64_t len, STDSORT_T v, void *ctx) {
  int64_t top = hole, child = hole;
  while (child < (len - 1) / 2) {
    child = 2 * (child + 1);
    if (STDSORT_LESS(ctx, a[child], a[child - 1])) child--;
    a[hole] = a[child];
    hole = child;
  }
  if ((len & 1) == 0 && child == (len - 2) / 2) {
    child = 2 * (child + 1);
    a[hole] = a[child - 1];
    hole = child - 1;
  }
  int64_t parent = (hole - 1) / 2;
  while (hole > top && STDSORT_LESS(ctx, a[parent], v)) {
    a[hole] = a[parent];
    hole = parent;
    parent = (hole - 1) / 2;
  }
  a[hole] = v;
}

/* __partial_sort(first, last, last): __make_heap, then __sort_heap. */
static void STDSORT_F_(heapsort)(STDSORT_T *a, int64_t n, void *ctx) {
  if (n >= 2)
    for (int64_t parent = (n - 2) / 2;; parent--) {
      STDSORT_F_(adjust)(a, parent, n, a[parent], ctx);
      if (parent == 0) break;
    }
  while (n > 1) {
    n--;
    STDSORT_T v = a[n];
    a[n] = a[0];
    STDSORT_F_(adjust)(a, 0, n, v, ctx);
  }
}

/* __move_median_to_first: the median of a[x], a[y], a[z] swapped into a[r]. */
static void STDSORT_F_(median_to_first)(STDSORT_T *a, int64_t r, int64_t x, int64_t y, int64_t z, void *ctx) {
  int64_t m;
  if (STDSORT_LESS(ctx, a[x], a[y])) {
    if (STDSORT_LESS(ctx, a[y], a[z])) m = y;
    else if (STDSORT_LESS(ctx, a[x], a[z])) m = z;
    else m = x;
  } else if (STDSORT_LESS(ctx, a[x], a[z])) {
    m = x;
  } else if (STDSORT_LESS(ctx, a[y], a[z])) {
    m = z;
  } else {
    m = y;
  }
  STDSORT_F_(swap)(a, r, m);
}

/* __unguarded_partition of a[f, l) around the pivot a[p] (p = f - 1). */
static int64_t STDSORT_F_(partition)(STDSORT_T *a, int64_t f, int64_t l, int64_t p, void *ctx) {
  int64_t end = l;
  for (;;) {
    while (f < end && STDSORT_LESS(ctx, a[f], a[p])) f++;
    l--;
    while (l > p && STDSORT_LESS(ctx, a[p], a[l])) l--;
    if (!(f < l)) return f;
    STDSORT_F_(swap)(a, f, l);
    f++;
  }
}

/* __introsort_loop over a[f, l). A partition that cuts nothing (only a
 * comparator that is no order makes one) spends the depth budget and ends
 * in heapsort. */
static void STDSORT_F_(loop)(STDSORT_T *a, int64_t f, int64_t l, int depth, void *ctx) {
  while (l - f > STDSORT_THRESHOLD_) {
    if (depth == 0) {
      STDSORT_F_(heapsort)(a + f, l - f, ctx);
      return;
    }
    depth--;
    int64_t mid = f + (l - f) / 2;
    STDSORT_F_(median_to_first)(a, f, f + 1, mid, l - 1, ctx);
    int64_t cut = STDSORT_F_(partition)(a, f + 1, l, f, ctx);
    STDSORT_F_(loop)(a, cut, l, depth, ctx);
    l = cut;
  }
}

/* __unguarded_linear_insert of a[i] (stopping at a[0] besides). The final
 * insertion sort is this for every element: libstdc++'s guarded first 16
 * move an element less than a[0] to the front in one step, which leaves
 * the same order, a[0] being the least of those before it. */
static inline void STDSORT_F_(insert)(STDSORT_T *a, int64_t i, void *ctx) {
  STDSORT_T v = a[i];
  int64_t j = i - 1;
  while (j >= 0 && STDSORT_LESS(ctx, v, a[j])) {
    a[j + 1] = a[j];
    j--;
  }
  a[j + 1] = v;
}

static void STDSORT_NAME(STDSORT_T *a, int64_t n, void *ctx) {
  if (n < 2) return;
  int lg = 63 - __builtin_clzll((unsigned long long)n);
  STDSORT_F_(loop)(a, 0, n, 2 * lg, ctx);
  /* __final_insertion_sort */
  for (int64_t i = 1; i < n; i++) STDSORT_F_(insert)(a, i, ctx);
}

#undef STDSORT_F_
#undef STDSORT_CAT_
#undef STDSORT_CAT2_
#undef STDSORT_THRESHOLD_
#undef STDSORT_NAME
#undef STDSORT_T
#undef STDSORT_LESS
