#!/usr/bin/env python3
"""JAX's own tests on cxla: fetches the jax repository's tests at the tag of
the installed jax (jax-v<version>; not committed: into .jax-tests/), runs
each test file with JAX_PLATFORMS=cxla,cpu (cxla the default) under pytest, and prints pass / fail /
skip per file and the total.

    python python/jax_tests.py [--jax-src DIR] [--files lax_test.py ...] [-k EXPR] [--timeout S]

The tests run with JAX_TEST_DUT=cpu: the set JAX runs on XLA:CPU, on cxla.
Without an installed jax-cxla, the plugin is this checkout's python/jax_cxla
with build/libcxla_pjrt.so (run `make pjrt` first), registered through a
jax_plugins module on PYTHONPATH (so subprocesses of the tests find it too).
--jax-src uses an existing jax checkout (at the matching tag) instead of
cloning. Needs git (for the clone), pytest and absl-py in the python that runs
this (and hypothesis for some files; mpmath for lax_test.py's
FunctionAccuracyTest, which JAX skips without it). Known skips are listed in
python/jax_tests_skips.txt (file::test  reason), passed to pytest as
deselections."""
import argparse
import os
import pathlib
import subprocess
import sys
import xml.etree.ElementTree as ET

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
DEFAULT_FILES = ["lax_test.py", "lax_numpy_test.py", "lax_control_flow_test.py",
                 "lax_autodiff_test.py", "random_lax_test.py", "nn_test.py", "linalg_test.py",
                 "api_test.py"]


def jax_source(args):
    if args.jax_src:
        return pathlib.Path(args.jax_src)
    import jax
    tag = "jax-v" + jax.__version__
    dest = ROOT / ".jax-tests" / tag
    if not (dest / "tests").exists():
        dest.parent.mkdir(parents=True, exist_ok=True)
        subprocess.check_call(["git", "clone", "--depth", "1", "--branch", tag,
                               "https://github.com/jax-ml/jax", str(dest)])
    return dest


def skips():
    out = []
    f = HERE / "jax_tests_skips.txt"
    if f.exists():
        for line in f.read_text().splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                out.append(line.split()[0])
    return out


def run_file(src, name, args, tmp):
    xml = tmp / (name + ".xml")
    if xml.exists():
        xml.unlink()
    # cxla is the default backend (a plugin's priority is above cpu's); cpu
    # is there for the tests that ask for it by name.
    env = dict(os.environ, JAX_PLATFORMS="cxla,cpu")
    # JAX's tests pick what to run by the device type under test (the
    # jax_test_dut flag, which pytest does not parse): cxla runs what XLA:CPU
    # runs; $JAX_TEST_DUT=cxla shows JAX's own choice for an unknown device.
    dut = os.environ.get("JAX_TEST_DUT", "cpu")
    plugin_dir = tmp / "plugin"
    plugin_dir.mkdir(exist_ok=True)
    # The flag goes on the command line, where each test file's
    # parse_flags_with_absl reads it; the plugin only lets pytest accept it.
    # (Importing jax._src.test_util from the plugin to set it would bind its
    # capture_stdout to the sys.stdout of that moment, not pytest's.)
    (plugin_dir / "cxla_dut.py").write_text(
        "def pytest_addoption(parser):\n"
        "    parser.addoption('--jax_test_dut', default='', help=\"JAX's device under test\")\n")
    # Without an installed jax-cxla, JAX finds the package of this checkout
    # (with its build/libcxla_pjrt.so) as a module of the jax_plugins
    # namespace package on PYTHONPATH; subprocesses the tests start find it
    # too.
    ns = plugin_dir / "jax_plugins"
    ns.mkdir(exist_ok=True)
    (ns / "cxla_checkout.py").write_text(
        "import os, sys\n"
        "from importlib.metadata import entry_points\n\n\n"
        "def initialize():\n"
        "    if any(ep.name == 'cxla' for ep in entry_points(group='jax_plugins')):\n"
        "        return  # an installed jax-cxla registers itself\n"
        f"    sys.path.insert(0, {str(HERE)!r})\n"
        f"    os.environ.setdefault('CXLA_PJRT_LIBRARY', {str(ROOT / 'build' / 'libcxla_pjrt.so')!r})\n"
        "    import jax_cxla\n"
        "    jax_cxla.initialize()\n")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(plugin_dir), env.get("PYTHONPATH")]))
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "cxla_dut",
           f"--jax_test_dut={dut}", "--junitxml", str(xml),
           str(src / "tests" / name)]
    for s in skips():
        if s.startswith(name + "::"):
            # node ids are relative to the rootdir (the checkout, the cwd):
            # an absolute path would match nothing
            cmd += ["--deselect", "tests/" + s]
    if args.k:
        cmd += ["-k", args.k]
    try:
        subprocess.run(cmd, env=env, cwd=src, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=args.timeout)
    except subprocess.TimeoutExpired:
        pass
    if not xml.exists():
        return None
    p = f = s = 0
    for tc in ET.parse(xml).getroot().iter("testcase"):
        tags = {c.tag for c in tc}
        if "skipped" in tags:
            s += 1
        elif "failure" in tags or "error" in tags:
            f += 1
        else:
            p += 1
    return p, f, s


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jax-src")
    ap.add_argument("--files", nargs="*", default=DEFAULT_FILES)
    ap.add_argument("-k")
    ap.add_argument("--timeout", type=float, default=3600)
    args = ap.parse_args()
    src = jax_source(args)
    tmp = ROOT / ".jax-tests" / "results"
    tmp.mkdir(parents=True, exist_ok=True)
    tp = tf = ts = 0
    print(f"{'file':32} {'passed':>7} {'failed':>7} {'skipped':>8} {'pass%':>6}")
    for name in args.files:
        r = run_file(src, name, args, tmp)
        if r is None:
            print(f"{name:32} {'(did not run: crashed or timed out)':>30}")
            continue
        p, f, s = r
        tp, tf, ts = tp + p, tf + f, ts + s
        pct = 100.0 * p / (p + f) if p + f else 0.0
        print(f"{name:32} {p:7d} {f:7d} {s:8d} {pct:6.1f}")
    pct = 100.0 * tp / (tp + tf) if tp + tf else 0.0
    print(f"{'total':32} {tp:7d} {tf:7d} {ts:8d} {pct:6.1f}")


if __name__ == "__main__":
    main()
