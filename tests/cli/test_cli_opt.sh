#!/bin/sh
# Command-line tests for the optimizer: `cxla opt`, and `--no-opt` /
# `--dump-to` on `cxla run` and `cxla conform`.
#
# usage: sh tests/cli/test_cli_opt.sh PATH/TO/cxla
# Ends with "cli opt: N passed, M failed"; exits non-zero if any check failed.
set -u
CLI_DIR=$(cd "$(dirname "$0")" && pwd)

CXLA=${1:?usage: sh tests/cli/test_cli_opt.sh PATH/TO/cxla}
case "$CXLA" in /*) ;; *) CXLA="$(pwd)/$CXLA" ;; esac
REPO=$(cd "$(dirname "$0")/../.." && pwd)
CORPUS=${CXLA_CORPUS:-$REPO/tests/corpus}
case "$CORPUS" in /*) ;; *) CORPUS="$REPO/$CORPUS" ;; esac
T=$(mktemp -d "${TMPDIR:-/tmp}/cxla_cli_opt.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT INT TERM
cd "$T" || exit 2

. "$CLI_DIR/checks.lib"

# no_match NAME PATTERN: the last command's stdout has no line matching.
no_match() {
  if grep -Eq -- "$2" out; then bad "$1: /$2/ should not appear"; else ok; fi
}

# ---- fixtures -----------------------------------------------------------------------
cat >dead.hlo <<'EOF2'
HloModule dead, entry_computation_layout={(f32[4]{0})->f32[4]{0}}

twice {
  x = f32[4]{0} parameter(0)
  ROOT y = f32[4]{0} add(x, x)
}

ENTRY main {
  p = f32[4]{0} parameter(0)
  unused = f32[4]{0} exponential(p)
  n = f32[4]{0} negate(p)
  nn = f32[4]{0} negate(n)
  ROOT c = f32[4]{0} call(nn), to_apply=twice
}
EOF2
cat >badshape.hlo <<'EOF2'
HloModule badshape

ENTRY main {
  p = f32[4] parameter(0)
  ROOT n = s32[4] negate(p)
}
EOF2

# ---- cxla opt --------------------------------------------------------------------------
check "opt --help" 0 "^usage: cxla opt" "$CXLA" opt --help
check "help opt" 0 "^usage: cxla opt" "$CXLA" help opt
check "opt --list-passes" 0 "^dce +remove dead" "$CXLA" opt --list-passes
grep -q '^algsimp ' out && grep -q '^constant-folding ' out && ok || bad "opt --list-passes: passes missing"
check "opt without module" 2 "missing MODULE.hlo" "$CXLA" opt
check "opt two modules" 2 "expected one module" "$CXLA" opt dead.hlo dead.hlo
check "opt unknown option" 2 "unknown option '--bogus'" "$CXLA" opt dead.hlo --bogus
check "opt unknown pass" 2 "unknown pass 'frob'" "$CXLA" opt dead.hlo --passes dce,frob
check "opt empty pass name" 2 "empty pass name" "$CXLA" opt dead.hlo --passes dce,,cse
check "opt -o without file" 2 "-o needs" "$CXLA" opt dead.hlo -o
check "opt missing file" 1 "nope\.hlo: No such file" "$CXLA" opt nope.hlo
check "opt module that does not verify" 1 "badshape\.hlo" "$CXLA" opt badshape.hlo
check "opt --no-verify skips the verifier" 0 "^HloModule badshape" \
  "$CXLA" opt badshape.hlo --no-verify --passes dce

check "opt default pipeline" 0 "^HloModule dead" "$CXLA" opt dead.hlo
no_match "opt removes the call" " call\("
no_match "opt removes dead code" "exponential"
no_match "opt removes double negation" "negate"
no_match "opt drops the inlined computation" "^%twice"

check "opt --passes dce" 0 "^HloModule dead" "$CXLA" opt dead.hlo --passes dce
no_match "dce removes dead code" "exponential"
grep -q ' call(' out && grep -q 'negate' out && ok || bad "dce alone keeps the call and negates"

check "opt -o" 0 "^wrote out\.hlo" "$CXLA" opt dead.hlo -o out.hlo
check "optimized module verifies" 0 "" "$CXLA" check out.hlo
check "optimized module runs" 0 "^result 0: f32\[4\]" "$CXLA" run out.hlo --random --no-opt

check "opt --dump-to" 0 "" "$CXLA" opt dead.hlo --dump-to dumps/nested
for f in module_0001.dead.before_optimizations.txt module_0001.dead.0004.after_call-inliner.txt \
  module_0001.dead.after_optimizations.txt; do
  [ -f "dumps/nested/$f" ] && ok || bad "opt --dump-to: dumps/nested/$f missing"
done
n_after=$(ls dumps/nested | grep -c '\.after_')
[ "$n_after" -ge 2 ] && ok || bad "opt --dump-to: only $n_after after_PASS dumps"
check "opt --dump-to onto a file" 1 "" "$CXLA" opt dead.hlo --dump-to dead.hlo/x

# ---- run ---------------------------------------------------------------------------------
check "run --help mentions --no-opt" 0 "--no-opt" "$CXLA" run --help
check "run optimized" 0 "^result 0: f32\[4\]" "$CXLA" run dead.hlo --random --seed 3 --print
mv out run_opt.txt
check "run --no-opt" 0 "^result 0: f32\[4\]" "$CXLA" run dead.hlo --random --seed 3 --print --no-opt
cmp -s out run_opt.txt && ok || bad "run: results with and without the optimizer differ"
check "run --dump-to" 0 "" "$CXLA" run dead.hlo --random --dump-to rdump
[ -f rdump/module_0001.dead.after_optimizations.txt ] && ok || bad "run --dump-to: no dump"
check "run --dump-to with --no-opt" 2 "cannot go with --no-opt" \
  "$CXLA" run dead.hlo --random --no-opt --dump-to x

# ---- the cpu backend's code hints (src/codegen/cg.c) ---------------------------------------
# Kernels prefer the host's widest vectors; loops computing a
# transcendental function ask LLVM to interleave twice, others do not.
printf 'HloModule th\nENTRY e {\n  x = f32[4096] parameter(0)\n  ROOT t = f32[4096] tanh(x)\n}\n' >th.hlo
printf 'HloModule ad\nENTRY e {\n  x = f32[4096] parameter(0)\n  ROOT t = f32[4096] add(x, x)\n}\n' >ad.hlo
check "bench --dump-to (tanh)" 0 "" "$CXLA" bench th.hlo --random --backend cpu --iters 1 --dump-to thd
grep -q 'llvm.loop.interleave.count' thd/llvm_before_opt.ll && ok || bad "tanh loop: no interleave hint"
grep -q '"prefer-vector-width"="512"' thd/llvm_before_opt.ll && ok || bad "tanh kernel: no prefer-vector-width"
check "bench --dump-to (add)" 0 "" "$CXLA" bench ad.hlo --random --backend cpu --iters 1 --dump-to add
grep -q '"prefer-vector-width"="512"' add/llvm_before_opt.ll && ok || bad "add kernel: no prefer-vector-width"
if grep -q 'llvm.loop.interleave.count' add/llvm_before_opt.ll; then bad "add loop: interleave hint"; else ok; fi

# ---- conform -----------------------------------------------------------------------------
if [ -f "$CORPUS/dot_matvec/case.json" ]; then
  check "conform with the optimizer" 0 "^2 passed, 0 failed" "$CXLA" conform "$CORPUS" --filter dot_matvec
  check "conform --no-opt" 0 "^2 passed, 0 failed" "$CXLA" conform "$CORPUS" --filter dot_matvec --no-opt
  check "conform --dump-to" 0 "^2 passed, 0 failed" \
    "$CXLA" conform "$CORPUS" --filter dot_matvec --dump-to cdump
  ls cdump/dot_matvec.module/*.after_optimizations.txt >/dev/null 2>&1 &&
    ls cdump/dot_matvec.optimized/*.before_optimizations.txt >/dev/null 2>&1 && ok ||
    bad "conform --dump-to: per-case dump directories missing"
  check "conform --dump-to with --no-opt" 2 "cannot go with --no-opt" \
    "$CXLA" conform "$CORPUS" --no-opt --dump-to x
else
  echo "(no corpus at $CORPUS: conform checks skipped)"
  skipped=5
fi

# ---- tools/opt_report.py: figures counted by hand on two small cases ---------------
if command -v python3 >/dev/null 2>&1; then
  mkdir -p rep/good rep/worse
  # good: cxla fuses negate+exp into one kernel, no temporary; XLA's module
  # below has two kernels and a 32-byte temporary between them.
  cat >rep/good/module.hlo <<'EOF2'
HloModule good
ENTRY main {
  p = f32[8] parameter(0)
  n = f32[8] negate(p)
  ROOT e = f32[8] exponential(n)
}
EOF2
  cat >rep/good/optimized.hlo <<'EOF2'
HloModule good
%f1 (a: f32[8]) -> f32[8] {
  %a = f32[8]{0} parameter(0)
  ROOT %n = f32[8]{0} negate(%a)
}
%f2 (b: f32[8]) -> f32[8] {
  %b = f32[8]{0} parameter(0)
  ROOT %e = f32[8]{0} exponential(%b)
}
ENTRY %main (p: f32[8]) -> f32[8] {
  %p = f32[8]{0} parameter(0)
  %fa = f32[8]{0} fusion(%p), kind=kLoop, calls=%f1
  ROOT %fb = f32[8]{0} fusion(%fa), kind=kLoop, calls=%f2
}
EOF2
  # worse: XLA's module only bitcasts (no kernel); cxla keeps a negate
  # whose result is a module output inside a tuple (no temporary).
  cat >rep/worse/module.hlo <<'EOF2'
HloModule worse
ENTRY main {
  p = f32[4] parameter(0)
  n = f32[4] negate(p)
  ROOT t = (f32[4]) tuple(n)
}
EOF2
  cat >rep/worse/optimized.hlo <<'EOF2'
HloModule worse
ENTRY %main (p: f32[4]) -> (f32[4]) {
  %p = f32[4]{0} parameter(0)
  %b = f32[4]{0} bitcast(%p)
  ROOT %t = (f32[4]{0}) tuple(%b)
}
EOF2
  check "opt_report: a case cxla wins" 0 '^\| good \| 1 / 2 \| 0 B / 32 B \| L1 / L2 \|$' \
    python3 "$REPO/tools/opt_report.py" --cxla "$CXLA" --corpus rep --bench none
  check "opt_report: a case cxla loses" 0 '^- worse: kernels 1 > 0$' \
    python3 "$REPO/tools/opt_report.py" --cxla "$CXLA" --corpus rep --bench none
  check "opt_report: totals" 0 '^totals over 2 cases: kernels cxla 2 / XLA 2; temporaries cxla 0 B / XLA 32 B$' \
    python3 "$REPO/tools/opt_report.py" --cxla "$CXLA" --corpus rep --bench none
  check "opt_report: no cases" 1 'no cases found' \
    python3 "$REPO/tools/opt_report.py" --cxla "$CXLA" --corpus none --bench none
else
  echo "(no python3: opt_report checks skipped)"
  skipped=$((${skipped:-0} + 4))
fi

if [ "${skipped:-0}" -gt 0 ]; then
  echo "cli opt: $pass passed, $fail failed, $skipped skipped"
else
  echo "cli opt: $pass passed, $fail failed"
fi
[ "$fail" -eq 0 ]
