#!/usr/bin/env python3
"""Write the MLIR generic form of corpus StableHLO text (the reader's tests
compare the tree of module.mlir with the tree of its generic form).

    python tools/corpus/mlir_generic.py OUT_DIR tests/corpus/CASE/module.mlir...

writes OUT_DIR/CASE.mlir for each file (jaxlib's MLIR bindings print it).
tests/stablehlo/generic/ holds the output for the corpus cases whose
generic form is under 9000 bytes.
"""
import os
import sys

from jaxlib.mlir import ir
from jax._src.interpreters import mlir as jmlir


def main(argv):
    out = argv[1]
    ctx = jmlir.make_ir_context()
    for path in argv[2:]:
        name = os.path.basename(os.path.dirname(os.path.abspath(path)))
        with ctx, open(path) as fh:
            module = ir.Module.parse(fh.read())
            text = module.operation.get_asm(print_generic_op_form=True)
        with open(os.path.join(out, name + ".mlir"), "w") as fh:
            fh.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
