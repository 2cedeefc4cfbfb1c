# cxla build. `make` builds build/cxla, build/libcxla.a, build/libcxla.so
# and build/libcxla_testing.a (testing/: .npy, case.json, result comparison
# for the tools and tests; not part of libcxla); `make test` runs
# every test; `make run` installs what is missing, builds and runs the
# bundled example. Variables: CC (gcc or clang), SAN=1 (ASan+UBSan build in
# build-san/), OPT (optimisation flags: -O2 -g, -O1 -g1 with SAN=1).

CC      ?= cc
SAN     ?=
# The sanitizer build is optimised less by default: gcc instruments the
# runtime's vector kernels (src/cpu/rt_window.c) at -O2 -g in several
# minutes, at -O1 -g1 (line tables: reports keep file:line) in about a
# minute, and the suite runs about as fast.
ifeq ($(SAN),1)
  OPT   ?= -O1 -g1
else
  OPT   ?= -O2 -g
endif
CFLAGS_BASE = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wno-unused-parameter \
              -Iinclude -Isrc -I. $(OPT)
ifeq ($(SAN),1)
  BUILD   ?= build-san
  SANFLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
else
  BUILD   ?= build
  SANFLAGS =
endif
CFLAGS  = $(CFLAGS_BASE) $(SANFLAGS) $(EXTRA_CFLAGS)
# The CPU backend (src/codegen, src/cpu) uses LLVM 19's C API and OpenBLAS.
LLVM_CONFIG ?= /usr/lib/llvm-19/bin/llvm-config
LLVM_CFLAGS := $(shell $(LLVM_CONFIG) --cflags 2>/dev/null)
LLVM_LIBS   := $(shell $(LLVM_CONFIG) --ldflags --libs core orcjit native passes 2>/dev/null)
LDLIBS  = $(LLVM_LIBS) -lopenblas -lm -lpthread
# LDFLAGS go to every link (CI: -fuse-ld=gold, which links a test binary
# with its debug information in a fifth of the default linker's time).
LDFLAGS ?=

