# gpuprof — one GNU Makefile, out-of-tree build in $(BUILD)/.
#   make              build $(BUILD)/gpuprof (device code for sm_75 … sm_90 + PTX)
#   make run          build, then run `gpuprof reduce` on GPU 0 (without a GPU: says so, exit 0)
#   make test         unit, command-line and GPU tests (GPU tests skip without a GPU): builds
#                     what they run in parallel (one job per CPU; a -j given wins), the
#                     CUDA programs of the GPU tests (make apps) only where nvidia-smi -L
#                     lists a GPU (TEST_APPS=1 or TEST_APPS=0 decides instead), then runs
#                     the tests side by side (with a GPU, the GPU tests one at a time);
#                     the comparisons with ncu and the two-GPU job are left to test-ncu
#   make test-ncu     builds the same, then runs the GPU tests that compare with ncu (it
#                     needs ncu) and the job on two GPUs (where there are two)
#   make apps         the programs the GPU tests run: tests/apps, the PM sampler's self-test
#   make check-sanitize  host code with ASan + UBSan, unit and command-line tests on it
#   make fuzz         libFuzzer harnesses (clang) in $(BUILD)/fuzz; make fuzz-run runs them
#   make bench        benchmarks (needs a GPU)
#   make install      PREFIX=/usr/local DESTDIR=
#   make CUDA_ARCH=90 device code for one architecture only (fast local builds)
#   make V=1          the whole commands, not one short line per step

CUDA_HOME ?= /usr/local/cuda
BUILD     ?= build
PREFIX    ?= /usr/local
DESTDIR   ?=
VERSION   := 0.1.0

CC     ?= cc
NVCC   ?= $(CUDA_HOME)/bin/nvcc
PYTHON ?= python3

# A quiet build: each step prints one short line (`  CC    build/src/main.o`); V=1 prints the
# whole commands. Compiler warnings and errors show either way.
V ?= 0
ifeq ($(V),1)
  Q :=
  say =
else
  Q := @
  say = @printf '  %-5s %s\n' '$(1)' '$@';
endif

# Device code: SASS for each listed architecture plus PTX of the newest for later GPUs.
# sm_86 and sm_89 are made from compute_80's PTX when 80 is built too: the same instructions,
# ptxas still tunes the code for each chip (the machine code came out the same), and the
# compiler's front end runs once for the three instead of three times.
CUDA_ARCH ?= 75 80 86 89 90
PTX_ARCH  := $(lastword $(CUDA_ARCH))
ptx_of     = $(if $(and $(filter 86 89,$(1)),$(filter 80,$(CUDA_ARCH))),80,$(1))
GENCODE   := $(foreach a,$(CUDA_ARCH),-gencode=arch=compute_$(call ptx_of,$(a)),code=sm_$(a)) \
             -gencode=arch=compute_$(PTX_ARCH),code=compute_$(PTX_ARCH)

# CUPTI lives in extras/CUPTI/lib64 in NVIDIA's installer layout, in lib64 in others.
CUPTI_LIBDIR := $(firstword $(wildcard $(CUDA_HOME)/extras/CUPTI/lib64) $(CUDA_HOME)/lib64)
CUPTI_INCDIR := $(firstword $(wildcard $(CUDA_HOME)/extras/CUPTI/include) $(CUDA_HOME)/include)

# cJSON: the system's through pkg-config, else staged from the distribution's packages.
CJSON_STAGE := $(BUILD)/third_party/cjson
ifeq ($(shell pkg-config --exists libcjson 2>/dev/null && echo yes),yes)
  CJSON_CFLAGS := $(shell pkg-config --cflags libcjson)
  CJSON_LIBS   := $(shell pkg-config --libs libcjson)
  CJSON_DEP    :=
else
  CJSON_CFLAGS := -I$(CJSON_STAGE)/include
  CJSON_LIBS   := -L$(CJSON_STAGE)/lib -l:libcjson.so.1
  CJSON_DEP    := $(CJSON_STAGE)/lib/libcjson.so.1
endif

# cupti_profiler_host.h includes <string> although it uses nothing from it; an empty
# header of that name, first on the include path, lets C code include it.
SHIM := $(BUILD)/shim

