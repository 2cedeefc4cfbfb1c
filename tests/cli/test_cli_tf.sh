#!/bin/sh
# Command-line tests for HLO as TensorFlow and large programs write it:
# elided constants (constant({...})) through check / fmt / opt / run, the
# TF QR custom-calls, and a module with 5,000 entry parameters and a
# 5,000-element result tuple through check / opt / run.
#
# usage: sh tests/cli/test_cli_tf.sh PATH/TO/cxla
# Ends with "cli tf: N passed, M failed"; exits non-zero if any check failed.
set -u
CLI_DIR=$(cd "$(dirname "$0")" && pwd)

CXLA=${1:?usage: sh tests/cli/test_cli_tf.sh PATH/TO/cxla}
case "$CXLA" in /*) ;; *) CXLA="$(pwd)/$CXLA" ;; esac
T=$(mktemp -d "${TMPDIR:-/tmp}/cxla_cli_tf.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT INT TERM
cd "$T" || exit 2

. "$CLI_DIR/checks.lib"

# ---- elided constants ---------------------------------------------------------------
cat >elided.hlo <<'EOF2'
HloModule elided, entry_computation_layout={(f32[4]{0})->f32[4]{0}}

ENTRY main {
  p = f32[4]{0} parameter(0)
  big = f32[4]{0} constant({...})
  n = f32[4]{0} negate(big)
  ROOT a = f32[4]{0} add(p, n)
}
EOF2
check "check elided" 0 "^ok: 1 computation, 4 instructions" "$CXLA" check elided.hlo
check "fmt elided" 0 "constant\(\{\.\.\.\}\)" "$CXLA" fmt elided.hlo
check "opt elided keeps the constant" 0 "%big = f32\[4\]\{0\} constant\(\{\.\.\.\}\)" \
  "$CXLA" opt elided.hlo
# constant folding must not fold the unknown value away
grep -q "subtract(%p, %big)" out && ok || bad "opt elided: want subtract(%p, %big)"
printf 'HloModule z\n\nENTRY main {\n  ROOT c = f32[4] constant({0, 0, 0, 0})\n}\n' >zeros.hlo
"$CXLA" run zeros.hlo --out zeros >/dev/null 2>&1
check "run elided without --random" 1 "^error: .*constant %big has an elided value \{\.\.\.\}" \
  "$CXLA" run elided.hlo zeros/0.npy
check "run elided --random" 0 "^result 0: f32\[4\]" "$CXLA" run elided.hlo --random --print
cp out random_opt.txt
check "run elided --random --no-opt" 0 "^result 0: f32\[4\]" \
  "$CXLA" run elided.hlo --random --no-opt --print
cmp -s out random_opt.txt && ok || bad "run elided: --no-opt and the optimizer disagree"
check "run elided --random --seed 5" 0 "^result 0" "$CXLA" run elided.hlo --random --seed 5 --print
cmp -s out random_opt.txt && bad "run elided: another seed gives the same data" || ok

# ---- 5,000 entry parameters and a 5,000-element result tuple ------------------------
N=5000
awk -v n=$N 'BEGIN {
  s = "HloModule big, entry_computation_layout={(";
  for (i = 0; i < n; i++) s = s (i ? ", " : "") "f32[2]{0}";
  s = s ")->(";
  for (i = 0; i < n; i++) s = s (i ? ", " : "") "f32[2]{0}";
  print s ")}\n\nENTRY main {";
  for (i = 0; i < n; i++) printf "  p%d = f32[2]{0} parameter(%d)\n", i, i;
  for (i = 0; i < n; i++) printf "  n%d = f32[2]{0} negate(p%d)\n", i, i;
  s = "  ROOT t = (";
  for (i = 0; i < n; i++) s = s (i ? ", " : "") "f32[2]{0}";
  s = s ") tuple(";
  for (i = 0; i < n; i++) s = s (i ? ", " : "") "n" i;
  print s ")\n}";
}' >big.hlo
check "check big" 0 "^ok: 1 computation, 10001 instructions" "$CXLA" check big.hlo
check "opt big" 0 "^HloModule big, entry_computation_layout=\{\(f32\[2\]\{0\}" "$CXLA" opt big.hlo
cp out big_opt.hlo
check "check optimized big" 0 "^ok" "$CXLA" check big_opt.hlo
check "run big" 0 "^result 4999: f32\[2\]" "$CXLA" run big.hlo --random
[ "$(grep -c '^result ' out)" -eq $N ] && ok || bad "run big: want $N results"

echo "cli tf: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
