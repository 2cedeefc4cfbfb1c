#!/usr/bin/env python3
"""Fusion figures: cxla's optimized module next to XLA's, case by case.

For every corpus case (tests/corpus/*) and bench case (bench/cases/*), or the
cases named, runs `cxla opt` on module.hlo and compares the result with XLA's
own optimized module (optimized.hlo in the case directory):

  kernels      instructions a backend launches separately: those of the
               entry computation other than parameter, constant, tuple,
               get-tuple-element and bitcast, plus (recursively) those of
               the computations run by while (body and condition),
               conditional (branches) and call (XLA:CPU keeps a small
               while inside a call);  call itself is not counted, while and
               conditional are;
  temporaries  bytes of kernel outputs that are not module outputs (a
               module output seen through bitcast, tuple and
               get-tuple-element; while/conditional results alias their
               bodies' and are not counted);
  fusions      fusion kernels by kind (L kLoop, I kInput, O kOutput,
               C kCustom).

Both modules are measured by the same rules, from their text. Prints a
Markdown table, then the cases where cxla launches more kernels or keeps
more temporaries than XLA, then the totals.

    python3 tools/opt_report.py [--cxla build/cxla] [--time] [CASE ...]

--time adds the wall time of `cxla opt` (parse + verify + optimize + print).
Standard library only.
"""
import argparse
import glob
import os
import re
import subprocess
import sys
import time

TYPE_BYTES = {
    "pred": 1, "s2": 1, "s4": 1, "s8": 1, "u2": 1, "u4": 1, "u8": 1,
    "s16": 2, "u16": 2, "f16": 2, "bf16": 2,
    "s32": 4, "u32": 4, "f32": 4,
    "s64": 8, "u64": 8, "f64": 8, "c64": 8, "c128": 16,
    "token": 0,
}

NOT_KERNELS = {"parameter", "constant", "tuple", "get-tuple-element", "bitcast", "call"}
CONTROL = {"while", "conditional", "call"}

COMP_HEAD = re.compile(r"^(ENTRY\s+)?%?([\w.\-]+)\s*\(.*\{\s*$")
INSTR_HEAD = re.compile(r"^\s*(ROOT\s+)?%?([\w.\-]+)\s*=\s*")
ARRAY = re.compile(r"([a-z][a-z0-9]*)\[([^\]]*)\]")
CALLED = re.compile(r"\b(calls|to_apply|body|condition|true_computation|false_computation)=%?([\w.\-]+)")
BRANCHES = re.compile(r"\bbranch_computations=\{([^}]*)\}")
KIND = re.compile(r"\bkind=k(\w+)")


def leaves(shape):
    """Byte sizes of the arrays of a shape's text, in order (tuples flattened)."""
    shape = re.sub(r"/\*.*?\*/", "", shape)
    out = []
    for t, dims in ARRAY.findall(shape):
        if t not in TYPE_BYTES:
            continue
        n = 1
        for d in dims.split(","):
            d = d.strip().lstrip("<=")
            if d:
                n *= int(d)
        out.append(n * TYPE_BYTES[t])
    if not out and re.match(r"\s*\(?\s*token", shape):
        out.append(0)
    return out


def split_shape(rest):
    """(shape text, remainder) of an instruction's right-hand side."""
    if rest.startswith("("):
        depth = 0
        for i, ch in enumerate(rest):
            depth += ch == "("
            depth -= ch == ")"
            if depth == 0:
                return rest[:i + 1], rest[i + 1:]
    m = re.match(r"\S+", rest)
    return m.group(0), rest[m.end():]


class Instr:
    __slots__ = ("name", "shape", "op", "operands", "attrs", "root")