CPPFLAGS := -Iinclude -Isrc -I$(CUPTI_INCDIR) -I$(CUDA_HOME)/include -DGPUPROF_VERSION='"$(VERSION)"'
CFLAGS   ?= -O2 -g
CFLAGS   += -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -MMD -MP
NVFLAGS  ?= -O3 -lineinfo
NVFLAGS  += -std=c++17 $(GENCODE) -Xcompiler=-Wall,-Wextra -MMD -MP
LDLIBS   := -lcupti $(CJSON_LIBS) -lm -lpthread

# The linker: nvcc, or with SANITIZE=1 (set by `make check-sanitize`, below) the C compiler
# with the sanitizers' runtimes and what nvcc would add (static cudart, its libraries).
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
ifdef SANITIZE
  CFLAGS    += $(SAN_FLAGS)
  LINK_OBJ  := $(BUILD)/tests/sanitize/no_deepbind.o
  LINK      := $(CC) $(SAN_FLAGS)
  LINK_LIBS := -L$(CUDA_HOME)/lib64 -lcudart_static -ldl -lrt -lpthread -lstdc++
  rpath      = -Wl,-rpath,$(1)
else
  LINK_OBJ  :=
  LINK      := $(NVCC) $(GENCODE)
  LINK_LIBS :=
  rpath      = -Xlinker -rpath,$(1)
endif
RPATH    := $(call rpath,'$$ORIGIN/third_party/cjson/lib') \
            $(call rpath,'$$ORIGIN/../lib/gpuprof') \
            $(call rpath,$(CUPTI_LIBDIR))

