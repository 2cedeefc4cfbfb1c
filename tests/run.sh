#!/bin/sh
# The whole test suite: sh tests/run.sh BUILD_DIR (what `make test` runs).
#
# Suites, in order:
#   1. unit tests: every BUILD_DIR/tests/test_* binary, given the corpus as
#      argv[1] (the ones that read the corpus use it, the others ignore it),
#      $CXLA_TEST_JOBS of them at a time (the CLI tests of step 3 run with
#      them; their output is shown in step 3's place);
#   2. conformance: cxla conform over tests/corpus, both module.hlo and
#      optimized.hlo, on the reference interpreter (with
#      tests/conform_expected_failures.txt) and on the compiled cpu backend
#      (with tests/conform_expected_failures_cpu.txt); then the StableHLO
#      text of each case (module.mlir) and its portable artifact
#      (module.mlirbc); then tests/harness (cases from JAX's primitive
#      harnesses, tools/corpus/gen_harness.py), every form, both backends;
#      tests/poly (shape-polymorphic programs, tools/corpus/gen_poly.py),
#      both StableHLO forms, both backends; tests/tf_dynamic (TensorFlow's
#      bounded dynamic shapes, tools/corpus/gen_tf_dynamic.py), both HLO
#      forms, both backends;
#   3. the command-line tests in tests/cli/ (exit codes, error messages);
#   4. tools/corpus/check.py over tests/corpus and tests/harness, when
#      python3 can import numpy;
#   5. fuzz-crash replays: every executable BUILD_DIR/fuzz/replay* is run
#      with the repository's fuzz/ directory as argv[1] (replays written as
#      unit tests, tests/unit/test_*_fuzz_replay.c, run in step 1).
#   6. the benchmark harness's smoke test (bench/run.py --smoke: no jax,
#      never pass/fail on timing), when python3 is there.
#   7. JAX on cxla: python/tests (pytest) through BUILD/libcxla_pjrt.so, when
#      a python with jax and pytest is found (else skipped, saying why).
#
# The corpus is tests/corpus, or $CXLA_CORPUS if set; -j for conform, and
# how many unit tests run at once, is $CXLA_TEST_JOBS (default 2). The disk
# compile cache is a fresh directory for the run ($CXLA_CACHE_DIR), removed
# at the end.
#
# Each suite prints its own output and a PASS/FAIL line. The last line is the
# total, counting individual tests (unit tests, conformance runs, CLI
# checks), read from each suite's own "N passed, M failed[, K skipped]" line:
#   total: N passed, M failed[, K skipped]
# A suite that exits non-zero without reporting a failure (a crash, a
# sanitizer report) counts as one more failure; a suite that cannot run for
# want of its data or tools counts as one skipped. Exit status: 0 only if
# nothing failed.
set -u

BUILD=${1:?usage: sh tests/run.sh BUILD_DIR}
cd "$(dirname "$0")/.." || exit 2
CORPUS=${CXLA_CORPUS:-tests/corpus}
JOBS=${CXLA_TEST_JOBS:-2}

passed=0
failed=0
skipped=0
logdir=$(mktemp -d "${TMPDIR:-/tmp}/cxla_test.XXXXXX") || exit 2
trap 'rm -rf "$logdir"' EXIT INT TERM
# The compile cache on disk: a fresh one for this run, never the user's.
CXLA_CACHE_DIR="$logdir/cache"
export CXLA_CACHE_DIR
nlog=0

# account NAME LOG: adds the counts of a finished suite (LOG, LOG.rc,
# LOG.secs) to the totals and prints its PASS/FAIL line.
account() {
  name=$1
  log=$2
  rc=$(cat "$log.rc")
  secs=$(cat "$log.secs")
  counts=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1 |
    sed -E 's/^(.*[^0-9])?([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?.*$/\2 \3 \5/')
  if [ -n "$counts" ]; then
    set -- $counts
    p=$1 f=$2 s=${3:-0}
  elif [ "$rc" -eq 0 ]; then
    p=1 f=0 s=0
  else
    p=0 f=0 s=0
  fi
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    f=1 # crashed or failed without saying so
  fi
  passed=$((passed + p))
  failed=$((failed + f))
  skipped=$((skipped + s))
  if [ "$rc" -eq 0 ] && [ "$f" -eq 0 ]; then
    echo "PASS  $name ($p passed, ${secs}s)"
  else
    echo "FAIL  $name ($p passed, $f failed, exit status $rc, ${secs}s)"
  fi
  echo
}

# run_suite NAME COMMAND...: runs COMMAND with its output shown and logged,
# then adds its counts to the totals.
run_suite() {
  name=$1
  shift
  nlog=$((nlog + 1))
  log="$logdir/$nlog.log"
  start=$(date +%s)
  { "$@" 2>&1; echo "$?" >"$log.rc"; } | tee "$log"
  echo $(( $(date +%s) - start )) >"$log.secs"
  account "$name" "$log"
}

