#!/usr/bin/env python3
"""make bench-compile: compile time of `cxla check`, `cxla opt` and a cold
compile and one run on the default backend (`cxla bench --iters 1
--warmup 0` with an empty disk cache: "build") on generated modules
(gen_scale.py) of 1k, 10k and 100k instructions, with the growth factors
from 10k to 100k (10x the instructions: linear is ~10x).

Prints a table; never fails on time (a run over --timeout seconds shows as
">T"). Targets (issue 8, on a 2-core machine): every shape at 100k
optimized in under 5 s, growth 10k->100k under 15x, the 40-step used-twice
chain well under 1 s.

Usage: run.py --cxla build/cxla [--out DIR] [--timeout S] [--sizes 1000,10000,100000]"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_scale  # noqa: E402

SHAPES = ["chain", "wide", "comps", "twice", "slices", "shared", "state", "relayout"]


def timed(cmd, timeout, env=None):
    t0 = time.monotonic()
    try:
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return None, "timeout"
    dt = time.monotonic() - t0
    if r.returncode != 0:
        return dt, "exit %d: %s" % (r.returncode, r.stderr.decode(errors="replace")[:200])
    return dt, None


def fmt(t, timeout):
    return ">%ds" % timeout if t is None else "%.2fs" % t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cxla", default="build/cxla")
    ap.add_argument("--out", default="build/bench-compile")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--shapes", default=",".join(SHAPES))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    sizes = [int(x) for x in args.sizes.split(",")]
    rows = []
    errors = []
    cases = [(s, n) for s in args.shapes.split(",") for n in sizes]
    cases += [("twice", 40), ("adds", 282000)]
    res = {}
    for shape, n in cases:
        path = os.path.join(args.out, "%s_%d.hlo" % (shape, n))
        if not os.path.exists(path):
            gen_scale.generate(shape, n, path)
        tc, ec = timed([args.cxla, "check", path], args.timeout)
        to, eo = timed([args.cxla, "opt", path], args.timeout)
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, CXLA_CACHE_DIR=cache)
            tb, eb = timed([args.cxla, "bench", path, "--random", "--iters", "1", "--warmup", "0"],
                           args.timeout, env)
        for e in (ec, eo, eb):
            if e and e != "timeout":
                errors.append("%s_%d: %s" % (shape, n, e))
        res[(shape, n)] = (tc, to, tb)
        print("  %-6s %7d  check %-8s opt %-8s build %s" % (shape, n, fmt(tc, args.timeout),
                                                          fmt(to, args.timeout), fmt(tb, args.timeout)),
              flush=True)
    print()

    def growth(shape, k):
        a, b = res[(shape, sizes[-2])][k], res[(shape, sizes[-1])][k]
        if a and b:
            return "%.1fx" % (b / max(a, 1e-3))
        if a and b is None:
            return ">%.0fx" % (args.timeout / max(a, 1e-3))
        return "-"

    head = "| shape | " + " | ".join("check %dk | opt %dk | build %dk" % (n // 1000, n // 1000, n // 1000)
                                    for n in sizes)
    if len(sizes) > 1:
        head += " | opt growth %dk->%dk | build growth |" % (sizes[-2] // 1000, sizes[-1] // 1000)
    else:
        head += " |"
    print(head)
    print("|" + "---|" * (1 + 3 * len(sizes) + (2 if len(sizes) > 1 else 0)))
    for shape in args.shapes.split(","):
        cells = []
        for n in sizes:
            cells += [fmt(t, args.timeout) for t in res[(shape, n)]]
        if len(sizes) > 1:
            cells += [growth(shape, 1), growth(shape, 2)]
        print("| %s | %s |" % (shape, " | ".join(cells)))
    for shape, n in [("twice", 40), ("adds", 282000)]:
        tc, to, tb = res[(shape, n)]
        print("| %s %d | check %s | opt %s | build %s |" % (shape, n, fmt(tc, args.timeout),
                                                            fmt(to, args.timeout), fmt(tb, args.timeout)))
    for e in errors:
        print("error: " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
