/* The executor: runs a program's steps in order over refcounted runtime
 * values, releasing each value after its last use. Kernels run with the
 * FTZ/DAZ floating-point modes XLA:CPU uses (on every thread that runs a
 * slice of one); the caller's modes are restored around them. A kernel
 * large enough to be worth it is split over the execution's threads. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__)
#include <emmintrin.h>
#include <immintrin.h>
#include <xmmintrin.h>
#endif

#include "cpu/cpu_internal.h"
#include "cpu/fgemm.h"
#include "runtime/backend.h"

/* ---- values ---- */

static RVal *rval_alloc(void) {
  RVal *v = cxla_calloc(1, sizeof *v);
  if (v) v->refs = 1;
  return v;
}

static cxla_status set_dims(RVal *v, ElemType t, int rank, const int64_t *dims) {
  v->lit.type = t;
  v->lit.rank = rank;
  v->lit.nelems = 1;
  if (rank > 0) {
    v->lit.dims = rank <= (int)(sizeof v->dims_inline / sizeof v->dims_inline[0])
                      ? v->dims_inline
                      : cxla_malloc((size_t)rank * sizeof(int64_t));
    if (!v->lit.dims) return cxla_oom();
    memcpy(v->lit.dims, dims, (size_t)rank * sizeof(int64_t));
  }
  for (int i = 0; i < rank; i++) v->lit.nelems *= dims[i];
  return NULL;
}

cxla_status rval_array(ElemType t, int rank, const int64_t *dims, RVal **out) {
  return rval_array_in(NULL, t, rank, dims, out);
}

/* A struct, refs 1: from cache c when given (it goes back there), else
 * fresh. */
static RVal *rval_alloc_in(RvCache *c) {
  if (!c) return rval_alloc();
  RVal *v = c->vals;
  if (v) {
    c->vals = v->owner;
    memset(v, 0, sizeof *v);
    v->refs = 1;
  } else if (!(v = rval_alloc())) {
    return NULL;
  }
  v->cache = c;
  return v;
}

/* An array value of 64-byte aligned storage (never zero bytes): struct and
 * buffers up to RV_CACHE_MAX_BYTES from cache c when given (the most
 * recently freed block of the size), larger ones from host (NULL:
 * aligned_alloc). */
static cxla_status array_new(const RtHost *host, RvCache *c, ElemType t, int rank, const int64_t *dims,
                             RVal **out) {
  *out = NULL;
  RVal *v = rval_alloc_in(c);
  if (!v) return cxla_oom();
  v->owns_data = true;
  cxla_status s = set_dims(v, t, rank, dims);
  size_t bytes = (size_t)v->lit.nelems * (size_t)type_bytes(t);
  size_t alloc = (bytes + 63) & ~(size_t)63;
  if (!alloc) alloc = 64;
  if (!s && c && alloc <= RV_CACHE_MAX_BYTES) {
    for (int i = c->nbufs - 1; i >= 0; i--)
      if (c->bytes[i] == alloc) {
        v->lit.data = c->buf[i];
        c->buf[i] = c->buf[--c->nbufs];
        c->bytes[i] = c->bytes[c->nbufs];
        break;
      }
    if (!v->lit.data) v->lit.data = aligned_alloc(64, alloc);
    v->alloc_bytes = alloc;
  } else if (!s && host) {
    v->lit.data = rt_alloc(host, alloc);
    v->host = host;
    v->alloc_bytes = alloc;
  } else if (!s) {
    v->lit.data = aligned_alloc(64, alloc);
  }
  if (!s && !v->lit.data) s = cxla_oom();
  if (s) {
    rval_unref(v);
    return s;
  }
  *out = v;
  return NULL;
}

cxla_status rval_array_in(const RtHost *host, ElemType t, int rank, const int64_t *dims, RVal **out) {
  return array_new(host, NULL, t, rank, dims, out);
}

cxla_status rval_array_x(const ExecCtx *x, ElemType t, int rank, const int64_t *dims, RVal **out) {
  return array_new(x->host, x->cache, t, rank, dims, out);
}

/* A value that borrows array literal l's data; its struct from c as in
 * rval_alloc_in. */
static cxla_status borrow_array(const Literal *l, RvCache *c, RVal **out) {
  *out = NULL;
  RVal *v = rval_alloc_in(c);
  if (!v) return cxla_oom();
  cxla_status s = set_dims(v, l->type, l->rank, l->dims);
  if (s) {
    rval_unref(v);
    return s;
  }
  v->lit.data = l->data;
  *out = v;
  return NULL;
}

cxla_status rval_borrow_x(const ExecCtx *x, const Literal *l, RVal **out) {
  return l->type == T_TUPLE ? rval_borrow(l, out) : borrow_array(l, x->cache, out);
}

bool cpu_uses_blas(CpuExecutable *x) {
  int u = __atomic_load_n(&x->blas_use, __ATOMIC_RELAXED);
  if (u) return u == 2;
  bool any = false;
  for (int p = 0; p < x->nprogs && !any; p++)
    for (int i = 0; i < x->progs[p]->nsteps && !any; i++) {
      const Step *st = &x->progs[p]->steps[i];
      switch (st->kind) {
      case ST_PARAM: case ST_CONST: case ST_TUPLE: case ST_GTE: case ST_VIEW: case ST_ALIAS: case ST_TOKEN:
      case ST_WHILE: case ST_COND: case ST_CALL: case ST_SORT:
        break; /* nested programs are in x->progs too */
      case ST_KERNEL:
        any = st->npre > 0;
        break;
      default:
        any = true; /* GEMMs, convolutions, routines */
        break;
      }
    }
  __atomic_store_n(&x->blas_use, any ? 2 : 1, __ATOMIC_RELAXED);
  return any;
}

void rv_cache_clear(RvCache *c) {
  while (c->vals) {
    RVal *v = c->vals;
    c->vals = v->owner;
    cxla_free(v);
  }
  for (int i = 0; i < c->nbufs; i++) free(c->buf[i]);
  c->nbufs = 0;
}

RvCache *rv_cache_take(CpuExecutable *x) {
  RvCache *c = __atomic_exchange_n(&x->spare, NULL, __ATOMIC_ACQ_REL);
  return c ? c : cxla_calloc(1, sizeof *c);
}

