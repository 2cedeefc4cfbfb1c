/* isa.h: which vector instruction set the f32 kernels of fgemm.c, dconv.c
 * and wgrad.c run on. Internal to src/cpu. */
#ifndef CXLA_CPU_ISA_H
#define CXLA_CPU_ISA_H

#include <stdlib.h>
#include <string.h>

/* 2: AVX-512F, 1: AVX2 and FMA, 0: neither. The environment variable
 * cap_env set to "avx2" caps a CPU with AVX-512 at 1, so that tests run
 * both sets of kernels on one machine (read only where it can cap). */
static inline int cpu_fma_isa(const char *cap_env) {
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) {
    const char *cap = getenv(cap_env);
    if (!(cap && strcmp(cap, "avx2") == 0)) return 2;
  }
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? 1 : 0;
#else
  (void)cap_env;
  return 0;
#endif
}

#endif