# 1. unit tests, and the command-line tests of step 3 (shown after step 2),
#    $JOBS at a time (each is one process; most run on one thread), each
#    one's output shown whole once all have finished, in order. xargs -P
#    starts the next as soon as a slot is free; the tests known to take
#    longest start first (test_cpu_sort is a third of the unit tests' time
#    under ASan), so that the slots finish together.
SLOW_FIRST="test_cpu_sort test_cpu_diff test_cpu_chain test_cpu_rows test_cpu_stream test_pass_while test_cpu_threads"
# $logdir/job.sh DIR N: runs job N (DIR/N.cmd: "unit PATH" or "cli PATH"),
# its output to DIR/N.log, exit status to DIR/N.log.rc, seconds to
# DIR/N.log.secs (what account reads).
cat >"$logdir/job.sh" <<'EOF2'
d=$1 n=$2
read -r kind path <"$d/$n.cmd"
start=$(date +%s)
if [ "$kind" = unit ]; then
  "$path" "$CORPUS" >"$d/$n.log" 2>&1
else
  sh "$path" "$BUILD/cxla" >"$d/$n.log" 2>&1
fi
echo "$?" >"$d/$n.log.rc"
echo $(( $(date +%s) - start )) >"$d/$n.log.secs"
EOF2
found=0
: >"$logdir/units"
: >"$logdir/clis"
: >"$logdir/order"
for t in "$BUILD"/tests/test_*; do
  [ -x "$t" ] || continue
  found=1
  nlog=$((nlog + 1))
  echo "unit $t" >"$logdir/$nlog.cmd"
  echo "$nlog $(basename "$t")" >>"$logdir/units"
