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

# TensorFlow's own text (tf.function(jit_compile=True), stage='hlo', of
# x @ tf.constant(40x50 array)): the constant is elided.
cat >tf_matmul.hlo <<'EOF2'
HloModule a_inference_f_9__.1, entry_computation_layout={(f32[3,40]{1,0})->f32[3,50]{1,0}}

ENTRY %a_inference_f_9__.1 (arg0.1: f32[3,40]) -> f32[3,50] {
  %arg0.1 = f32[3,40]{1,0} parameter(0), parameter_replication={false}, metadata={op_name="XLA_Args"}
  %reshape.1 = f32[3,40]{1,0} reshape(f32[3,40]{1,0} %arg0.1)
  %MatMul.3 = f32[40,50]{1,0} constant({...}), metadata={op_type="MatMul" op_name="MatMul" source_file="tensorflow/python/framework/ops.py" source_line=1221}
  %MatMul.4 = f32[3,50]{1,0} dot(f32[3,40]{1,0} %reshape.1, f32[40,50]{1,0} %MatMul.3), lhs_contracting_dims={1}, rhs_contracting_dims={0}, frontend_attributes={grad_x="false",grad_y="false"}, metadata={op_type="MatMul" op_name="MatMul" source_file="tensorflow/python/framework/ops.py" source_line=1221}
  %MatMul.5 = f32[3,50]{1,0} transpose(f32[3,50]{1,0} %MatMul.4), dimensions={0,1}, metadata={op_type="MatMul" op_name="MatMul" source_file="tensorflow/python/framework/ops.py" source_line=1221}
  %XLA_Retvals.3 = f32[3,50]{1,0} reshape(f32[3,50]{1,0} %MatMul.5), metadata={op_name="XLA_Retvals"}
  %XLA_Retvals.4 = (f32[3,50]{1,0}) tuple(f32[3,50]{1,0} %XLA_Retvals.3), metadata={op_name="XLA_Retvals"}
  ROOT %XLA_Retvals.5 = f32[3,50]{1,0} get-tuple-element((f32[3,50]{1,0}) %XLA_Retvals.4), index=0, metadata={op_name="XLA_Retvals"}
}
EOF2
check "check tf elided" 0 "^ok: 1 computation, 8 instructions" "$CXLA" check tf_matmul.hlo
check "opt tf elided" 0 "%MatMul.3 = f32\[40,50\]\{1,0\} constant\(\{\.\.\.\}\)" \
  "$CXLA" opt tf_matmul.hlo
check "run tf elided --random" 0 "^result 0: f32\[3,50\]" "$CXLA" run tf_matmul.hlo --random
printf 'HloModule z\n\nENTRY main {\n  c = f32[] constant(0)\n  ROOT b = f32[3,40] broadcast(c), dimensions={}\n}\n' >zeros340.hlo
"$CXLA" run zeros340.hlo --out zeros340 >/dev/null 2>&1
check "run tf elided without --random" 1 "constant %MatMul.3 has an elided value" \
  "$CXLA" run tf_matmul.hlo zeros340/0.npy

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

# A loop-invariant op with 100 operands (a concatenate of an invariant loop
# value) is hoisted out of the loop: no fixed operand limit in the pass.
ys=y
i=1
while [ $i -lt 100 ]; do ys="$ys, y"; i=$((i + 1)); done
S="(s32[], f32[100], f32[1], s32[])"
cat >invariant.hlo <<EOF2
HloModule invariant

cond {
  s = $S parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] get-tuple-element(s), index=3
  ROOT c = pred[] compare(i, n), direction=LT
}

body {
  s = $S parameter(0)
  i = s32[] get-tuple-element(s), index=0
  x = f32[100] get-tuple-element(s), index=1
  y = f32[1] get-tuple-element(s), index=2
  n = s32[] get-tuple-element(s), index=3
  one = s32[] constant(1)
  ni = s32[] add(i, one)
  cc = f32[100] concatenate($ys), dimensions={0}
  e = f32[100] exponential(cc)
  nx = f32[100] add(x, e)
  ROOT t = $S tuple(ni, nx, y, n)
}

ENTRY main {
  p = f32[100] parameter(0)
  q = f32[1] parameter(1)
  n = s32[] parameter(2)
  z = s32[] constant(0)
  t = $S tuple(z, p, q, n)
  w = $S while(t), condition=cond, body=body
  ROOT r = f32[100] get-tuple-element(w), index=1
}
EOF2
check "opt hoists a 100-operand invariant" 0 "^ROOT|concatenate" "$CXLA" opt invariant.hlo
check "run invariant" 0 "^result 0: f32\[100\]" "$CXLA" run invariant.hlo --random --print
cp out inv_opt.txt
check "run invariant --no-opt" 0 "^result 0: f32\[100\]" "$CXLA" run invariant.hlo --random --print --no-opt
cmp -s out inv_opt.txt && ok || bad "run invariant: the optimizer changed the result"

echo "cli tf: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
