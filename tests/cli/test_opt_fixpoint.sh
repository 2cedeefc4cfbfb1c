#!/bin/sh
# The default pipeline reaches its fixed point: optimizing an optimized
# module changes nothing. For every corpus module and every benchmark
# module (bench/cases/*/module.hlo): `cxla opt` of `cxla opt`'s output
# prints exactly the same text. Also two scale checks that are not timed:
# a chain where every value is used twice (40 steps; exponential work in a
# fusion query would hang it) and a 20k-instruction elementwise chain.
#
# usage: sh tests/cli/test_opt_fixpoint.sh PATH/TO/cxla
# Ends with "opt fixpoint: N passed, M failed"; a missing corpus fails.
set -u
CLI_DIR=$(cd "$(dirname "$0")" && pwd)

CXLA=${1:?usage: sh tests/cli/test_opt_fixpoint.sh PATH/TO/cxla}
case "$CXLA" in /*) ;; *) CXLA="$(pwd)/$CXLA" ;; esac
REPO=$(cd "$(dirname "$0")/../.." && pwd)
CORPUS=${CXLA_CORPUS:-$REPO/tests/corpus}
case "$CORPUS" in /*) ;; *) CORPUS="$REPO/$CORPUS" ;; esac
T=$(mktemp -d "${TMPDIR:-/tmp}/cxla_fixpoint.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT INT TERM
cd "$T" || exit 2

. "$CLI_DIR/checks.lib"

# fixpoint NAME FILE: opt(FILE) runs, and opt(opt(FILE)) prints the same.
fixpoint() {
  if ! "$CXLA" opt "$2" >once.hlo 2>err; then
    bad "$1: cxla opt failed"
  elif ! "$CXLA" opt once.hlo >twice.hlo 2>err; then
    bad "$1: cxla opt of its own output failed"
  elif ! cmp -s once.hlo twice.hlo; then
    diff once.hlo twice.hlo | head -n 12 >out
    bad "$1: a second optimization changes the module"
  else
    ok
  fi
}

n=0
for f in "$CORPUS"/*/module.hlo "$REPO"/bench/cases/*/module.hlo; do
  [ -f "$f" ] || continue
  n=$((n + 1))
  fixpoint "$(basename "$(dirname "$f")")" "$f"
done
[ "$n" -ge 100 ] || bad "found only $n corpus and bench modules (want every one: is the corpus there?)"

# ---- scale, not timed: these finish at once when compile time is linear ----
# The same modules as bench/compile/gen_scale.py's `twice 40` and `chain 20000`.
awk 'BEGIN { print "HloModule twice_40\n\nENTRY main {\n  p = f32[16]{0} parameter(0)";
  print "  z.0 = f32[16]{0} exponential(p)";
  for (i = 1; i <= 40; i++) printf "  %sz.%d = f32[16]{0} add(z.%d, z.%d)\n", (i == 40 ? "ROOT " : ""), i, i - 1, i - 1;
  print "}" }' >twice40.hlo
check "40-step used-twice chain optimizes" 0 "" "$CXLA" opt twice40.hlo
awk 'BEGIN { split("add multiply subtract maximum minimum", op, " ");
  print "HloModule chain_20000\n\nENTRY main {\n  p = f32[16]{0} parameter(0)";
  print "  x.0 = f32[16]{0} exponential(p)";
  for (i = 1; i < 20000; i++) {
    r = (i == 19999 ? "ROOT " : "");
    if (i % 7 == 0) printf "  %sx.%d = f32[16]{0} tanh(x.%d)\n", r, i, i - 1;
    else printf "  %sx.%d = f32[16]{0} %s(x.%d, p)\n", r, i, op[i % 5 + 1], i - 1;
  }
  print "}" }' >chain20k.hlo
check "20k elementwise chain optimizes" 0 "" "$CXLA" opt chain20k.hlo
grep -c 'fusion(' out | grep -q '^[1-9]' && ok || bad "20k chain: no fusion in the output"

echo "opt fixpoint: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
