#!/usr/bin/env python3
"""Is cxla faster than XLA:CPU and its peers?  Runs the same programs through all and reports.

Usage (from the repository root; see bench/README.md):

    bench/.venv/bin/python bench/run.py                    # every case in bench/cases/
    bench/.venv/bin/python bench/run.py --cases a,b        # some cases
    bench/.venv/bin/python bench/run.py --quick            # the quick cases
    python3 bench/run.py --smoke                           # no jax: harness self-test

For each case, in this one process: JAX lowers and compiles the case's
function (XLA:CPU's compile time = lower + compile) and runs it (median of
--iters runs after --warmup, each ending in block_until_ready); then
`cxla bench --json` runs the case's module.hlo -- checked to be the text JAX
lowers to -- on the same arguments, written as .npy from --seed. Reported:
both sides' compile and run times and their ratios (cxla / XLA: above 1 means
cxla is slower), the largest relative error of cxla's results against XLA's
(||got - want|| / ||want|| per result), FLOPs and bytes moved from XLA's
cost analysis, achieved GFLOP/s and GB/s of both, as fractions of the
machine's peaks measured by bench/peak. Then the peers of bench/peers.py
(IREE on the lowered StableHLO, torch eager and torch.compile, numpy) run
the case on the same arguments; each peer's run and compile time, the
fastest peer (best_peer, best_peer_run_s) and cxla / fastest peer join the
report (--peers picks them). Timing is never pass/fail.

Output: a Markdown table on stdout and in bench/results/<date>[-tag].md,
the JSON beside it (and at --json FILE), and a PNG chart of the run-time
ratios.

--smoke needs neither jax nor matplotlib (numpy is optional): it runs the
tiny committed module bench/smoke/module.hlo through `cxla bench --json`
with a numpy stand-in for the XLA side, fills the peer fields from stub
figures, checks the report's keys, writes the tables and prints
"bench-smoke: N passed, M failed".
"""

import argparse
import datetime
import gc
import json
import math
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # bench/: gen.py, peers.py
import peers as pm  # noqa: E402 -- needs no third-party module at import

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

# Keys `cxla bench --json` must report (tools/cxla/cmd_bench.c).
CXLA_KEYS = ("module", "backend", "threads", "optimized", "parse_s", "verify_s",
             "optimize_s", "compile_s", "plan_s", "codegen_s", "llvm_s", "cache_hit",
             "run_median_s", "run_min_s", "run_max_s", "runs",
             "warmup_runs", "iters", "stopped_early", "from_warmup", "max_seconds",
             "total_run_s", "peak_rss_bytes", "base_rss_bytes", "results")
# Keys every case entry of our JSON has (None where not measured).
CASE_KEYS = ("case", "group", "status", "cxla_compile_s", "xla_compile_s", "cxla_run_s",
             "xla_run_s", "run_ratio", "compile_ratio", "rel_err", "flops", "bytes")


# ---------------------------------------------------------------------------
# small helpers
# ---------------------------------------------------------------------------

def fmt_time(s):
    if s is None:
        return "n/a"
    if s >= 1:
        return "%.2f s" % s
    if s >= 1e-3:
        return "%.2f ms" % (s * 1e3)
    return "%.1f µs" % (s * 1e6)


def fmt_ratio(r, lower_bound=False):
    if r is None:
        return "n/a"
    txt = "%.3g" % r if r < 1000 else "%.0f" % r
    return ("> " if lower_bound else "") + txt + "×"


def fmt_num(x, unit=""):
    if x is None:
        return "n/a"
    return "%.3g%s" % (x, unit)


def fmt_frac(x):
    return "n/a" if x is None else ("%.1f%%" % (100 * x) if x >= 0.001 else "%.2g%%" % (100 * x))


def ratio(a, b):
    if a is None or b is None or b <= 0:
        return None
    return a / b


def git_commit():
    try:
        out = subprocess.run(["git", "-C", REPO, "rev-parse", "--short=12", "HEAD"],
                             capture_output=True, text=True, timeout=10)
        # Reports in bench/results do not make the measured code dirty.
        dirty = subprocess.run(["git", "-C", REPO, "status", "--porcelain", "--untracked-files=no",
                                "--", ".", ":(exclude)bench/results"],
                               capture_output=True, text=True, timeout=10)
        return out.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def cpu_model():
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def cores():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


# ---------------------------------------------------------------------------
# cxla side
# ---------------------------------------------------------------------------

PROGRESS = re.compile(r"^progress: run (\d+) (start|done) ([0-9.e+-]+)(?: ([0-9.e+-]+))?$")


def parse_progress(stderr):
    """Run samples and the last start time from `cxla bench --progress` lines."""
    done, last_start, started = [], None, 0
    for line in (stderr or "").splitlines():
        m = PROGRESS.match(line.strip())
        if not m:
            continue
        if m.group(2) == "start":
            last_start, started = float(m.group(3)), int(m.group(1))
        else:
            done.append(float(m.group(4)))
            last_start = None
    return done, last_start, started


# the front end's and compiler's figures of one `cxla bench` report
COMPILE_KEYS = ("parse_s", "verify_s", "optimize_s", "compile_s", "plan_s", "codegen_s", "llvm_s")


def front_s(rep):
    """Parse + verify + optimize + compile of one cxla bench report."""
    return rep["parse_s"] + rep["verify_s"] + rep["optimize_s"] + rep["compile_s"]


