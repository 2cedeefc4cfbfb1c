#!/usr/bin/env python3
"""Optimizer figures for the corpus's model cases (or the cases named).

For each case: instructions before and after cxla's default pipeline (all
computations), fusions formed (and XLA's count in optimized.hlo), total
temporary bytes from cxla's buffer assignment next to XLA's
(case.json "xla_buffer_assignment_summary"), and the wall time of
`cxla opt` (parse + verify + optimize + print; median of 3).

    python3 tools/opt_report.py [--cxla build/cxla] [CASE ...]

Standard library only. Prints a Markdown table.
"""
import argparse
import glob
import json
import os
import re
import statistics
import subprocess
import tempfile
import time

INSTR = re.compile(r"^\s*(ROOT\s+)?%?[\w.\-]+\s*=\s")


def count_instrs(text):
    return sum(1 for line in text.splitlines() if INSTR.match(line))


def count_op(text, op):
    return len(re.findall(r"\s%s\(" % re.escape(op), text))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cxla", default="build/cxla")
    ap.add_argument("--corpus", default="tests/corpus")
    ap.add_argument("cases", nargs="*")
    a = ap.parse_args()
    cases = a.cases or sorted(os.path.basename(p) for p in glob.glob(os.path.join(a.corpus, "model_*")))
    print("| case | instrs before | after | fusions (cxla / XLA) | temp bytes (cxla / XLA) | opt time |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for case in cases:
        d = os.path.join(a.corpus, case)
        src = open(os.path.join(d, "module.hlo")).read()
        xla = open(os.path.join(d, "optimized.hlo")).read()
        summary = json.load(open(os.path.join(d, "case.json"))).get("xla_buffer_assignment_summary", {})
        with tempfile.TemporaryDirectory() as dump:
            times = []
            for _ in range(3):
                t0 = time.perf_counter()
                out = subprocess.run([a.cxla, "opt", os.path.join(d, "module.hlo"), "--dump-to", dump],
                                     check=True, capture_output=True, text=True).stdout
                times.append(time.perf_counter() - t0)
            report = "".join(open(p).read() for p in glob.glob(os.path.join(dump, "*buffer-assignment.txt")))
        m = re.search(r"Total temporary bytes: (\d+)", report)
        ours = m.group(1) if m else "?"
        theirs = summary.get("temp_size_in_bytes", "?")
        print("| %s | %d | %d | %d / %d | %s / %s | %.1f ms |" % (
            case, count_instrs(src), count_instrs(out), count_op(out, "fusion"), count_op(xla, "fusion"),
            ours, theirs, 1000 * statistics.median(times)))


if __name__ == "__main__":
    main()
