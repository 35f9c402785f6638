# tests/apps/apps.mk — the small CUDA programs the `gpuprof exec` tests run, built into
# $(BUILD)/tests/apps/. Included by the top Makefile, which defines BUILD, NVCC, CUDA_HOME
# and GENCODE (from CUDA_ARCH); `make apps` builds them all. See tests/apps/README.md.
#
# Every program links cudart statically (nvcc's default); copy_dynamic is copy.cu linked
# against libcudart.so (-cudart shared), with an rpath to the toolkit's library folder.
# nospill is spill.cu without spill's register cap; tma is built for sm_90 only (TMA).

# Including this file must not change the including makefile's default goal.
APPS_SAVED_GOAL := $(.DEFAULT_GOAL)

CUDA_HOME ?= /usr/local/cuda
BUILD     ?= build
NVCC      ?= $(CUDA_HOME)/bin/nvcc

APPS_SRC_DIR := tests/apps
APPS_DIR     := $(BUILD)/tests/apps
APPS_CU      := copy inplace streams graph threads managed exit3 abort reset multigpu many hold varying \
                spill atomics cpasync tma zerocopy copies umfaults activities gemm broadcast \
                graph_nodes graph_host graph_child graph_update graph_lengths graph_samples graph_loop contexts \
                jit_variants nvtx_ranges
APPS         := $(addprefix $(APPS_DIR)/,$(APPS_CU) copy_dynamic nospill nokernel.sh spawn.sh)

APPS_NVFLAGS ?= -O2 -lineinfo
APPS_NVFLAGS += -std=c++17 -Xcompiler=-Wall,-Wextra
# Per-program libraries: $(APPS_LDLIBS_<name>); flags: $(APPS_NVFLAGS_<name>); device code:
# $(APPS_GENCODE_<name>), else the Makefile's $(GENCODE).
APPS_LDLIBS_threads := -lpthread
APPS_LDLIBS_nvtx_ranges := -lpthread -ldl
# The driver API (cuCtxCreate) beside the runtime.
APPS_LDLIBS_contexts := -lcuda
# NVRTC from the toolkit (found again at run time through an rpath to its folder) and the
# driver API's module loading.
APPS_LDLIBS_jit_variants = -lnvrtc -lcuda -Xlinker -rpath,$(APPS_CUDART_LIBDIR)
# cuBLAS from the toolkit, found again at run time through an rpath to its folder.
APPS_LDLIBS_gemm     = -lcublas -Xlinker -rpath,$(APPS_CUDART_LIBDIR)
# A cap that makes spillHeavy spill (sm_90 ptxas: 436 bytes of spill stores at 32 registers;
# 64 registers and no spill without it).
APPS_NVFLAGS_spill  := -maxrregcount=32
APPS_GENCODE_tma    := -gencode=arch=compute_90,code=sm_90
APPS_CUDART_LIBDIR  := $(firstword $(wildcard $(CUDA_HOME)/lib64 \
                                              $(CUDA_HOME)/targets/x86_64-linux/lib) \
                                   $(CUDA_HOME)/lib64)

.PHONY: apps
apps: $(APPS)

$(APPS_DIR)/%: $(APPS_SRC_DIR)/%.cu
	@mkdir -p $(@D)
	$(call say,NVCC)$(NVCC) $(or $(APPS_GENCODE_$*),$(GENCODE)) $(APPS_NVFLAGS) $(APPS_NVFLAGS_$*) \
	    -o $@ $< $(APPS_LDLIBS_$*)

# Every program includes check.h; the graph programs (graph, graph_*) graph_apps.h too.
$(addprefix $(APPS_DIR)/,$(APPS_CU) copy_dynamic nospill): $(APPS_SRC_DIR)/check.h
$(addprefix $(APPS_DIR)/,$(filter graph%,$(APPS_CU))): $(APPS_SRC_DIR)/graph_apps.h

$(APPS_DIR)/nospill: $(APPS_SRC_DIR)/spill.cu
	@mkdir -p $(@D)
	$(call say,NVCC)$(NVCC) $(GENCODE) $(APPS_NVFLAGS) -o $@ $<

$(APPS_DIR)/copy_dynamic: $(APPS_SRC_DIR)/copy.cu
	@mkdir -p $(@D)
	$(call say,NVCC)$(NVCC) $(GENCODE) $(APPS_NVFLAGS) -cudart shared -o $@ $< \
	    -Xlinker -rpath,$(APPS_CUDART_LIBDIR)

$(APPS_DIR)/%.sh: $(APPS_SRC_DIR)/%.sh
	@mkdir -p $(@D)
	$(call say,CP)cp $< $@
	$(Q)chmod 755 $@

.DEFAULT_GOAL := $(APPS_SAVED_GOAL)