void rv_cache_give(CpuExecutable *x, RvCache *c) {
  if (!c) return;
  RvCache *none = NULL;
  if (__atomic_compare_exchange_n(&x->spare, &none, c, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) return;
  rv_cache_clear(c);
  cxla_free(c);
}

cxla_status rval_tuple(int n, RVal **elems, RVal **out) {
  *out = NULL;
  RVal *v = rval_alloc();
  cxla_status s = v ? NULL : cxla_oom();
  if (!s) {
    v->lit.type = T_TUPLE;
    v->lit.ntuple = n;
    v->elems = cxla_calloc((size_t)(n ? n : 1), sizeof *v->elems);
    v->lit.tuple = cxla_calloc((size_t)(n ? n : 1), sizeof *v->lit.tuple);
    if (!v->elems || !v->lit.tuple) s = cxla_oom();
  }
  for (int i = 0; i < n; i++) {
    if (!s) {
      v->elems[i] = elems[i];
      v->lit.tuple[i] = &elems[i]->lit;
    } else {
      rval_unref(elems[i]);
    }
  }
  if (s) {
    if (v) {
      v->lit.ntuple = 0;
      rval_unref(v);
    }
    return s;
  }
  *out = v;
  return NULL;
}

cxla_status rval_borrow(const Literal *l, RVal **out) {
  *out = NULL;
  if (l->type == T_TUPLE) {
    RVal **el = cxla_calloc((size_t)(l->ntuple ? l->ntuple : 1), sizeof *el);
    if (!el) return cxla_oom();
    cxla_status s = NULL;
    int i = 0;
    for (; i < l->ntuple && !s; i++) s = rval_borrow(l->tuple[i], &el[i]);
    if (s) {
      for (int k = 0; k < i - 1; k++) rval_unref(el[k]);
      cxla_free(el);
      return s;
    }
    s = rval_tuple(l->ntuple, el, out);
    cxla_free(el);
    return s;
  }
  return borrow_array(l, NULL, out);
}

cxla_status rval_view(RVal *base, const Shape *sh, int64_t offset, RVal **out) {
  *out = NULL;
  RVal *v = rval_alloc();
  if (!v) return cxla_oom();
  cxla_status s = set_dims(v, sh->type, sh->rank, sh->dims);
  if (s) {
    rval_unref(v);
    return s;
  }
  v->lit.data = (char *)base->lit.data + offset;
  v->owner = rval_ref(base);
  *out = v;
  return NULL;
}

cxla_status rval_from_literal(Literal *l, RVal **out) {
  *out = NULL;
  if (l->type == T_TUPLE) {
    RVal **el = cxla_calloc((size_t)(l->ntuple ? l->ntuple : 1), sizeof *el);
    if (!el) {
      literal_free(l);
      return cxla_oom();
    }
    cxla_status s = NULL;
    int i = 0;
    for (; i < l->ntuple && !s; i++) {
      s = rval_from_literal(l->tuple[i], &el[i]);
      l->tuple[i] = NULL;
    }
    for (int k = i; k < l->ntuple; k++) {
      literal_free(l->tuple[k]);
      l->tuple[k] = NULL;
    }
    l->ntuple = 0;
    literal_free(l);
    if (s) {
      for (int k = 0; k < i - 1; k++) rval_unref(el[k]);
      cxla_free(el);
      return s;
    }
    s = rval_tuple(i, el, out);
    cxla_free(el);
    return s;
  }
  if (l->type == T_TOKEN) { /* a token is an empty tuple here (after-all's) */
    literal_free(l);
    return rval_tuple(0, NULL, out);
  }
  cxla_status s = rval_array(l->type, l->rank, l->dims, out);
  size_t bytes = (size_t)l->nelems * (size_t)type_bytes(l->type);
  if (!s && bytes) memcpy((*out)->lit.data, l->data, bytes);
  literal_free(l);
  return s;
}

cxla_status rval_to_literal(const RVal *v, Literal **out) {
  return literal_clone(&v->lit, out);
}

RVal *rval_ref(RVal *v) {
  if (v) __atomic_add_fetch(&v->refs, 1, __ATOMIC_RELAXED);
  return v;
}

void rval_drop_packed(RVal *v) {
  if (v->packed) {
    free(v->packed->data);
    cxla_free(v->packed);
  }
  v->packed = NULL;
  v->packed_seen = 0;
}

void rval_unref(RVal *v) {
  if (!v || __atomic_sub_fetch(&v->refs, 1, __ATOMIC_ACQ_REL) > 0) return;
  rval_drop_packed(v);
  for (int i = 0; i < v->lit.ntuple; i++) rval_unref(v->elems[i]);
  cxla_free(v->elems);
  cxla_free(v->lit.tuple);
  RvCache *c = v->cache;
  if (v->owns_data) {
    if (v->host) rt_free(v->host, v->lit.data, v->alloc_bytes);
    else if (c && v->lit.data && v->alloc_bytes && v->alloc_bytes <= RV_CACHE_MAX_BYTES &&
             c->nbufs < RV_CACHE_BUFS) {
      c->buf[c->nbufs] = v->lit.data;
      c->bytes[c->nbufs++] = v->alloc_bytes;
    } else {
      free(v->lit.data);
    }
  }
  rval_unref(v->owner);
  if (v->lit.dims != v->dims_inline) cxla_free(v->lit.dims);
  if (c) {
    v->owner = c->vals;
    c->vals = v;
  } else {
    cxla_free(v);
  }
}

/* ---- FTZ / DAZ ---- */

unsigned cpu_fp_mode_enter(void) {
#if defined(__x86_64__)
  unsigned old = _mm_getcsr();
  _mm_setcsr(old | 0x8040); /* FTZ | DAZ */
  return old;
#else
  return 0;
#endif
}

void cpu_fp_mode_leave(unsigned old) {
#if defined(__x86_64__)
  _mm_setcsr(old);
#else
  (void)old;
#endif
}


/* ---- the step profile (cxla_execute_options.profile) ---- */

static double clock_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double gemm_flops(const GemmPlan *p) { return 2.0 * (double)p->batch * (double)p->m * (double)p->n * (double)p->k; }

/* 2 x the multiply-adds of a convolution: per output element, the
 * kernel's elements over its output features. */
static double conv_flops(const Instr *in) {
  const Shape *w = in->operands[1]->shape;
  double of = in->conv.k_out >= 0 && in->conv.k_out < w->rank ? (double)w->dims[in->conv.k_out] : 1;
  return 2.0 * (double)shape_elems(in->shape) * (double)shape_elems(w) / (of > 0 ? of : 1);
}

static const char *step_kind_name(StepKind k) {
  switch (k) {
  case ST_KERNEL: return "kernel";
  case ST_BLAS_DOT: return "gemm";
  case ST_CONV: return "conv";
  case ST_ROUTINE: return "routine";
  case ST_SORT: return "sort";
  default: return "other";
  }
}

cxla_status cx_parallel_for(const ExecCtx *cx, int64_t n, int64_t min_slice, int max_threads, RtSliceFn fn,
                            void *arg) {
  if (cx->step_threads) { /* a maximum: a split's slices may split again */
    int th = rt_pool_split(cx->pool, n, min_slice, max_threads);
    int cur = __atomic_load_n(cx->step_threads, __ATOMIC_RELAXED);
    while (th > cur && !__atomic_compare_exchange_n(cx->step_threads, &cur, th, true, __ATOMIC_RELAXED,
                                                    __ATOMIC_RELAXED)) {
    }
  }
  return rt_pool_parallel_for(cx->pool, n, min_slice, max_threads, fn, arg);
}

static void profile_step(const ExecCtx *x, const Instr *in, const char *kind, double seconds, double flops,
                         int threads) {
  cxla_profile_step ps = {.name = in->name, .op = op_name(in->op), .kind = kind, .seconds = seconds,
                          .flops = flops, .threads = threads};
  x->profile(x->profile_arg, &ps);
}

/* ---- steps ---- */

/* Whether an operand's buffer may become a kernel's output: the executor
 * holds its only reference (no tuple, view or caller shares it) and it
 * owns its data (not borrowed from the caller or the module). */
static bool reusable(const RVal *v) {
  return __atomic_load_n(&v->refs, __ATOMIC_ACQUIRE) == 1 && v->owns_data && !v->owner && !v->elems &&
         v->lit.type != T_TUPLE;
}

/* One slice of a kernel's rows, on whichever pool thread claims it: with
 * the FTZ/DAZ modes set on that thread as on the caller's. The pool
 * deals out [lo, hi) in units of `unit` rows (the last one short). */
typedef struct KernelCall {
  KernelFn fn;
  void **bufs;
  const struct RtControl *control;
  int64_t unit, extent;
} KernelCall;

static cxla_status kernel_slice(void *arg, int64_t lo, int64_t hi) {
  const KernelCall *k = arg;
  TRY(rt_check(k->control));
  unsigned mode = cpu_fp_mode_enter();
  hi *= k->unit;
  k->fn(k->bufs, lo * k->unit, hi < k->extent ? hi : k->extent);
  cpu_fp_mode_leave(mode);
  return NULL;
}

/* Runs a kernel over all of its rows, split over the execution's threads
 * in slices of at least st->min_slice rows (a kernel too small to be
 * worth splitting runs on the caller). Every row is computed by exactly
 * one call, in the same way whatever the split: results do not depend on
 * the thread count. A streaming kernel's outputs are 64-byte aligned
 * (step_output) and its slices start at multiples of st->unit rows; the
 * check keeps a broken promise from becoming stores at the wrong
 * addresses. */
static cxla_status kernel_call(const ExecCtx *x, const Step *st, void **bufs) {
  int64_t unit = st->unit; /* >= 1 for every kernel step (compile.c kernel_step) */
  for (int k = 0; st->streams && k < st->nout; k++)
    if ((uintptr_t)bufs[k] & 63)
      return ERR(INTERNAL, "cpu: kernel %s: output %d is not 64-byte aligned", st->kname, k);
  KernelCall kc = {st->fn, bufs, x->control, unit, st->extent};
  if (!x->pool || x->nthreads <= 1 || st->extent < 2 * st->min_slice) {
    unsigned mode = cpu_fp_mode_enter();
    st->fn(bufs, 0, st->extent);
    cpu_fp_mode_leave(mode);
    return NULL;
  }
  if (x->nsplit) __atomic_add_fetch(x->nsplit, 1, __ATOMIC_RELAXED);
  return rt_pool_parallel_for(x->pool, (st->extent + unit - 1) / unit, (st->min_slice + unit - 1) / unit,
                              x->nthreads, kernel_slice, &kc);
}

/* The buffer for output k (of shape sh) of a kernel or GEMM step: the
 * caller's result array when the output is one (Step.leaf1: written in
 * place, never copied) and, for a streaming kernel, 64-byte aligned; else
 * a fresh array (aligned; copied into the caller's at the end). */
cxla_status step_output(const ExecCtx *x, const Step *st, int k, const Shape *sh, RVal **out) {
  int leaf = st->leaf1[k] - 1;
  if (leaf >= 0 && x->results && leaf < x->nresults && x->results[leaf].type == sh->type &&
      x->results[leaf].size == (size_t)shape_elems(sh) * (size_t)type_bytes(sh->type) &&
      !(st->streams && ((uintptr_t)x->results[leaf].data & 63))) {
    Literal view = {.type = sh->type, .rank = sh->rank, .dims = (int64_t *)sh->dims, .data = x->results[leaf].data};
    return rval_borrow(&view, out);
  }
  return rval_array_x(x, sh->type, sh->rank, sh->dims, out);
}

/* Broadcasts of one scalar into an output this large are filled here, in
 * 16-byte stores that bypass the caches (x86: no read of each line before
 * it is written, half the memory traffic of the compiled kernel's stores;
 * the output is larger than the caches, so its readers find it in memory
 * either way). Bit for bit what the kernel writes. */
enum { FILL_MIN_BYTES = 16 << 20, FILL_SLICE = 1 << 20 };

typedef struct Fill {
  unsigned char *dst; /* 16-byte aligned */
  size_t bytes;
  unsigned char pat[16]; /* the element's bytes repeated: 16 % element size == 0 */
} Fill;

#if defined(__x86_64__) && defined(__GNUC__)
/* Bytes [a, e) of the fill from a 32-byte boundary: 32-byte streamed
 * stores up to the last whole one (a 64 MB fill on two threads 4% faster
 * than 16-byte ones); where they end. */
__attribute__((target("avx"))) static size_t fill_stream32(const Fill *f, size_t a, size_t e) {
  __m128i h = _mm_loadu_si128((const __m128i *)f->pat);
  __m256i v = _mm256_set_m128i(h, h);
  for (; a + 32 <= e; a += 32) _mm256_stream_si256((__m256i *)(f->dst + a), v);
  return a;
}
#endif

/* fn over the FILL_SLICE slices of `bytes` bytes, split over x's
 * threads where it has them (fills and copies alike). */
static cxla_status over_slices(const ExecCtx *x, size_t bytes, RtSliceFn fn, void *arg) {
  int64_t n = (int64_t)((bytes + FILL_SLICE - 1) / FILL_SLICE);
  return x->pool && x->nthreads > 1 ? rt_pool_parallel_for(x->pool, n, 1, x->nthreads, fn, arg) : fn(arg, 0, n);
}

/* Bytes [lo, hi) x FILL_SLICE (to f->bytes) of the fill. */
static cxla_status fill_slice(void *arg, int64_t lo, int64_t hi) {
  const Fill *f = arg;
  size_t a = (size_t)lo * FILL_SLICE, e = (size_t)hi * FILL_SLICE;
  if (e > f->bytes) e = f->bytes;
  size_t e16 = e & ~(size_t)15;
#if defined(__x86_64__)
  __m128i v = _mm_loadu_si128((const __m128i *)f->pat);
#if defined(__GNUC__)
  /* (buffers are 64-byte aligned, slices whole MiB) */
  if (__builtin_cpu_supports("avx") && !((uintptr_t)(f->dst + a) & 31)) a = fill_stream32(f, a, e16);
#endif
  for (size_t o = a; o < e16; o += 16) _mm_stream_si128((__m128i *)(f->dst + o), v);
  _mm_sfence(); /* the streamed stores visible before the slice is done */
#else
  for (size_t o = a; o < e16; o += 16) memcpy(f->dst + o, f->pat, 16);
#endif
  for (size_t o = e16; o < e; o++) f->dst[o] = f->pat[o % 16];
  return NULL;
}

/* A kernel step that broadcasts a scalar into one big output at out:
 * filled by fill_slice over the threads (true), or left to the kernel. */
static bool fill_broadcast(const ExecCtx *x, const Step *st, RVal *const *ops, void *out, cxla_status *s) {
  const Instr *in = st->in;
  if (in->op != OP_BROADCAST || st->nout != 1 || in->noperands != 1 || st->npre || st->row_alias ||
      in->shape->type == T_TUPLE || ops[0]->lit.nelems != 1 || ops[0]->lit.type != in->shape->type)
    return false;
  ElemType t = in->shape->type;
  size_t es = (size_t)type_bytes(t), bytes = (size_t)shape_elems(in->shape) * es;
  if (es == 0 || 16 % es != 0 || type_bits(t) != 8 * (int)es || bytes < FILL_MIN_BYTES || ((uintptr_t)out & 15))
    return false;
  Fill f = {.dst = out, .bytes = bytes};
  for (int i = 0; i < 16; i++) f.pat[i] = ((const unsigned char *)ops[0]->lit.data)[(size_t)i % es];
  *s = over_slices(x, bytes, fill_slice, &f);
  return true;
}

/* Copies this large go over the threads with streamed stores, as fills
 * do: a result that is a parameter (a transpose that layout made a bitcast)
 * moves at the copy's bandwidth, not one core's memcpy with each line of
 * the destination read before it is written. */
typedef struct Copy {
  unsigned char *dst;
  const unsigned char *src;
  size_t bytes;
} Copy;

#if defined(__x86_64__) && defined(__GNUC__)
/* Bytes [a, e) of the copy, dst + a 32-byte aligned: streamed 32-byte
 * stores up to the last whole 64 bytes; where they end. */
__attribute__((target("avx"))) static size_t copy_stream32(const Copy *c, size_t a, size_t e) {
  for (; a + 64 <= e; a += 64) {
    __m256i v0 = _mm256_loadu_si256((const __m256i *)(c->src + a));
    __m256i v1 = _mm256_loadu_si256((const __m256i *)(c->src + a + 32));
    _mm256_stream_si256((__m256i *)(c->dst + a), v0);
    _mm256_stream_si256((__m256i *)(c->dst + a + 32), v1);
  }
  return a;
}
#endif

/* Bytes [lo, hi) x FILL_SLICE (to c->bytes) of the copy. */
static cxla_status copy_slice(void *arg, int64_t lo, int64_t hi) {
  const Copy *c = arg;
  size_t a = (size_t)lo * FILL_SLICE, e = (size_t)hi * FILL_SLICE;
  if (e > c->bytes) e = c->bytes;
#if defined(__x86_64__)
  size_t head = (size_t)(-(uintptr_t)(c->dst + a) & 31); /* to dst's next 32-byte boundary */
  if (head > e - a) head = e - a;
  memcpy(c->dst + a, c->src + a, head);
  a += head;
#if defined(__GNUC__)
  if (__builtin_cpu_supports("avx")) a = copy_stream32(c, a, e);
#endif
  for (; a + 16 <= e; a += 16) _mm_stream_si128((__m128i *)(c->dst + a), _mm_loadu_si128((const __m128i *)(c->src + a)));
  _mm_sfence(); /* the streamed stores visible before the slice is done */
#endif
  memcpy(c->dst + a, c->src + a, e - a);
  return NULL;
}

cxla_status exec_copy(const ExecCtx *cx, void *dst, const void *src, size_t bytes) {
  if (bytes < FILL_MIN_BYTES) {
    if (bytes) memcpy(dst, src, bytes);
    return NULL;
  }
  Copy c = {.dst = dst, .src = src, .bytes = bytes};
  return over_slices(cx, bytes, copy_slice, &c);
}

static cxla_status run_kernel(const ExecCtx *x, const Step *st, RVal *const *ops, RVal **out) {
  const Instr *in = st->in;
  RVal *outs[8] = {0}, *pre[4] = {0};
  void *bufs[8 + 64 + 4];
  void **b = bufs;
  int nops = in->noperands;
  if (st->nout + nops + st->npre > (int)(sizeof bufs / sizeof bufs[0])) {
    b = cxla_malloc((size_t)(st->nout + nops + st->npre) * sizeof *b);
    if (!b) return cxla_oom();
  }
  cxla_status s = NULL;
  double t0 = x->profile ? clock_s() : 0;
  for (int i = 0; i < st->npre && !s; i++) {
    const Instr *d = st->pre[i];
    double tp = x->profile ? clock_s() : 0;
    unsigned mode = cpu_fp_mode_enter();
    RVal *a = ops[d->operands[0]->param_number], *bb = ops[d->operands[1]->param_number];
    s = d->op == OP_CONVOLUTION ? conv_gemm_run(x, d, a, bb, &pre[i]) : gemm_run(x, d, &st->pre_plan[i], a, bb, &pre[i]);
    cpu_fp_mode_leave(mode);
    if (!s) b[st->nout + nops + i] = pre[i]->lit.data;
    if (!s && x->profile) {
      double tn = clock_s();
      profile_step(x, d, d->op == OP_CONVOLUTION ? "conv-in-fusion" : "gemm-in-fusion", tn - tp,
                   d->op == OP_CONVOLUTION ? conv_flops(d) : gemm_flops(&st->pre_plan[i]), x->nthreads);
      t0 += tn - tp;
    }
  }
  for (int k = 0; k < st->nout && !s; k++) {
    const Shape *sh = in->shape->type == T_TUPLE ? in->shape->tuple[k] : in->shape;
    if (((st->inplace >> k) & 1) && reusable(ops[k])) {
      outs[k] = rval_ref(ops[k]);
      outs[k]->finite = 0; /* rewritten */
      rval_drop_packed(outs[k]);
      if (x->ninplace) __atomic_add_fetch(x->ninplace, 1, __ATOMIC_RELAXED);
      b[k] = outs[k]->lit.data;
      continue;
    }
    s = step_output(x, st, k, sh, &outs[k]);
    if (!s) b[k] = outs[k]->lit.data;
  }
  if (!s) {
    for (int k = 0; k < nops; k++) b[st->nout + k] = ops[k]->lit.data;
    /* a row kernel emitted over one buffer reads operand 0 from its
     * output: a copy there when the output could not take its buffer */
    if (st->row_alias && b[0] != b[st->nout])
      memcpy(b[0], b[st->nout], (size_t)ops[0]->lit.nelems * (size_t)type_bytes(ops[0]->lit.type));
    if (!fill_broadcast(x, st, ops, b[0], &s)) s = kernel_call(x, st, b);
  }
  if (!s && x->profile)
    profile_step(x, in, "kernel", clock_s() - t0, 0,
                 x->pool && x->nthreads > 1 && st->extent >= 2 * st->min_slice ? x->nthreads : 1);
  if (!s) {
    if (in->shape->type == T_TUPLE) {
      s = rval_tuple(st->nout, outs, out);
      for (int k = 0; k < st->nout; k++) outs[k] = NULL;
    } else {
      *out = outs[0];
      outs[0] = NULL;
    }
  }
  for (int k = 0; k < st->nout; k++) rval_unref(outs[k]);
  for (int i = 0; i < st->npre; i++) rval_unref(pre[i]);
  if (b != bufs) cxla_free(b);
  return s;
}

static cxla_status exec_steps(const ExecCtx *x, const Program *p, RVal **args, int nargs, bool take,
                              RVal **out);

/* ---- GEMM chains (compile.c: plan_chains) ----
 * C = F(A1 B1) B2 by blocks of rows: for batch element b and rows
 * [i0, i0 + R) of the product, S = rows of A1[b] times B1[b], P = the row
 * kernel over those rows (its other operands read whole, at the global
 * row index), C's rows = P times B2[b]. Blocks are independent: they are
 * split over the threads, each with its own S and P (in the cache). */
typedef struct ChainJob {
  const ExecCtx *x;
  KernelFn fn;
  int64_t m, n, k1, n2, rows, nblk, per; /* per: product rows per kernel row */
  bool tb1, tb2, alias;
  bool skip_zeros; /* B2 finite and untransposed: see chain_slice */
  bool band;       /* S needed only at columns j <= i + band_d (Step.chain_band) */
  int64_t band_d;
  const float *a1, *b1, *b2;
  float *c2;
  void *const *fbufs; /* the kernel's buffers but output 0 and operand 0 */
  int nf;             /* 1 + its operands */
} ChainJob;

/* p shifted back by `rows` rows of n floats: the kernel indexes its
 * buffers by the global row, so the block's own row g0 lands at p. */
static void *rows_back(float *p, int64_t rows, int64_t n) {
  return (void *)((uintptr_t)p - (uintptr_t)rows * (uintptr_t)n * sizeof(float));
}

/* The end of row[0, e) once its trailing zeros (+0 or -0) are cut,
 * looking no lower than lo; 16 at a time (vectorized) where it can. The
 * chain runs only where the AVX-512 GEMM kernel does (plan_chains), so
 * there 64 floats at a time in four 16-lane tests (a causal block's
 * zeros are about half of it: the 16-at-a-time loop and the compaction
 * were 7% of the chain's time on gpt2_block_1024, now 1.5%). */
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx512f"))) static int64_t nonzero_end_avx512(const float *row, int64_t lo, int64_t e) {
  const __m512i mag = _mm512_set1_epi32(0x7fffffff);
  while (e - 64 >= lo) {
    const float *p = row + e - 64;
    __m512i v = _mm512_or_si512(_mm512_or_si512(_mm512_loadu_si512(p), _mm512_loadu_si512(p + 16)),
                                _mm512_or_si512(_mm512_loadu_si512(p + 32), _mm512_loadu_si512(p + 48)));
    if (_mm512_test_epi32_mask(v, mag)) break;
    e -= 64;
  }
  while (e - 16 >= lo) {
    __mmask16 m = _mm512_test_epi32_mask(_mm512_loadu_si512(row + e - 16), mag);
    if (m) return e - 16 + (32 - __builtin_clz((unsigned)m));
    e -= 16;
  }
  const uint32_t *u = (const uint32_t *)(const void *)row;
  while (e > lo && (u[e - 1] & 0x7fffffffu) == 0) e--;
  return e;
}
#endif

