#!/bin/sh
# Command-line tests for cxla: exit codes (0 ok, 1 bad input, 2 bad usage,
# never a crash), error messages on stderr, --help of every subcommand, and
# `run --random --out` producing .npy files that read back.
#
# usage: sh tests/cli/test_cli.sh PATH/TO/cxla
# Ends with "cli: N passed, M failed"; exits non-zero if any check failed.
set -u
CLI_DIR=$(cd "$(dirname "$0")" && pwd)

CXLA=${1:?usage: sh tests/cli/test_cli.sh PATH/TO/cxla}
case "$CXLA" in /*) ;; *) CXLA="$(pwd)/$CXLA" ;; esac
T=$(mktemp -d "${TMPDIR:-/tmp}/cxla_cli.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT INT TERM
cd "$T" || exit 2

. "$CLI_DIR/checks.lib"

# ---- fixtures -----------------------------------------------------------------------
cat >add.hlo <<'EOF'
HloModule add, entry_computation_layout={(f32[2,3]{1,0}, f32[2,3]{1,0})->f32[2,3]{1,0}}

ENTRY main {
  p0 = f32[2,3]{1,0} parameter(0)
  p1 = f32[2,3]{1,0} parameter(1)
  ROOT add = f32[2,3]{1,0} add(p0, p1)
}
EOF
cat >pair.hlo <<'EOF'
HloModule pair

ENTRY main {
  x = f32[3,2]{1,0} parameter(0)
  i = s32[4]{0} parameter(1)
  b = pred[2]{0} parameter(2)
  neg = f32[3,2]{1,0} negate(x)
  inner = (s32[4]{0}, pred[2]{0}) tuple(i, b)
  ROOT t = (f32[3,2]{1,0}, (s32[4]{0}, pred[2]{0})) tuple(neg, inner)
}
EOF
sed 's/ add(p0, p1)/ frobnicate(p0, p1)/' add.hlo >unknown_op.hlo
head -c 120 add.hlo >truncated.hlo
sed 's/ROOT add = f32\[2,3\]{1,0}/ROOT add = f32[3,2]{1,0}/' add.hlo >badshape.hlo
printf 'this is not a numpy file at all' >garbage.npy
: >empty.hlo

# ---- usage and help ----------------------------------------------------------------------
check "no command" 2 "usage: cxla" "$CXLA"
check "unknown command" 2 "unknown command 'frob'" "$CXLA" frob
check "cxla --help" 0 "usage: cxla COMMAND" "$CXLA" --help
for c in run check fmt conform; do
  check "$c --help" 0 "^usage: cxla $c" "$CXLA" "$c" --help
done
check "help run" 0 "^usage: cxla run" "$CXLA" help run
check "run without module" 2 "missing MODULE.hlo" "$CXLA" run
check "run unknown option" 2 "unknown option '--bogus'" "$CXLA" run add.hlo --bogus
check "run --seed junk" 2 "--seed needs" "$CXLA" run add.hlo --random --seed x1
check "run --out without dir" 2 "--out needs" "$CXLA" run add.hlo --random --out
check "run --random with files" 2 "do not pass .npy files" "$CXLA" run add.hlo a.npy --random
check "check two files" 2 "expected one module" "$CXLA" check add.hlo add.hlo
check "fmt without module" 2 "missing MODULE.hlo" "$CXLA" fmt
check "conform without dir" 2 "missing DIR" "$CXLA" conform
check "conform bad --which" 2 "--which must be" "$CXLA" conform . --which neither
check "conform bad backend" 2 "unknown backend 'gpu'" "$CXLA" conform . --backend gpu
check "conform bad -j" 2 "-j needs" "$CXLA" conform . -j 0

# ---- bad input ------------------------------------------------------------------------------
check "check missing file" 1 "^error: nope\.hlo: No such file or directory" "$CXLA" check nope.hlo
check "run missing file" 1 "nope\.hlo: No such file" "$CXLA" run nope.hlo --random
check "check a directory" 1 "not a regular file" "$CXLA" check .
check "check empty module" 1 "empty\.hlo:1:1" "$CXLA" check empty.hlo
check "check truncated module" 1 "truncated\.hlo:[0-9]+:[0-9]+: " "$CXLA" check truncated.hlo
check "check unknown opcode" 1 "unknown_op\.hlo:6:[0-9]+: .*unknown opcode 'frobnicate'" \
  "$CXLA" check unknown_op.hlo
if grep -q '^ *\^' err; then ok; else bad "unknown opcode: no caret line under the source"; fi
if grep -q 'frobnicate(p0, p1)' err; then ok; else bad "unknown opcode: the source line is not shown"; fi
check "fmt unknown opcode" 1 "unknown opcode" "$CXLA" fmt unknown_op.hlo
check "check shape mismatch" 1 "badshape\.hlo" "$CXLA" check badshape.hlo
check "run shape mismatch in module" 1 "badshape\.hlo" "$CXLA" run badshape.hlo --random

# ---- check, fmt, run ---------------------------------------------------------------------------
check "check ok" 0 "^ok: 1 computation, 3 instructions$" "$CXLA" check add.hlo
check "fmt" 0 "ROOT %add = f32\[2,3\]\{1,0\} add\(%p0, %p1\)" "$CXLA" fmt add.hlo
"$CXLA" fmt add.hlo >fmt1.hlo 2>/dev/null
check "fmt output parses again" 0 "^ok:" "$CXLA" check fmt1.hlo
"$CXLA" fmt fmt1.hlo >fmt2.hlo 2>/dev/null
if cmp -s fmt1.hlo fmt2.hlo; then ok; else bad "fmt is not idempotent"; fi

check "run --random" 0 "^result 0: f32\[2,3\] min=" "$CXLA" run add.hlo --random
check "run --random --out" 0 "^wrote outs/0\.npy" "$CXLA" run add.hlo --random --seed 7 --out outs
cp out run7.txt
if [ -f outs/0.npy ] && [ "$(head -c 6 outs/0.npy | od -An -c | tr -d ' ')" = "223NUMPY" ]; then
  ok
else
  bad "run --out: outs/0.npy is missing or lacks the .npy magic"
fi
"$CXLA" run add.hlo --random --seed 7 >run7b.txt 2>&1
"$CXLA" run add.hlo --random --seed 8 >run8.txt 2>&1
if grep -v '^wrote' run7.txt | cmp -s - run7b.txt; then ok; else bad "--seed 7 twice gave different results"; fi
if cmp -s run7b.txt run8.txt; then bad "--seed 7 and --seed 8 gave the same results"; else ok; fi
# The written file reads back as an argument of the right shape.
check "run with npy args" 0 "^result 0: f32\[2,3\]" "$CXLA" run add.hlo outs/0.npy outs/0.npy
check "run --print" 0 "^ \[" "$CXLA" run add.hlo outs/0.npy outs/0.npy --print
check "run tuple result" 0 "^result 2: pred\[2\]" "$CXLA" run pair.hlo --random --out outs2
if [ -f outs2/0.npy ] && [ -f outs2/1.npy ] && [ -f outs2/2.npy ]; then ok; else bad "tuple result: not flattened into 3 files"; fi
if python3 -c 'import numpy' >/dev/null 2>&1; then
  if python3 -c '
import numpy as np, sys
a = np.load("outs/0.npy"); b = np.load("outs2/1.npy"); c = np.load("outs2/2.npy")
assert a.dtype == np.float32 and a.shape == (2, 3), (a.dtype, a.shape)
assert b.dtype == np.int32 and b.shape == (4,) and c.dtype == np.bool_, (b.dtype, c.dtype)
' >err 2>&1; then ok; else bad "numpy cannot read what run --out wrote"; fi
fi

check "wrong arg count" 1 "takes 2 arguments \(f32\[2,3\], f32\[2,3\]\) but 1 was given" \
  "$CXLA" run add.hlo outs/0.npy
check "arg shape mismatch" 1 "argument 0 \(outs2/0\.npy\) has shape f32\[3,2\], but parameter 0 is f32\[2,3\]" \
  "$CXLA" run add.hlo outs2/0.npy outs/0.npy
check "arg type mismatch" 1 "argument 1: outs2/1\.npy: holds s32 data, expected f32" \
  "$CXLA" run add.hlo outs/0.npy outs2/1.npy
check "bad npy" 1 "garbage\.npy: .*not a \.npy file" "$CXLA" run add.hlo garbage.npy outs/0.npy
check "missing npy" 1 "missing\.npy: No such file" "$CXLA" run add.hlo outs/0.npy missing.npy
check "--out onto a file" 1 "garbage\.npy exists and is not a directory" \
  "$CXLA" run add.hlo --random --out garbage.npy
# A token parameter (JAX's ordered effects) takes a fresh token, not a file;
# token results are not printed or written.
cat >token.hlo <<'EOF'
HloModule tokens
ENTRY main {
  t = token[] parameter(0)
  x = f32[2,3] parameter(1)
  a = token[] after-all(t)
  n = f32[2,3] negate(x)
  ROOT r = (token[], f32[2,3]) tuple(a, n)
}
EOF
check "run token parameter" 0 "^result 0: f32\[2,3\]" "$CXLA" run token.hlo outs/0.npy --out outt
if [ -f outt/0.npy ] && [ ! -f outt/1.npy ]; then ok; else bad "token result: written as a file"; fi
check "run token parameter --random" 0 "^result 0: f32\[2,3\]" "$CXLA" run token.hlo --random
check "token parameter takes no file" 1 "takes 1 argument \(f32\[2,3\]\) but 2 were given" \
  "$CXLA" run token.hlo outs/0.npy outs/0.npy

# ---- conform on a hand-made case --------------------------------------------------------------
mkdir -p cases/addcase/args cases/addcase/results cases/nested/deeper/addcase2
cp add.hlo cases/addcase/module.hlo
cp add.hlo cases/addcase/optimized.hlo
"$CXLA" run add.hlo --random --seed 1 --out a1 >/dev/null 2>&1
"$CXLA" run add.hlo --random --seed 2 --out a2 >/dev/null 2>&1
cp a1/0.npy cases/addcase/args/0.npy
cp a2/0.npy cases/addcase/args/1.npy
"$CXLA" run add.hlo a1/0.npy a2/0.npy --out cases/addcase/results >/dev/null 2>&1
cat >cases/addcase/case.json <<'EOF'
{"description": "x + y", "source": "hand-made",
 "args": [{"file": "args/0.npy", "dtype": "f32", "shape": [2, 3]},
          {"file": "args/1.npy", "dtype": "f32", "shape": [2, 3]}],
 "results": [{"file": "results/0.npy", "dtype": "f32", "shape": [2, 3],
              "rtol": 1e-6, "atol": 0}]}
EOF
# The same program as StableHLO text (module.mlir), read by content.
cat >cases/addcase/module.mlir <<'EOF'
module @add {
  func.func public @main(%arg0: tensor<2x3xf32>, %arg1: tensor<2x3xf32>) -> (tensor<2x3xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.add %arg0, %arg1 : tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }
}
EOF
cp -r cases/addcase/. cases/nested/deeper/addcase2/
check "conform --which mlir" 0 "^2 passed, 0 failed$" "$CXLA" conform cases --which mlir
check "conform --which hlo" 0 "^2 passed, 0 failed$" "$CXLA" conform cases --which hlo
check "conform --which all (no module.mlirbc: skipped)" 0 "^6 passed, 0 failed, 2 skipped$" \
  "$CXLA" conform cases --which all
check "conform -v says why" 0 "^skip +addcase:mlirbc: the case has no module\.mlirbc" \
  "$CXLA" conform cases --which mlirbc -v
# A portable artifact (module.mlirbc, as jax.export writes it) is read by
# content too, and gives what its module.hlo gives.
BC="$CLI_DIR/../corpus/classic_sin_squared"
check "run portable artifact" 0 "" "$CXLA" run "$BC/module.mlirbc" "$BC/args/0.npy" --out bc_out
check "run its module.hlo" 0 "" "$CXLA" run "$BC/module.hlo" "$BC/args/0.npy" --out hlo_out
cmp bc_out/0.npy hlo_out/0.npy && ok || bad "run portable artifact: result differs from module.hlo's"
check "fmt portable artifact prints HLO" 0 "ROOT .* multiply\(" "$CXLA" fmt "$BC/module.mlirbc"
head -c 300 "$BC/module.mlirbc" >trunc.mlirbc
check "truncated portable artifact" 1 "trunc\.mlirbc: byte [0-9]+ \(section table\): 47 bytes expected" \
  "$CXLA" check trunc.mlirbc
check "run StableHLO text" 0 "" "$CXLA" run cases/addcase/module.mlir a1/0.npy a2/0.npy --out mlir_out
cmp mlir_out/0.npy cases/addcase/results/0.npy && ok || bad "run StableHLO text: result differs"
check "fmt StableHLO text prints HLO" 0 "ROOT .* add\(" "$CXLA" fmt cases/addcase/module.mlir
sed 's/stablehlo.add %arg0, %arg1/stablehlo.add %arg0, %nope/' cases/addcase/module.mlir >badref.mlir
check "StableHLO undefined value" 1 "badref\.mlir:3:31: use of undefined value '%nope'" \
  "$CXLA" check badref.mlir
check "conform passes" 0 "^4 passed, 0 failed$" "$CXLA" conform cases
check "conform --which module" 0 "^2 passed, 0 failed$" "$CXLA" conform cases --which module
check "conform --filter" 0 "^1 passed, 0 failed$" "$CXLA" conform cases --filter case2 --which optimized
check "conform -v lists passes" 0 "^ok +addcase:module" "$CXLA" conform cases -v --no-fork
check "conform no cases" 1 "no case directories" "$CXLA" conform outs
check "conform missing dir" 1 "nope: no such directory" "$CXLA" conform nope

# A wrong expected result: reported with the first mismatching element.
cp a1/0.npy cases/nested/deeper/addcase2/results/0.npy
check "conform mismatch" 1 "^FAIL +addcase2:module: result 0: [0-9]+ of 6 elements differ; first at \[0,0\]: got" \
  "$CXLA" conform cases
grep -q '^2 passed, 2 failed$' out && ok || bad "conform mismatch: wrong summary line"
printf '# known problems\naddcase2   wrong on purpose\n\n' >xfail.txt
check "conform expected failure" 0 "^2 passed, 0 failed, 2 skipped$" \
  "$CXLA" conform cases --expect-fail xfail.txt
printf 'addcase:module  listed but passes\n' >xpass.txt
check "conform unexpected pass" 1 "addcase:module: unexpectedly passed; remove it from xpass\.txt" \
  "$CXLA" conform cases --expect-fail xpass.txt --filter addcase --which module
printf 'addcase:sideways  bad suffix\n' >xbad.txt
check "conform bad expect file" 1 "xbad\.txt:1: .*:module, :optimized, :mlir or :mlirbc" \
  "$CXLA" conform cases --expect-fail xbad.txt
check "conform missing expect file" 1 "nofile\.txt: No such file" \
  "$CXLA" conform cases --expect-fail nofile.txt

# A broken case: bad JSON, missing argument file, broken module.
mkdir -p cases/broken
cp add.hlo cases/broken/module.hlo
cp unknown_op.hlo cases/broken/optimized.hlo
printf '{"args": [1,]}' >cases/broken/case.json
check "conform bad case.json" 1 "^FAIL +broken:module: case: .*case\.json:1:13: trailing comma" \
  "$CXLA" conform cases --filter broken
cp cases/addcase/case.json cases/broken/case.json
check "conform missing arg file" 1 "^FAIL +broken:module: args: .*args/0\.npy: No such file" \
  "$CXLA" conform cases --filter broken
mkdir -p cases/broken/args cases/broken/results
cp cases/addcase/args/* cases/broken/args/
cp cases/addcase/results/* cases/broken/results/
check "conform parse error" 1 "^FAIL +broken:optimized: parse: .*optimized\.hlo:6:[0-9]+: .*unknown opcode" \
  "$CXLA" conform cases --filter broken
grep -q '^1 passed, 1 failed$' out && ok || bad "conform parse error: wrong summary line"

# A case that never ends is stopped by --timeout and reported as its own
# failure; the other run goes on (-j 2: both run at once).
mkdir -p hang/loop/args hang/loop/results
cat >hang/loop/module.hlo <<'EOF'
HloModule loop

cond {
  c = s32[] parameter(0)
  ROOT t = pred[] constant(true)
}

body {
  b = s32[] parameter(0)
  one = s32[] constant(1)
  ROOT n = s32[] add(b, one)
}

ENTRY main {
  x = s32[] parameter(0)
  ROOT w = s32[] while(x), condition=cond, body=body
}
EOF
printf 'HloModule ident\n\nENTRY main {\n  ROOT x = s32[] parameter(0)\n}\n' >hang/loop/optimized.hlo
"$CXLA" run hang/loop/optimized.hlo --random --out hang/loop/args >/dev/null 2>&1
cp hang/loop/args/0.npy hang/loop/results/0.npy
cat >hang/loop/case.json <<'EOF'
{"args": [{"file": "args/0.npy", "dtype": "s32", "shape": []}],
 "results": [{"file": "results/0.npy", "dtype": "s32", "shape": [], "rtol": 0, "atol": 0}]}
EOF
check "conform timeout" 1 "^FAIL +loop:module: timed out after 1 s$" \
  "$CXLA" conform hang --timeout 1 -j 2
grep -q '^1 passed, 1 failed$' out && ok || bad "conform timeout: wrong summary line"
# An endless while loop stops at run --timeout (the backends check the
# deadline between instructions), on every backend.
check "run --timeout" 1 "^error: .*execution stopped after its timeout of 0\.5 s" \
  "$CXLA" run hang/loop/module.hlo --random --timeout 0.5 --backend interp
check "run --timeout junk" 2 "--timeout needs" "$CXLA" run add.hlo --random --timeout 0
check "run bad backend" 2 "unknown backend 'gpu' \(available: .*interp" "$CXLA" run add.hlo --random --backend gpu
check "run --threads junk" 2 "--threads needs" "$CXLA" run add.hlo --random --threads x
check "run --backend interp" 0 "^result 0: f32\[2,3\]" "$CXLA" run add.hlo --random --backend interp --threads 2

# A shape-polymorphic program (jax.export, x: f32[4, b]: top_k of b - 1)
# is specialized to the shapes of the .npy files given; without them it
# says so; a file that breaks its shape assertion gets JAX's message.
POLY="$CLI_DIR/../poly/b_stablehlo_dynamic_top_k_data_2023_08_11"
check "run shape-polymorphic" 0 "^result 0: f32\[4,2\]" "$CXLA" run "$POLY/module.mlirbc" "$POLY/args/0.npy"
check "run shape-polymorphic without args" 1 "parameter 0 has dynamic dimensions" \
  "$CXLA" run "$POLY/module.mlirbc"
python3 -c 'import numpy; numpy.save("empty43.npy", numpy.zeros((4, 0), numpy.float32))' 2>/dev/null &&
  check "run shape-polymorphic, assertion" 1 "Expected value >= 1 for dimension variable 'b'.*= 0" \
    "$CXLA" run "$POLY/module.mlirbc" empty43.npy

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
