#!/bin/sh
# The shared library build/libcxla.so: it exports the public API and nothing
# else (every dynamic symbol cxla_-prefixed; no internal helper), the library
# objects hold no mutable global data (.data/.bss objects), and a host
# program built from the public headers alone runs a module through it
# (tests/embed/embed_runtime.c, built by make as BUILD/tests/embed_runtime).
#
# usage: sh tests/cli/test_libcxla.sh PATH/TO/BUILD/cxla
set -u
CLI_DIR=$(cd "$(dirname "$0")" && pwd)
CXLA=${1:?usage: sh tests/cli/test_libcxla.sh PATH/TO/cxla}
BUILD=$(cd "$(dirname "$CXLA")" && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/cxla_lib.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT INT TERM
cd "$T" || exit 2
. "$CLI_DIR/checks.lib"

SO="$BUILD/libcxla.so"
if [ ! -f "$SO" ]; then
  bad "$SO is missing (make builds it)"
  echo "libcxla: $pass passed, $fail failed"
  exit 1
fi

nm -D --defined-only "$SO" | awk '{print $3}' | sort >exports
[ -s exports ] && ok || bad "libcxla.so exports nothing"
grep -v '^cxla_' exports >stray
[ -s stray ] && bad "exported names without the cxla_ prefix: $(head -n 5 stray | tr '\n' ' ')" || ok
for f in cxla_client_create cxla_client_compile cxla_executable_execute cxla_buffer_from_host \
  cxla_buffer_to_host cxla_event_await cxla_module_parse cxla_module_optimize cxla_status_make; do
  grep -qx "$f" exports && ok || bad "libcxla.so does not export $f"
done
# internal helpers stay hidden, cxla_-prefixed or not
for f in cxla_malloc cxla_format cxla_read_file arena_alloc buffer_assign pipeline_run \
  rt_check interp_call; do
  grep -qx "$f" exports && bad "libcxla.so exports the internal $f" || ok
done

# No mutable globals: no object in .data or .bss in any library object
# (constant tables live in .rodata/.data.rel.ro; the allocation-failure test
# hook is thread-local, .tbss; sanitizers' own bookkeeping symbols aside).
# A pthread_once_t named *_once is allowed: one-time process setup that a
# library cannot avoid (e.g. initialising LLVM's targets). So is the
# bookkeeping of OpenBLAS's thread count, itself one process-wide setting
# (src/cpu/blas_threads.c: g_blas_*, under its mutex), in that file only.
: >mutable
for o in $(find "$BUILD/src" -name '*.o'); do
  objdump -t "$o" | awk -v o="${o#$BUILD/}" '$0 ~ / O \.(data|bss)([. \t]|$)/ && $0 !~ /\.data\.rel\.ro/ && $NF !~ /^_+(odr_)?asan|^_+tsan|^_+ubsan|_once$/ && !(o ~ /cpu\/blas_threads\.o$/ && $NF ~ /^g_blas_/) {print o ": " $NF}' >>mutable
done
[ -s mutable ] && bad "mutable global data: $(head -n 5 mutable | tr '\n' ' ')" || ok

if [ -x "$BUILD/tests/embed_runtime" ]; then
  check "embed through libcxla.so" 0 "^embed: [0-9]+ passed, 0 failed$" "$BUILD/tests/embed_runtime"
  ldd "$BUILD/tests/embed_runtime" 2>/dev/null | grep -q 'libcxla\.so' && ok ||
    bad "embed_runtime does not load libcxla.so"
else
  bad "$BUILD/tests/embed_runtime is missing (make builds it)"
fi

echo "libcxla: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