done
if [ -x "$BUILD/cxla" ]; then
  for t in tests/cli/*.sh; do
    [ -f "$t" ] || continue
    nlog=$((nlog + 1))
    echo "cli $t" >"$logdir/$nlog.cmd"
    echo "$nlog $(basename "$t")" >>"$logdir/clis"
  done
fi
for s in $SLOW_FIRST; do
  grep " $s\$" "$logdir/units" | cut -d' ' -f1 >>"$logdir/order"
done
cat "$logdir/units" "$logdir/clis" | cut -d' ' -f1 | grep -vxF -f "$logdir/order" >"$logdir/order.rest"
cat "$logdir/order.rest" >>"$logdir/order"
CORPUS=$CORPUS BUILD=$BUILD xargs -P "$JOBS" -n 1 sh "$logdir/job.sh" "$logdir" <"$logdir/order"
if [ "$found" -eq 0 ]; then
  echo "FAIL  no unit test binaries in $BUILD/tests (run make first)"
  failed=$((failed + 1))
else
  while read -r n tname; do
    cat "$logdir/$n.log"
    account "unit $tname" "$logdir/$n.log"
  done <"$logdir/units"
fi

# 2. conformance
if [ ! -x "$BUILD/cxla" ]; then
  echo "FAIL  $BUILD/cxla is missing"
  failed=$((failed + 1))
elif [ -n "$(find "$CORPUS" -name case.json 2>/dev/null | head -n 1)" ]; then
  run_suite "conformance, interp ($CORPUS)" "$BUILD/cxla" conform "$CORPUS" --which both \
    --backend interp --expect-fail tests/conform_expected_failures.txt -j "$JOBS"
  run_suite "conformance, cpu ($CORPUS)" "$BUILD/cxla" conform "$CORPUS" --which both \
    --backend cpu --expect-fail tests/conform_expected_failures_cpu.txt -j "$JOBS"
  # The same programs from their StableHLO text (module.mlir): the reader
  # and importer must give the results module.hlo gives.
  run_suite "conformance, StableHLO text ($CORPUS)" "$BUILD/cxla" conform "$CORPUS" \
    --which mlir --expect-fail tests/conform_expected_failures.txt -j "$JOBS"
  # ... and from their portable artifacts (module.mlirbc, MLIR bytecode).
  run_suite "conformance, StableHLO portable artifact ($CORPUS)" "$BUILD/cxla" conform \
    "$CORPUS" --which mlirbc --expect-fail tests/conform_expected_failures.txt -j "$JOBS"
  # Cases from JAX's own primitive harnesses that once failed
  # (tools/corpus/gen_harness.py): every input form, both backends.
  if [ -d tests/harness ]; then
    run_suite "conformance, JAX primitive harnesses, interp" "$BUILD/cxla" conform tests/harness \
      --which all --backend interp --expect-fail tests/conform_expected_failures.txt -j "$JOBS"
    run_suite "conformance, JAX primitive harnesses, cpu" "$BUILD/cxla" conform tests/harness \
      --which all --backend cpu -j "$JOBS"
  fi
  # Shape-polymorphic programs (jax.export with symbolic shapes,
  # tools/corpus/gen_poly.py; JAX's own back-compat artifacts): refined to
  # the arguments' shapes, from both StableHLO forms, on both backends.
  if [ -d tests/poly ]; then
    for b in interp cpu; do
      for w in mlir mlirbc; do
        run_suite "conformance, shape-polymorphic StableHLO ($w), $b" "$BUILD/cxla" conform \
          tests/poly --which $w --backend $b -j "$JOBS"
      done
    done
  fi
  # TensorFlow programs with bounded dynamic shapes (tf.where,
  # tf.boolean_mask: tools/corpus/gen_tf_dynamic.py): the dynamic padder,
  # from TensorFlow's HLO and XLA's optimized HLO, on both backends.
  if [ -d tests/tf_dynamic ]; then
    for b in interp cpu; do
      run_suite "conformance, TensorFlow bounded dynamic shapes, $b" "$BUILD/cxla" conform \
        tests/tf_dynamic --which both --backend $b -j "$JOBS"
    done
  fi
  # Programs that are not in the corpus (tools/corpus/stablehlo_unseen.py),
  # from their StableHLO text and their HLO.
  if [ -d tests/stablehlo/unseen ]; then
    run_suite "conformance, unseen StableHLO programs" "$BUILD/cxla" conform tests/stablehlo/unseen \
      --which mlir -j "$JOBS"
    run_suite "conformance, unseen StableHLO programs (portable artifacts)" "$BUILD/cxla" conform \
      tests/stablehlo/unseen --which mlirbc -j "$JOBS"
  fi
else
  echo "SKIP  conformance: no cases under $CORPUS"
  echo
  skipped=$((skipped + 1))
fi

# 3. command-line tests (run in step 1)
while read -r n tname; do
  cat "$logdir/$n.log"
  account "cli $tname" "$logdir/$n.log"
done <"$logdir/clis"

# 4. the corpus checker
if [ ! -f tools/corpus/check.py ]; then
  echo "SKIP  corpus check: tools/corpus/check.py is not there"
  echo
  skipped=$((skipped + 1))
elif python3 -c 'import numpy' >/dev/null 2>&1; then
  run_suite "corpus check" python3 tools/corpus/check.py tests/corpus tests/harness
else
  echo "SKIP  corpus check: python3 cannot import numpy (sh tools/deps.sh installs it)"
  echo
  skipped=$((skipped + 1))
fi

# 5. fuzz-crash replays
for r in "$BUILD"/fuzz/replay*; do
  [ -x "$r" ] || continue
  run_suite "fuzz $(basename "$r")" "$r" fuzz
done

# 6. benchmark harness smoke test
if command -v python3 >/dev/null 2>&1 && [ -x "$BUILD/cxla" ] && [ -f bench/run.py ]; then
  run_suite "bench smoke" python3 bench/run.py --smoke --cxla "$BUILD/cxla" --peak "$BUILD/bench/peak"
fi

# 7. JAX on cxla (python/tests, pytest) through build/libcxla_pjrt.so, with
#    the python that has jax and pytest: $CXLA_JAX_PYTHON, else .venv-jax/
#    (what .ci/run makes), else python3.
jaxpy=${CXLA_JAX_PYTHON:-}
if [ -z "$jaxpy" ] && [ -x .venv-jax/bin/python ]; then jaxpy=.venv-jax/bin/python; fi
[ -n "$jaxpy" ] || jaxpy=python3
if [ "${CXLA_TEST_JAX:-1}" = 0 ]; then
  echo "SKIP  JAX on cxla: not with a sanitizer build (python cannot load its runtime)"
  echo
  skipped=$((skipped + 1))
elif [ ! -f "$BUILD/libcxla_pjrt.so" ]; then
  echo "SKIP  JAX on cxla: $BUILD/libcxla_pjrt.so is missing (make pjrt)"
  echo
  skipped=$((skipped + 1))
elif "$jaxpy" -c 'import jax, pytest' >/dev/null 2>&1; then
  run_suite "JAX on cxla (python/tests)" env CXLA_PJRT_LIBRARY="$BUILD/libcxla_pjrt.so" \
    "$jaxpy" -m pytest -q -p no:cacheprovider python/tests
else
  echo "SKIP  JAX on cxla: $jaxpy cannot import jax and pytest (set CXLA_JAX_PYTHON, or see python/README.md)"
  echo
  skipped=$((skipped + 1))
fi

if [ "$skipped" -gt 0 ]; then
  echo "total: $passed passed, $failed failed, $skipped skipped"
else
  echo "total: $passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
