"""Runs JAX with the platforms cxla and cpu in one process.

When the jax-cxla package is installed (pip install ./python), JAX finds the
plugin by its entry point. Otherwise the package is taken from this
checkout (python/) and the library from build/libcxla_pjrt.so ($CXLA_PJRT_LIBRARY
overrides), so `make test` runs the suite without installing anything."""
import os
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
os.environ.setdefault("JAX_PLATFORMS", "cxla,cpu")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
# Never the user's compile cache: tests/run.sh names a fresh directory;
# without one, a temporary directory of this session.
if not os.environ.get("CXLA_CACHE_DIR"):
    import atexit
    import shutil
    import tempfile

    _cache = tempfile.mkdtemp(prefix="cxla_test_cache.")
    os.environ["CXLA_CACHE_DIR"] = _cache
    atexit.register(shutil.rmtree, _cache, True)

jax = pytest.importorskip("jax")

from importlib.metadata import entry_points  # noqa: E402

if not any(ep.name == "cxla" for ep in entry_points(group="jax_plugins")):
    sys.path.insert(0, str(ROOT / "python"))
    os.environ.setdefault("CXLA_PJRT_LIBRARY", str(ROOT / "build" / "libcxla_pjrt.so"))
    import jax_cxla  # noqa: E402

    jax_cxla.initialize()


@pytest.fixture(scope="session")
def cxla():
    return jax.devices("cxla")[0]


@pytest.fixture(scope="session")
def cpu():
    return jax.devices("cpu")[0]


def pytest_terminal_summary(terminalreporter):
    """The count line tests/run.sh reads: N passed, M failed, K skipped."""
    st = terminalreporter.stats
    n = lambda k: len([r for r in st.get(k, []) if getattr(r, "when", "call") in ("call", "setup")])
    failed = n("failed") + n("error")
    terminalreporter.write_line(f"pytest: {n('passed')} passed, {failed} failed, {n('skipped')} skipped")
