# gpuprof — one GNU Makefile, out-of-tree build in $(BUILD)/.
#   make              build $(BUILD)/gpuprof (device code for sm_75 … sm_90 + PTX)
#   make run          build, then run `gpuprof reduce` on GPU 0
#   make test         unit, command-line and GPU tests (GPU tests skip without a GPU)
#   make bench        benchmarks (needs a GPU)
#   make install      PREFIX=/usr/local DESTDIR=
#   make CUDA_ARCH=90 device code for one architecture only (fast local builds)

CUDA_HOME ?= /usr/local/cuda
BUILD     ?= build
PREFIX    ?= /usr/local
DESTDIR   ?=
VERSION   := 0.1.0

CC   ?= cc
NVCC ?= $(CUDA_HOME)/bin/nvcc

# Device code: SASS for each listed architecture plus PTX of the newest for later GPUs.
CUDA_ARCH ?= 75 80 86 89 90
PTX_ARCH  := $(lastword $(CUDA_ARCH))
GENCODE   := $(foreach a,$(CUDA_ARCH),-gencode=arch=compute_$(a),code=sm_$(a)) \
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

CPPFLAGS := -Iinclude -I$(CUPTI_INCDIR) -I$(CUDA_HOME)/include -DGPUPROF_VERSION='"$(VERSION)"'
CFLAGS   ?= -O2 -g
CFLAGS   += -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -MMD -MP
NVFLAGS  ?= -O3 -lineinfo
NVFLAGS  += -std=c++17 $(GENCODE) -Xcompiler=-Wall,-Wextra -MMD -MP
LDLIBS   := -lcupti $(CJSON_LIBS) -lm -lpthread
RPATH    := -Xlinker -rpath,'$$ORIGIN/third_party/cjson/lib' \
            -Xlinker -rpath,'$$ORIGIN/../lib/gpuprof' \
            -Xlinker -rpath,$(CUPTI_LIBDIR)

SRC_C    := $(wildcard src/*.c)
# The library `gpuprof exec` injects into programs: its own sources and the profiler layer
# it shares with gpuprof, compiled position-independent, exporting InitializeInjection alone.
INJECT_SRC := $(wildcard src/inject/*.c) src/profiler.c src/collector.c src/metrics.c \
              src/status.c src/demangle.c
INJECT_OBJ := $(INJECT_SRC:%.c=$(BUILD)/pic/%.o)
INJECT     := $(BUILD)/libgpuprof-inject.so
SRC_CU   := $(wildcard kernels/*.cu)
OBJ_C    := $(SRC_C:%.c=$(BUILD)/%.o)
OBJ_CU   := $(SRC_CU:%.cu=$(BUILD)/%.o)
# Everything but main.o goes into a static library the unit tests link against.
LIB      := $(BUILD)/libgpuprof.a
BIN      := $(BUILD)/gpuprof
UNIT_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tests/unit/*.c))
UNIT_BIN := $(BUILD)/tests/unit_tests

.PHONY: all run test bench install uninstall clean
all: $(BIN) $(INJECT)

$(BIN): $(BUILD)/src/main.o $(LIB)
	$(NVCC) $(GENCODE) -o $@ $^ -L$(CUPTI_LIBDIR) $(LDLIBS) $(RPATH)

$(LIB): $(filter-out $(BUILD)/src/main.o,$(OBJ_C)) $(OBJ_CU)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/src/%.o: src/%.c $(SHIM)/string $(CJSON_DEP)
	@mkdir -p $(@D)
	$(CC) -I$(SHIM) $(CPPFLAGS) $(CJSON_CFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/pic/%.o: %.c $(SHIM)/string
	@mkdir -p $(@D)
	$(CC) -I$(SHIM) $(CPPFLAGS) $(CFLAGS) -fPIC -fvisibility=hidden -c -o $@ $<

# libcuda from the toolkit's stubs: the real one is already in every process that loads it.
$(INJECT): $(INJECT_OBJ)
	$(CC) -shared -o $@ $^ -Wl,-z,defs -L$(CUPTI_LIBDIR) -L$(CUDA_HOME)/lib64/stubs \
	    -lcupti -lcuda -ldl -lpthread -lm -Wl,-rpath,$(CUPTI_LIBDIR)

$(BUILD)/kernels/%.o: kernels/%.cu
	@mkdir -p $(@D)
	$(NVCC) $(CPPFLAGS) $(NVFLAGS) -c -o $@ $<

$(SHIM)/string:
	@mkdir -p $(@D)
	: > $@

$(CJSON_STAGE)/lib/libcjson.so.1:
	sh third_party/stage-cjson.sh $(CJSON_STAGE)

$(BUILD)/tests/unit/%.o: tests/unit/%.c $(SHIM)/string $(CJSON_DEP)
	@mkdir -p $(@D)
	$(CC) -I$(SHIM) $(CPPFLAGS) $(CJSON_CFLAGS) $(CFLAGS) -c -o $@ $<

# The unit tests live in $(BUILD)/tests/: one folder deeper than the binary.
$(UNIT_BIN): $(UNIT_OBJ) $(LIB)
	$(NVCC) $(GENCODE) -o $@ $^ -L$(CUPTI_LIBDIR) $(LDLIBS) \
	    -Xlinker -rpath,'$$ORIGIN/../third_party/cjson/lib' -Xlinker -rpath,$(CUPTI_LIBDIR)

# The CUDA programs the exec tests run (tests/apps/README.md).
include tests/apps/apps.mk

run: $(BIN)
	$(BIN) reduce

test: $(BIN) $(INJECT) $(UNIT_BIN) $(APPS)
	@python3 tests/run_tests.py $(BUILD)

bench: $(BIN)
	@sh bench/run-all.sh $(BUILD)

install: $(BIN)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/gpuprof
	install -m 644 man/gpuprof.1 $(DESTDIR)$(PREFIX)/share/man/man1/gpuprof.1
	if [ -n "$(CJSON_DEP)" ]; then \
	    install -d $(DESTDIR)$(PREFIX)/lib/gpuprof && \
	    install -m 644 $(CJSON_DEP) $(DESTDIR)$(PREFIX)/lib/gpuprof/; fi

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/gpuprof $(DESTDIR)$(PREFIX)/share/man/man1/gpuprof.1
	rm -rf $(DESTDIR)$(PREFIX)/lib/gpuprof

clean:
	rm -rf $(BUILD)

-include $(OBJ_C:.o=.d) $(OBJ_CU:.o=.d) $(UNIT_OBJ:.o=.d) $(INJECT_OBJ:.o=.d)
