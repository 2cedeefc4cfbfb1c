#!/bin/sh
# Command-line tests for `cxla bench` (tools/cxla/cmd_bench.c): usage errors,
# the --json keys, run counting, the --max-seconds budget, --progress lines,
# and --out writing the same results as `cxla run`. Nothing here depends on
# how fast anything runs, except that a 64x64 dot takes over 10 µs.
#
# usage: sh tests/cli/test_bench.sh PATH/TO/cxla
# Ends with "cli bench: N passed, M failed"; exits non-zero if any failed.
set -u
CLI_DIR=$(cd "$(dirname "$0")" && pwd)

CXLA=${1:?usage: sh tests/cli/test_bench.sh PATH/TO/cxla}
case "$CXLA" in /*) ;; *) CXLA="$(pwd)/$CXLA" ;; esac
SMOKE="$(cd "$(dirname "$0")/../.." && pwd)/bench/smoke/module.hlo"
T=$(mktemp -d "${TMPDIR:-/tmp}/cxla_cli_bench.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT INT TERM
cd "$T" || exit 2

. "$CLI_DIR/checks.lib"

# has NAME PATTERN: the last command's stdout has a match for PATTERN.
has() {
  if grep -Eq -- "$2" out; then ok; else bad "$1: stdout lacks /$2/"; fi
}

cat >add.hlo <<'EOF'
HloModule add, entry_computation_layout={(f32[2,3]{1,0}, f32[2,3]{1,0})->f32[2,3]{1,0}}

ENTRY main {
  p0 = f32[2,3]{1,0} parameter(0)
  p1 = f32[2,3]{1,0} parameter(1)
  ROOT add = f32[2,3]{1,0} add(p0, p1)
}
EOF

# ---- usage --------------------------------------------------------------------------
check "bench --help" 0 "^usage: cxla bench" "$CXLA" bench --help
check "help bench" 0 "^usage: cxla bench" "$CXLA" help bench
check "bench listed" 0 "^  bench " "$CXLA" --help
check "no module" 2 "missing MODULE.hlo" "$CXLA" bench
check "unknown option" 2 "unknown option '--bogus'" "$CXLA" bench add.hlo --bogus
check "--iters 0" 2 "--iters needs" "$CXLA" bench add.hlo --random --iters 0
check "--iters junk" 2 "--iters needs" "$CXLA" bench add.hlo --random --iters 3x
check "--warmup junk" 2 "--warmup needs" "$CXLA" bench add.hlo --random --warmup -1
check "--warmup-seconds negative" 2 "--warmup-seconds needs" "$CXLA" bench add.hlo --random --warmup-seconds -1
check "--warmup-seconds missing" 2 "--warmup-seconds needs" "$CXLA" bench add.hlo --random --warmup-seconds
check "--min-seconds negative" 2 "--min-seconds needs" "$CXLA" bench add.hlo --random --min-seconds -1
check "--min-seconds missing" 2 "--min-seconds needs" "$CXLA" bench add.hlo --random --min-seconds
check "--max-seconds negative" 2 "--max-seconds needs" "$CXLA" bench add.hlo --random --max-seconds -1
check "--max-seconds junk" 2 "--max-seconds needs" "$CXLA" bench add.hlo --random --max-seconds nan
check "--out without dir" 2 "--out needs" "$CXLA" bench add.hlo --random --out
check "--random with files" 2 "not both" "$CXLA" bench add.hlo a.npy --random

# ---- bad input ----------------------------------------------------------------------
check "missing module" 1 "nope\.hlo: No such file" "$CXLA" bench nope.hlo --random
check "too few args" 1 "" "$CXLA" bench add.hlo

# ---- reports ------------------------------------------------------------------------
check "text report" 0 "^backend +interp \(interpreted, 1 thread\)$" "$CXLA" bench add.hlo --random --iters 3 --backend interp
has "text report" "^run +median .* over 3 runs after 1 warm-up run$"
has "text report" "^compile +[0-9.]+ s \(buffer plan [0-9.]+ s, codegen 0\.000000 s, llvm 0\.000000 s, cache miss\)$"
check "default backend named" 0 "^backend +[a-z]+ \((compiled|interpreted), [0-9]+ threads?\)$" "$CXLA" bench add.hlo --random --iters 1
check "--backend unknown" 2 "unknown backend 'gpu' \(available: .*interp" "$CXLA" bench add.hlo --random --backend gpu
check "--threads 0" 2 "--threads needs" "$CXLA" bench add.hlo --random --threads 0

check "json report" 0 "" "$CXLA" bench add.hlo --random --json --iters 4 --warmup 2 --max-seconds 0 --backend interp
for key in module backend threads optimized parse_s verify_s optimize_s compile_s \
  plan_s codegen_s llvm_s cache_hit \
  run_median_s run_min_s run_max_s runs warmup_runs iters stopped_early from_warmup \
  max_seconds total_run_s peak_rss_bytes base_rss_bytes results; do
  has "json key $key" "\"$key\": "
done
has "json runs" '"runs": 4,'
has "json warmup" '"warmup_runs": 2,'
has "json backend" '"backend": "interp", "threads": 1,'
has "json not stopped" '"stopped_early": false, "from_warmup": false,'
has "json results" '"results": 1\}'
has "json optimized" '"optimized": true,'
check "--no-opt" 0 "" "$CXLA" bench add.hlo --random --json --iters 1 --no-opt
has "--no-opt" '"optimized": false,'
has "--no-opt" '"optimize_s": 0,'
if command -v python3 >/dev/null 2>&1; then
  if python3 -c 'import json,sys; d=json.load(open("out")); sys.exit(not (d["run_min_s"] <= d["run_median_s"] <= d["run_max_s"]))'; then
    ok
  else
    bad "json: does not parse, or min <= median <= max fails"
  fi
fi

# The budget: one 64x64 dot takes longer than 10 µs.
check "budget in warm-up" 0 "" "$CXLA" bench "$SMOKE" --random --json --iters 5 --warmup 3 --max-seconds 0.00001
has "budget in warm-up" '"runs": 1, "warmup_runs": 1,'
has "budget in warm-up" '"stopped_early": true, "from_warmup": true,'
check "budget in timed runs" 0 "" "$CXLA" bench "$SMOKE" --random --json --iters 5 --warmup 0 --max-seconds 0.00001
has "budget in timed runs" '"runs": 1, "warmup_runs": 0,'
has "budget in timed runs" '"stopped_early": true, "from_warmup": false,'

# A warm-up of 0.05 s: more runs than --warmup's one (a 64x64 dot takes
# well under 0.01 s); none at all without --warmup.
check "warm-up by time" 0 "" "$CXLA" bench "$SMOKE" --random --json --iters 2 --warmup 1 --warmup-seconds 0.05
if python3 -c 'import json,sys; d=json.load(open("out")); sys.exit(not (d["warmup_runs"] > 5 and d["runs"] == 2))' 2>/dev/null; then
  ok
else
  bad "warm-up by time: want more than 5 warm-up runs and 2 timed ones"
fi
check "no warm-up whatever the time" 0 "" "$CXLA" bench "$SMOKE" --random --json --iters 2 --warmup 0 --warmup-seconds 1
has "no warm-up whatever the time" '"runs": 2, "warmup_runs": 0,'

# Timed runs by time: past --iters until 0.05 s of them (a 64x64 dot takes
# well under 0.01 s), within --max-seconds (then not "stopped early": the
# --iters runs were all timed).
check "timed runs by time" 0 "" "$CXLA" bench "$SMOKE" --random --json --iters 2 --min-seconds 0.05
if python3 -c 'import json,sys; d=json.load(open("out")); sys.exit(not (d["runs"] > 5 and d["total_run_s"] >= 0.05))' 2>/dev/null; then
  ok
else
  bad "timed runs by time: want more than 5 timed runs over 0.05 s"
fi
check "min-seconds within max-seconds" 0 "" "$CXLA" bench "$SMOKE" --random --json --iters 2 --min-seconds 100 --max-seconds 0.05
if python3 -c 'import json,sys; d=json.load(open("out")); sys.exit(not (d["runs"] > 2 and d["total_run_s"] < 5 and not d["stopped_early"]))' 2>/dev/null; then
  ok
else
  bad "min-seconds within max-seconds: want the runs stopped by --max-seconds, not early"
fi

check "progress" 0 "" "$CXLA" bench add.hlo --random --json --iters 3 --warmup 1 --progress
if [ "$(grep -c '^progress: run [1-4] start [0-9.]*$' err)" -eq 4 ] &&
  [ "$(grep -c '^progress: run [1-4] done [0-9.]* [0-9.e+-]*$' err)" -eq 4 ]; then
  ok
else
  bad "progress: want 4 start and 4 done lines on stderr"
fi

# --profile: each step of the timed runs once per run, by kind and name.
cat >prof.hlo <<'EOF2'
HloModule prof, entry_computation_layout={(f32[64,64]{1,0}, f32[64,64]{1,0})->f32[64,64]{1,0}}

ENTRY main {
  a = f32[64,64]{1,0} parameter(0)
  b = f32[64,64]{1,0} parameter(1)
  mm = f32[64,64]{1,0} dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT e = f32[64,64]{1,0} exponential(mm)
}
EOF2
check "--profile" 0 "^profile +steps [0-9.]+ ms per run of the [0-9.]+ ms median run \(2 steps, 3 runs\)$" \
  "$CXLA" bench prof.hlo --random --iters 3 --backend cpu --profile 5
# (the optimizer fuses the exponential into the dots output fusion: the
# GEMM runs first, then the kernel)
has "--profile gemm row" "^ +[0-9.]+ +[0-9.]+% +[0-9.]+ +1\.0 gemm-in-fusion +dot +[0-9.]+ +[0-9]+  mm$"
has "--profile kernel row" "^ +[0-9.]+ +[0-9.]+% +[0-9.]+ +1\.0 kernel +fusion +[0-9]+  fusion[.0-9]*$"
has "--profile per kind" "^  gemm-in-fusion +[0-9.]+ ms +[0-9.]+% +1\.0 calls +[0-9.]+ GFLOP/s$"
has "--profile best" "^  \(the best calls: [0-9.]+ ms per run\)$"
check "--profile 1" 0 "" "$CXLA" bench prof.hlo --random --iters 2 --backend cpu --profile 1
if [ "$(grep -Ec '  (mm|fusion[.0-9]*)$' out)" -eq 1 ]; then ok; else bad "--profile 1: want one step row"; fi
check "--profile json" 0 "^profile +steps" "$CXLA" bench prof.hlo --random --iters 2 --backend cpu --json --profile
if grep -q '^profile' out; then bad "--profile --json: the profile belongs on stderr"; else ok; fi
check "--profile interp" 0 "^profile +steps 0\.000 ms .*\(0 steps, 2 runs\)$" \
  "$CXLA" bench prof.hlo --random --iters 2 --backend interp --profile
check "--profile 0" 2 "--profile N needs" "$CXLA" bench prof.hlo --random --profile 0

# --out writes what `cxla run` computes from the same seed.
check "bench --out" 0 "" "$CXLA" bench "$SMOKE" --random --seed 7 --iters 2 --out b
check "run --out" 0 "" "$CXLA" run "$SMOKE" --random --seed 7 --out r
if cmp -s b/0.npy r/0.npy; then ok; else bad "bench --out and run --out differ"; fi

echo "cli bench: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