def parse_module(text):
    """{computation name: [Instr]} and the entry computation's name."""
    comps, entry, cur = {}, None, None
    for line in text.splitlines():
        if cur is None:
            m = COMP_HEAD.match(line)
            if m and "=" not in line.split("(")[0]:
                cur = comps.setdefault(m.group(2), [])
                if m.group(1):
                    entry = m.group(2)
            continue
        if line.strip() == "}":
            cur = None
            continue
        m = INSTR_HEAD.match(line)
        if not m:
            continue
        shape, rest = split_shape(line[m.end():])
        om = re.match(r"\s*([\w\-]+)\(", rest)
        if not om:
            continue
        ins = Instr()
        ins.name, ins.shape, ins.op, ins.root = m.group(2), shape, om.group(1), bool(m.group(1))
        # operands: up to the parenthesis that closes the opcode's
        depth, i = 0, om.end() - 1
        for i in range(om.end() - 1, len(rest)):
            depth += rest[i] == "("
            depth -= rest[i] == ")"
            if depth == 0:
                break
        ins.operands = re.findall(r"%([\w.\-]+)", rest[om.end():i])
        ins.attrs = rest[i + 1:]
        cur.append(ins)
    return comps, entry


def called(ins):
    names = [m.group(2) for m in CALLED.finditer(ins.attrs)]
    for m in BRANCHES.finditer(ins.attrs):
        names += [n.strip().lstrip("%") for n in m.group(1).split(",") if n.strip()]
    return names


def measure(text):
    """dict: kernels, temp (bytes), kinds {kind: count}."""
    comps, entry = parse_module(text)
    if entry is None:
        raise ValueError("no ENTRY computation")
    body = comps[entry]
    by_name = {i.name: i for i in body}
    # module outputs: (instruction, leaf) pairs reached from the root
    outputs = set()

    def mark(name, leaf):
        ins = by_name.get(name)
        if ins is None:
            return
        if ins.op == "bitcast":
            mark(ins.operands[0], leaf)
        elif ins.op == "get-tuple-element":
            idx = int(re.search(r"index=(\d+)", ins.attrs).group(1))
            mark(ins.operands[0], idx)
        elif ins.op == "tuple":
            if leaf is None:
                for k, o in enumerate(ins.operands):
                    mark(o, None)
            elif leaf < len(ins.operands):
                mark(ins.operands[leaf], None)
        else:
            outputs.add((name, leaf))

    root = next((i for i in body if i.root), body[-1] if body else None)
    if root is not None:
        mark(root.name, None)

    res = {"kernels": 0, "temp": 0, "kinds": {}}
    seen = set()

    def walk(comp, is_entry):
        if comp in seen or comp not in comps:
            return
        seen.add(comp)
        for ins in comps[comp]:
            if ins.op in CONTROL:
                for c in called(ins):
                    walk(c, False)
            if ins.op in NOT_KERNELS:
                continue
            res["kernels"] += 1
            if ins.op == "fusion":
                m = KIND.search(ins.attrs)
                k = m.group(1) if m else "?"
                res["kinds"][k] = res["kinds"].get(k, 0) + 1
            if ins.op in CONTROL:
                continue
            sizes = leaves(ins.shape)
            for k, b in enumerate(sizes):
                leaf = None if len(sizes) == 1 and not ins.shape.startswith("(") else k
                if is_entry and ((ins.name, leaf) in outputs or (ins.name, None) in outputs):
                    continue
                res["temp"] += b

    walk(entry, True)
    return res


def kinds_text(kinds):
    order = ["Loop", "Input", "Output", "Custom"]
    keys = order + sorted(k for k in kinds if k not in order)
    return " ".join("%s%d" % (k[0], kinds[k]) for k in keys if kinds.get(k)) or "-"


def human(n):
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(n) < 1024 or unit == "GiB":
            return ("%d %s" % (n, unit)) if unit == "B" else ("%.1f %s" % (n, unit))
        n /= 1024.0


def case_dirs(args):
    dirs = sorted(glob.glob(os.path.join(args.corpus, "*", "module.hlo"))) + \
        sorted(glob.glob(os.path.join(args.bench, "*", "module.hlo")))
    dirs = [os.path.dirname(p) for p in dirs]
    if args.cases:
        want = set(args.cases)
        dirs = [d for d in dirs if {os.path.basename(d), label(d, args), d} & want]
        missing = want - {n for d in dirs for n in (os.path.basename(d), label(d, args), d)}
        if missing:
            sys.exit("error: no such case: %s" % ", ".join(sorted(missing)))
    return dirs


