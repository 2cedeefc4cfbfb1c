#!/bin/sh
# Seed directories for the fuzzers, outside the repository (never commit
# them): sh fuzz/make_seeds.sh OUT_DIR [N_RANDOM]
#
#   OUT/hlo     corpus module.hlo/optimized.hlo, also with their arguments
#               appended after a NUL (fuzz_run fills the parameters from
#               those bytes; needs python3 with numpy, skipped otherwise)
#   OUT/unit    the HLO modules written as string literals in tests/unit/*.c
#               (small, many near-invalid) and nothing else
#   OUT/gen     N_RANDOM (default 300) modules of tests/gen/random_hlo.c
#   OUT/npy     corpus .npy files under 64 KiB
#   OUT/json    corpus case.json files
#   OUT/mlirbc  portable artifacts: corpus and tests/stablehlo/unseen module.mlirbc
# Then, e.g.:
#   build-fuzz/fuzz_run -dict=fuzz/hlo.dict -max_total_time=300 -jobs=1 \
#     -rss_limit_mb=2048 -malloc_limit_mb=256 -timeout=10 \
#     OUT/work-run OUT/hlo OUT/unit OUT/gen
#   build-fuzz/fuzz_npy -dict=fuzz/npy.dict ... OUT/work-npy OUT/npy
#   build-fuzz/fuzz_json -dict=fuzz/json.dict ... OUT/work-json OUT/json
#   build-fuzz/fuzz_stablehlo_bc -max_total_time=600 -rss_limit_mb=2048 -timeout=10 \
#     OUT/work-bc OUT/mlirbc
#   build-san/mutate_sweep -n 200 OUT/gen   (also tests/corpus, OUT/unit)
set -eu
OUT=${1:?usage: sh fuzz/make_seeds.sh OUT_DIR [N_RANDOM]}
NGEN=${2:-300}
cd "$(dirname "$0")/.."
CORPUS=${CXLA_CORPUS:-tests/corpus}
mkdir -p "$OUT/hlo" "$OUT/unit" "$OUT/gen" "$OUT/npy" "$OUT/json" "$OUT/mlirbc" \
  "$OUT/work-run" "$OUT/work-npy" "$OUT/work-json" "$OUT/work-bc"

for c in "$CORPUS"/*/; do
  n=$(basename "$c")
  for k in module optimized; do
    [ -f "$c/$k.hlo" ] && cp "$c/$k.hlo" "$OUT/hlo/$n.$k.hlo"
  done
  [ -f "$c/case.json" ] && cp "$c/case.json" "$OUT/json/$n.json"
  [ -f "$c/module.mlirbc" ] && cp "$c/module.mlirbc" "$OUT/mlirbc/$n.mlirbc"
  find "$c" -name '*.npy' -size -64k | while read -r f; do
    cp "$f" "$OUT/npy/$n.$(basename "$(dirname "$f")").$(basename "$f")"
  done
done
for c in tests/stablehlo/unseen/*/; do
  [ -f "$c/module.mlirbc" ] && cp "$c/module.mlirbc" "$OUT/mlirbc/unseen_$(basename "$c").mlirbc"
done

python3 - "$CORPUS" "$OUT" <<'PY' || echo "make_seeds: python3 step skipped" >&2
import ast, glob, hashlib, json, os, re, sys
corpus, out = sys.argv[1], sys.argv[2]
# unit-test modules: adjacent C string literals that hold a whole module
for f in glob.glob('tests/unit/*.c'):
    src = open(f).read()
    for m in re.finditer(r'(?:"(?:[^"\\\n]|\\.)*"\s*)+', src):
        lits = re.findall(r'"((?:[^"\\\n]|\\.)*)"', m.group(0))
        try:
            s = ''.join(ast.literal_eval('"' + l + '"') for l in lits)
        except Exception:
            continue
        if 'HloModule' in s and 'ENTRY' in s:
            s = s[s.index('HloModule'):]
            h = hashlib.sha1(s.encode()).hexdigest()[:12]
            open(os.path.join(out, 'unit', h + '.hlo'), 'w').write(s)
try:
    import numpy as np
except ImportError:
    sys.exit(0)
for c in sorted(os.listdir(corpus)):
    try:
        case = json.load(open(os.path.join(corpus, c, 'case.json')))
        raw = b''.join(np.load(os.path.join(corpus, c, a['file'])).tobytes() for a in case['args'])
    except Exception:
        continue
    for k in ('module', 'optimized'):
        p = os.path.join(corpus, c, k + '.hlo')
        if os.path.exists(p):
            open(os.path.join(out, 'hlo', c + '.' + k + '.args.hlo'), 'wb').write(
                open(p, 'rb').read() + b'\0' + raw[:65536])
PY

gen=$(mktemp -d "${TMPDIR:-/tmp}/cxla_gen.XXXXXX")
trap 'rm -rf "$gen"' EXIT
cat >"$gen/gen.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include "random_hlo.c"
int main(int argc, char **argv) {
  for (int i = 0; i < atoi(argv[2]); i++) {
    char *t = random_hlo_text(1000 + (uint64_t)i), p[4096];
    snprintf(p, sizeof p, "%s/gen%04d.hlo", argv[1], i);
    FILE *f = fopen(p, "w");
    if (f && t) fputs(t, f);
    if (f) fclose(f);
    cxla_free(t);
  }
  return 0;
}
C
make -s build/libcxla.a
${CC:-cc} -std=c11 -D_GNU_SOURCE -O1 -Iinclude -Isrc -Itests/unit -Itests/gen "$gen/gen.c" \
  build/libcxla.a -lm -lpthread -o "$gen/gen" && "$gen/gen" "$OUT/gen" "$NGEN"
echo "seeds: $(ls "$OUT/hlo" | wc -l) hlo, $(ls "$OUT/unit" | wc -l) unit, $(ls "$OUT/gen" | wc -l) gen, $(ls "$OUT/npy" | wc -l) npy, $(ls "$OUT/json" | wc -l) json"