static int64_t nonzero_end(const float *row, int64_t lo, int64_t e) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (f32_gemm_kernel_available()) return nonzero_end_avx512(row, lo, e);
#endif
  const uint32_t *u = (const uint32_t *)(const void *)row;
  while (e - 16 >= lo) {
    uint32_t any = 0;
    for (int t = 0; t < 16; t++) any |= u[e - 16 + t] & 0x7fffffffu;
    if (any) break;
    e -= 16;
  }
  while (e > lo && (u[e - 1] & 0x7fffffffu) == 0) e--;
  return e;
}

static cxla_status chain_slice(void *arg, int64_t lo, int64_t hi) {
  const ChainJob *j = arg;
  TRY(rt_check(j->x->control));
  /* S and P (one block when the kernel writes P over S) in one
   * allocation, each starting on a 64-byte boundary (blk a multiple of
   * 16 floats): S is the first product's C, whose 64-byte rows of a tile
   * would straddle two lines each at malloc's 16-byte alignment */
  size_t blk = ((size_t)(j->rows * j->n) + 15) & ~(size_t)15;
  void *raw;
  float *sb = cxla_malloc_lines((j->alias ? 1 : 2) * blk * sizeof(float), &raw);
  float *pb = j->alias || !sb ? sb : sb + blk;
  void **bufs = cxla_malloc((size_t)j->nf * sizeof *bufs);
  /* B1[b] packed once per batch element the slice reaches (its blocks
   * are consecutive: one or two elements), where each block's product
   * would pack the panels it reads again: 1 + 2 + ... + nblk panels'
   * worth per element against nblk */
  F32Gemm whole = {.batch = 1, .m = j->rows, .n = j->n, .k = j->k1, .trans_b = j->tb1};
  void *pk_raw = NULL;
  float *pk = cxla_malloc_lines((size_t)f32_gemm_packed_floats(&whole) * sizeof(float), &pk_raw);
  int64_t packed_b = -1;
  cxla_status s = !sb || !bufs || !pk ? cxla_oom() : NULL;
  if (!s && j->band) memset(sb, 0, (size_t)(j->rows * j->n) * sizeof *sb);
  unsigned mode = cpu_fp_mode_enter();
  for (int64_t u = lo; u < hi && !s; u++) {
    int64_t b = u / j->nblk, i0 = u % j->nblk * j->rows;
    int64_t r = j->m - i0 < j->rows ? j->m - i0 : j->rows, g0 = b * j->m + i0;
    /* With a band, the block's rows read S no further right than its
     * last row's band: the columns past it are left out of the product
     * (the kernel's select never takes them). They hold what the slice's
     * earlier blocks put there, else the zeros the slice started with:
     * values of the product as the kernel would read them unchained, so
     * no trap or slow path in what it computes there and discards, and
     * no pass over them per block */
    int64_t ncol = j->n;
    if (j->band) {
      int64_t e = i0 + r + j->band_d;
      ncol = e < 0 ? 0 : e < j->n ? e : j->n;
    }
    if (ncol > 0) {
      if (b != packed_b && (s = f32_gemm_pack_b(&whole, j->b1 + b * j->k1 * j->n, pk, NULL, 1))) break;
      packed_b = b;
      /* the first ncol columns' panels lead the packed B1 */
      F32Gemm g1 = {.batch = 1, .m = r, .n = ncol, .k = j->k1, .trans_b = j->tb1, .ldb = j->n, .ldc = j->n};
      s = f32_gemm_kernel_packed(&g1, j->a1 + g0 * j->k1, pk, sb, NULL, 1);
      if (s) break;
    }
    for (int k = 2; k < j->nf; k++) bufs[k] = j->fbufs[k];
    bufs[0] = rows_back(pb, g0, j->n);
    bufs[1] = rows_back(sb, g0, j->n);
    j->fn(bufs, g0 / j->per, (g0 + r) / j->per);
    /* Columns of P that are zero in every row of the block (a causal
     * mask's exp(-huge)) add fma(0, finite, acc) = acc: with B2 finite
     * the contraction stops at the last column holding a non-zero, P's
     * rows read as the prefix of that width (the same values; only the
     * sign of an all-zero sum may differ). The bottom row first: under
     * a causal mask it ends last, so the rows above it are tested only
     * past its end. */
    int64_t kk = j->n;
    if (j->skip_zeros) {
      int64_t last = 0;
      for (int64_t i = r - 1; i >= 0 && last < j->n; i--) last = nonzero_end(pb + i * j->n, last, j->n);
      kk = last > 0 ? last : 1;
    }
    F32Gemm g2 = {.batch = 1, .m = r, .n = j->n2, .k = kk, .trans_b = j->tb2, .lda = j->n};
    s = f32_gemm_kernel(&g2, pb, j->b2 + b * j->n * j->n2, j->c2 + g0 * j->n2, NULL, 1);
  }
  cpu_fp_mode_leave(mode);
  cxla_free(bufs);
  cxla_free(raw);
  cxla_free(pk_raw);
  return s;
}

