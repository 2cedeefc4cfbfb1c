#!/bin/sh
# The bundled example (`make run`): a real program from the corpus, one
# training step of a small MLP as JAX lowered it (softmax cross-entropy
# loss, gradients, SGD update), taken through cxla's command-line tool:
# check, fmt, run, conform.
#
# usage: sh tools/example.sh BUILD_DIR
set -u
BUILD=${1:-build}
cd "$(dirname "$0")/.." || exit 2
CXLA="$BUILD/cxla"
CASE=tests/corpus/model_mlp_train_step

if [ ! -x "$CXLA" ]; then
  echo "example: $CXLA is missing; run make first" >&2
  exit 1
fi
if [ ! -f "$CASE/case.json" ]; then
  echo "example: $CASE is missing (the corpus lives in tests/corpus)" >&2
  exit 1
fi

step() {
  echo
  echo "\$ $*"
  "$@"
}

echo "== $CASE: $(sed -n 's/.*"description": "\([^"]*\)".*/\1/p' "$CASE/case.json")"

# 1. Parse and verify.
step "$CXLA" check "$CASE/module.hlo" || exit 1

# 2. The canonical text, first lines.
echo
echo "\$ $CXLA fmt $CASE/module.hlo | head -n 20"
"$CXLA" fmt "$CASE/module.hlo" >"${TMPDIR:-/tmp}/cxla_example_fmt.$$" || exit 1
head -n 20 "${TMPDIR:-/tmp}/cxla_example_fmt.$$"
echo "... ($(wc -l <"${TMPDIR:-/tmp}/cxla_example_fmt.$$") lines)"
rm -f "${TMPDIR:-/tmp}/cxla_example_fmt.$$"

# 3. Run it on the case's inputs: the loss and the updated parameters.
args=""
i=0
while [ -f "$CASE/args/$i.npy" ]; do
  args="$args $CASE/args/$i.npy"
  i=$((i + 1))
done
echo
echo "\$ $CXLA run $CASE/module.hlo $CASE/args/{0..$((i - 1))}.npy"
# shellcheck disable=SC2086
"$CXLA" run "$CASE/module.hlo" $args || exit 1

# 4. Compare with XLA's own results, for the module as written and for
#    XLA:CPU's optimized version of it.
step "$CXLA" conform "$CASE" -v