def label(d, args):
    """A case's name in the table: bench cases carry a bench/ prefix (some
    share their name with a corpus case)."""
    name = os.path.basename(d)
    if os.path.abspath(os.path.dirname(d)) == os.path.abspath(args.bench):
        return "bench/" + name
    return name


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cxla", default="build/cxla")
    ap.add_argument("--corpus", default="tests/corpus")
    ap.add_argument("--bench", default="bench/cases")
    ap.add_argument("--time", action="store_true", help="add the wall time of cxla opt")
    ap.add_argument("cases", nargs="*")
    a = ap.parse_args()
    dirs = case_dirs(a)
    if not dirs:
        sys.exit("error: no cases found under %s or %s" % (a.corpus, a.bench))
    rows, worse, failed = [], [], []
    tot = {"ck": 0, "xk": 0, "ct": 0, "xt": 0}
    head = "| case | kernels cxla / XLA | temporaries cxla / XLA | fusions cxla / XLA |"
    sep = "| --- | ---: | ---: | --- |"
    if a.time:
        head += " opt time |"
        sep += " ---: |"
    print(head)
    print(sep)
    for d in dirs:
        case = label(d, a)
        xla_path = os.path.join(d, "optimized.hlo")
        if not os.path.exists(xla_path):
            failed.append((case, "no optimized.hlo"))
            continue
        t0 = time.perf_counter()
        p = subprocess.run([a.cxla, "opt", os.path.join(d, "module.hlo")],
                           capture_output=True, text=True)
        dt = time.perf_counter() - t0
        if p.returncode != 0:
            failed.append((case, "cxla opt failed: " + p.stderr.strip().splitlines()[-1:][0]
                           if p.stderr.strip() else "cxla opt failed"))
            continue
        try:
            c = measure(p.stdout)
            x = measure(open(xla_path).read())
        except (ValueError, KeyError, IndexError, AttributeError) as e:
            failed.append((case, "cannot measure: %r" % e))
            continue
        tot["ck"] += c["kernels"]
        tot["xk"] += x["kernels"]
        tot["ct"] += c["temp"]
        tot["xt"] += x["temp"]
        why = []
        if c["kernels"] > x["kernels"]:
            why.append("kernels %d > %d" % (c["kernels"], x["kernels"]))
        if c["temp"] > x["temp"]:
            why.append("temporaries %s > %s" % (human(c["temp"]), human(x["temp"])))
        if why:
            worse.append((case, "; ".join(why)))
        row = "| %s%s | %d / %d | %s / %s | %s / %s |" % (
            case, " **worse**" if why else "", c["kernels"], x["kernels"], human(c["temp"]),
            human(x["temp"]), kinds_text(c["kinds"]), kinds_text(x["kinds"]))
        if a.time:
            row += " %.0f ms |" % (1000 * dt)
        print(row)
    n = len(dirs) - len(failed)
    print()
    print("cases where cxla is worse than XLA: %d of %d" % (len(worse), n))
    for case, why in worse:
        print("- %s: %s" % (case, why))
    if failed:
        print()
        print("cases not measured: %d" % len(failed))
        for case, why in failed:
            print("- %s: %s" % (case, why))
    print()
    kworse = sum(1 for _, w in worse if "kernels" in w)
    tworse = sum(1 for _, w in worse if "temporaries" in w)
    print("totals over %d cases: kernels cxla %d / XLA %d; temporaries cxla %s / XLA %s" % (
        n, tot["ck"], tot["xk"], human(tot["ct"]), human(tot["xt"])))
    if n:
        print("at or below XLA: kernels on %d of %d (%.1f%%), temporaries on %d of %d (%.1f%%), "
              "both on %d of %d (%.1f%%)" % (
                  n - kworse, n, 100.0 * (n - kworse) / n, n - tworse, n, 100.0 * (n - tworse) / n,
                  n - len(worse), n, 100.0 * (n - len(worse)) / n))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