static cxla_status run_chain(const ExecCtx *x, const Program *p, const Step *st, RVal *const *vals, RVal **out) {
  const Step *s1 = &p->steps[st->chain_d1], *sf = &p->steps[st->chain_f];
  const Instr *d1 = s1->in, *f = sf->in, *d2 = st->in;
  void *small[16], **fb = small;
  int nf = 1 + f->noperands;
  if (nf > 16 && !(fb = cxla_malloc((size_t)nf * sizeof *fb))) return cxla_oom();
  for (int k = 1; k < f->noperands; k++) fb[1 + k] = vals[f->operands[k]->id]->lit.data;
  ChainJob j = {.x = x, .fn = sf->fn, .m = s1->gemm.m, .n = s1->gemm.n, .k1 = s1->gemm.k, .n2 = st->gemm.n,
                .rows = st->chain_rows, .per = s1->gemm.batch * s1->gemm.m / sf->extent,
                .tb1 = s1->gemm.trans_b, .tb2 = st->gemm.trans_b, .alias = sf->row_alias,
                .a1 = vals[d1->operands[0]->id]->lit.data, .b1 = vals[d1->operands[1]->id]->lit.data,
                .b2 = vals[d2->operands[1]->id]->lit.data, .fbufs = fb, .nf = nf,
                .band = st->chain_band, .band_d = st->chain_band_d};
  j.nblk = (j.m + j.rows - 1) / j.rows;
  j.skip_zeros = !j.tb2 && rval_all_finite_on(vals[d2->operands[1]->id], 1, x->pool, x->nthreads);
  cxla_status s = step_output(x, st, 0, d2->shape, out);
  if (!s) {
    j.c2 = (*out)->lit.data;
    s = rt_pool_parallel_for(x->pool, s1->gemm.batch * j.nblk, 1, x->nthreads, chain_slice, &j);
  }
  if (fb != small) cxla_free(fb);
  return s;
}


