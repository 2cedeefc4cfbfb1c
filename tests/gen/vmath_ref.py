#!/usr/bin/env python3
"""Reference values for the compiled transcendental functions.

Writes tests/unit/vmath_ref.h: for each function and element type, inputs
(drawn with a fixed seed over the function's whole domain, log-uniform in
magnitude) and the true result computed with mpmath at 1400 bits (trig of f64 up to 2^1024), stored as
a double-double (hi + lo) so f64 results can be measured in units of
double rounding. tests/unit/test_vmath.c measures the backend's max ulp
error against it; the table is committed, so building needs no mpmath.

  python3 tests/gen/vmath_ref.py > tests/unit/vmath_ref.h
(needs mpmath: Debian's python3-mpmath or `pip install mpmath`)
"""
import random
import struct

import mpmath

mpmath.mp.prec = 1400
mp = mpmath.mpf

N = 240


def f32(v):
    return struct.unpack('<f', struct.pack('<f', v))[0]


def draw(rng, lo_e, hi_e, signs, single, lo=None, hi=None):
    """A value with |v| = 2^u, u uniform in [lo_e, hi_e], clipped to [lo, hi]."""
    while True:
        v = 2.0 ** rng.uniform(lo_e, hi_e) * rng.choice(signs)
        if single:
            v = f32(v)
        if (lo is None or v >= lo) and (hi is None or v <= hi):
            return v


def cbrt(x):
    return mpmath.sign(x) * mpmath.cbrt(abs(x))


def logistic(x):
    return 1 / (1 + mpmath.exp(-x))


# name, HLO op, mpmath function, arity, (lo_exp, hi_exp, signs, lo, hi)
F32 = [
    ('exp', 'exponential', mpmath.exp, (-30, 6.5, (1, -1), -103.0, 88.7)),
    ('expm1', 'exponential-minus-one', mpmath.expm1, (-30, 6.5, (1, -1), -103.0, 88.7)),
    ('log', 'log', mpmath.log, (-126, 127.9, (1,), None, None)),
    ('log1p', 'log-plus-one', mpmath.log1p, (-30, 127.9, (1, -1), -0.99999994, None)),
    ('sin', 'sine', mpmath.sin, (-30, 127.9, (1, -1), None, None)),
    ('cos', 'cosine', mpmath.cos, (-30, 127.9, (1, -1), None, None)),
    ('tan', 'tan', mpmath.tan, (-30, 127.9, (1, -1), None, None)),
    ('tanh', 'tanh', mpmath.tanh, (-30, 5, (1, -1), None, None)),
    ('logistic', 'logistic', logistic, (-30, 6.7, (1, -1), -103.0, None)),
    ('sinh', 'sinh', mpmath.sinh, (-30, 6.4, (1, -1), -89.0, 89.0)),
    ('cosh', 'cosh', mpmath.cosh, (-30, 6.4, (1, -1), -89.0, 89.0)),
    ('asinh', 'asinh', mpmath.asinh, (-30, 127.9, (1, -1), None, None)),
    ('acosh', 'acosh', mpmath.acosh, (0, 127.9, (1,), 1.0, None)),
    ('atanh', 'atanh', mpmath.atanh, (-30, 0, (1, -1), -0.99999994, 0.99999994)),
    ('cbrt', 'cbrt', cbrt, (-126, 127.9, (1, -1), None, None)),
    ('atan', 'atan', mpmath.atan, (-30, 127.9, (1, -1), None, None)),
    ('asin', 'asin', mpmath.asin, (-30, 0, (1, -1), -1.0, 1.0)),
    ('acos', 'acos', mpmath.acos, (-30, 0, (1, -1), -1.0, 1.0)),
    ('erf', 'erf', mpmath.erf, (-30, 2.1, (1, -1), None, None)),
]
F64 = [
    ('exp', 'exponential', mpmath.exp, (-60, 9.47, (1, -1), -708.0, 709.7)),
    ('expm1', 'exponential-minus-one', mpmath.expm1, (-60, 9.47, (1, -1), -708.0, 709.7)),
    ('log', 'log', mpmath.log, (-1022, 1023.9, (1,), None, None)),
    ('log1p', 'log-plus-one', mpmath.log1p, (-60, 1023.9, (1, -1), -0.9999999999999999, None)),
    ('tanh', 'tanh', mpmath.tanh, (-60, 5, (1, -1), None, None)),
    ('logistic', 'logistic', logistic, (-60, 9.47, (1, -1), -708.0, None)),
    ('sin', 'sine', mpmath.sin, (-60, 1023.9, (1, -1), None, None)),
    ('cos', 'cosine', mpmath.cos, (-60, 1023.9, (1, -1), None, None)),
    ('tan', 'tan', mpmath.tan, (-60, 1023.9, (1, -1), None, None)),
    ('cbrt', 'cbrt', cbrt, (-1022, 1023.9, (1, -1), None, None)),
    ('atan', 'atan', mpmath.atan, (-60, 1023.9, (1, -1), None, None)),
]