# src/pjrt is the PJRT plugin (build/libcxla_pjrt.so, `make pjrt`), not libcxla.
LIB_SRC   := $(sort $(filter-out src/pjrt/%,$(wildcard src/*/*.c)))
PJRT_SRC  := $(sort $(wildcard src/pjrt/*.c))
PJRT_OBJ  := $(PJRT_SRC:%.c=$(BUILD)/%.o)
TESTING_SRC := $(sort $(wildcard testing/*.c))
TOOL_SRC  := $(sort $(wildcard tools/cxla/*.c))
TEST_SRC  := $(sort $(wildcard tests/unit/test_*.c))
LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/%.o)
TESTING_OBJ := $(TESTING_SRC:%.c=$(BUILD)/%.o)
TOOL_OBJ  := $(TOOL_SRC:%.c=$(BUILD)/%.o)
TEST_BINS := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
DEPS      := $(PJRT_OBJ:.o=.d) $(LIB_OBJ:.o=.d) $(TESTING_OBJ:.o=.d) $(TOOL_OBJ:.o=.d)
# What tools and tests link: the testing library, then libcxla.
LINK_LIBS := $(BUILD)/libcxla_testing.a $(BUILD)/libcxla.a

.PHONY: all test run deps clean fuzz sweep test-san check-corpus
all: $(BUILD)/cxla $(BUILD)/libcxla.so $(BUILD)/libcxla_pjrt.so $(TEST_BINS) $(BUILD)/tests/embed_runtime

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

# Library objects are position-independent with hidden symbols: the same
# objects go into the static archive (tools, tests) and the shared library,
# which exports only what the public headers mark CXLA_API.
$(LIB_OBJ): CFLAGS += -fPIC -fvisibility=hidden
# The window routines' multiply-adds are fused (gcc's ISO C modes keep them
# apart unless told; clang fuses within an expression by default): a
# depthwise convolution's taps take one instruction each, not two.
$(BUILD)/src/cpu/rt_window.o: CFLAGS += -ffp-contract=fast

# The archive is rebuilt when the list of sources changes too, so objects of
# deleted files never linger in it.
$(BUILD)/objs.list: FORCE
	@mkdir -p $(BUILD)
	@echo "$(LIB_OBJ)" | cmp -s - $@ || echo "$(LIB_OBJ)" > $@

$(BUILD)/libcxla.a: $(LIB_OBJ) $(BUILD)/objs.list
	@rm -f $@
	ar rcs $@ $(LIB_OBJ)

# Backends that need more libraries (LLVM) add them to SO_LDLIBS.
SO_LDLIBS ?=
# The version script keeps the dynamic symbol table to the public cxla_
# names (linking LLVM would otherwise export the linker's __bss_start,
# _edata, _end).
$(BUILD)/libcxla.map:
	@mkdir -p $(BUILD)
	echo '{ global: cxla_*; local: *; };' > $@
$(BUILD)/libcxla.so: $(LIB_OBJ) $(BUILD)/objs.list $(BUILD)/libcxla.map
	$(CC) $(CFLAGS) -shared -Wl,--no-undefined -Wl,-soname,libcxla.so \
	  -Wl,--version-script,$(BUILD)/libcxla.map $(LIB_OBJ) $(SO_LDLIBS) $(LDLIBS) $(LDFLAGS) -o $@

# The PJRT plugin: src/pjrt over the public API, with libcxla linked in
# statically (hidden), so the .so stands alone; it exports GetPjrtApi only.
.PHONY: pjrt
pjrt: $(BUILD)/libcxla_pjrt.so
$(PJRT_OBJ): CFLAGS += -fPIC -fvisibility=hidden -Ithird_party/pjrt
$(BUILD)/libcxla_pjrt.so: $(PJRT_OBJ) $(BUILD)/libcxla.a src/pjrt/export.map
	$(CC) $(CFLAGS) -shared -Wl,--no-undefined -Wl,-soname,libcxla_pjrt.so -Wl,--exclude-libs,ALL \
	  -Wl,--version-script,src/pjrt/export.map $(PJRT_OBJ) \
	  $(BUILD)/libcxla.a $(SO_LDLIBS) $(LDLIBS) $(LDFLAGS) -o $@

$(BUILD)/libcxla_testing.a: $(TESTING_OBJ)
	@rm -f $@
	ar rcs $@ $(TESTING_OBJ)

FORCE:

$(BUILD)/cxla: $(TOOL_OBJ) $(LINK_LIBS)
	$(CC) $(CFLAGS) $(TOOL_OBJ) $(LINK_LIBS) $(LDLIBS) $(LDFLAGS) -o $@

# Test-only headers and the random module generator (tests/gen) that tests
# #include are prerequisites too. Helpers several unit tests share
# (tests/unit/*.c other than test_*.c: cpu_vs_interp.c) are compiled once
# into build/tests/libunit.a, which every unit test links.
UNIT_SUPPORT_SRC := $(filter-out tests/unit/test_%,$(wildcard tests/unit/*.c))
UNIT_SUPPORT_OBJ := $(UNIT_SUPPORT_SRC:tests/unit/%.c=$(BUILD)/tests/support/%.o)
UNIT_SUPPORT := $(BUILD)/tests/libunit.a
$(BUILD)/tests/support/%.o: tests/unit/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/unit -MMD -MP -c $< -o $@
-include $(UNIT_SUPPORT_OBJ:.o=.d)
$(UNIT_SUPPORT): $(UNIT_SUPPORT_OBJ)
	@rm -f $@
	ar rcs $@ $(UNIT_SUPPORT_OBJ)
$(BUILD)/tests/%: tests/unit/%.c tests/unit/harness.h $(wildcard tests/unit/*.h tests/gen/*) $(UNIT_SUPPORT) $(LINK_LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/unit $< $(UNIT_SUPPORT) $(LINK_LIBS) $(LDLIBS) $(LDFLAGS) -o $@

# The plugin's test drives it through GetPjrtApi (linked in, no dlopen).
$(BUILD)/tests/test_pjrt: tests/unit/test_pjrt.c tests/unit/harness.h $(PJRT_OBJ) $(LINK_LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/unit -Ithird_party/pjrt $< $(PJRT_OBJ) $(LINK_LIBS) $(SO_LDLIBS) $(LDLIBS) $(LDFLAGS) -o $@

# Only the backend's objects see LLVM's headers (and the tests that ask the
# emitter how it splits kernels, or the backend whether it has AVX-512).
$(BUILD)/src/codegen/%.o $(BUILD)/src/cpu/%.o $(BUILD)/tests/test_cpu_threads $(BUILD)/tests/test_cpu_seq \
  $(BUILD)/tests/test_cpu_rows $(BUILD)/tests/test_cpu_gemm $(BUILD)/tests/test_cpu_chain $(BUILD)/tests/test_cpu_conv $(BUILD)/tests/test_cpu_fgemm \
  $(BUILD)/tests/test_cpu_tiles: CFLAGS += $(LLVM_CFLAGS)

# A host program that sees only the public headers and the shared library.
$(BUILD)/tests/embed_runtime: tests/embed/embed_runtime.c $(BUILD)/libcxla.so $(wildcard include/cxla/*)
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -Wall -Wextra -Werror -Iinclude $(OPT) $(SANFLAGS) $< -L$(BUILD) -lcxla \
	  -Wl,-rpath,'$$ORIGIN/..' $(LDFLAGS) -o $@

-include $(DEPS)

# The whole suite: unit tests, round trips and conformance over the corpus,
# error-message tests, fuzz-crash replays. Prints "N passed, M failed".
# The JAX suite (python/tests) loads libcxla_pjrt.so into python: not with
# sanitizer builds, whose runtime python does not load first.
test: all
	@CXLA_TEST_JAX=$(if $(filter 1,$(SAN)),0,1) sh tests/run.sh $(BUILD)

# The same suite under AddressSanitizer + UndefinedBehaviorSanitizer.
test-san:
	$(MAKE) SAN=1 test

# The runtime's tests (tests/unit/test_runtime*.c) under ThreadSanitizer,
# in build-tsan-<compiler>/. TSAN_CC picks the compiler (gcc or clang).
TSAN_CC ?= $(CC)
# -O1: clang instruments rt_window.c for TSan at -O2 -g in four times the
# time; TSan sees the same accesses.
TSAN_OPT ?= -O1 -g1
TSAN_BUILD := build-tsan-$(notdir $(TSAN_CC))
TSAN_TESTS := $(patsubst tests/unit/%.c,$(TSAN_BUILD)/tests/%,$(wildcard tests/unit/test_runtime*.c))
.PHONY: test-tsan
test-tsan:
	$(MAKE) CC=$(TSAN_CC) BUILD=$(TSAN_BUILD) OPT="$(TSAN_OPT)" \
	  EXTRA_CFLAGS="-fsanitize=thread -fno-omit-frame-pointer" $(TSAN_TESTS)
	@set -e; for t in $(TSAN_TESTS); do \
	  TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$(CURDIR)/tests/tsan_suppressions.txt" $$t; done

deps:
	@sh tools/deps.sh

# deps first, then a second make for the build: this make read llvm-config's
# flags when it started, before deps could install LLVM on a fresh machine.
run: deps
	@$(MAKE) --no-print-directory all
	@sh tools/example.sh $(BUILD)

# libFuzzer targets (need clang): build-fuzz/fuzz_parse (HLO text reader),
# build-fuzz/fuzz_stablehlo_text (StableHLO text reader and importer),
# build-fuzz/fuzz_run (parse -> verify -> interpret), build-fuzz/fuzz_npy
# (.npy reader/writer), build-fuzz/fuzz_json (JSON parser, case.json) and
# build-fuzz/fuzz_stablehlo_bc (StableHLO portable artifacts, MLIR bytecode).
FUZZ_CC ?= clang
fuzz: build-fuzz/fuzz_parse build-fuzz/fuzz_run build-fuzz/fuzz_npy build-fuzz/fuzz_json \
      build-fuzz/fuzz_stablehlo_text build-fuzz/fuzz_stablehlo_bc
build-fuzz/fuzz_parse: fuzz/fuzz_parse.c $(LIB_SRC) $(TESTING_SRC) $(wildcard src/*/*.h testing/*.h include/cxla/*)
	@mkdir -p build-fuzz
	$(FUZZ_CC) $(CFLAGS_BASE) $(LLVM_CFLAGS) -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	  fuzz/fuzz_parse.c $(LIB_SRC) $(TESTING_SRC) $(LDLIBS) -o $@
build-fuzz/fuzz_run: fuzz/fuzz_run.c fuzz/run_guard.h $(LIB_SRC) $(TESTING_SRC) $(wildcard src/*/*.h testing/*.h include/cxla/*)
	@mkdir -p build-fuzz
	$(FUZZ_CC) $(CFLAGS_BASE) $(LLVM_CFLAGS) -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	  fuzz/fuzz_run.c $(LIB_SRC) $(TESTING_SRC) $(LDLIBS) -o $@
build-fuzz/fuzz_stablehlo_text: fuzz/fuzz_stablehlo_text.c $(LIB_SRC) $(TESTING_SRC) $(wildcard src/*/*.h testing/*.h include/cxla/*)
	@mkdir -p build-fuzz
	$(FUZZ_CC) $(CFLAGS_BASE) $(LLVM_CFLAGS) -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	  fuzz/fuzz_stablehlo_text.c $(LIB_SRC) $(TESTING_SRC) $(LDLIBS) -o $@
build-fuzz/fuzz_stablehlo_bc: fuzz/fuzz_stablehlo_bc.c fuzz/bc_checks.h $(LIB_SRC) $(wildcard src/*/*.h src/*/*.def include/cxla/*)
	@mkdir -p build-fuzz
	$(FUZZ_CC) $(CFLAGS_BASE) $(LLVM_CFLAGS) -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	  $< $(LIB_SRC) $(LDLIBS) -o $@
build-fuzz/fuzz_%: fuzz/fuzz_%.c fuzz/data_checks.h $(LIB_SRC) $(TESTING_SRC) $(wildcard src/*/*.h testing/*.h include/cxla/*)
	@mkdir -p build-fuzz
	$(FUZZ_CC) $(CFLAGS_BASE) $(LLVM_CFLAGS) -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	  $< $(LIB_SRC) $(TESTING_SRC) $(LDLIBS) -o $@

# Mutation sweep over the corpus under ASan+UBSan (fuzz/mutate_sweep.c):
# build-san/mutate_sweep [-n N] tests/corpus. clang's UBSan checks more
# (pointer overflow): make sweep CC=clang SWEEP_BUILD=build-clang-san
SWEEP_BUILD ?= build-san
sweep:
	$(MAKE) SAN=1 BUILD=$(SWEEP_BUILD) $(SWEEP_BUILD)/libcxla.a $(SWEEP_BUILD)/libcxla_testing.a
	$(CC) $(CFLAGS_BASE) -fsanitize=address,undefined -fno-sanitize-recover=all \
	  -fno-omit-frame-pointer fuzz/mutate_sweep.c $(SWEEP_BUILD)/libcxla_testing.a \
	  $(SWEEP_BUILD)/libcxla.a $(LDLIBS) \
	  -o $(SWEEP_BUILD)/mutate_sweep

clean:
	rm -rf build build-san build-fuzz build-tsan-*

# ---- benchmarks: cxla vs XLA:CPU and the peers (bench/README.md) ------------
# `make bench` runs every case and writes bench/results/<date>.{md,json,png};
# `make bench-quick` a few small ones (<date>-quick.*); `make bench-smoke`
# checks the harness without jax (CI). BENCH_ARGS go to bench/run.py.
PYTHON     ?= python3
BENCH_PY    = bench/.venv/bin/python
BENCH_ARGS ?=
.PHONY: bench bench-quick bench-smoke bench-compile

$(BUILD)/bench/peak: bench/peak.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -O3 -march=native $< -lopenblas -lpthread -o $@

# The peers (IREE, torch; bench/requirements-peers.txt) install one by one: one
# that fails is logged in bench/.venv/peers-install.log and shown as "—".
bench/.venv/.installed: bench/requirements.txt bench/requirements-peers.txt
	test -x $(BENCH_PY) || $(PYTHON) -m venv bench/.venv
	$(BENCH_PY) -m pip install -q -r bench/requirements.txt
	$(BENCH_PY) bench/peers.py --install bench/requirements-peers.txt
	touch $@

bench: $(BUILD)/cxla $(BUILD)/bench/peak bench/.venv/.installed
	$(BENCH_PY) bench/gen.py
	$(BENCH_PY) bench/run.py --cxla $(BUILD)/cxla --peak $(BUILD)/bench/peak $(BENCH_ARGS)

bench-quick: $(BUILD)/cxla $(BUILD)/bench/peak bench/.venv/.installed
	$(BENCH_PY) bench/gen.py --quick
	$(BENCH_PY) bench/run.py --quick --cxla $(BUILD)/cxla --peak $(BUILD)/bench/peak $(BENCH_ARGS)

# Compile time of check, opt and a cold cpu build on generated modules of 1k, 10k and 100k
# instructions (bench/compile/run.py); prints a table, never fails on time.
bench-compile: $(BUILD)/cxla
	$(PYTHON) bench/compile/run.py --cxla $(BUILD)/cxla --out $(BUILD)/bench-compile $(BENCH_ARGS)

bench-smoke: $(BUILD)/cxla $(BUILD)/bench/peak
	$(PYTHON) bench/run.py --smoke --cxla $(BUILD)/cxla --peak $(BUILD)/bench/peak