def run_cxla(o, module, npy, out_dir, case_timeout):
    """Runs cxla bench; returns a dict: status, report (or None), detail."""
    cmd = [o.cxla, "bench", module] + npy + [
        "--json", "--progress", "--iters", str(o.iters), "--warmup", str(o.warmup),
        "--warmup-seconds", str(o.warmup_s), "--min-seconds", str(o.min_s),
        "--max-seconds", str(o.cxla_max_seconds)]
    if not npy:
        cmd += ["--random", "--seed", str(o.seed)]
    if out_dir:
        cmd += ["--out", out_dir]
    # A cold compile cache (a fresh directory per case), as XLA's compile is
    # timed: the compile column is never a cache hit. The warm hit (the same
    # module compiled again by a new process) is measured after the run.
    cache_dir = tempfile.mkdtemp(prefix="cxla-bench-cache-")
    env = dict(os.environ, CXLA_CACHE_DIR=cache_dir)
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=case_timeout, env=env)
    except subprocess.TimeoutExpired as e:
        shutil.rmtree(cache_dir, ignore_errors=True)
        err = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else e.stderr
        done, last_start, started = parse_progress(err)
        info = {"status": "timeout", "report": None, "samples": done,
                "detail": "killed after %.0f s (--case-timeout)" % case_timeout}
        if done:
            info["run_s"] = sorted(done)[len(done) // 2]
            info["detail"] += "; %d run(s) had finished" % len(done)
        elif last_start is not None:
            # Nothing finished. The run in flight began at last_start
            # (CLOCK_MONOTONIC, as time.monotonic) and was still going at
            # t0 + case_timeout, when it was killed: a lower bound.
            info["run_lower_bound_s"] = max(0.0, t0 + case_timeout - last_start)
            info["detail"] += "; run %d unfinished after %.0f s" % (
                started, info["run_lower_bound_s"])
        else:
            info["detail"] += " before the first run started"
        return info
    if p.returncode != 0:
        shutil.rmtree(cache_dir, ignore_errors=True)
        msg = (p.stderr.strip().splitlines() or ["exit status %d" % p.returncode])[-1]
        return {"status": "error", "report": None, "detail": msg[:300]}
    try:
        rep = json.loads(p.stdout)
    except ValueError as e:
        shutil.rmtree(cache_dir, ignore_errors=True)
        return {"status": "error", "report": None, "detail": "bad JSON from cxla bench: %s" % e}
    warm = [o.cxla, "bench", module] + npy + ["--json", "--iters", "1", "--warmup", "0",
                                               "--max-seconds", "0"]
    if not npy:
        warm += ["--random", "--seed", str(o.seed)]
    try:
        w = subprocess.run(warm, capture_output=True, text=True, timeout=case_timeout, env=env)
        wr = json.loads(w.stdout) if w.returncode == 0 else None
        if wr and wr.get("cache_hit"):
            rep["warm_compile_s"] = wr["compile_s"]
    except (subprocess.SubprocessError, ValueError, OSError):
        pass
    shutil.rmtree(cache_dir, ignore_errors=True)
    # More cold compiles, each a new process with a fresh cache directory:
    # the compile figures are those of the median one (one compile is one
    # sample, and this shared host stalls a process for 100 ms and more now
    # and then: s23a's conv_transpose took 212 ms once, 34 ms in s22c).
    if "compile_s" in rep:
        reps = [rep]
        for _ in range(max(0, o.compile_reps - 1)):
            cdir = tempfile.mkdtemp(prefix="cxla-bench-cache-")
            try:
                c = subprocess.run(warm, capture_output=True, text=True, timeout=case_timeout,
                                   env=dict(os.environ, CXLA_CACHE_DIR=cdir))
                cr = json.loads(c.stdout) if c.returncode == 0 else None
                if cr and not cr.get("cache_hit") and all(k in cr for k in COMPILE_KEYS):
                    reps.append(cr)
            except (subprocess.SubprocessError, ValueError, OSError):
                pass
            shutil.rmtree(cdir, ignore_errors=True)
        reps.sort(key=front_s)
        mid = reps[len(reps) // 2]
        rep["compile_samples_s"] = [front_s(r) for r in reps]
        for k in COMPILE_KEYS:
            rep[k] = mid[k]
    missing = [k for k in CXLA_KEYS if k not in rep]
    if missing:
        return {"status": "error", "report": rep,
                "detail": "cxla bench JSON lacks %s" % ", ".join(missing)}
    return {"status": "ok", "report": rep, "run_s": rep["run_median_s"], "detail": ""}


def read_npy_results(np, out_dir, specs):
    """cxla's results, with bf16 raw bits turned back into bfloat16."""
    res = []
    for i, spec in enumerate(specs):
        a = np.load(os.path.join(out_dir, "%d.npy" % i), allow_pickle=False)
        if spec["dtype"] == "bf16":
            import ml_dtypes
            a = a.view(ml_dtypes.bfloat16)
        res.append(a)
    return res


def rel_err(np, got, want):
    """max over results of ||got - want|| / ||want|| (2-norm, in f64; NaNs where
    both have them are skipped; a NaN on one side only gives inf)."""
    worst = 0.0
    if len(got) != len(want):
        return math.inf
    for g, w in zip(got, want):
        g = np.asarray(g)
        w = np.asarray(w)
        if g.shape != w.shape:
            return math.inf
        kind = np.complex128 if np.iscomplexobj(w) else np.float64
        g = g.astype(kind).ravel()
        w = w.astype(kind).ravel()
        gn, wn = np.isnan(g), np.isnan(w)
        if (gn != wn).any():
            return math.inf
        keep = ~wn
        g, w = g[keep], w[keep]
        with np.errstate(invalid="ignore", over="ignore"):
            inf_mismatch = (np.isinf(g) | np.isinf(w)) & (g != w)
            if inf_mismatch.any():
                return math.inf
            fin = np.isfinite(w)
            num = np.linalg.norm(g[fin] - w[fin])
            den = np.linalg.norm(w[fin])
        e = num / den if den > 0 else num
        worst = max(worst, float(e))
    return worst


# ---------------------------------------------------------------------------
# XLA side
# ---------------------------------------------------------------------------

def proc_status_bytes(field):
    """/proc/self/status's FIELD (VmRSS, VmHWM) in bytes, or None off Linux."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def reset_peak_rss():
    """Resets this process's VmHWM to its VmRSS (Linux: clear_refs 5), so
    that XLA's peak can be read per case; False where that is not possible."""
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def time_xla(jax, compiled, args, warmup, iters, max_s, warmup_s=0.0, min_s=0.0):
    """(median, min, max, runs, first result leaves), timed as every side
    is (peers.timed_runs), each call ending in block_until_ready."""
    s, first = pm.timed_runs(lambda: jax.block_until_ready(compiled(*args)), warmup, iters, max_s,
                             warmup_s, min_s)
    return pm.median(s), s[0], s[-1], len(s), jax.tree_util.tree_leaves(first)


def xla_mem_child(o):
    """--xla-mem-child NAME: XLA's process delta for one case in a fresh
    process, as `cxla bench` measures cxla's: jax imported, the arguments on
    the device, the peak reset; then lower + compile + a warm-up and two
    runs; prints {"xla_fresh_rss_delta_bytes": VmHWM - VmRSS at the reset}.
    The shared process of the full run reuses memory earlier cases freed,
    so its delta (xla_rss_delta_bytes) is only a lower bound."""
    import numpy as np
    import jax
    import gen
    name = o.xla_mem_child
    with open(os.path.join(o.cases_dir, name, "case.json")) as fh:
        meta = json.load(fh)
    c = gen.CASES[name]
    _, spec = c.spec()
    rng = np.random.default_rng([o.seed, zlib.crc32(name.encode())])
    arrays = [gen.make_arg(a, rng) for a in meta["args"]]
    dev = jax.tree_util.tree_structure(spec).unflatten([jax.device_put(a) for a in arrays])
    jax.block_until_ready(dev)
    del arrays
    gc.collect()
    if not reset_peak_rss():
        print(json.dumps({"xla_fresh_rss_delta_bytes": None}))
        return 0
    base = proc_status_bytes("VmRSS")
    _, _, lowered = gen.lower(c)
    compiled = lowered.compile()
    for _ in range(3):
        jax.block_until_ready(compiled(*dev))
    hwm = proc_status_bytes("VmHWM")
    print(json.dumps({"xla_fresh_rss_delta_bytes": max(0, hwm - base)}))
    return 0


def xla_fresh_rss(o, name):
    """(delta bytes or None, note or None) from xla_mem_child in a new process."""
    cmd = [sys.executable, os.path.abspath(__file__), "--xla-mem-child", name,
           "--seed", str(o.seed), "--cases-dir", o.cases_dir]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=o.case_timeout)
    except subprocess.TimeoutExpired:
        return None, "XLA fresh-process memory: timed out"
    try:
        return json.loads(p.stdout.strip().splitlines()[-1])["xla_fresh_rss_delta_bytes"], None
    except (ValueError, IndexError, KeyError, TypeError):
        tail = (p.stderr.strip().splitlines() or ["exit status %d" % p.returncode])[-1]
        return None, "XLA fresh-process memory: %s" % tail[:200]


# ---------------------------------------------------------------------------
# one case
# ---------------------------------------------------------------------------

def empty_entry(name, group):
    e = {k: None for k in CASE_KEYS}
    e.update(case=name, group=group, status="ok", notes=[])
    return e


def bench_case(o, env, name, case_dir, tmp):
    """Measures one case on both sides; returns its JSON entry."""
    np, jax, gen = env["np"], env["jax"], env["gen"]
    with open(os.path.join(case_dir, "case.json")) as fh:
        meta = json.load(fh)
    e = empty_entry(name, meta.get("group"))
    e["description"] = meta.get("description")
    module = os.path.join(case_dir, "module.hlo")
    with open(module) as fh:
        disk_text = fh.read()

    # Arguments, from the seed; the same arrays go to both sides.
    rng = np.random.default_rng([o.seed, zlib.crc32(name.encode())])
    arrays = [gen.make_arg(a, rng) for a in meta["args"]]

    # XLA: lower + compile, timed; the module must be the one on disk.
    c = gen.CASES.get(name)
    if c is None:
        e["status"] = "error"
        e["notes"].append("no such case in bench/gen.py")
        return e
    fn, spec = c.spec()
    treedef = jax.tree_util.tree_structure(spec)
    gc.collect()
    rss_base = proc_status_bytes("VmRSS") if reset_peak_rss() else None
    t0 = time.perf_counter()
    jitted, _, lowered = gen.lower(c)
    lower_s = time.perf_counter() - t0
    compiled = lowered.compile()
    e["xla_compile_s"] = time.perf_counter() - t0
    if gen.module_text(lowered) != disk_text:
        e["status"] = "stale"
        e["notes"].append("module.hlo differs from what JAX lowers now: run bench/gen.py")
        return e
    ca = compiled.cost_analysis()
    if isinstance(ca, (list, tuple)):
        ca = ca[0] if ca else {}
    e["flops"] = float(ca.get("flops", 0.0)) if ca else None
    e["bytes"] = float(ca.get("bytes accessed", 0.0)) if ca else None
    dev = treedef.unflatten([jax.device_put(a) for a in arrays])
    med, mn, mx, runs, want = time_xla(jax, compiled, dev, o.warmup, o.iters, o.xla_max_seconds,
                                       o.warmup_s, o.min_s)
    e.update(xla_run_s=med, xla_run_min_s=mn, xla_run_max_s=mx, xla_runs=runs)
    # XLA's process delta: what lowering, compiling, the device copies of the
    # arguments and the runs added to this process's peak.
    hwm = proc_status_bytes("VmHWM")
    if rss_base is not None and hwm is not None:
        e["xla_rss_delta_bytes"] = max(0, hwm - rss_base)
    # More lowerings and compiles of a fresh jit, JAX's in-memory caches
    # cleared first (a fresh jit already lowers and compiles again: 24 ms
    # for softmax_4096 with or without clearing them); the median is the
    # figure, as cxla's (run_cxla).
    xs = [e["xla_compile_s"]]
    for _ in range(max(0, o.compile_reps - 1)):
        jax.clear_caches()
        t0 = time.perf_counter()
        gen.lower(c)[2].compile()
        xs.append(time.perf_counter() - t0)
    xs.sort()
    e["xla_compile_s"], e["xla_compile_samples_s"] = xs[len(xs) // 2], xs
    want = [np.asarray(w) for w in want]
    if o.xla_fresh_mem == "all" or (o.xla_fresh_mem == "model" and meta.get("group") == "model"):
        e["xla_fresh_rss_delta_bytes"], why = xla_fresh_rss(o, name)
        if why:
            e["notes"].append(why)

    # cxla on the same module and arguments.
    arg_dir = os.path.join(tmp, name, "args")
    out_dir = os.path.join(tmp, name, "out")
    os.makedirs(arg_dir)
    npy = []
    for i, a in enumerate(arrays):
        p = os.path.join(arg_dir, "%d.npy" % i)
        if a.dtype.name == "bfloat16":
            a = a.view(np.uint16)  # cxla's convention: bf16 as raw bits
        np.save(p, np.array(a, order="C", copy=True), allow_pickle=False)  # keeps 0-d 0-d
        npy.append(p)
    fill_cxla(e, run_cxla(o, module, npy, out_dir, o.case_timeout))
    if e["status"] == "ok":
        try:
            got = read_npy_results(np, out_dir, meta["results"])
            e["rel_err"] = rel_err(np, got, want)
        except (OSError, ValueError) as err:
            e["notes"].append("could not compare results: %s" % err)
    shutil.rmtree(os.path.join(tmp, name), ignore_errors=True)

    # The peers, on the same arguments, checked against XLA's results.
    if env.get("peers") is not None:
        pm = env["peers"]
        ctx = {"name": name, "np": np, "arrays": arrays, "o": o, "lower_s": lower_s,
               "stablehlo": lowered.as_text(), "compare": lambda got: rel_err(np, got, want)}
        peers = pm.run_all(ctx, env["peer_versions"], env["peer_why"], o.peer_list)
        pm.fill(e, peers)
        for peer, r in peers.items():
            print("    %-14s %s%s" % (pm.LABEL[peer], r["status"], (" " + fmt_time(r["run_s"]))
                                      if r["status"] == "ok" else ""),
                  file=sys.stderr, flush=True)
    return e


def fill_cxla(e, r):
    """Copies cxla's figures into the entry e."""
    rep = r.get("report") or {}
    if r["status"] != "ok":
        e["status"] = r["status"]
    if r.get("detail"):
        e["notes"].append(r["detail"])
    e["cxla_run_s"] = r.get("run_s")
    e["cxla_run_lower_bound_s"] = r.get("run_lower_bound_s")
    if rep:
        e["cxla_parse_s"] = rep["parse_s"] + rep["verify_s"]
        e["cxla_optimize_s"] = rep["optimize_s"]
        e["cxla_compile_only_s"] = rep["compile_s"]
        if "warm_compile_s" in rep:
            e["cxla_warm_compile_s"] = rep["warm_compile_s"]
        e["cxla_codegen_s"], e["cxla_llvm_s"] = rep["codegen_s"], rep["llvm_s"]
        e["cxla_cache_hit"] = rep["cache_hit"]
        e["cxla_compile_s"] = front_s(rep)
        if "compile_samples_s" in rep:
            e["cxla_compile_samples_s"] = rep["compile_samples_s"]
        e["cxla_run_min_s"], e["cxla_run_max_s"] = rep["run_min_s"], rep["run_max_s"]
        e["cxla_runs"], e["cxla_backend"], e["cxla_threads"] = rep["runs"], rep["backend"], rep["threads"]
        e["cxla_optimized"] = rep["optimized"]
        e["cxla_peak_rss_bytes"] = rep["peak_rss_bytes"]
        if rep.get("base_rss_bytes", -1) >= 0 and rep["peak_rss_bytes"] >= 0:
            # the same measure as XLA's: what the case added to the process
            e["cxla_rss_delta_bytes"] = rep["peak_rss_bytes"] - rep["base_rss_bytes"]
        if rep["stopped_early"]:
            e["notes"].append("cxla: %d of %d runs (--max-seconds %g)%s" % (
                rep["runs"], rep["iters"], rep["max_seconds"],
                ", warm-up run as the sample" if rep["from_warmup"] else ""))


def derive(e, machine):
    """Ratios, throughput and fractions of peak for one entry."""
    # cxla's backend and threads are what its run reported (cxla bench's
    # defaults: the compiled backend, every core)
    if e.get("cxla_backend"):
        machine["cxla_backend"], machine["cxla_threads"] = e["cxla_backend"], e["cxla_threads"]
    e["run_ratio"] = ratio(e["cxla_run_s"], e["xla_run_s"])
    e["run_ratio_is_lower_bound"] = False
    if e["run_ratio"] is None and e.get("cxla_run_lower_bound_s"):
        e["run_ratio"] = ratio(e["cxla_run_lower_bound_s"], e["xla_run_s"])
        e["run_ratio_is_lower_bound"] = e["run_ratio"] is not None
    e["compile_ratio"] = ratio(e["cxla_compile_s"], e["xla_compile_s"])
    peaks = machine.get("peaks") or {}
    f64 = e.get("uses_f64", False)
    for side, threads in (("xla", machine["xla_threads"]), ("cxla", machine["cxla_threads"])):
        t = e.get("%s_run_s" % side)
        if side == "cxla" and t is None:
            t = None  # a lower bound gives no throughput
        e["%s_gflops" % side] = e["flops"] / t / 1e9 if t and e["flops"] else None
        e["%s_gbs" % side] = e["bytes"] / t / 1e9 if t and e["bytes"] else None
        pf = peak_for(peaks, "dgemm_gflops" if f64 else "sgemm_gflops", threads)
        pb = peak_for(peaks, "triad_gbs", threads)
        e["%s_gflops_frac" % side] = ratio(e["%s_gflops" % side], pf)
        e["%s_gbs_frac" % side] = ratio(e["%s_gbs" % side], pb)


def peak_for(peaks, key, threads):
    """The peak for a side using `threads` threads: the one-core figure for
    one thread, else the best of all-core and one-core (on a busy machine the
    all-core figure can come out lower)."""
    p = peaks.get(key)
    if not p:
        return None
    return p.get("one") if threads == 1 else max(p.get("all") or 0, p.get("one") or 0) or None


# ---------------------------------------------------------------------------
# output
# ---------------------------------------------------------------------------

def markdown(report):
    m = report["machine"]
    pk = m.get("peaks") or {}
    lines = ["# cxla vs XLA:CPU", ""]
    jax_v = m["versions"].get("jax")
    lines.append("%s; %s, %d cores. cxla %s; %s." % (
        m["date"], m["cpu"], m["cores"], m["versions"].get("cxla", "?"),
        "jax/jaxlib %s/%s" % (jax_v, m["versions"].get("jaxlib")) if jax_v else "no jax"))
    lines.append("")
    lines.append("Threads: XLA:CPU %d (its default: every core), cxla %d (backend: %s%s). "
                 "Ratios are cxla / XLA: above 1× cxla is slower. Compile = XLA lower + compile; "
                 "cxla parse + verify + optimize + compile. XLA run times are per call from "
                 "Python (JAX's dispatch, a few µs, included); cxla's are timed inside its "
                 "process. Both sides run the same module.hlo on the same arguments." % (
                     m["xla_threads"], m["cxla_threads"], m["cxla_backend"],
                     ", the reference interpreter: single-threaded, no compile step"
                     if m["cxla_backend"] == "interp" else ""))
    opt = [e for e in report["cases"] if e.get("cxla_optimized") is not None]
    if opt:
        lines.append("")
        lines.append("cxla's optimizer (its default pass pipeline) ran on %d of the %d cases "
                     "it finished; the %s then ran the optimized module." % (
                         sum(1 for e in opt if e["cxla_optimized"]), len(opt),
                         "interpreter" if m["cxla_backend"] == "interp" else
                         "%s backend" % m["cxla_backend"]))
    if pk:
        lines.append("")
        lines.append("Machine peaks (bench/peak): triad %s GB/s all cores, %s GB/s one core; "
                     "sgemm %s / %s GFLOP/s; dgemm %s / %s GFLOP/s (all / one). Load average "
                     "before the run: %s." % (
                         fmt_num(pk["triad_gbs"]["all"]), fmt_num(pk["triad_gbs"]["one"]),
                         fmt_num(pk["sgemm_gflops"]["all"]), fmt_num(pk["sgemm_gflops"]["one"]),
                         fmt_num(pk["dgemm_gflops"]["all"]), fmt_num(pk["dgemm_gflops"]["one"]),
                         " ".join("%.2f" % x for x in m.get("loadavg_before", []))))
        if "copy_nt_gbs" in pk and "read_gbs" in pk:
            lines.append("")
            lines.append("The memory-bound kernels' own patterns, all cores, same arrays: a copy "
                         "with non-temporal stores %s GB/s (16 bytes an element, every one moved), "
                         "a read %s GB/s. The triad counts 24 bytes an element as STREAM does, "
                         "but its stores read each line first: it moves 32." % (
                             fmt_num(pk["copy_nt_gbs"]["all"]), fmt_num(pk["read_gbs"]["all"])))
    busy = max(m.get("loadavg_before", [0])[:1] + m.get("loadavg_after", [0])[:1])
    if busy > 1.25 * m["cores"]:
        lines.append("")
        lines.append("**Warning: the machine was busy** (load average %.1f on %d cores, before "
                     "or after the run; others' work shares the cores): every time here is "
                     "slower and noisier than on an idle machine. Ratios between the two "
                     "sides suffer less, but only a rerun on a quiet machine settles small "
                     "differences." % (busy, m["cores"]))
    lines += ["", "## Times", "",
              "| case | XLA run | cxla run | run ratio | XLA compile | cxla compile | "
              "compile ratio | rel err | status |",
              "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    for e in report["cases"]:
        cx = fmt_time(e["cxla_run_s"])
        if e["cxla_run_s"] is None and e.get("cxla_run_lower_bound_s"):
            cx = "> " + fmt_time(e["cxla_run_lower_bound_s"])
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            e["case"], fmt_time(e["xla_run_s"]), cx,
            fmt_ratio(e["run_ratio"], e.get("run_ratio_is_lower_bound")),
            fmt_time(e["xla_compile_s"]), fmt_time(e["cxla_compile_s"]),
            fmt_ratio(e["compile_ratio"]),
            "n/a" if e["rel_err"] is None else "%.1e" % e["rel_err"],
            e["status"]))
    lines += ["", "## Throughput", "",
              "FLOPs and bytes from XLA's cost analysis of its optimized module; fractions "
              "are of the peak for each side's thread count (f64 cases against dgemm, others "
              "against sgemm; bytes against the triad).", "",
              "Memory: cxla's peak RSS, and what each side's case added to its process "
              "from a reset peak. cxla: its own `cxla bench` process, arguments loaded, "
              "then optimize, compile and runs. XLA fresh: the same in a new process "
              "(jax imported, arguments on the device, then lower, compile and runs) -- "
              "the fair comparison, measured for the model cases. XLA shared: in this "
              "run's one process, where memory freed by earlier cases is reused (a lower "
              "bound).", "",
              "| case | GFLOP | MB | XLA GFLOP/s | cxla GFLOP/s | XLA GB/s | cxla GB/s | "
              "cxla peak RSS | XLA RSS delta (fresh) | XLA RSS delta (shared) | "
              "cxla RSS delta |",
              "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for e in report["cases"]:
        def tp(v, f):
            return "n/a" if v is None else "%s (%s)" % (fmt_num(v), fmt_frac(f))
        rss = e.get("cxla_peak_rss_bytes")

        def mib(v):
            return "n/a" if v is None else "%.0f MiB" % (v / 2**20)
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            e["case"], fmt_num(e["flops"] / 1e9 if e["flops"] is not None else None),
            fmt_num(e["bytes"] / 1e6 if e["bytes"] is not None else None),
            tp(e.get("xla_gflops"), e.get("xla_gflops_frac")),
            tp(e.get("cxla_gflops"), e.get("cxla_gflops_frac")),
            tp(e.get("xla_gbs"), e.get("xla_gbs_frac")),
            tp(e.get("cxla_gbs"), e.get("cxla_gbs_frac")),
            mib(rss), mib(e.get("xla_fresh_rss_delta_bytes")), mib(e.get("xla_rss_delta_bytes")),
            mib(e.get("cxla_rss_delta_bytes"))))
    lines += peer_tables(report)
    notes = [(e["case"], n) for e in report["cases"] for n in e["notes"]]
    if notes:
        lines += ["", "## Notes", ""]
        lines += ["- %s: %s" % (c, n) for c, n in notes]
    s = report.get("summary")
    if s:
        lines += ["", "## Summary", "", s]
    return "\n".join(lines) + "\n"