/* The loop state goes to the body, which takes it (exec_steps' `take`):
 * once the body has read the elements it needs out of it, the tuple is
 * gone, and a carried array whose last use is an in-place kernel (a
 * dynamic-update-slice of a scan's output) is updated where it lies rather
 * than copied each iteration. init is taken too. */
static cxla_status run_while(const ExecCtx *x, const Step *st, RVal *init, RVal **out) {
  RVal *state = init;
  for (;;) {
    RVal *c = NULL;
    cxla_status s = rt_check(x->control);
    if (!s) s = exec_program(x, st->sub[0], &state, 1, &c);
    if (s) {
      rval_unref(state);
      return s;
    }
    bool go = ((const unsigned char *)c->lit.data)[0] != 0;
    rval_unref(c);
    if (!go) break;
    RVal *next = NULL;
    s = exec_steps(x, st->sub[1], &state, 1, true, &next);
    rval_unref(state); /* NULL unless the body did not take it */
    if (s) return s;
    state = next;
  }
  *out = state;
  return NULL;
}

static cxla_status run_cond(const ExecCtx *x, const Step *st, RVal *const *ops, RVal **out) {
  const RVal *sel = ops[0];
  int64_t k;
  if (sel->lit.type == T_PRED) {
    k = ((const unsigned char *)sel->lit.data)[0] ? 0 : 1;
  } else {
    int32_t v;
    memcpy(&v, sel->lit.data, 4);
    k = (v < 0 || v >= st->nsub) ? st->nsub - 1 : v;
  }
  return exec_program(x, st->sub[k], &ops[1 + k], 1, out);
}

