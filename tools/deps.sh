#!/bin/sh
# Installs what cxla needs to build and test, on Debian 12, as root, without
# asking anything (CI runs it with no stdin). Installs only what is missing;
# runs apt-get update only when something is.
#
#   make, gcc            the build
#   clang                the second compiler CI builds with
#   libclang-rt-dev      clang's sanitizer and libFuzzer runtimes (make fuzz)
#   python3 + numpy      tools/corpus/check.py and numpy cross-checks of
#                        .npy files in the tests (skipped without numpy)
#   libopenblas-dev      CBLAS and LAPACK: the cpu backend's dots and its
#                        linear-algebra routines (potrf, getrf, syevd, ...),
#                        bench/peak.c
#   llvm-19-dev          LLVM 19's C API and ORC JIT: the cpu backend
#
# gcc's own sanitizer runtimes (libasan, libubsan) come with gcc.
set -eu

missing=""
need_pkg() { missing="$missing $1"; }

command -v make >/dev/null 2>&1 || need_pkg make
command -v gcc >/dev/null 2>&1 || need_pkg gcc
command -v clang >/dev/null 2>&1 || need_pkg clang
# libclang-rt-dev: probe for the runtime library rather than the package
# name, so that a clang installed some other way also counts.
if ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.asan*-x86_64.a >/dev/null 2>&1 &&
  ! ls /usr/lib/llvm-*/lib/clang/*/lib/*/libclang_rt.asan*.a >/dev/null 2>&1; then
  need_pkg libclang-rt-dev
fi
command -v python3 >/dev/null 2>&1 || need_pkg python3
# python3 -m venv (.ci/run makes a venv with jax for python/tests)
python3 -c 'import ensurepip' >/dev/null 2>&1 || need_pkg python3-venv
ls /usr/lib/*/libopenblas.so /usr/lib/libopenblas.so >/dev/null 2>&1 || need_pkg libopenblas-dev
test -x /usr/lib/llvm-19/bin/llvm-config && test -e /usr/lib/llvm-19/include/llvm-c/LLJIT.h ||
  need_pkg llvm-19-dev

# numpy for the python3 that is first on PATH. Debian's own python3 gets
# Debian's package; another python3 (pyenv, a venv) gets numpy from pip,
# since apt cannot install into it.
pip_numpy=0
if command -v python3 >/dev/null 2>&1 && ! python3 -c 'import numpy' >/dev/null 2>&1; then
  if [ "$(python3 -c 'import sys; print(sys.prefix)')" = /usr ]; then
    need_pkg python3-numpy
  else
    pip_numpy=1
  fi
elif ! command -v python3 >/dev/null 2>&1; then
  need_pkg python3-numpy
fi

if [ -n "$missing" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "deps: missing:$missing; run this script as root (or install them yourself)" >&2
    exit 1
  fi
  echo "deps: installing$missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # shellcheck disable=SC2086
  apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

if [ "$pip_numpy" -eq 1 ]; then
  echo "deps: installing numpy for $(command -v python3) with pip"
  PIP_ROOT_USER_ACTION=ignore python3 -m pip install --quiet --disable-pip-version-check numpy </dev/null ||
    echo "deps: warning: pip could not install numpy; the numpy checks will be skipped" >&2
fi
echo "deps: ok"
