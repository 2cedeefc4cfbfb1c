"""Cases from JAX's serialization back-compatibility data, for sweeps.

jax ships, for its back-compatibility tests, StableHLO artifacts that
older JAX versions serialized (jax._src.internal_test_util.
export_back_compat_test_data: the cpu_* files, LAPACK custom calls from
2023-2024 in VHLO bytecode of their day, and the stablehlo_dynamic_* ones,
shape-polymorphic), each with its inputs and the outputs it gave then.
This writes every cpu one as a case directory holding module.mlirbc (the
artifact as serialized), module.mlir (its text), case.json, args/ and
results/ (those outputs; gen.py's "model" tolerances), for

    tools/corpus/.venv/bin/python tools/corpus/gen_back_compat.py --out /tmp/bc
    build/cxla conform /tmp/bc --which mlirbc --backend cpu

There is no module.hlo (check.py does not apply). Expect differences that
are not bugs: eigenvectors (eig, eigh with repeated eigenvalues, svd,
schur) are unique only up to sign or phase. On 2026-12-06 (jax 0.10.2's
data, 48 cases): cholesky, hessenberg, lu, qr, triangular solve,
tridiagonal reduction and solve agree on both backends (28); the cpu
backend matches svd and complex schur too (LAPACK's signs); the 4
shape-polymorphic artifacts (dimensions '?') agree since cxla refines
shapes from the arguments (they are in tests/poly). """
import argparse
import importlib
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen as G  # noqa: E402
import numpy as np  # noqa: E402

PKG = "jax._src.internal_test_util.export_back_compat_test_data"


def entries(mod):
    """(key, data) for each serialized artifact in a data module."""
    for k, v in sorted(vars(mod).items()):
        if isinstance(v, dict) and "mlir_module_serialized" in v:
            yield k, v
        elif isinstance(v, dict):
            for kk, vv in v.items():
                if isinstance(vv, dict) and "mlir_module_serialized" in vv:
                    yield "%s_%s" % (k, kk), vv


def write(case_dir, description, data, source=None, tol="model"):
    """A case directory from an artifact (gen_poly.py writes its own so):
    data has inputs, expected_outputs, mlir_module_serialized and
    mlir_module_text; tol is gen.py's tolerance spec for the results."""
    os.makedirs(os.path.join(case_dir, "args"), exist_ok=True)
    os.makedirs(os.path.join(case_dir, "results"), exist_ok=True)
    meta = {"description": description,
            "source": source or "jax %s back-compat test data" % G.jax.__version__,
            "args": [], "results": []}
    for i, a in enumerate(data["inputs"]):
        a = np.asarray(a)
        G.save_array(os.path.join(case_dir, "args/%d.npy" % i), a)
        meta["args"].append({"file": "args/%d.npy" % i, "dtype": G.hlo_dtype(a.dtype), "shape": list(a.shape)})
    for i, r in enumerate(data["expected_outputs"]):
        r = np.asarray(r)
        G.save_array(os.path.join(case_dir, "results/%d.npy" % i), r)
        rt, at = G.resolve_tol(tol, G.hlo_dtype(r.dtype))
        meta["results"].append({"file": "results/%d.npy" % i, "dtype": G.hlo_dtype(r.dtype),
                                "shape": list(r.shape), "rtol": rt, "atol": at})
    with open(os.path.join(case_dir, "module.mlirbc"), "wb") as fh:
        fh.write(data["mlir_module_serialized"])
    with open(os.path.join(case_dir, "module.mlir"), "w") as fh:
        fh.write(data["mlir_module_text"])
    with open(os.path.join(case_dir, "case.json"), "w") as fh:
        json.dump(meta, fh, indent=2, sort_keys=True)
        fh.write("\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="output directory")
    opts = ap.parse_args(argv)
    here = os.path.dirname(importlib.import_module(PKG).__file__)
    n = 0
    for f in sorted(os.listdir(here)):
        if not f.endswith(".py") or f.startswith("__"):
            continue
        try:
            mod = importlib.import_module(PKG + "." + f[:-3])
        except Exception as e:  # noqa: BLE001 - a data file jax itself no longer loads
            print("skipped %s: %s" % (f, e), file=sys.stderr)
            continue
        for key, data in entries(mod):
            if data.get("platform", "cpu") != "cpu":
                continue
            name = re.sub(r"[^a-z0-9_]+", "_", ("b_%s_%s" % (f[:-3], key)).lower()).strip("_")
            write(os.path.join(opts.out, name), "jax back-compat data %s %s" % (f, key), data)
            n += 1
    print("wrote %d case(s)" % n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