static cxla_status run_step(const ExecCtx *x, const Step *st, RVal *const *args, int nargs, RVal **vals,
                            RVal **out) {
  const Instr *in = st->in;
  RVal *small[16], **ops = small;
  if (in->noperands > 16 && !(ops = cxla_calloc((size_t)in->noperands, sizeof *ops))) return cxla_oom();
  for (int k = 0; k < in->noperands; k++) ops[k] = vals[in->operands[k]->id];
  cxla_status s = NULL;
  switch (st->kind) {
  case ST_PARAM:
    if (in->param_number >= nargs) s = ERR(INVALID_ARGUMENT, "parameter %lld not given", (long long)in->param_number);
    else *out = rval_ref(args[in->param_number]);
    break;
  case ST_CONST: *out = rval_ref(st->constant); break;
  case ST_KERNEL: s = run_kernel(x, st, ops, out); break;
  case ST_TUPLE: {
    RVal *el[64], **e = el;
    if (in->noperands > 64 && !(e = cxla_calloc((size_t)in->noperands, sizeof *e))) {
      s = cxla_oom();
      break;
    }
    for (int k = 0; k < in->noperands; k++) e[k] = rval_ref(ops[k]);
    s = rval_tuple(in->noperands, e, out);
    if (e != el) cxla_free(e);
    break;
  }
  case ST_GTE:
    if (ops[0]->lit.type != T_TUPLE || in->index < 0 || in->index >= ops[0]->lit.ntuple)
      s = ERR(INTERNAL, "get-tuple-element %%%s of a non-tuple", in->name);
    else *out = rval_ref(ops[0]->elems[in->index]);
    break;
  case ST_VIEW: s = rval_view(ops[0], in->shape, st->view_offset, out); break;
  case ST_ALIAS: *out = rval_ref(ops[0]); break;
  case ST_TOKEN: s = rval_tuple(0, NULL, out); break;
  case ST_BLAS_DOT: {
    unsigned mode = cpu_fp_mode_enter();
    s = step_output(x, st, 0, in->shape, out);
    if (!s) s = gemm_run_into(x, &st->gemm, ops[st->swap], ops[!st->swap], *out);
    cpu_fp_mode_leave(mode);
    break;
  }
  case ST_CONV: {
    unsigned mode = cpu_fp_mode_enter();
    s = step_output(x, st, 0, in->shape, out);
    if (!s) s = conv_gemm_run_into(x, in, ops[0], ops[1], *out);
    cpu_fp_mode_leave(mode);
    break;
  }
  case ST_WHILE: s = run_while(x, st, rval_ref(ops[0]), out); break;
  case ST_COND: s = run_cond(x, st, ops, out); break;
  case ST_CALL: s = exec_program(x, st->sub[0], ops, in->noperands, out); break;
  case ST_ROUTINE:
    /* LAPACK's blocked routines sum in an order that depends on OpenBLAS's
     * thread count: it is 1 in every execution (blas_threads.c), so
     * results do not depend on --threads */
    s = routine_run(x, st, ops, out);
    break;
  case ST_SORT: {
    unsigned mode = cpu_fp_mode_enter();
    s = sort_run(x, st, ops, out);
    cpu_fp_mode_leave(mode);
    break;
  }
  }
  if (ops != small) cxla_free(ops);
  return s;
}