def dd(v):
    hi = float(v)
    lo = float(v - mp(hi)) if mpmath.isfinite(hi) else 0.0
    return hi, lo


# Hard cases for trigonometric argument reduction, added to the tables:
# values near multiples of pi/2 (the f64 one is the closest of all doubles).
HARD_TRIG = {
    'f32': [float.fromhex(h) for h in ('0x1.921fb6p+0', '0x1.921fb6p+1', '0x1.2d97c8p+3', '0x1.f37c8ap+95',
                                       '0x1.fffffep+127', '-0x1.921fb6p+0', '0x1p+24', '0x1.5b13a6p+70')],
    'f64': [float.fromhex(h) for h in ('0x1.6ac5b262ca1ffp+849', '0x1.921fb54442d18p+0',
                                       '0x1.921fb54442d18p+1', '0x1.921fb54442d18p+2', '0x1.fffffffffffffp+1023',
                                       '0x1.0f1f1f0ffd6d2p+72', '-0x1.6ac5b262ca1ffp+849', '0x1p+1000')],
}


def table(tag, single, funcs, rng):
    out = []
    for name, op, fn, (le, he, signs, lo, hi) in funcs:
        rows = []
        extra = HARD_TRIG[tag] if name in ('sin', 'cos', 'tan') else []
        for i in range(N):
            x = extra[i] if i < len(extra) else draw(rng, le, he, signs, single, lo, hi)
            rh, rl = dd(fn(mp(x)))
            rows.append('{%s, %s, %s}' % (x.hex(), rh.hex(), rl.hex()))
        out.append('static const VRef kRef_%s_%s[] = {\n  %s};\n' % (tag, name, ',\n  '.join(rows)))
    out.append('static const VTable kTables_%s[] = {\n' % tag)
    for name, op, _, _ in funcs:
        out.append('  {"%s", "%s", kRef_%s_%s, %d},\n' % (name, op, tag, name, N))
    out.append('};\n')
    return ''.join(out)


def atan2_table(rng, tag, single, emax):
    rows = []
    for _ in range(N):
        y = draw(rng, -30, emax, (1, -1), single)
        x = draw(rng, -30, emax, (1, -1), single)
        rh, rl = dd(mpmath.atan2(mp(y), mp(x)))
        rows.append('{%s, %s, %s, %s}' % (y.hex(), x.hex(), rh.hex(), rl.hex()))
    return 'static const VRef2 kRef_%s_atan2[] = {\n  %s};\n' % (tag, ',\n  '.join(rows))


def pow_table(rng):
    """x^y for f32 x, y: positive x over all exponents with y keeping the
    result within f32's range, and negative x with integer y."""
    rows = []
    while len(rows) < N:
        x = draw(rng, -126, 127.9, (1,), True)
        if len(rows) % 4 == 3:
            x = -x
            y = f32(float(rng.randint(-40, 40)))
        else:
            y = f32(rng.uniform(-1, 1) * 2.0 ** rng.uniform(-20, 7))
        v = mp(x) ** mp(y)
        if v == 0 or not (mp(2) ** -126 <= abs(v) <= mp(2) ** 128):
            continue
        rh, rl = dd(v)
        rows.append('{%s, %s, %s, %s}' % (x.hex(), y.hex(), rh.hex(), rl.hex()))
    return 'static const VRef2 kRef_f32_pow[] = {\n  %s};\n' % ',\n  '.join(rows)


def main():
    rng = random.Random(20261202)
    print('/* Generated by tests/gen/vmath_ref.py (mpmath, 1400 bits): do not edit. */')
    print('typedef struct { double x, hi, lo; } VRef;')
    print('typedef struct { double a, b, hi, lo; } VRef2; /* f(a, b) */')
    print('typedef struct { const char *name, *op; const VRef *ref; int n; } VTable;')
    print(table('f32', True, F32, rng))
    print(table('f64', False, F64, rng))
    print(atan2_table(rng, 'f32', True, 127.9))
    print(pow_table(rng))
    print(atan2_table(rng, 'f64', False, 1023.9))


if __name__ == '__main__':
    main()