PEER_NAMES, PEER_LABELS = pm.PEERS, pm.LABEL
DASH = "—"  # a peer that cannot run a case


def peer_cell(e, peer, key="run_s"):
    """A peer's time for the table: the time, or "—" where it did not run the
    case (see the notes); torch's layout where it tried both."""
    r = (e.get("peers") or {}).get(peer)
    if not r or r["status"] != "ok" or r.get(key) is None:
        return DASH
    v = r.get("variant")
    return fmt_time(r[key]) + (" (%s)" % ("cl" if v == "channels_last" else v) if v else "")


def peer_tables(report):
    """The Markdown of the peer comparison: run times, ratios, compile times."""
    cases = report["cases"]
    if not any("peers" in e for e in cases):
        return []
    m = report["machine"]
    info = m.get("peers") or {}
    out = ["", "## Against the peers", "",
           "Peers (bench/peers.py) run the same case on the same arguments: IREE compiles the "
           "StableHLO that JAX lowers (llvm-cpu, host CPU, local-task); torch eager and "
           "torch.compile a hand-written equivalent (convolutions in NCHW and channels_last "
           "(cl), the faster shown); numpy where it expresses the case. %s marks a peer that "
           "cannot run the case (see the notes); a peer whose results differ from XLA's is "
           "never the fastest. Ratios: above 1× cxla is slower." % DASH, ""]
    out.append("Peers: %s." % "; ".join("%s %s" % (PEER_LABELS[p], info.get(p, "n/a"))
                                        for p in PEER_NAMES))
    out += ["", "| case | XLA:CPU | cxla | " + " | ".join(PEER_LABELS[p] for p in PEER_NAMES) +
            " | fastest peer | cxla / XLA | cxla / fastest peer | XLA / fastest peer |",
            "| --- | ---: | ---: | " + "---: | " * len(PEER_NAMES) + "--- | ---: | ---: | ---: |"]
    for e in cases:
        bp = e.get("best_peer")
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            e["case"], fmt_time(e["xla_run_s"]), fmt_time(e["cxla_run_s"]),
            " | ".join(peer_cell(e, p) for p in PEER_NAMES),
            "%s %s" % (PEER_LABELS[bp], fmt_time(e["best_peer_run_s"])) if bp else DASH,
            fmt_ratio(e["run_ratio"], e.get("run_ratio_is_lower_bound")),
            fmt_ratio(e.get("run_ratio_best_peer")) if bp else DASH,
            fmt_ratio(e.get("xla_ratio_best_peer")) if bp else DASH))
    out += ["", "Compile times (XLA and IREE include JAX's lowering; torch.compile's is its "
            "first call):", "",
            "| case | XLA:CPU | cxla | IREE | torch.compile |", "| --- | ---: | ---: | ---: | ---: |"]
    for e in cases:
        out.append("| %s | %s | %s | %s | %s |" % (
            e["case"], fmt_time(e["xla_compile_s"]), fmt_time(e["cxla_compile_s"]),
            peer_cell(e, "iree", "compile_s"), peer_cell(e, "torch_compile", "compile_s")))
    return out


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def summary(cases):
    ok = [e for e in cases if e["run_ratio"] is not None and not e.get("run_ratio_is_lower_bound")]
    if not ok:
        return "No case has both run times."
    geo = geomean([e["run_ratio"] for e in ok])
    faster = sum(1 for e in ok if e["run_ratio"] < 1)
    bounds = sum(1 for e in cases if e.get("run_ratio_is_lower_bound"))
    text = ("Geometric mean of the run-time ratio cxla / XLA over the %d cases with both "
            "times: %.3g× (cxla faster on %d of them). %d case(s) timed out on cxla and "
            "count only as lower bounds; %d failed or were skipped." % (
                len(ok), geo, faster, bounds,
                sum(1 for e in cases if e["run_ratio"] is None)))
    vs = [e for e in ok if e.get("run_ratio_best_peer")]
    if vs:
        text += (" Against the fastest peer of each case (%d cases): cxla %.3g× (faster on %d), "
                 "XLA:CPU %.3g×." % (
                     len(vs), geomean([e["run_ratio_best_peer"] for e in vs]),
                     sum(1 for e in vs if e["run_ratio_best_peer"] < 1),
                     geomean([e["xla_ratio_best_peer"] for e in vs if e.get("xla_ratio_best_peer")]
                             or [1.0])))
    for key, how in (("xla_fresh_rss_delta_bytes", "in a fresh process"),
                     ("xla_rss_delta_bytes", "in the shared process, a lower bound")):
        mem = [e for e in cases if e.get("group") == "model" and
               e.get(key) is not None and e.get("cxla_rss_delta_bytes") is not None]
        if mem:
            text += (" Memory, model cases: cxla's process delta is at most XLA's (%s) on "
                     "%d of %d." % (how, sum(1 for e in mem if e["cxla_rss_delta_bytes"] <= e[key]),
                                    len(mem)))
            break
    return text


