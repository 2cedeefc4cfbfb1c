/* blas_threads.c: OpenBLAS's thread count, shared with the rest of the
 * process.
 *
 * OpenBLAS runs each call on as many threads as one process-wide setting
 * says (openblas_set_num_threads; there is no per-call count in the
 * OpenBLAS this builds against). The executor wants it at the execution's
 * thread count for a GEMM step, at 1 for LAPACK routines and for GEMMs a
 * step already splits over the execution's threads. The application may
 * have chosen its own count for its own BLAS calls: cxla changes the
 * setting only while at least one of its executions runs, and when the
 * last of them ends, puts back the count that was set when the first of
 * them changed it.
 *
 * The setting is process-wide, so its bookkeeping is too: the one mutable
 * global state of the library, a count of running executions and the
 * count to restore, under a mutex. Every change cxla makes goes through
 * it, so two executions never interleave a read and a write of the
 * setting. Executions running at once with different wishes move it back
 * and forth: that changes speed, never results (OpenBLAS splits a GEMM
 * over rows and columns of the result, never over the sum, and the LAPACK
 * routines run at one thread whatever the others want only while they
 * hold it at 1 -- see exec.c). A change the application makes from
 * another thread while an execution runs is overwritten when the last
 * execution ends. */
#include <cblas.h>
#include <pthread.h>

#include "cpu/cpu_internal.h"

static pthread_mutex_t g_blas_mu = PTHREAD_MUTEX_INITIALIZER;
static int g_blas_users;       /* executions running */
static int g_blas_saved = -1;  /* the count before cxla changed it, or -1: not changed */

void cpu_blas_enter(void) {
  pthread_mutex_lock(&g_blas_mu);
  g_blas_users++;
  pthread_mutex_unlock(&g_blas_mu);
}

void cpu_blas_leave(void) {
  pthread_mutex_lock(&g_blas_mu);
  if (--g_blas_users == 0 && g_blas_saved >= 0) {
    if (openblas_get_num_threads() != g_blas_saved) openblas_set_num_threads(g_blas_saved);
    g_blas_saved = -1;
  }
  pthread_mutex_unlock(&g_blas_mu);
}

void cpu_blas_threads(int n) {
  if (n < 1) n = 1;
  pthread_mutex_lock(&g_blas_mu);
  int now = openblas_get_num_threads();
  if (now != n) {
    if (g_blas_saved < 0) g_blas_saved = now;
    openblas_set_num_threads(n);
  }
  pthread_mutex_unlock(&g_blas_mu);
}