# The host code: one folder per layer (HACKING.md), the library exec injects aside, and the
# CUDA runtime's error helper beside the kernels (kernels/*.c, host C).
SRC_C    := $(filter-out src/inject/%,$(wildcard src/*.c src/*/*.c)) $(wildcard kernels/*.c)
# The library `gpuprof exec` injects into programs: its own sources, the base and counters
# layers, exec's protocol (the options' codec) and the exec request's mode names it shares with
# gpuprof, compiled position-independent, exporting InitializeInjection alone.
INJECT_SRC := $(wildcard src/inject/*.c src/counters/*.c src/base/*.c) src/exec/protocol.c \
              src/report/exec_modes.c
INJECT_OBJ := $(INJECT_SRC:%.c=$(BUILD)/pic/%.o)
INJECT     := $(BUILD)/libgpuprof-inject.so
SRC_CU   := $(wildcard kernels/*.cu)
OBJ_C    := $(SRC_C:%.c=$(BUILD)/%.o)
# The kernels' objects: this build's, or (KERNEL_BUILD=, for the sanitizer build) another's.
KERNEL_BUILD ?= $(BUILD)
OBJ_CU   := $(SRC_CU:%.cu=$(KERNEL_BUILD)/%.o)
# Everything but main.o goes into a static library the unit tests link against.
LIB      := $(BUILD)/libgpuprof.a
BIN      := $(BUILD)/gpuprof
UNIT_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tests/unit/*.c))
UNIT_BIN := $(BUILD)/tests/unit_tests

.PHONY: all run test test-ncu check-sanitize sanitize-run fuzz fuzzers fuzz-run bench \
        install uninstall clean
all: $(BIN) $(INJECT)

$(BIN): $(BUILD)/src/main.o $(LIB) $(LINK_OBJ)
	$(call say,LD)$(LINK) -o $@ $^ -L$(CUPTI_LIBDIR) $(LDLIBS) $(LINK_LIBS) $(RPATH)

$(LIB): $(filter-out $(BUILD)/src/main.o,$(OBJ_C)) $(OBJ_CU)
	$(Q)rm -f $@
	$(call say,AR)ar rcs $@ $^

$(BUILD)/src/%.o: src/%.c $(SHIM)/string $(CJSON_DEP)
	@mkdir -p $(@D)
	$(call say,CC)$(CC) -I$(SHIM) $(CPPFLAGS) $(CJSON_CFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/kernels/%.o: kernels/%.c
	@mkdir -p $(@D)
	$(call say,CC)$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/pic/%.o: %.c $(SHIM)/string
	@mkdir -p $(@D)
	$(call say,CC)$(CC) -I$(SHIM) $(CPPFLAGS) $(CFLAGS) -fPIC -fvisibility=hidden -c -o $@ $<

# libcuda from the toolkit's stubs: the real one is already in every process that loads it.
# Every symbol resolved at link time (-z defs), but in a sanitizer build, whose runtime the
# loading program would provide.
INJECT_DEFS := $(if $(SANITIZE),,-Wl,-z,defs)
$(INJECT): $(INJECT_OBJ)
	$(call say,LD)$(CC) -shared $(if $(SANITIZE),$(SAN_FLAGS)) -o $@ $^ $(INJECT_DEFS) \
	    -L$(CUPTI_LIBDIR) -L$(CUDA_HOME)/lib64/stubs -lcupti -lcheckpoint -lcuda -ldl -lpthread -lm \
	    -Wl,-rpath,$(CUPTI_LIBDIR)

$(KERNEL_BUILD)/kernels/%.o: kernels/%.cu
	@mkdir -p $(@D)
	$(call say,NVCC)$(NVCC) $(CPPFLAGS) $(NVFLAGS) -c -o $@ $<

$(SHIM)/string:
	@mkdir -p $(@D)
	$(Q): > $@

$(CJSON_STAGE)/lib/libcjson.so.1:
	$(call say,STAGE)sh third_party/stage-cjson.sh $(CJSON_STAGE)

$(BUILD)/tests/%.o: tests/%.c $(SHIM)/string $(CJSON_DEP)
	@mkdir -p $(@D)
	$(call say,CC)$(CC) -I$(SHIM) $(CPPFLAGS) $(CJSON_CFLAGS) $(CFLAGS) -c -o $@ $<

# The unit tests live in $(BUILD)/tests/: one folder deeper than the binary.
LINK_TEST = $(LINK) -o $@ $^ -L$(CUPTI_LIBDIR) $(LDLIBS) $(LINK_LIBS) \
	    $(call rpath,'$$ORIGIN/../third_party/cjson/lib') $(call rpath,$(CUPTI_LIBDIR))
# The injected library's NVTX range model needs neither NVTX nor CUPTI: the unit tests link
# its object (tests/unit/test_nvtx_ranges.c).
$(UNIT_BIN): $(UNIT_OBJ) $(LIB) $(LINK_OBJ) $(BUILD)/pic/src/inject/nvtx_ranges.o \
	     $(BUILD)/pic/src/inject/forward_ops.o
	$(call say,LD)$(LINK_TEST)

# An NVTX program without CUDA, for the injected library's NVTX handlers
# (tests/cli/test_nvtx_tool.py): NVTX is headers only, nothing to link.
NVTX_CHECK := $(BUILD)/tests/nvtx_host_check
$(NVTX_CHECK): tests/cli/nvtx_host_check.c
	@mkdir -p $(@D)
	$(call say,CC)$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< -ldl

# The PM sampler's device-side self-test, beside them (tests/gpu/test_pm_sampler.py runs it).
PM_CHECK := $(BUILD)/tests/pm_sampler_check
$(PM_CHECK): $(BUILD)/tests/gpu/pm_sampler_check.o $(LIB) $(LINK_OBJ)
	$(call say,LD)$(LINK_TEST)

# Where gpuprof finds no usable GPU (its exit status 3, after one line saying why), make run
# ends on one line saying so, not on make's own error: the build it asked for is done.
run: $(BIN)
	@$(BIN) reduce; rc=$$?; [ $$rc -ne 3 ] || echo "make run: $(BIN) is built, but there is" \
	    "no usable GPU here to run it on (the line above says why)"; [ $$rc -eq 3 ] || exit $$rc

# The CUDA programs the exec tests run (tests/apps/README.md); `make apps` builds them and
# the PM sampler's self-test: every program the GPU tests run.
include tests/apps/apps.mk
apps: $(PM_CHECK)

# make test: `make test` alone builds in parallel, one job per CPU (a -j given on the command
# line wins; beside other goals, as in `make clean test`, make stays serial). The programs
# the GPU tests run are built where nvidia-smi lists a GPU, or as TEST_APPS=1 or 0 says;
# without them the GPU tests skip, or fail where a GPU is usable (tests/run_tests.py), and
# the command-line tests skip the README's exec examples. tests/run_tests.py runs the tests
# side by side, but with a usable GPU the GPU tests one at a time, after the rest.
# make test-ncu builds the same and runs the ncu tier (tests/run_tests.py --tier=ncu): the
# GPU suites with comparisons with ncu or the job on two GPUs, those parts included.
ifneq ($(filter $(MAKECMDGOALS)$(MAKELEVEL),test0 test-ncu0),)
  MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 1)
endif
ifndef TEST_APPS
  TEST_APPS := $(if $(filter test test-ncu,$(MAKECMDGOALS)),$(if $(shell nvidia-smi -L \
                   2>/dev/null | grep '^GPU'),1,0))
endif
NO_APPS_WHY = $(if $(filter file,$(origin TEST_APPS)),nvidia-smi -L lists no GPU,TEST_APPS=$(TEST_APPS))
# The fuzz harnesses compiled (not linked: that needs clang's libFuzzer) with the tests, so
# that one the library's interface has left behind fails `make test`, not only `make fuzz`.
FUZZ_COMPILED := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tests/fuzz/fuzz_*.c))
TESTED := $(BIN) $(INJECT) $(UNIT_BIN) $(NVTX_CHECK) $(FUZZ_COMPILED) $(if $(filter 1,$(TEST_APPS)),apps)
NO_APPS_NOTE = $(if $(filter 1,$(TEST_APPS)),,echo "make $@: the GPU tests' programs are not \
	    built ($(NO_APPS_WHY)); make apps, or TEST_APPS=1, builds them")
# GPU_JOBS=N runs N GPU test programs side by side, taking turns with the counters
# (tests/run_tests.py --gpu-jobs).
GPU_JOBS ?= 1
test: $(TESTED)
	@$(NO_APPS_NOTE)
	@$(PYTHON) tests/run_tests.py $(BUILD) --gpu-jobs=$(GPU_JOBS)

test-ncu: $(TESTED)
	@$(NO_APPS_NOTE)
	@$(PYTHON) tests/run_tests.py $(BUILD) --tier=ncu

# check-sanitize: the host code (src/ and the unit tests) built again with AddressSanitizer
# and UBSan into $(SAN_BUILD), linked by the C compiler against this build's kernel objects
# (nvcc compiles those as usual), then the unit and command-line tests run on it. Any
# sanitizer report fails it: reports go to $(SAN_BUILD)/logs/, printed at the end. The
# sub-make carries SANITIZE=1 (see LINK above) down to the tests' own `make install`.
SAN_BUILD := $(BUILD)/sanitize
# Read in the sub-make, where BUILD is $(SAN_BUILD):
SAN_LOGS   = $(abspath $(BUILD))/logs
# clang: gcc 12's UBSan ignores log_path when combined with ASan (its reports would only
# fail a test through an exit status); gcc when there is no clang.
SAN_CC    ?= $(if $(shell command -v clang 2>/dev/null),clang,$(CC))
# A build in $(BUILD)/NAME uses this build's staged cJSON.
link_third_party = mkdir -p $(1)/third_party && { [ ! -d $(BUILD)/third_party/cjson ] || \
    ln -sfn ../../third_party/cjson $(1)/third_party/cjson; }
check-sanitize: $(OBJ_CU) $(CJSON_DEP)
	@$(call link_third_party,$(SAN_BUILD))
	@$(MAKE) --no-print-directory SANITIZE=1 CC=$(SAN_CC) BUILD=$(SAN_BUILD) KERNEL_BUILD=$(BUILD) \
	    sanitize-run

sanitize-run: $(BIN) $(UNIT_BIN)
	@[ -n "$(SANITIZE)" ] || { echo "make: sanitize-run is a step of check-sanitize" >&2; exit 2; }
	@rm -rf $(SAN_LOGS) && mkdir -p $(SAN_LOGS)
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:protect_shadow_gap=0:log_path=$(SAN_LOGS)/asan \
	 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:log_path=$(SAN_LOGS)/ubsan \
	 LSAN_OPTIONS=suppressions=$(abspath tests/sanitize/lsan.supp):print_suppressions=0 \
	 $(PYTHON) tests/run_tests.py $(BUILD) --suites=unit,cli; rc=$$?; \
	 if [ -n "$$(ls $(SAN_LOGS))" ]; then cat $(SAN_LOGS)/*; \
	     echo "check-sanitize: sanitizer reports, above and in $(SAN_LOGS)"; exit 1; fi; exit $$rc

# fuzz: libFuzzer harnesses tests/fuzz/fuzz_*.c, built by a SANITIZE=1 sub-make into
# $(FUZZ_BUILD) with clang: src/ instrumented (fuzzer-no-link, ASan, UBSan), this build's
# kernel objects linked as they are. fuzz-run runs each harness for FUZZ_SECONDS
# (tests/fuzz/run.sh): first the saved inputs in tests/fuzz/regressions/HARNESS/, then
# fuzzing from the seed corpus (the fixtures, the command lines of the tests, and
# tests/fuzz/corpus/HARNESS/) with $(FUZZ_BUILD)/HARNESS.dict where there is one; a crash,
# leak or sanitizer report fails it, its input kept in $(FUZZ_BUILD)/artifacts/.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_BUILD   := $(BUILD)/fuzz
FUZZ_FLAGS   := -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
                -fno-sanitize-recover=undefined
FUZZ_HARNESS := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
fuzz: $(OBJ_CU) $(CJSON_DEP)
	@$(call link_third_party,$(FUZZ_BUILD))
	@$(MAKE) --no-print-directory SANITIZE=1 CC=$(FUZZ_CC) 'SAN_FLAGS=$(FUZZ_FLAGS)' \
	    BUILD=$(FUZZ_BUILD) KERNEL_BUILD=$(BUILD) fuzzers

# In the sub-make: link each harness with libFuzzer's main.
fuzzers: $(FUZZ_HARNESS:%=$(BUILD)/fuzz_%)
.SECONDARY: $(FUZZ_HARNESS:%=$(BUILD)/tests/fuzz/fuzz_%.o)
$(BUILD)/fuzz_%: $(BUILD)/tests/fuzz/fuzz_%.o $(LIB)
	$(call say,LD)$(CC) $(subst fuzzer-no-link,fuzzer,$(SAN_FLAGS)) -o $@ $^ -L$(CUPTI_LIBDIR) \
	    $(LDLIBS) $(LINK_LIBS) $(RPATH)

# Seeds: the recorded reports, and every command line of the unit and command-line tests.
$(FUZZ_BUILD)/seeds/report.stamp: $(wildcard tests/fixtures/*.json tests/fixtures/ranks/*.json)
	@mkdir -p $(@D) $(FUZZ_BUILD)/corpus/report
	cp $^ $(FUZZ_BUILD)/corpus/report/
	@touch $@
# fuzz_records' seeds: each case of tests/fixtures/records/ (real records of the injected
# library, and a few cut or changed by hand), its files joined by NUL bytes, where the harness
# splits its input into record files.
$(FUZZ_BUILD)/seeds/records.stamp: $(wildcard tests/fixtures/records/*/*.jsonl)
	@mkdir -p $(@D) $(FUZZ_BUILD)/corpus/records
	for d in tests/fixtures/records/*/; do \
	    sep=; for f in $$d*.jsonl; do printf "$$sep"; cat "$$f"; sep='\0'; done \
	        > $(FUZZ_BUILD)/corpus/records/$$(basename $$d); done
	@touch $@
$(FUZZ_BUILD)/seeds/cli.stamp: tests/fuzz/cli_seeds.py tests/cli/test_cli.py tests/unit/test_cli.c
	@mkdir -p $(@D) $(FUZZ_BUILD)/corpus/cli
	$(PYTHON) tests/fuzz/cli_seeds.py $(FUZZ_BUILD)/corpus/cli tests/cli/test_cli.py \
	    tests/unit/test_cli.c README.md
	@touch $@

# fuzz_report's dictionary: the report schema's keys and enum values (cJSON's key lookups
# are invisible to the fuzzer's comparison tracing).
$(FUZZ_BUILD)/report.dict: schemas/gpuprof-report-v1.schema.json tests/fuzz/json_dict.py
	@mkdir -p $(@D)
	$(PYTHON) tests/fuzz/json_dict.py $< $@

# fuzz_records' dictionary: the records' types and keys, written by hand.
$(FUZZ_BUILD)/records.dict: tests/fuzz/records.dict
	@mkdir -p $(@D)
	cp $< $@

fuzz-run: fuzz $(FUZZ_HARNESS:%=$(FUZZ_BUILD)/seeds/%.stamp) $(FUZZ_BUILD)/report.dict \
          $(FUZZ_BUILD)/records.dict
	@sh tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_HARNESS)

# bench/replay_cost: CUPTI's cost per profiled launch, on the profiler module itself.
REPLAY_COST := $(BUILD)/bench/replay_cost
$(REPLAY_COST): bench/replay_cost.cu $(LIB)
	@mkdir -p $(@D)
	$(call say,NVCC)$(NVCC) -I$(SHIM) $(CPPFLAGS) $(NVFLAGS) -o $@ $< $(LIB) -L$(CUPTI_LIBDIR) \
	    $(LDLIBS) -lcuda $(call rpath,$(CUPTI_LIBDIR))

# bench/rotation_probe: the profiler's configurations switched between sessions (rotation).
ROTATION_PROBE := $(BUILD)/bench/rotation_probe
$(ROTATION_PROBE): bench/rotation_probe.cu $(LIB)
	@mkdir -p $(@D)
	$(call say,NVCC)$(NVCC) -I$(SHIM) $(CPPFLAGS) $(NVFLAGS) -o $@ $< $(LIB) -L$(CUPTI_LIBDIR) \
	    $(LDLIBS) -lcuda $(call rpath,$(CUPTI_LIBDIR))

# bench/sass_source_probe: what CUPTI's SASS metrics and source correlation give (--source).
SASS_PROBE := $(BUILD)/bench/sass_source_probe
$(SASS_PROBE): bench/sass_source_probe.cu
	@mkdir -p $(@D)
	$(call say,NVCC)$(NVCC) $(NVFLAGS) -Xcompiler=-Wno-missing-field-initializers -o $@ $< \
	    -L$(CUPTI_LIBDIR) -lcupti -lcuda $(call rpath,$(CUPTI_LIBDIR))

bench: $(BIN) $(INJECT) $(APPS) $(REPLAY_COST) $(ROTATION_PROBE) $(SASS_PROBE)
	@sh bench/run-all.sh $(BUILD)

# gpuprof exec finds the library it injects in ../lib/gpuprof beside the binary.
# The schemas go where --help and the man page's FILES say: PREFIX/share/gpuprof/schemas/.
SCHEMA_DIR := $(PREFIX)/share/gpuprof/schemas
install: $(BIN) $(INJECT)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	    $(DESTDIR)$(PREFIX)/lib/gpuprof $(DESTDIR)$(SCHEMA_DIR)
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/gpuprof
	install -m 755 $(INJECT) $(DESTDIR)$(PREFIX)/lib/gpuprof/
	install -m 644 man/gpuprof.1 $(DESTDIR)$(PREFIX)/share/man/man1/gpuprof.1
	install -m 644 schemas/*.schema.json $(DESTDIR)$(SCHEMA_DIR)/
	if [ -n "$(CJSON_DEP)" ]; then \
	    install -m 644 $(CJSON_DEP) $(DESTDIR)$(PREFIX)/lib/gpuprof/; fi

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/gpuprof $(DESTDIR)$(PREFIX)/share/man/man1/gpuprof.1
	rm -rf $(DESTDIR)$(PREFIX)/lib/gpuprof $(DESTDIR)$(PREFIX)/share/gpuprof

clean:
	rm -rf $(BUILD)

-include $(OBJ_C:.o=.d) $(OBJ_CU:.o=.d) $(UNIT_OBJ:.o=.d) $(INJECT_OBJ:.o=.d)
