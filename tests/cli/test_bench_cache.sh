#!/bin/sh
# Command-line tests for the cpu backend's disk compile cache and code
# dumps through `cxla bench` and `cxla run`: a second process hits the cache
# (bench says "cache hit", with no code generation and no LLVM time) and
# computes the same; CXLA_CACHE=0 and --dump-to compile afresh; --dump-to
# writes each kernel's LLVM IR before and after LLVM's optimization and
# its assembly. The cache is a scratch directory, never the user's.
#
# usage: sh tests/cli/test_bench_cache.sh PATH/TO/cxla
# Ends with "cli bench cache: N passed, M failed"; exits non-zero if any failed.
set -u
CLI_DIR=$(cd "$(dirname "$0")" && pwd)

CXLA=${1:?usage: sh tests/cli/test_bench_cache.sh PATH/TO/cxla}
case "$CXLA" in /*) ;; *) CXLA="$(pwd)/$CXLA" ;; esac
T=$(mktemp -d "${TMPDIR:-/tmp}/cxla_cli_cache.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT INT TERM
cd "$T" || exit 2

. "$CLI_DIR/checks.lib"

has() {
  if grep -Eq -- "$2" out; then ok; else bad "$1: stdout lacks /$2/"; fi
}

cat >sm.hlo <<'EOF'
HloModule sm

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

ENTRY main {
  x = f32[8,16] parameter(0)
  e = f32[8,16] exponential(x)
  z = f32[] constant(0)
  r = f32[8] reduce(e, z), dimensions={1}, to_apply=add
  b = f32[8,16] broadcast(r), dimensions={0}
  ROOT d = f32[8,16] divide(e, b)
}
EOF

export CXLA_CACHE_DIR="$T/cache"
unset CXLA_CACHE
MISS='^compile +[0-9.]+ s \(buffer plan [0-9.]+ s, codegen [0-9.]+ s, llvm [0-9.]+ s, cache miss\)$'
HIT='^compile +[0-9.]+ s \(buffer plan [0-9.]+ s, codegen 0\.000000 s, llvm 0\.000000 s, cache hit\)$'

check "cold" 0 "$MISS" "$CXLA" bench sm.hlo --random --iters 1 --backend cpu --out cold
if grep -Eq 'codegen 0\.000000 s, llvm 0\.000000 s' out; then bad "cold: no code generated"; else ok; fi
if [ "$(ls "$T/cache" | grep -c '\.cxc$')" -eq 1 ]; then ok; else bad "cold: want one cache entry"; fi
check "warm" 0 "$HIT" "$CXLA" bench sm.hlo --random --iters 1 --backend cpu --out warm
if cmp -s cold/0.npy warm/0.npy; then ok; else bad "warm: results differ from cold"; fi
check "warm json" 0 '"codegen_s": 0, "llvm_s": 0, "cache_hit": true' \
  "$CXLA" bench sm.hlo --random --iters 1 --backend cpu --json
check "run hits too" 0 "" "$CXLA" run sm.hlo --random --backend cpu --out run
if cmp -s cold/0.npy run/0.npy; then ok; else bad "run: results differ from cold"; fi
check "CXLA_CACHE=0" 0 "$MISS" env CXLA_CACHE=0 "$CXLA" bench sm.hlo --random --iters 1 --backend cpu

check "--dump-to" 0 "$MISS" "$CXLA" bench sm.hlo --random --iters 1 --backend cpu --dump-to dump
for f in llvm_before_opt.ll llvm_after_opt.ll kernels.s; do
  if [ -s "dump/$f" ]; then ok; else bad "--dump-to: dump/$f missing"; fi
done
n=0
for k in dump/kernels/*.ir-no-opt.ll; do
  [ -f "$k" ] || continue
  base=${k%.ir-no-opt.ll}
  name=$(basename "$base")
  if [ -s "$base.ir-with-opt.ll" ] && [ -s "$base.s" ] &&
    grep -q "define .*@$name(" "$k" && grep -q "^$name:" "$base.s"; then
    n=$((n + 1))
  else
    bad "--dump-to: kernel $name lacks its optimized IR or assembly"
  fi
done
if [ "$n" -ge 1 ]; then ok; else bad "--dump-to: no kernel dumps in dump/kernels"; fi
if ls dump/module_0001.*.after_optimizations.txt >/dev/null 2>&1; then ok; else bad "--dump-to: no module dump"; fi
check "--dump-to needs a dir" 2 "--dump-to needs" "$CXLA" bench sm.hlo --random --dump-to

echo "cli bench cache: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
