#!/usr/bin/env python3
"""Steady-state dispatch time of a small jitted call (x + 1 on f32[4]) on
cxla and on XLA:CPU, in one process: python python/dispatch_bench.py [N]."""
import os
import sys
import time

os.environ.setdefault("JAX_PLATFORMS", "cxla,cpu")
import jax  # noqa: E402
import numpy as np  # noqa: E402


def per_call(dev, n):
    f = jax.jit(lambda x: x + 1)
    x = jax.device_put(np.ones(4, np.float32), dev)
    for _ in range(200):
        f(x).block_until_ready()
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(n):
            f(x).block_until_ready()
        best = min(best, (time.perf_counter() - t) / n)
    return best


n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
for name in ("cxla", "cpu"):
    print(f"{name:5} {per_call(jax.devices(name)[0], n) * 1e6:8.1f} us per call")
