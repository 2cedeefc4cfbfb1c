"""JAX's eager, op-by-op mode on cxla hits the compile cache on disk across
processes: a second process running the same ops compiles none of them
(every cache entry it needs is there and is only read: same file, newer
use time, no entry added), and computes the same. The cache is a temporary
directory ($CXLA_CACHE_DIR), never the user's."""
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]

SCRIPT = r"""
import os, sys
from importlib.metadata import entry_points
os.environ["JAX_PLATFORMS"] = "cxla"
if not any(ep.name == "cxla" for ep in entry_points(group="jax_plugins")):
    sys.path.insert(0, sys.argv[1])
    import jax_cxla
    jax_cxla.initialize()
import jax.numpy as jnp
x = jnp.arange(16.0).reshape(4, 4)
y = jnp.sin(x) * 2 + jnp.exp(-x)
z = (y @ x.T).sum(axis=0)
print(repr([float(v) for v in jnp.sort(z)]))
"""


def run(env):
    r = subprocess.run([sys.executable, "-c", SCRIPT, str(ROOT / "python")], env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip().splitlines()[-1]


def entries(d):
    return {p.name: p.stat() for p in pathlib.Path(d).glob("*.cxc")}


def test_eager_ops_hit_across_processes(tmp_path):
    if os.environ.get("CXLA_PJRT_BACKEND", "cpu") != "cpu":
        pytest.skip("the disk cache is the cpu backend's")
    env = dict(os.environ)
    env.pop("CXLA_CACHE", None)
    env["CXLA_CACHE_DIR"] = str(tmp_path / "cache")
    env.setdefault("CXLA_PJRT_LIBRARY", str(ROOT / "build" / "libcxla_pjrt.so"))
    first = run(env)
    before = entries(tmp_path / "cache")
    assert len(before) >= 5  # one per eager op at least: sin, mul, add, exp, dot, ...
    for name in before:  # make every entry old, so a read shows
        os.utime(tmp_path / "cache" / name, (1_000_000, 1_000_000))
    second = run(env)
    after = entries(tmp_path / "cache")
    assert second == first
    assert set(after) == set(before)  # nothing compiled and stored anew ...
    for name, st in after.items():  # ... each entry read in place, not rewritten
        assert st.st_ino == before[name].st_ino
        assert st.st_mtime > 1_000_000
