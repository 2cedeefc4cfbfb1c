#!/usr/bin/env python3
"""Structural check of the conformance corpus (needs numpy, not jax).

    python3 tools/corpus/check.py                  # every case under tests/corpus
    python3 tools/corpus/check.py DIR [DIR ...]    # case dirs, or roots holding cases

For every case directory it checks that case.json is well formed, that all
files are present, that each .npy header (dtype, shape) matches case.json,
that the file size matches the header, that the number of args equals the
number of distinct parameter(N) instructions in the ENTRY computation of
module.hlo, that the entry_computation_layout of module.hlo agrees with the
args' and results' dtypes and shapes, and that every result has sane
tolerances (integers and pred: exactly 0).

Ends with `corpus check: N passed, M failed` and exits 1 on any failure.
Without numpy it prints a skip message and exits 0.
"""

import json
import math
import os
import re
import sys

try:
    import numpy as np
    from numpy.lib import format as npy_format
except ImportError:  # pragma: no cover - depends on the machine
    print("corpus check skipped: numpy is not importable")
    sys.exit(0)

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_ROOT = os.path.join(os.path.dirname(os.path.dirname(HERE)), "tests", "corpus")

# HLO dtype name -> numpy dtype string the .npy file must have.
STORAGE = {
    "pred": "|b1",
    "s8": "|i1", "s16": "<i2", "s32": "<i4", "s64": "<i8",
    "u8": "|u1", "u16": "<u2", "u32": "<u4", "u64": "<u8",
    "f16": "<f2", "f32": "<f4", "f64": "<f8",
    "c64": "<c8", "c128": "<c16",
    # types numpy lacks: raw bits in an unsigned integer of the same width
    "bf16": "<u2",
    "f8e4m3fn": "|u1", "f8e5m2": "|u1", "f8e4m3fnuz": "|u1", "f8e5m2fnuz": "|u1",
    "f8e4m3b11fnuz": "|u1", "f8e4m3": "|u1", "f8e3m4": "|u1",
}
EXACT_TYPES = {"pred", "s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64"}
MAX_BUFFER_ASSIGNMENT = 300 * 1024


class CaseError(Exception):
    pass


