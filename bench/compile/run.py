#!/usr/bin/env python3
"""make bench-compile: compile time of `cxla check` and `cxla opt` on
generated modules (gen_scale.py) of 1k, 10k and 100k instructions, with the
growth factor from 10k to 100k (10x the instructions: linear is ~10x).

Prints a table; never fails on time (a run over --timeout seconds shows as
">T"). Targets (issue 8, on a 2-core machine): every shape at 100k
optimized in under 5 s, growth 10k->100k under 15x, the 40-step used-twice
chain well under 1 s.

Usage: run.py --cxla build/cxla [--out DIR] [--timeout S] [--sizes 1000,10000,100000]"""
import argparse
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_scale  # noqa: E402

SHAPES = ["chain", "wide", "comps", "twice"]


def timed(cmd, timeout):
    t0 = time.monotonic()
    try:
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           timeout=timeout)
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
        for e in (ec, eo):
            if e and e != "timeout":
                errors.append("%s_%d: %s" % (shape, n, e))
        res[(shape, n)] = (tc, to)
        print("  %-6s %7d  check %-8s opt %s" % (shape, n, fmt(tc, args.timeout),
                                                fmt(to, args.timeout)), flush=True)
    print()
    head = "| shape | " + " | ".join("check %dk | opt %dk" % (n // 1000, n // 1000) for n in sizes)
    head += " | opt growth %dk->%dk |" % (sizes[-2] // 1000, sizes[-1] // 1000) if len(sizes) > 1 else " |"
    print(head)
    print("|" + "---|" * (2 + 2 * len(sizes)))
    for shape in args.shapes.split(","):
        cells = []
        for n in sizes:
            tc, to = res[(shape, n)]
            cells += [fmt(tc, args.timeout), fmt(to, args.timeout)]
        g = "-"
        if len(sizes) > 1:
            a, b = res[(shape, sizes[-2])][1], res[(shape, sizes[-1])][1]
            if a and b:
                g = "%.1fx" % (b / max(a, 1e-3))
            elif a and b is None:
                g = ">%.0fx" % (args.timeout / max(a, 1e-3))
        print("| %s | %s | %s |" % (shape, " | ".join(cells), g))
    for shape, n in [("twice", 40), ("adds", 282000)]:
        tc, to = res[(shape, n)]
        print("| %s %d | check %s | opt %s |" % (shape, n, fmt(tc, args.timeout), fmt(to, args.timeout)))
    for e in errors:
        print("error: " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