def chart_bars(cases, key, bound_key=None):
    """(values, colors, labels) of one ratio series; 0 where there is none."""
    vals, colors, labels = [], [], []
    for e in cases:
        r = e.get(key)
        if r is None:
            vals.append(0)
            colors.append("white")
            labels.append(e["status"] if key == "run_ratio" else DASH)
        elif bound_key and e.get(bound_key):
            vals.append(r)
            colors.append("#bbbbbb")
            labels.append("> %.3g (timeout)" % r)
        else:
            vals.append(r)
            colors.append("#c0392b" if r > 1 else "#27ae60")
            labels.append("%.3g" % r)
    return vals, colors, labels


def chart(report, path):
    """Two bars per case: cxla / XLA:CPU (solid) and cxla / the fastest peer
    (hatched), on a log scale around 1."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch
    cases = report["cases"]
    names = [e["case"] for e in cases]
    series = [chart_bars(cases, "run_ratio", "run_ratio_is_lower_bound")]
    with_peers = any(e.get("run_ratio_best_peer") for e in cases)
    if with_peers:
        series.append(chart_bars(cases, "run_ratio_best_peer"))
    h = 0.8 / len(series)
    fig, ax = plt.subplots(figsize=(9, (0.32 + 0.2 * (len(series) - 1)) * len(cases) + 1.8))
    positive = [v for vals, _, _ in series for v in vals if v > 0] or [1.0]
    lo, hi = min(positive + [1.0]) / 3, max(positive + [1.0]) * 40  # room for labels
    ax.axvline(1.0, color="black", linewidth=1.2, label="1.0: as fast as the reference")
    for k, (vals, colors, labels) in enumerate(series):
        y = [i - 0.4 + h * (k + 0.5) for i in range(len(cases))]
        # Bars grow from 1.0: to the right when cxla is slower, to the left when faster.
        bars = ax.barh(y, [(v if v > 0 else 1.0) - 1.0 for v in vals], left=1.0, height=h,
                       color=colors, edgecolor="black", linewidth=0.5,
                       hatch="///" if k else None)
        for b, lab, v in zip(bars, labels, vals):
            x = max(v, 1.0) * 1.1 if v >= 1 or v <= 0 else v / 1.1
            ax.text(x, b.get_y() + b.get_height() / 2, lab, va="center", fontsize=6,
                    ha="left" if v >= 1 or v <= 0 else "right")
    ax.set_xscale("log")
    ax.set_xlim(lo, hi)
    handles = [ax.get_lines()[0], Patch(color="#c0392b", label="cxla slower"),
               Patch(color="#27ae60", label="cxla faster"),
               Patch(facecolor="#bbbbbb", edgecolor="black", label="cxla timed out (lower bound)"),
               Patch(facecolor="white", edgecolor="black", label="solid: cxla / XLA:CPU")]
    if with_peers:
        handles.append(Patch(facecolor="white", edgecolor="black", hatch="///",
                             label="hatched: cxla / fastest peer"))
    ax.legend(handles=handles, fontsize=7, loc="best")
    ax.set_yticks(list(range(len(cases))))
    ax.set_yticklabels(names, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("run time, cxla / XLA:CPU%s (log scale; > 1: cxla slower)" % (
        " and cxla / fastest peer" if with_peers else ""))
    m = report["machine"]
    ax.set_title("cxla (%s, %d thread) vs XLA:CPU (%d threads)%s, %s" % (
        m["cxla_backend"], m["cxla_threads"], m["xla_threads"],
        " and the fastest peer" if with_peers else "", m["date"]), fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def write_outputs(o, report):
    md = markdown(report)
    sys.stdout.write("\n" + md)
    paths = []
    if o.out_dir:
        os.makedirs(o.out_dir, exist_ok=True)
        base = os.path.join(o.out_dir, report["machine"]["date"] + (("-" + o.tag) if o.tag else ""))
        with open(base + ".md", "w") as fh:
            fh.write(md)
        with open(base + ".json", "w") as fh:
            json.dump(report, fh, indent=1, sort_keys=True)
            fh.write("\n")
        paths += [base + ".md", base + ".json"]
        if not o.no_chart:
            chart(report, base + ".png")
            paths.append(base + ".png")
    if o.json:
        with open(o.json, "w") as fh:
            json.dump(report, fh, indent=1, sort_keys=True)
            fh.write("\n")
        paths.append(o.json)
    for p in paths:
        print("wrote %s" % os.path.relpath(p))
    return paths


# ---------------------------------------------------------------------------
# machine description and peaks
# ---------------------------------------------------------------------------

def cpu_flags():
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def run_peak(o):
    """bench/peak's JSON. OpenBLAS picks its kernels by CPU model (or by
    OPENBLAS_CORETYPE) and may take AVX2 ones on a CPU with AVX-512: on such a
    CPU peak also runs with OPENBLAS_CORETYPE=SkylakeX, and each figure is the
    better of the two runs (both are kept under "runs")."""
    if o.peak_json:
        with open(o.peak_json) as fh:
            return json.load(fh)
    if not o.peak or not os.path.exists(o.peak):
        print("warning: %s not found (make bench builds it): no machine peaks" % o.peak,
              file=sys.stderr)
        return None
    envs = [None]
    # (The environment may itself set OPENBLAS_CORETYPE, e.g. to Haswell.)
    if (not o.smoke and "avx512f" in cpu_flags() and
            os.environ.get("OPENBLAS_CORETYPE", "").lower() != "skylakex"):
        envs.append("SkylakeX")
    runs = []
    for coretype in envs:
        cmd = [o.peak] + (["--quick"] if o.smoke else [])
        env = dict(os.environ)
        if coretype:
            env["OPENBLAS_CORETYPE"] = coretype
        print("measuring machine peaks: %s%s" % ("OPENBLAS_CORETYPE=%s " % coretype if coretype
                                                 else "", " ".join(cmd)), file=sys.stderr)
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env)
        if p.returncode != 0:
            print("warning: peak failed: %s" % p.stderr.strip(), file=sys.stderr)
            continue
        runs.append(json.loads(p.stdout))
    if not runs:
        return None
    best = dict(runs[0])
    for key in ("triad_gbs", "sgemm_gflops", "dgemm_gflops"):
        best[key] = {k: max(r[key][k] for r in runs) for k in ("all", "one")}
    for key in ("copy_nt_gbs", "read_gbs"):
        if all(key in r for r in runs):
            best[key] = {"all": max(r[key]["all"] for r in runs)}
    best["blas"] = " | ".join(r["blas"] for r in runs)
    best.pop("gemm", None)
    best["runs"] = runs
    return best


def machine_info(o, versions, peaks):
    return {
        "date": datetime.date.today().isoformat(),
        "cpu": cpu_model(),
        "cores": cores(),
        "xla_threads": cores(),
        "cxla_threads": 1,
        "cxla_backend": "interp",
        "loadavg_before": list(os.getloadavg()),
        "versions": versions,
        "peaks": peaks,
        "settings": {"seed": o.seed, "iters": o.iters, "warmup": o.warmup, "warmup_s": o.warmup_s, "min_s": o.min_s,
                     "cxla_max_seconds": o.cxla_max_seconds, "xla_max_seconds": o.xla_max_seconds,
                     "case_timeout": o.case_timeout},
    }


def case_dirs(o, names=None):
    root = o.cases_dir
    if not os.path.isdir(root):
        raise SystemExit("error: %s does not exist: run bench/gen.py first" % root)
    have = sorted(d for d in os.listdir(root)
                  if os.path.isfile(os.path.join(root, d, "case.json")))
    if names:
        unknown = [n for n in names if n not in have]
        if unknown:
            raise SystemExit("error: no case %s in %s" % (", ".join(unknown), root))
        have = [n for n in have if n in names]
    return [(n, os.path.join(root, n)) for n in have]


# ---------------------------------------------------------------------------
# peers: what is installed
# ---------------------------------------------------------------------------

PEER_INSTALL_LOG = os.path.join(HERE, ".venv", "peers-install.log")


def install_failures(path=PEER_INSTALL_LOG):
    """{peer: message} for each peer `make bench` failed to install: the log's
    lines "FAILED <peer> <requirement>" (written by the Makefile)."""
    out = {}
    try:
        with open(path) as fh:
            for line in fh:
                w = line.split()
                if len(w) >= 2 and w[0] == "FAILED":
                    msg = "failed to install (%s; see %s)" % (
                        " ".join(w[2:]) or w[1], os.path.relpath(path, REPO))
                    for peer in (("torch", "torch_compile") if w[1] == "torch" else (w[1],)):
                        out[peer] = msg
    except OSError:
        pass
    return out


def peer_status(pm, have, why, only):
    """{peer: "VERSION" or why not} for the machine section of the report."""
    out = {}
    for peer in pm.PEERS:
        if only is not None and peer not in only:
            out[peer] = "not run (--peers)"
        elif peer in have:
            out[peer] = have[peer]
        else:
            out[peer] = why.get(peer, "not installed")
    return out


# ---------------------------------------------------------------------------
# the full run
# ---------------------------------------------------------------------------

def main_full(o):
    if o.threads:
        os.sched_setaffinity(0, set(sorted(os.sched_getaffinity(0))[:o.threads]))
    import numpy as np
    import jax
    import jaxlib
    import gen
    env = {"np": np, "jax": jax, "gen": gen, "peers": None}
    peer_info = None
    if o.peer_list != ():
        have, why = pm.versions()
        for peer, msg in install_failures().items():
            if peer not in have:
                why[peer] = msg
        env.update(peers=pm, peer_versions=have, peer_why=why)
        peer_info = peer_status(pm, have, why, o.peer_list)
        for peer, v in peer_info.items():
            print("peer %s: %s" % (pm.LABEL[peer], v), file=sys.stderr)
    names = None
    if o.cases:
        names = o.cases.split(",")
    elif o.quick:
        names = [c.name for c in gen.select(quick=True)]
    todo = case_dirs(o, names)
    # Start XLA's CPU client before any timing, so that the first case's
    # compile time does not include it.
    jax.block_until_ready(jax.jit(lambda x: x + 1)(np.float32(0)))
    versions = {"jax": jax.__version__, "jaxlib": jaxlib.__version__, "numpy": np.__version__,
                "python": platform.python_version(), "cxla": git_commit(),
                "xla_flags": os.environ.get("XLA_FLAGS", "")}
    peaks = run_peak(o)
    machine = machine_info(o, versions, peaks)
    machine["peers"] = peer_info
    report = {"machine": machine, "cases": []}
    tmp = tempfile.mkdtemp(prefix="cxla_bench_")
    try:
        for i, (name, d) in enumerate(todo):
            print("[%d/%d] %s ..." % (i + 1, len(todo), name), file=sys.stderr, flush=True)
            t0 = time.monotonic()
            try:
                e = bench_case(o, env, name, d, tmp)
            except Exception as err:  # noqa: BLE001 -- one bad case must not end the run
                e = empty_entry(name, None)
                e["status"] = "error"
                e["notes"].append("%s: %s" % (type(err).__name__, str(err)[:300]))
            with open(os.path.join(d, "case.json")) as fh:
                e["uses_f64"] = any(a["dtype"] == "f64" for a in json.load(fh)["args"])
            derive(e, machine)
            report["cases"].append(e)
            print("    %s: XLA %s, cxla %s, ratio %s (%.0f s)" % (
                e["status"], fmt_time(e["xla_run_s"]), fmt_time(e["cxla_run_s"]),
                fmt_ratio(e["run_ratio"], e.get("run_ratio_is_lower_bound")),
                time.monotonic() - t0), file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    machine["loadavg_after"] = list(os.getloadavg())
    report["summary"] = summary(report["cases"])
    write_outputs(o, report)
    return 0


# ---------------------------------------------------------------------------
# the smoke run: no jax, a numpy (or no) stand-in for XLA
# ---------------------------------------------------------------------------

def smoke_reference(np, arrays):
    """What bench/smoke/module.hlo computes: tanh(a @ b) + a (see its case.json)."""
    a, b = arrays
    return [(np.tanh(a.astype(np.float64) @ b.astype(np.float64)) + a).astype(np.float32)]


def main_smoke(o):
    checks = []

    def check(name, ok, detail=""):
        checks.append(ok)
        print("%s  %s%s" % ("ok  " if ok else "FAIL", name, (": " + detail) if detail else ""))

    try:
        import numpy as np
    except ImportError:
        np = None
    case_dir = os.path.join(HERE, "smoke")
    with open(os.path.join(case_dir, "case.json")) as fh:
        meta = json.load(fh)
    module = os.path.join(case_dir, "module.hlo")
    tmp = tempfile.mkdtemp(prefix="cxla_bench_smoke_")
    try:
        e = empty_entry("smoke", "smoke")
        e["notes"].append("XLA side: %s" % ("numpy stand-in (smoke run, no jax)" if np else
                                            "absent (smoke run, no jax, no numpy)"))
        npy, want = [], None
        if np is not None:
            rng = np.random.default_rng([o.seed, zlib.crc32(b"smoke")])
            arrays = [rng.standard_normal(tuple(a["shape"]), dtype=np.float32)
                      for a in meta["args"]]
            for i, a in enumerate(arrays):
                p = os.path.join(tmp, "%d.npy" % i)
                np.save(p, a, allow_pickle=False)
                npy.append(p)
            want = smoke_reference(np, arrays)
        out_dir = os.path.join(tmp, "out")
        r = run_cxla(o, module, npy, out_dir, o.case_timeout)
        check("cxla bench --json runs", r["status"] == "ok", r.get("detail", ""))
        rep = r.get("report") or {}
        missing = [k for k in CXLA_KEYS if k not in rep]
        check("cxla bench JSON has every key", not missing, ", ".join(missing))
        check("cxla bench counts its runs", rep.get("runs", 0) >= 1 and
              rep.get("runs", 0) + (1 if rep.get("from_warmup") else 0) >= 1)
        fill_cxla(e, r)
        if np is not None and r["status"] == "ok":
            e["rel_err"] = rel_err(np, read_npy_results(np, out_dir, meta["results"]), want)
            check("cxla's result matches the numpy reference (rel err < 1e-5)",
                  e["rel_err"] < 1e-5, "rel err %.2g" % e["rel_err"])
        peaks = run_peak(o) if o.peak and os.path.exists(o.peak) else None
        if o.peak and os.path.exists(o.peak):
            check("bench/peak --quick reports its keys", bool(peaks) and all(
                k in peaks for k in ("triad_gbs", "sgemm_gflops", "dgemm_gflops")))
        machine = machine_info(o, {"python": platform.python_version(), "cxla": git_commit(),
                                   "numpy": np.__version__ if np else None}, peaks)
        machine["xla_threads"] = cores()
        e["uses_f64"] = False
        derive(e, machine)
        smoke_peers(o, np, e, machine, arrays if np is not None else None, want, check)
        report = {"machine": machine, "cases": [e]}
        report["summary"] = "Smoke run: the harness works; the numbers mean nothing."
        o.out_dir = o.out_dir or os.path.join(tmp, "results")
        try:
            import matplotlib  # noqa: F401 -- the chart only where matplotlib is
            o.no_chart = False
        except ImportError:
            o.no_chart = True
        paths = write_outputs(o, report)
        with open(paths[0]) as fh:
            text = fh.read()
        check("the Markdown table is written", "| smoke |" in text)
        section = text.partition("## Against the peers")[2]
        row = [ln for ln in section.splitlines() if ln.startswith("| smoke |")][:1]
        check("the peer table shows the fastest peer and %s for peers that cannot run" % DASH,
              len(row) == 1 and DASH in row[0] and "torch eager" in row[0] and "(cl)" in row[0],
              row[0] if row else "no peer row")
        with open(paths[1]) as fh:
            back = json.load(fh)
        check("the JSON report has machine and case keys", "machine" in back and all(
            k in back["cases"][0] for k in CASE_KEYS))
        c0 = back["cases"][0]
        check("the JSON report has each peer's times and best_peer", all(
            "%s_run_s" % p in c0 for p in PEER_NAMES) and all(
            "%s_compile_s" % p in c0 for p in pm.COMPILED) and
              c0.get("best_peer") == "torch" and "best_peer_run_s" in c0 and
              "peers" in back["machine"])
        if not o.no_chart:
            check("the chart is written", os.path.getsize(paths[2]) > 0)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    nfail = checks.count(False)
    print("bench-smoke: %d passed, %d failed" % (len(checks) - nfail, nfail))
    return 1 if nfail else 0


def smoke_peers(o, np, e, machine, arrays, want, check):
    """The peer code paths without jax: stub figures through peers.fill (so
    the report's peer table, JSON keys and best-peer choice), and where numpy
    is here, a real run of the numpy peer on the smoke arrays (the case is
    a matmul, which the numpy peer of matmul_f32_256 computes)."""
    base = e["cxla_run_s"] or 1e-3
    stub = {"iree": pm.entry("ok", run_s=2 * base, compile_s=0.5, rel_err=0.0),
            "torch": pm.entry("ok", run_s=0.5 * base, rel_err=1e-7, variant="channels_last"),
            "torch_compile": pm.entry("ok", run_s=0.1 * base, compile_s=1.0, rel_err=0.5),
            "numpy": pm.entry("n/a", "numpy does not express this case")}
    have = {"iree": "stub", "torch": "stub", "torch_compile": "stub"}
    machine["peers"] = peer_status(pm, have, {"numpy": "not run (smoke stub)"}, None)
    # torch.compile's stub disagrees with XLA: the mismatch rule must drop it.
    for r in stub.values():
        pm.judge(r)
    pm.fill(e, stub)
    check("peers.fill picks the fastest agreeing peer", e["best_peer"] == "torch" and
          stub["torch_compile"]["status"] == "mismatch" and
          e["best_peer_run_s"] == stub["torch"]["run_s"] and e["torch_compile_run_s"] is None,
          "best %s" % e["best_peer"])
    if np is None or arrays is None:
        return
    a, b = arrays
    ctx = {"name": "matmul_f32_256", "np": np, "arrays": [a, b], "o": o, "lower_s": 0.0,
           "stablehlo": None, "compare": lambda got: rel_err(np, got, [a @ b])}
    real = pm.run_all(ctx, {"numpy": np.__version__}, {}, ("numpy",))
    r = real.get("numpy") or {}
    check("the numpy peer runs and agrees", r.get("status") == "ok" and r.get("run_s", 0) > 0,
          "%s %s" % (r.get("status"), r.get("note", "")))


def rerender(o):
    """Writes FILE's .md and .png again from the JSON (after a format change)."""
    with open(o.from_json) as fh:
        report = json.load(fh)
    base = os.path.splitext(o.from_json)[0]
    md = markdown(report)
    with open(base + ".md", "w") as fh:
        fh.write(md)
    sys.stdout.write(md)
    if not o.no_chart:
        chart(report, base + ".png")
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", help="comma-separated case names (default: every case)")
    ap.add_argument("--quick", action="store_true", help="only the quick cases")
    ap.add_argument("--smoke", action="store_true", help="harness self-test without jax")
    ap.add_argument("--seed", type=int, default=0, help="argument seed (default 0)")
    ap.add_argument("--iters", type=int, default=10, help="timed runs per side (default 10)")
    ap.add_argument("--warmup", type=int, default=1, help="warm-up runs per side (default 1)")
    ap.add_argument("--warmup-s", type=float, default=0.2,
                    help="then more warm-up runs per side until its warm-up has taken this "
                         "many seconds (default 0.2; 0: --warmup runs only). On this machine "
                         "kind a program's first runs over freshly allocated memory run "
                         "slower for several runs (a 64 MB stream: 4.9 ms falling to 3.0 ms "
                         "over ten runs, in plain C too): the medians are of the steady state")
    ap.add_argument("--min-s", type=float, default=0.5,
                    help="after its --iters timed runs, each side runs more until they "
                         "have taken this many seconds together (default 0.5; 0: --iters "
                         "runs only; cxla bench --min-seconds): the median of a short "
                         "case then stands on hundreds of runs, not ten, and a moment's "
                         "load from other processes on this shared machine moves it less")
    ap.add_argument("--compile-reps", type=int, default=3,
                    help="cold compiles per side (default 3): the compile time is their "
                         "median (cxla: a new process with an empty cache each; XLA: a "
                         "fresh jit lowered and compiled, JAX's caches cleared)")
    ap.add_argument("--cxla-max-seconds", type=float, default=30.0,
                    help="cxla bench --max-seconds: stop starting runs after this (default 30)")
    ap.add_argument("--xla-max-seconds", type=float, default=30.0,
                    help="the same budget for the XLA side (default 30)")
    ap.add_argument("--case-timeout", type=float, default=120.0,
                    help="kill cxla bench after this many seconds; the case is marked "
                         "'timeout' (default 120)")
    ap.add_argument("--threads", type=int, default=0,
                    help="pin this process (so XLA:CPU's thread pool and cxla) to the first N "
                         "cores (default: all)")
    ap.add_argument("--cxla", default=os.path.join(REPO, "build", "cxla"),
                    help="the cxla binary (default build/cxla)")
    ap.add_argument("--peak", default=os.path.join(REPO, "build", "bench", "peak"),
                    help="the peak binary (default build/bench/peak)")
    ap.add_argument("--peak-json", help="use these peaks instead of running peak")
    ap.add_argument("--cases-dir", default=os.path.join(HERE, "cases"))
    ap.add_argument("--out-dir", default=None,
                    help="where <date>[-tag].md/.json/.png go (default bench/results; "
                         "--smoke: a temporary directory)")
    ap.add_argument("--tag", default=None, help="suffix for the result file names")
    ap.add_argument("--json", help="also write the JSON report here")
    ap.add_argument("--no-chart", action="store_true", help="no PNG")
    ap.add_argument("--peers", default="all",
                    help="comma-separated peers to run besides XLA: iree, torch, "
                         "torch_compile, numpy; 'all' (default) or 'none'")
    ap.add_argument("--xla-fresh-mem", choices=("model", "all", "none"), default="model",
                    help="which cases also get XLA's memory delta measured in a fresh process "
                         "(the fair comparison with cxla bench's own process; default: the "
                         "model cases)")
    ap.add_argument("--xla-mem-child", metavar="CASE", help=argparse.SUPPRESS)
    ap.add_argument("--from-json", metavar="FILE",
                    help="measure nothing: rewrite the .md (and .png) of a JSON report "
                         "(written beside FILE)")
    o = ap.parse_args(argv)
    sys.stdout.reconfigure(line_buffering=True)  # keep stdout and stderr in order
    if o.iters < 1 or o.warmup < 0 or o.warmup_s < 0 or o.min_s < 0:
        ap.error("--iters must be >= 1, --warmup >= 0, --warmup-s >= 0 and --min-s >= 0")
    known = pm.PEERS
    if o.peers == "all":
        o.peer_list = None
    elif o.peers == "none":
        o.peer_list = ()
    else:
        o.peer_list = tuple(p for p in o.peers.split(",") if p)
        bad = [p for p in o.peer_list if p not in known]
        if bad:
            ap.error("unknown peer(s) %s (known: %s)" % (", ".join(bad), ", ".join(known)))
    if o.xla_mem_child:
        return xla_mem_child(o)
    if o.smoke:
        return main_smoke(o)
    if o.from_json:
        return rerender(o)
    if o.out_dir is None:
        o.out_dir = os.path.join(HERE, "results")
    if o.tag is None and (o.quick or o.cases):
        o.tag = "quick" if o.quick else "partial"
    if not os.path.exists(o.cxla):
        raise SystemExit("error: %s not found: run make first" % o.cxla)
    return main_full(o)


if __name__ == "__main__":
    sys.exit(main())
