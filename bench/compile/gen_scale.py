#!/usr/bin/env python3
"""Generates HLO modules of a given size in the shapes that stress compile
time (bench/compile/README.md):

  chain    a long elementwise chain x_i = op(x_{i-1}, p)
  wide     many independent branches of 10 ops, gathered by one tuple
  comps    many small computations: per group a call, a reduce with its own
           reducer, and a counted while loop with its own condition and body
  twice    every value used twice: z0 = exp(p); z_i = add(z_{i-1}, z_{i-1})
  slices   a loop unrolled over the rows of a parameter: per row a slice at
           its own offset, exp and multiply (kernels that differ only in the
           offset), the rows summed by a chain of adds
  shared   one while loop's condition and body called by many while
           instructions in a chain, four elementwise ops between them (each
           call site gets its own clone of both)
  state    one while loop whose state is a tuple of N/3 arrays, each
           updated from its neighbour in the body (a loop over a model's
           parameters)
  relayout per step a column-major value (a parameter plus a broadcast
           constant) reshaped, which needs a row-major copy of it (layout
           assignment adds one copy per step), the reshapes summed

Usage: gen_scale.py SHAPE N OUT.hlo   (N: about N instructions; for `twice`
N is the exact number of steps)."""
import sys

W = 16  # elements per array: compile time, not run time, is measured
ARR = "f32[%d]{0}" % W
OPS = ["add", "multiply", "subtract", "maximum", "minimum"]


def chain(n):
    out = ["HloModule chain_%d" % n, "", "ENTRY main {",
           "  p = %s parameter(0)" % ARR, "  x.0 = %s exponential(p)" % ARR]
    for i in range(1, n):
        op = OPS[i % len(OPS)]
        if i % 7 == 0:
            out.append("  x.%d = %s tanh(x.%d)" % (i, ARR, i - 1))
        else:
            out.append("  x.%d = %s %s(x.%d, p)" % (i, ARR, op, i - 1))
    out[-1] = out[-1].replace("  x", "  ROOT x", 1)
    out.append("}")
    return out


