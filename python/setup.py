"""Builds the jax-cxla wheel: bundles the PJRT plugin library.

The library is $CXLA_PJRT_SO if set, else ../build/libcxla_pjrt.so (what
`make pjrt` builds in the repository root); when it is missing, `make pjrt`
is run there first. The wheel is platform-specific (it carries a .so).
"""
import os
import pathlib
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent


def plugin_library():
    env = os.environ.get("CXLA_PJRT_SO")
    if env:
        return pathlib.Path(env)
    so = ROOT / "build" / "libcxla_pjrt.so"
    if not so.exists() and (ROOT / "Makefile").exists():
        subprocess.check_call(["make", "-C", str(ROOT), "pjrt"])
    return so


class BuildPyWithPlugin(build_py):
    def run(self):
        super().run()
        so = plugin_library()
        if not so.exists():
            raise RuntimeError(f"{so} not found: run `make pjrt` in the cxla repository first")
        dest = pathlib.Path(self.build_lib) / "jax_cxla"
        dest.mkdir(parents=True, exist_ok=True)
        shutil.copy2(so, dest / "libcxla_pjrt.so")


class BinaryDistribution(Distribution):
    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildPyWithPlugin}, distclass=BinaryDistribution)