def split_top(text, sep=","):
    """Split text at top-level separators (outside (), [], {})."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    tail = "".join(cur).strip()
    if tail:
        parts.append(tail)
    return parts


def parse_shape(text):
    """'f32[2,3]{1,0}' -> ('f32', [2, 3]); tuples -> ('tuple', [elements])."""
    text = text.strip()
    if text.startswith("("):
        inner = text[1:text.rindex(")")]
        return ("tuple", [parse_shape(p) for p in split_top(inner)])
    m = re.match(r"([a-z][a-z0-9]*)\[([^\]]*)\]", text)
    if not m:
        raise CaseError("cannot parse shape %r" % text)
    dims = [d.strip() for d in m.group(2).split(",") if d.strip()]
    try:
        return (m.group(1), [int(d.lstrip("<=")) for d in dims])
    except ValueError:
        raise CaseError("cannot parse dims of %r" % text)


def entry_layout(hlo):
    """Parse entry_computation_layout={(params)->result} from the HloModule line."""
    first = re.sub(r"/\*.*?\*/", "", hlo.split("\n", 1)[0])  # drop /*index=5*/ comments
    key = "entry_computation_layout={"
    i = first.find(key)
    if i < 0:
        return None
    i += len(key)
    depth, j = 1, i
    while j < len(first) and depth:
        if first[j] == "{":
            depth += 1
        elif first[j] == "}":
            depth -= 1
        j += 1
    body = first[i:j - 1]
    # body = "(p0, p1, ...)->result"
    depth = 0
    for k, ch in enumerate(body):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if depth == 0 and body.startswith("->", k + 1):
            params = body[1:k]
            result = body[k + 3:]
            return [parse_shape(p) for p in split_top(params)], parse_shape(result)
    raise CaseError("cannot parse entry_computation_layout")


def entry_parameter_count(hlo):
    lines = hlo.splitlines()
    starts = [i for i, l in enumerate(lines) if l.startswith("ENTRY ")]
    if len(starts) != 1:
        raise CaseError("module.hlo has %d ENTRY computations" % len(starts))
    nums = set()
    for line in lines[starts[0] + 1:]:
        if line.startswith("}"):
            break
        for m in re.finditer(r"\bparameter\((\d+)\)", line):
            nums.add(int(m.group(1)))
    if nums and nums != set(range(len(nums))):
        raise CaseError("ENTRY parameter numbers are not 0..N-1: %s" % sorted(nums))
    return len(nums)


def read_npy_header(path):
    with open(path, "rb") as fh:
        version = npy_format.read_magic(fh)
        if version == (1, 0):
            shape, fortran, dtype = npy_format.read_array_header_1_0(fh)
        elif version == (2, 0):
            shape, fortran, dtype = npy_format.read_array_header_2_0(fh)
        else:
            raise CaseError("%s: unsupported .npy version %s" % (path, version))
        offset = fh.tell()
    return shape, fortran, dtype, offset


def check_entry(case_dir, entry, kind, idx):
    where = "%s[%d]" % (kind, idx)
    for key in ("file", "dtype", "shape"):
        if key not in entry:
            raise CaseError("%s: missing %r" % (where, key))
    dt = entry["dtype"]
    if dt not in STORAGE:
        raise CaseError("%s: unknown dtype %r" % (where, dt))
    shape = entry["shape"]
    if not isinstance(shape, list) or not all(isinstance(d, int) and d >= 0 for d in shape):
        raise CaseError("%s: bad shape %r" % (where, shape))
    expected_file = "%s/%d.npy" % (kind, idx)
    if entry["file"] != expected_file:
        raise CaseError("%s: file is %r, expected %r" % (where, entry["file"], expected_file))
    path = os.path.join(case_dir, entry["file"])
    if not os.path.isfile(path):
        raise CaseError("%s: %s is missing" % (where, entry["file"]))
    npy_shape, fortran, npy_dtype, offset = read_npy_header(path)
    if fortran:
        raise CaseError("%s: %s is Fortran-ordered" % (where, entry["file"]))
    if npy_dtype.str != STORAGE[dt]:
        raise CaseError("%s: %s has dtype %s, expected %s for %s" % (
            where, entry["file"], npy_dtype.str, STORAGE[dt], dt))
    if list(npy_shape) != shape:
        raise CaseError("%s: %s has shape %s, case.json says %s" % (
            where, entry["file"], list(npy_shape), shape))
    size = os.path.getsize(path)
    want = offset + npy_dtype.itemsize * int(np.prod(shape, dtype=np.int64))
    if size != want:
        raise CaseError("%s: %s has %d bytes, expected %d" % (where, entry["file"], size, want))
    if kind == "results":
        for key in ("rtol", "atol"):
            v = entry.get(key)
            if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v) \
                    or v < 0:
                raise CaseError("%s: bad or missing %s: %r" % (where, key, v))
        if dt in EXACT_TYPES and (entry["rtol"] != 0 or entry["atol"] != 0):
            raise CaseError("%s: %s results must have rtol = atol = 0" % (where, dt))


def layout_matches(shape, entry):
    return shape[0] == entry["dtype"] and shape[1] == entry["shape"]


def check_case(case_dir):
    meta_path = os.path.join(case_dir, "case.json")
    if not os.path.isfile(meta_path):
        raise CaseError("case.json is missing")
    try:
        with open(meta_path) as fh:
            meta = json.load(fh)
    except ValueError as e:
        raise CaseError("case.json: %s" % e)
    for key in ("description", "source", "args", "results"):
        if key not in meta:
            raise CaseError("case.json: missing %r" % key)
    if not isinstance(meta["description"], str) or not meta["description"].strip():
        raise CaseError("case.json: empty description")
    if not meta["results"]:
        raise CaseError("case.json: no results")
    for name in ("module.hlo", "optimized.hlo"):
        p = os.path.join(case_dir, name)
        if not os.path.isfile(p) or os.path.getsize(p) == 0:
            raise CaseError("%s is missing or empty" % name)
    for kind in ("args", "results"):
        for i, entry in enumerate(meta[kind]):
            check_entry(case_dir, entry, kind, i)
        d = os.path.join(case_dir, kind)
        listed = {os.path.basename(e["file"]) for e in meta[kind]}
        present = set(os.listdir(d)) if os.path.isdir(d) else set()
        extra = sorted(present - listed)
        if extra:
            raise CaseError("%s/ has files not in case.json: %s" % (kind, extra))

    with open(os.path.join(case_dir, "module.hlo")) as fh:
        hlo = fh.read()
    n = entry_parameter_count(hlo)
    if n != len(meta["args"]):
        raise CaseError("ENTRY has %d parameters, case.json lists %d args" % (n, len(meta["args"])))
    layout = entry_layout(hlo)
    if layout is not None:
        params, result = layout
        if len(params) != len(meta["args"]):
            raise CaseError("entry_computation_layout has %d parameters, %d args" % (
                len(params), len(meta["args"])))
        for i, (p, a) in enumerate(zip(params, meta["args"])):
            if not layout_matches(p, a):
                raise CaseError("args[%d] is %s%s, entry parameter %d is %s%s" % (
                    i, a["dtype"], a["shape"], i, p[0], p[1]))
        outs = result[1] if result[0] == "tuple" else [result]
        if len(outs) != len(meta["results"]):
            raise CaseError("entry result has %d elements, case.json lists %d results" % (
                len(outs), len(meta["results"])))
        for i, (o, r) in enumerate(zip(outs, meta["results"])):
            if o[0] == "tuple" or not layout_matches(o, r):
                raise CaseError("results[%d] is %s%s, entry result %d is %s" % (
                    i, r["dtype"], r["shape"], i, o))
    ba = os.path.join(case_dir, "xla_buffer_assignment.txt")
    if os.path.exists(ba) and os.path.getsize(ba) > MAX_BUFFER_ASSIGNMENT:
        raise CaseError("xla_buffer_assignment.txt is over 300KB")


def case_dirs(paths):
    out = []
    for p in paths:
        if os.path.isfile(os.path.join(p, "case.json")):
            out.append(p)
        elif os.path.isdir(p):
            for d in sorted(os.listdir(p)):
                full = os.path.join(p, d)
                if os.path.isdir(full):
                    out.append(full)
        else:
            out.append(p)  # reported as failing below
    return out


def main(argv):
    paths = argv[1:] or [DEFAULT_ROOT]
    dirs = case_dirs(paths)
    passed = failed = 0
    for d in dirs:
        try:
            if not os.path.isdir(d):
                raise CaseError("not a directory")
            check_case(d)
            passed += 1
        except (CaseError, OSError, ValueError) as e:
            failed += 1
            print("FAIL %s: %s" % (d, e))
    if not dirs:
        print("no case directories found under %s" % ", ".join(paths))
        failed += 1
    print("corpus check: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