cxla_status exec_program(const ExecCtx *x, const Program *p, RVal *const *args, int nargs, RVal **out) {
  return exec_steps(x, p, (RVal **)args, nargs, false, out);
}

/* Runs p's steps. take: the parameters' values are taken from args (each
 * set to NULL when its parameter step runs) instead of referenced, so that
 * they are released at their last use in p; the while step takes its
 * operand when this is its last use. */
static cxla_status exec_steps(const ExecCtx *x, const Program *p, RVal **args, int nargs, bool take,
                              RVal **out) {
  *out = NULL;
  /* the values of small programs (while bodies, conditions) on the stack */
  RVal *small[32];
  RVal **vals = p->nsteps <= 32 ? small : cxla_calloc((size_t)p->nsteps, sizeof *vals);
  if (!vals) return cxla_oom();
  if (vals == small) memset(small, 0, (size_t)p->nsteps * sizeof *small); /* only the steps' */
  cxla_status s = NULL;
  for (int i = 0; i < p->nsteps && !s; i++) {
    const Step *st = &p->steps[i];
    if (!st->in || st->chained) continue; /* dead instruction, or run by a chain */
    if (st->kind == ST_KERNEL || st->kind == ST_ROUTINE || st->kind == ST_BLAS_DOT || st->kind == ST_CONV ||
        st->kind == ST_SORT)
      if ((s = rt_check(x->control))) break;
    const Instr *in = st->in;
    if (take && st->kind == ST_PARAM && in->param_number < nargs && args[in->param_number]) {
      vals[i] = args[in->param_number];
      args[in->param_number] = NULL;
      continue;
    }
    if (st->kind == ST_WHILE && p->last_use[in->operands[0]->id] == i) {
      /* the last use of the loop's initial state: the loop takes it */
      RVal *init = vals[in->operands[0]->id];
      vals[in->operands[0]->id] = NULL;
      s = run_while(x, st, init, &vals[i]);
      if (s) break;
      continue;
    }
    /* kernels report themselves (the GEMMs they start with apart) */
    bool timed = x->profile && ((st->kind == ST_ROUTINE && !st->nsub) || st->kind == ST_BLAS_DOT ||
                                st->kind == ST_CONV || st->kind == ST_SORT);
    double t0 = timed ? clock_s() : 0;
    if (timed && x->step_threads) __atomic_store_n(x->step_threads, 1, __ATOMIC_RELAXED);
    s = st->chain ? run_chain(x, p, st, vals, &vals[i]) : run_step(x, st, args, nargs, vals, &vals[i]);
    if (s) break;
    if (st->chain) {
      /* the chained steps' operands whose last use the chain was */
      const Instr *parts[2] = {p->steps[st->chain_d1].in, p->steps[st->chain_f].in};
      for (int q = 0; q < 2; q++)
        for (int k = 0; k < parts[q]->noperands; k++) {
          int j = parts[q]->operands[k]->id;
          if (p->last_use[j] == i && vals[j]) {
            rval_unref(vals[j]);
            vals[j] = NULL;
          }
        }
    }
    if (timed) {
      double fl = st->kind == ST_BLAS_DOT ? gemm_flops(&st->gemm) : st->kind == ST_CONV ? conv_flops(st->in) : 0;
      if (st->chain) fl += gemm_flops(&p->steps[st->chain_d1].gemm);
      int th = st->kind == ST_BLAS_DOT || st->kind == ST_CONV ? x->nthreads
               : x->step_threads                                ? __atomic_load_n(x->step_threads, __ATOMIC_RELAXED)
                                                                : 1;
      profile_step(x, st->in, st->chain ? "gemm-chain" : step_kind_name(st->kind), clock_s() - t0, fl, th);
    }
    /* release operands whose last use this was */
    for (int k = 0; k < in->noperands; k++) {
      int j = in->operands[k]->id;
      if (p->last_use[j] == i && vals[j]) {
        rval_unref(vals[j]);
        vals[j] = NULL;
      }
    }
  }
  if (!s) {
    int r = p->comp->root->id;
    *out = vals[r];
    vals[r] = NULL;
    if (!*out) s = ERR(INTERNAL, "cpu backend: the root of %s has no value", p->comp->name);
  }
  for (int i = 0; i < p->nsteps; i++) rval_unref(vals[i]);
  if (vals != small) cxla_free(vals);
  return s;
}

