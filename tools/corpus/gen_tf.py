#!/usr/bin/env python3
"""Generate the TensorFlow cases of the cxla conformance corpus.

TensorFlow's HLO differs from JAX's: QR, matrix inverse and solve become the
custom-calls `Qr` and `ProductOfElementaryHouseholderReflectors` (XLA's QR
expander turns them into HLO), eigvalsh the custom-call `Eigh`, and fused
batch norm becomes `batch-norm-training` / `batch-norm-inference`. These cases keep that HLO
in the corpus.

Usage (from the repository root, with tensorflow-cpu and numpy in a venv of
their own, e.g. `python3 -m venv /opt/tfvenv && /opt/tfvenv/bin/pip install
tensorflow-cpu`):

    /opt/tfvenv/bin/python tools/corpus/gen_tf.py             # every TF case
    /opt/tfvenv/bin/python tools/corpus/gen_tf.py --only qr   # names matching a regex
    /opt/tfvenv/bin/python tools/corpus/gen_tf.py --list

Each case is written as gen.py writes its cases (tests/corpus/<case>/
{module.hlo, optimized.hlo, case.json, args/N.npy, results/N.npy}):
module.hlo is `experimental_get_compiler_ir(...)(stage='hlo')` of the
jit-compiled tf.function, optimized.hlo its stage='optimized_hlo', and the
results are what TensorFlow/XLA:CPU computes. Every result is also checked
against a float64 numpy reference with half of the declared tolerance.
"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"
os.environ["XLA_FLAGS"] = "--xla_cpu_multi_thread_eigen=false"

import argparse
import json
import re
import shutil

import numpy as np
import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DEFAULT_OUT = os.path.join(REPO, "tests", "corpus")
SOURCE = "tensorflow %s / numpy %s" % (tf.__version__, np.__version__)

HLO_NAME = {"float32": "f32", "float64": "f64", "complex64": "c64", "int32": "s32",
            "int64": "s64", "bool": "pred"}
# (rtol, atol) per dtype: linear algebra and batch norm, many roundings.
TOL = {"f32": (1e-4, 1e-4), "f64": (1e-10, 1e-11), "c64": (1e-4, 1e-4)}


def mat(seed, shape, dtype, diag=0.0):
    rs = np.random.RandomState(seed)
    a = rs.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rs.standard_normal(shape)
    if diag:
        a = a + diag * np.eye(shape[-1])
    return a.astype(dtype)


class Case:
    def __init__(self, name, description, fn, args, reference):
        self.name, self.description, self.fn = name, description, fn
        self.args, self.reference = args, reference


def qr_ref(x):
    q, r = np.linalg.qr(x.astype(np.complex128 if x.dtype.kind == "c" else np.float64))
    return [q, r]


def bn_train_ref(x, scale, offset, eps=1e-3):
    x = x.astype(np.float64)
    axes = tuple(range(x.ndim - 1))
    mean = x.mean(axis=axes)
    var = x.var(axis=axes)
    n = x.size // x.shape[-1]
    y = (x - mean) / np.sqrt(var + eps) * scale + offset
    return [y, mean, var * n / (n - 1)]


def bn_infer_ref(x, scale, offset, mean, var, eps=1e-3):
    x = x.astype(np.float64)
    return [(x - mean) / np.sqrt(var.astype(np.float64) + eps) * scale + offset]


CASES = [
    Case("tf_linalg_qr", "tf.linalg.qr of a tall f32[5,3] matrix (reduced): Qr and "
         "ProductOfElementaryHouseholderReflectors custom-calls",
         lambda x: tf.linalg.qr(x), [mat(0, (5, 3), np.float32)], qr_ref),
    Case("tf_linalg_qr_batched_f64", "tf.linalg.qr of a batch of two f64[3,3] matrices",
         lambda x: tf.linalg.qr(x), [mat(1, (2, 3, 3), np.float64)],
         lambda x: [np.stack(v) for v in zip(*(qr_ref(m) for m in x))]),
    Case("tf_linalg_qr_batched_c64", "tf.linalg.qr of a batch of two complex64[4,3] matrices",
         lambda x: tf.linalg.qr(x), [mat(13, (2, 4, 3), np.complex64)],
         lambda x: [np.stack(v) for v in zip(*(qr_ref(m) for m in x))]),
    Case("tf_matrix_inverse", "tf.linalg.inv of a well-conditioned f32[4,4] matrix (TF "
         "inverts through QR: Qr custom-calls, then a triangular solve)",
         lambda x: tf.linalg.inv(x), [mat(2, (4, 4), np.float32, diag=4.0)],
         lambda x: [np.linalg.inv(x.astype(np.float64))]),
    Case("tf_matrix_solve", "tf.linalg.solve of f32[4,4] x = f32[4,2] (through QR)",
         lambda a, b: tf.linalg.solve(a, b),
         [mat(3, (4, 4), np.float32, diag=4.0), mat(4, (4, 2), np.float32)],
         lambda a, b: [np.linalg.solve(a.astype(np.float64), b.astype(np.float64))]),
    Case("tf_eigvalsh", "tf.linalg.eigvalsh of a batch of two symmetric f32[4,4] matrices: "
         "the Eigh custom-call (eigenvalues only: eigenvectors are defined up to sign)",
         lambda x: tf.linalg.eigvalsh(x),
         [(lambda a: (a + np.swapaxes(a, -1, -2)).astype(np.float32))(mat(14, (2, 4, 4), np.float64))],
         lambda x: [np.linalg.eigvalsh(x.astype(np.float64))]),
    Case("tf_fused_batch_norm_training", "tf fused_batch_norm, training, NHWC f32[2,3,3,4]: "
         "batch-norm-training (results: y, batch mean, Bessel-corrected batch variance)",
         lambda x, s, o: tf.compat.v1.nn.fused_batch_norm(x, s, o, epsilon=1e-3,
                                                           is_training=True),
         [mat(5, (2, 3, 3, 4), np.float32), mat(6, (4,), np.float32),
          mat(7, (4,), np.float32)], bn_train_ref),
    Case("tf_fused_batch_norm_inference", "tf fused_batch_norm, inference, NHWC "
         "f32[2,3,3,4]: batch-norm-inference",
         lambda x, s, o, m, v: tf.compat.v1.nn.fused_batch_norm(
             x, s, o, mean=m, variance=v, epsilon=1e-3, is_training=False)[0],
         [mat(8, (2, 3, 3, 4), np.float32), mat(9, (4,), np.float32),
          mat(10, (4,), np.float32), mat(11, (4,), np.float32),
          np.abs(mat(12, (4,), np.float32)) + 0.5], bn_infer_ref),
]


def hlo_dtype(a):
    return HLO_NAME[np.asarray(a).dtype.name]


def canonical(text):
    # Source paths in metadata depend on where TensorFlow is installed.
    return re.sub(r'source_file="[^"]*/site-packages/', 'source_file="', text)


def _literal_values(lit):
    """The values of an array LiteralProto, as a numpy array of its shape
    (its data is stored in its layout's order)."""
    from tensorflow.compiler.xla import xla_data_pb2 as X
    sh = lit.shape
    ty = X.PrimitiveType.Name(sh.element_type)
    raw = {"F16": (lit.f16s, np.float16), "S8": (lit.s8s, np.int8), "U8": (lit.u8s, np.uint8),
           "S16": (lit.s16s, np.int16), "U16": (lit.u16s, np.uint16)}
    if ty in raw:
        v = np.frombuffer(raw[ty][0], raw[ty][1])
    elif ty == "BF16":
        v = (np.frombuffer(lit.bf16s, np.uint16).astype(np.uint32) << 16).view(np.float32)
    elif ty in ("C64", "C128"):
        f = np.array(lit.c64s if ty == "C64" else lit.c128s, np.float64)
        v = f[0::2] + 1j * f[1::2]
    else:
        field = {"PRED": "preds", "S32": "s32s", "S64": "s64s", "U32": "u32s", "U64": "u64s",
                 "F32": "f32s", "F64": "f64s"}[ty]
        v = np.array(getattr(lit, field))
    dims = list(sh.dimensions)
    m2m = list(sh.layout.minor_to_major) or list(range(len(dims) - 1, -1, -1))
    major = m2m[::-1]
    v = v.reshape([dims[d] for d in major])
    return ty, np.transpose(v, np.argsort(major))


def _literal_text(ty, v):
    def real(x):
        x = float(x)
        return "nan" if x != x else ("inf" if x == np.inf else ("-inf" if x == -np.inf else repr(x)))

    def one(x):
        if ty == "PRED":
            return "true" if x else "false"
        if ty in ("C64", "C128"):
            return "(%s, %s)" % (real(x.real), real(x.imag))
        if isinstance(x, (int, np.integer)):
            return str(int(x))
        return real(x)
    def rec(a):
        if a.ndim == 0:
            return one(a[()])
        return "{" + ", ".join(rec(a[i]) for i in range(a.shape[0])) + "}"
    return rec(v)


def expand_constants(text, serialized):
    """The constants TensorFlow's HLO text elides ({...}) written out from
    the serialized module (an HloModuleProto) the same stage gives, which
    serialized() returns (asked for only where needed: every compile
    advances TensorFlow's function counter, which names the module)."""
    if "{...}" not in text:
        return text
    from tensorflow.compiler.xla.service import hlo_pb2
    m = hlo_pb2.HloModuleProto.FromString(serialized())
    lits = {i.name: i.literal for c in m.computations for i in c.instructions if i.opcode == "constant"}

    def sub(mo):
        name = mo.group(1)
        if name not in lits:
            return mo.group(0)
        return mo.group(0).replace("constant({...})", "constant(%s)" % _literal_text(*_literal_values(lits[name])))
    return re.sub(r"%([^\s=]+) = [^\n]*constant\(\{\.\.\.\}\)", sub, text)


def result_count(text):
    """The entry's results as entry_computation_layout lists them."""
    m = re.search(r"entry_computation_layout=\{", text)
    if not m:
        return 1
    i, depth = text.index("->", m.end()) + 2, 0
    if text[i] != "(":
        return 1
    n = 1
    for ch in text[i:]:
        depth += ch in "([{"
        depth -= ch in ")]}"
        if depth == 0:
            return n
        n += ch == "," and depth == 1
    return n


def captured_values(fn, targs):
    """The values of what fn captures (Keras layers' variables), which XLA
    takes as parameters after the arguments, in that order."""
    cf = fn.get_concrete_function(*targs)
    by_handle = {id(v.handle): v for v in cf.variables}
    out = []
    for t in cf.captured_inputs:
        v = by_handle.get(id(t))
        out.append(np.asarray(v.numpy() if v is not None else t.numpy()))
    return out


def within(got, want, rtol, atol):
    wide = np.complex128 if np.asarray(got).dtype.kind == "c" else np.float64
    got, want = np.asarray(got, wide), np.asarray(want, wide)
    if got.shape != want.shape:
        return "shape %s vs %s" % (got.shape, want.shape)
    err = np.abs(got - want)
    bad = ~(err <= atol + rtol * np.abs(want))
    if bad.any():
        i = tuple(int(v) for v in np.argwhere(bad)[0])
        return "%d bad, first at %s: got %r want %r" % (int(bad.sum()), i, got[i], want[i])
    return None


def generate(c, out_root):
    fn = tf.function(c.fn, jit_compile=True)
    targs = [tf.constant(a) for a in c.args]
    ir = fn.experimental_get_compiler_ir(*targs)
    module_text = canonical(expand_constants(ir(stage="hlo"), lambda: ir(stage="hlo_serialized")))
    optimized_text = canonical(expand_constants(ir(stage="optimized_hlo"), lambda: ir(stage="optimized_hlo_serialized")))
    entry = module_text[module_text.index("\nENTRY "):]
    nparams = len(re.findall(r"\bparameter\(", entry[:entry.find("\n}")]))
    captured = captured_values(fn, targs) if nparams > len(c.args) else []  # before the step assigns any
    out = fn(*targs)
    args = list(c.args) + captured
    results = [np.asarray(r) for r in (out if isinstance(out, (list, tuple)) else [out])]
    extra = result_count(module_text) - len(results)
    if captured and extra > 0:
        # a training step: XLA returns the variables it assigned after the
        # results, in the order it takes them
        updated = [a for b, a in zip(captured, captured_values(fn, targs)) if not np.array_equal(a, b)]
        if len(updated) != extra:
            raise ValueError("%d results past the function's, %d variables changed" % (extra, len(updated)))
        results += updated
    problems = []
    refs = c.reference(*c.args) if c.reference else []  # sweeps: XLA's results only
    for i, (r, ref) in enumerate(zip(results, refs)):
        rt, at = TOL[hlo_dtype(r)]
        info = within(r, ref, rt / 2, at / 2)
        if info:
            problems.append("%s result %d: %s" % (c.name, i, info))
    final = os.path.join(out_root, c.name)
    tmp = final + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(os.path.join(tmp, "args"))
    os.makedirs(os.path.join(tmp, "results"))
    meta = {"description": c.description, "source": SOURCE, "args": [], "results": []}
    targets = sorted(set(re.findall(r'custom_call_target="([^"]*)"', module_text + optimized_text)))
    if targets:
        meta["custom_call_targets"] = targets
    def save(path, a):
        # np.ascontiguousarray makes 0-d arrays 1-d; bf16 is stored as its raw bits
        a = np.array(a, order="C", copy=True)
        if a.dtype.name == "bfloat16":
            a = a.view(np.uint16)
        np.save(path, a, allow_pickle=False)

    for i, a in enumerate(args):
        rel = "args/%d.npy" % i
        save(os.path.join(tmp, rel), a)
        meta["args"].append({"file": rel, "dtype": hlo_dtype(a), "shape": list(a.shape)})
    for i, r in enumerate(results):
        rel = "results/%d.npy" % i
        save(os.path.join(tmp, rel), r)
        rt, at = TOL[hlo_dtype(r)]
        meta["results"].append({"file": rel, "dtype": hlo_dtype(r), "shape": list(r.shape),
                                "rtol": rt, "atol": at})
    with open(os.path.join(tmp, "module.hlo"), "w") as fh:
        fh.write(module_text)
    with open(os.path.join(tmp, "optimized.hlo"), "w") as fh:
        fh.write(optimized_text)
    with open(os.path.join(tmp, "case.json"), "w") as fh:
        json.dump(meta, fh, indent=2, sort_keys=True)
        fh.write("\n")
    shutil.rmtree(final, ignore_errors=True)
    os.rename(tmp, final)
    return problems


def sweep_main(cases, doc, argv=None):
    """The command line of the sweep generators (gen_tf_sweep.py,
    gen_tf_dynamic.py): --out DIR, --only REGEX, --list; a case TensorFlow
    cannot compile is reported and skipped."""
    import argparse
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--only", help="regex: only cases whose name matches")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    cases = [c for c in cases if not a.only or re.search(a.only, c.name)]
    if a.list:
        print("\n".join(c.name for c in cases))
        return 0
    n = skipped = 0
    for c in cases:
        try:
            generate(c, a.out)
            n += 1
        except Exception as e:  # noqa: BLE001 - an op XLA cannot compile here
            skipped += 1
            print("skipped %s: %s: %s" % (c.name, type(e).__name__, str(e).splitlines()[0][:200] if str(e) else ""),
                  file=sys.stderr)
    print("wrote %d case(s), %d skipped" % (n, skipped))
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="regex: only cases whose name matches")
    ap.add_argument("--list", action="store_true", help="list the case names")
    ap.add_argument("--out", default=DEFAULT_OUT, help="corpus root (default tests/corpus)")
    ap.add_argument("--strict", action="store_true", help="exit 1 when a self-check fails")
    a = ap.parse_args(argv)
    cases = [c for c in CASES if not a.only or re.search(a.only, c.name)]
    if a.list:
        for c in cases:
            print(c.name)
        return 0
    problems = []
    for c in cases:
        p = generate(c, a.out)
        print("%-34s %s" % (c.name, "ok" if not p else "SELF-CHECK FAILED"))
        problems += p
    for p in problems:
        print("  " + p)
    return 1 if problems and a.strict else 0


if __name__ == "__main__":
    sys.exit(main())