def wide(n):
    branches = max(1, n // 12)
    out = ["HloModule wide_%d" % n, "", "ENTRY main {", "  p = %s parameter(0)" % ARR]
    ends = []
    for b in range(branches):
        out.append("  c.%d = f32[] constant(%d.5)" % (b, b))
        out.append("  k.%d = %s broadcast(c.%d), dimensions={}" % (b, ARR, b))
        prev = "k.%d" % b
        for j in range(10):
            op = OPS[(b + j) % len(OPS)]
            out.append("  b.%d.%d = %s %s(%s, p)" % (b, j, ARR, op, prev))
            prev = "b.%d.%d" % (b, j)
        ends.append(prev)
    shape = "(" + ", ".join([ARR] * len(ends)) + ")"
    out.append("  ROOT t = %s tuple(%s)" % (shape, ", ".join(ends)))
    out.append("}")
    return out


def comps(n):
    groups = max(1, n // 26)
    st = "(%s, s32[])" % ARR
    out = ["HloModule comps_%d" % n, ""]
    for g in range(groups):
        out += ["red%d {" % g, "  a = f32[] parameter(0)", "  b = f32[] parameter(1)",
                "  ROOT s = f32[] add(a, b)", "}", ""]
        out += ["callee%d {" % g, "  x = %s parameter(0)" % ARR,
                "  y = %s multiply(x, x)" % ARR, "  ROOT z = %s negate(y)" % ARR, "}", ""]
        out += ["cond%d {" % g, "  t = %s parameter(0)" % st,
                "  i = s32[] get-tuple-element(t), index=1",
                "  lim = s32[] constant(%d)" % (3 + g % 5),
                "  ROOT lt = pred[] compare(i, lim), direction=LT", "}", ""]
        out += ["body%d {" % g, "  t = %s parameter(0)" % st,
                "  x = %s get-tuple-element(t), index=0" % ARR,
                "  i = s32[] get-tuple-element(t), index=1",
                "  y = %s sine(x)" % ARR, "  one = s32[] constant(1)",
                "  j = s32[] add(i, one)", "  ROOT r = %s tuple(y, j)" % st, "}", ""]
    out += ["ENTRY main {", "  p = %s parameter(0)" % ARR]
    prev = "p"
    for g in range(groups):
        out += ["  cl.%d = %s call(%s), to_apply=callee%d" % (g, ARR, prev, g),
                "  z.%d = f32[] constant(0)" % g,
                "  r.%d = f32[] reduce(cl.%d, z.%d), dimensions={0}, to_apply=red%d" % (g, g, g, g),
                "  bb.%d = %s broadcast(r.%d), dimensions={}" % (g, ARR, g),
                "  s.%d = %s add(cl.%d, bb.%d)" % (g, ARR, g, g),
                "  i.%d = s32[] constant(0)" % g,
                "  t.%d = %s tuple(s.%d, i.%d)" % (g, st, g, g),
                "  w.%d = %s while(t.%d), condition=cond%d, body=body%d" % (g, st, g, g, g),
                "  x.%d = %s get-tuple-element(w.%d), index=0" % (g, ARR, g)]
        prev = "x.%d" % g
    out[-1] = out[-1].replace("  x", "  ROOT x", 1)
    out.append("}")
    return out


def twice(n):
    out = ["HloModule twice_%d" % n, "", "ENTRY main {",
           "  p = %s parameter(0)" % ARR, "  z.0 = %s exponential(p)" % ARR]
    for i in range(1, n + 1):
        out.append("  z.%d = %s add(z.%d, z.%d)" % (i, ARR, i - 1, i - 1))
    out[-1] = out[-1].replace("  z", "  ROOT z", 1)
    out.append("}")
    return out


def adds(n):
    out = ["HloModule adds_%d" % n, "", "ENTRY main {", "  p = %s parameter(0)" % ARR,
           "  x.0 = %s add(p, p)" % ARR]
    for i in range(1, n):
        out.append("  x.%d = %s add(x.%d, p)" % (i, ARR, i - 1))
    out[-1] = out[-1].replace("  x", "  ROOT x", 1)
    out.append("}")
    return out


def slices(n):
    rows = max(1, n // 4)
    row = "f32[1,%d]{1,0}" % W
    out = ["HloModule slices_%d" % n, "", "ENTRY main {", "  x = f32[%d,%d]{1,0} parameter(0)" % (rows, W)]
    for i in range(rows):
        out += ["  s.%d = %s slice(x), slice={[%d:%d], [0:%d]}" % (i, row, i, i + 1, W),
                "  e.%d = %s exponential(s.%d)" % (i, row, i),
                "  m.%d = %s multiply(e.%d, s.%d)" % (i, row, i, i)]
    prev = "m.0"
    for i in range(1, rows):
        out.append("  a.%d = %s add(%s, m.%d)" % (i, row, prev, i))
        prev = "a.%d" % i
    if rows > 1:
        out[-1] = out[-1].replace("  a", "  ROOT a", 1)
    else:
        out[-1] = out[-1].replace("  m", "  ROOT m", 1)
    out.append("}")
    return out


def shared(n):
    st = "(%s, s32[])" % ARR
    out = ["HloModule shared_%d" % n, "",
           "cond {", "  t = %s parameter(0)" % st, "  i = s32[] get-tuple-element(t), index=1",
           "  lim = s32[] constant(3)", "  ROOT lt = pred[] compare(i, lim), direction=LT", "}", "",
           "body {", "  t = %s parameter(0)" % st, "  x = %s get-tuple-element(t), index=0" % ARR,
           "  i = s32[] get-tuple-element(t), index=1", "  y = %s sine(x)" % ARR,
           "  one = s32[] constant(1)", "  j = s32[] add(i, one)", "  ROOT r = %s tuple(y, j)" % st, "}", "",
           "ENTRY main {", "  p = %s parameter(0)" % ARR, "  z = s32[] constant(0)"]
    acc = "p"
    for i in range(max(1, n // 7)):
        out += ["  t%d = %s tuple(%s, z)" % (i, st, acc),
                "  w%d = %s while(t%d), condition=cond, body=body" % (i, st, i),
                "  g%d = %s get-tuple-element(w%d), index=0" % (i, ARR, i)]
        for k in range(4):
            out.append("  e%d_%d = %s %s(%s, p)" % (i, k, ARR, OPS[k], "g%d" % i if k == 0 else "e%d_%d" % (i, k - 1)))
        acc = "e%d_3" % i
    out[-1] = out[-1].replace("  e", "  ROOT e", 1)
    out.append("}")
    return out


def state(n):
    k = max(2, n // 3)
    st = "(" + ", ".join([ARR] * k) + ")"
    out = ["HloModule state_%d" % n, "",
           "add {", "  a = f32[] parameter(0)", "  b = f32[] parameter(1)", "  ROOT s = f32[] add(a, b)", "}", "",
           "cond {", "  t = %s parameter(0)" % st, "  x = %s get-tuple-element(t), index=0" % ARR,
           "  z = f32[] constant(0)", "  r = f32[] reduce(x, z), dimensions={0}, to_apply=add",
           "  lim = f32[] constant(100)", "  ROOT lt = pred[] compare(r, lim), direction=LT", "}", "",
           "body {", "  t = %s parameter(0)" % st]
    out += ["  g%d = %s get-tuple-element(t), index=%d" % (i, ARR, i) for i in range(k)]
    out += ["  h%d = %s add(g%d, g%d)" % (i, ARR, i, (i + 1) % k) for i in range(k)]
    out += ["  ROOT r = %s tuple(%s)" % (st, ", ".join("h%d" % i for i in range(k))), "}", "",
            "ENTRY main {", "  p = %s parameter(0)" % ARR, "  t = %s tuple(%s)" % (st, ", ".join(["p"] * k)),
            "  ROOT w = %s while(t), condition=cond, body=body" % st, "}"]
    return out


def relayout(n):
    cm = "f32[4,4]{0,1}"
    out = ["HloModule relayout_%d" % n, "", "ENTRY main {", "  p = %s parameter(0)" % cm]
    steps = max(2, n // 5)
    for i in range(steps):
        out += ["  c%d = f32[] constant(%d)" % (i, i % 1000),
                "  b%d = %s broadcast(c%d), dimensions={}" % (i, cm, i),
                "  a%d = %s add(p, b%d)" % (i, cm, i),
                "  r%d = f32[16]{0} reshape(a%d)" % (i, i)]
    acc = "r0"
    for i in range(1, steps):
        out.append("  s%d = f32[16]{0} add(%s, r%d)" % (i, acc, i))
        acc = "s%d" % i
    out[-1] = out[-1].replace("  s", "  ROOT s", 1)
    out.append("}")
    return out


SHAPES = {"chain": chain, "wide": wide, "comps": comps, "twice": twice, "adds": adds, "slices": slices,
          "shared": shared, "state": state, "relayout": relayout}


def generate(shape, n, path):
    with open(path, "w") as f:
        f.write("\n".join(SHAPES[shape](n)) + "\n")


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in SHAPES:
        sys.exit("usage: gen_scale.py {%s} N OUT.hlo" % ",".join(SHAPES))
    generate(sys.argv[1], int(sys.argv[2]), sys.argv[3])


if __name__ == "__main__":
    main()
