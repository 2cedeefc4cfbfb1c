"""Writes tests/stablehlo/bool_constants.mlirbc: a jax.export
portable artifact whose results are boolean constants of 1, 3, 8, 9 and 16
elements, some all true, some mixed. MLIR bytecode packs booleans eight to
a byte and stores an all-false or all-true tensor as one byte 0x00/0xFF;
a mixed tensor of up to 8 elements is one byte too, which cxla read as a
splat. tests/unit/test_stablehlo_bc.c (bool_constants) checks the values.

  .venv-jax/bin/python tests/gen/bool_constants.py
"""
import pathlib

import numpy as np
import jax
from jax import export

PATTERNS = [
    [True],
    [True, False, True],
    [True, True, False, False, False, True, True, True],  # one byte 0xE3
    [True] * 8,  # one byte 0xFF: a splat
    [False, True, True, False, True, False, False, True, True],
    [bool((i * 5) % 3) for i in range(16)],
]


def f(x):
    return tuple(np.array(p) for p in PATTERNS) + (x,)


def main():
    exp = export.export(jax.jit(f))(jax.ShapeDtypeStruct((1,), np.float32))
    out = pathlib.Path(__file__).resolve().parents[1] / "stablehlo" / "bool_constants.mlirbc"
    out.write_bytes(exp.mlir_module_serialized)
    print(out, len(exp.mlir_module_serialized), "bytes")


main()