cxla_status cpu_execute(CpuExecutable *x, Literal *const *args, int nargs, Literal **out) {
  return cpu_execute_ctl(x, args, nargs, NULL, out);
}

cxla_status cpu_execute_ctl(CpuExecutable *x, Literal *const *args, int nargs,
                            const struct RtControl *control, Literal **out) {
  CpuExecOptions o = {.control = control};
  return cpu_execute_opts(x, args, nargs, &o, out);
}

cxla_status cpu_execute_opts(CpuExecutable *x, Literal *const *args, int nargs,
                             const CpuExecOptions *o, Literal **out) {
  *out = NULL;
  uint64_t rng_state = 0x853c49e6748fea9bull; /* where the interpreter's starts */
  int threads = rt_pool_size(o->pool);
  if (o->num_threads > 0 && o->num_threads < threads) threads = o->num_threads;
  ExecCtx cx = {.x = x, .control = o->control, .host = NULL, .rng_state = &rng_state, .pool = o->pool,
                .nthreads = threads, .nsplit = o->kernels_split, .ninplace = o->kernels_inplace};
  const Computation *c = x->entry->comp;
  if (nargs != c->nparams)
    return ERR(INVALID_ARGUMENT, "the program takes %d arguments, %d given", c->nparams, nargs);
  RVal **a = cxla_calloc((size_t)(nargs ? nargs : 1), sizeof *a);
  if (!a) return cxla_oom();
  cx.cache = rv_cache_take(x); /* after the early returns: it goes back at the end */
  cxla_status s = NULL;
  for (int i = 0; i < nargs && !s; i++) {
    const Shape *ps = c->params[i]->shape;
    const Literal *l = args[i];
    bool ok = l && l->type == ps->type && (l->type == T_TUPLE || l->rank == ps->rank);
    for (int d = 0; ok && l->type != T_TUPLE && d < l->rank; d++) ok = l->dims[d] == ps->dims[d];
    if (!ok) {
      s = ERR(INVALID_ARGUMENT, "argument %d does not have the parameter's shape", i);
      break;
    }
    s = rval_borrow_x(&cx, l, &a[i]);
  }
  RVal *r = NULL;
  bool blas = cpu_uses_blas(x);
  if (blas) cpu_blas_enter();
  if (!s) s = exec_program(&cx, x->entry, a, nargs, &r);
  if (blas) cpu_blas_leave();
  if (!s) s = rval_to_literal(r, out);
  rval_unref(r);
  for (int i = 0; i < nargs; i++) rval_unref(a[i]);
  cxla_free(a);
  rv_cache_give(x, cx.cache);
  return s;
}
